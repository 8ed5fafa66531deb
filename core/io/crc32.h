#pragma once

// CRC-32 (IEEE 802.3, reflected: the one zlib, PNG and gzip use), computed eight bytes at a
// time from eight tables ("slicing-by-8", about 1 cycle a byte instead of the byte-wise
// table's 3-4). The journal checks every chunk with it, on the thread that drains a recording.

#include <cstddef>
#include <cstdint>

namespace memscope {

// The CRC of `bytes` bytes at `data`, continuing `crc` (0 to start): as zlib's crc32, so
// crc32(crc32(0, a), b) is the CRC of a followed by b.
uint32_t crc32(uint32_t crc, const void* data, size_t bytes);

}  // namespace memscope
