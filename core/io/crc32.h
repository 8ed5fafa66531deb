#pragma once

// The journal's chunk checksums.
// - CRC-32 (IEEE 802.3, reflected: the one zlib, PNG and gzip use), computed eight bytes at a
//   time from eight tables ("slicing-by-8", about 1 cycle a byte instead of the byte-wise
//   table's 3-4): journal version 1.
// - CRC-32C (Castagnoli, reflected: iSCSI's, ext4's), which x86-64 computes with one SSE4.2
//   instruction per eight bytes, about three times slicing-by-8's speed; slicing-by-8 where the
//   processor lacks SSE4.2: journal version 2, which the thread that drains a recording
//   checksums about 0.6 MB a workshop-default step with.

#include <cstddef>
#include <cstdint>

namespace memscope {

// The CRC of `bytes` bytes at `data`, continuing `crc` (0 to start): as zlib's crc32, so
// crc32(crc32(0, a), b) is the CRC of a followed by b.
uint32_t crc32(uint32_t crc, const void* data, size_t bytes);

// The CRC-32C of `bytes` bytes at `data`, continuing `crc` (0 to start), the same way.
uint32_t crc32c(uint32_t crc, const void* data, size_t bytes);
// crc32c without the SSE4.2 instruction (what crc32c falls back to; tests compare the two).
uint32_t crc32cPortable(uint32_t crc, const void* data, size_t bytes);
// Whether crc32c uses the SSE4.2 instruction on this processor.
bool crc32cInHardware();

}  // namespace memscope
