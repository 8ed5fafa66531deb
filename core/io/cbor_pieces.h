#pragma once

// A CBOR item written as pieces: the bytes this class encodes itself (heads, keys, small values)
// and byte strings borrowed from the caller's memory (event columns, stack nodes), which are
// never copied here. The journal (io/run_journal.h) encodes a chunk this way and hands the
// pieces to one writev: a chunk of a million events then costs one pass over its bytes (the
// CRC) instead of three copies and a CBOR encoder's walk. The bytes are exactly what
// nlohmann::json::to_cbor gives for the same value (shortest heads, definite lengths), so
// json::from_cbor reads them back.
//
// Borrowed ranges must stay valid and unchanged until the pieces are written.

#include <nlohmann/json_fwd.hpp>

#include <sys/uio.h>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace memscope {

class CborPieces {
  public:
    // Starts again, keeping the memory of the last item.
    void clear();

    // A map or array of `count` entries (a map's entries are key, value pairs that follow).
    void mapHead(uint64_t count) { head(5, count); }
    void arrayHead(uint64_t count) { head(4, count); }
    // Text (a map key, usually).
    void text(std::string_view s);
    // A non-negative integer.
    void unsignedInt(uint64_t value) { head(0, value); }
    // A byte string of the caller's memory, borrowed until the pieces are written.
    void borrowedBytes(const void* data, size_t bytes);
    // A byte string copied in (the caller's memory may go at once).
    void ownedBytes(const void* data, size_t bytes);
    // Any other value, encoded by nlohmann::json (small values: metadata, frames, steps).
    void value(const nlohmann::json& v);

    // Total length of the item in bytes.
    size_t size() const { return m_size; }
    // A checksum of the item, piece by piece, continuing `crc`: `crc_function` is memscope::crc32
    // or memscope::crc32c (io/crc32.h).
    uint32_t checksum(uint32_t (*crc_function)(uint32_t, const void*, size_t),
                      uint32_t crc = 0) const;
    // The item as iovecs, in order, after `prefix` (say a chunk header), valid until the next
    // change of this object.
    std::vector<iovec> iovecs(const void* prefix = nullptr, size_t prefix_bytes = 0) const;
    // The item as one contiguous buffer (tests, small items).
    std::vector<uint8_t> bytes() const;

  private:
    struct Piece {
        const uint8_t* borrowed = nullptr;  // null: m_own[offset, offset + length)
        size_t offset = 0;
        size_t length = 0;
    };
    void head(uint8_t major, uint64_t value);
    void own(const uint8_t* data, size_t bytes);
    const uint8_t* pieceData(const Piece& piece) const;

    std::vector<uint8_t> m_own;
    std::vector<Piece> m_pieces;
    size_t m_size = 0;
};

}  // namespace memscope
