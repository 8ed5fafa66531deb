#include "io/cbor_pieces.h"

#include "io/crc32.h"

#include <nlohmann/json.hpp>

#include <cstring>

namespace memscope {

void CborPieces::clear() {
    m_own.clear();
    m_pieces.clear();
    m_size = 0;
}

// RFC 8949 3.1: the major type in the top three bits, the argument in the shortest form.
void CborPieces::head(uint8_t major, uint64_t value) {
    uint8_t out[9];
    size_t n = 0;
    const auto type = static_cast<uint8_t>(major << 5);
    if (value < 24) {
        out[n++] = static_cast<uint8_t>(type | value);
    } else {
        int bytes = 8;
        uint8_t extra = 27;
        if (value <= 0xFF) {
            bytes = 1, extra = 24;
        } else if (value <= 0xFFFF) {
            bytes = 2, extra = 25;
        } else if (value <= 0xFFFFFFFFull) {
            bytes = 4, extra = 26;
        }
        out[n++] = static_cast<uint8_t>(type | extra);
        for (int i = bytes - 1; i >= 0; --i) {  // big-endian
            out[n++] = static_cast<uint8_t>(value >> (8 * i));
        }
    }
    own(out, n);
}

void CborPieces::own(const uint8_t* data, size_t bytes) {
    if (bytes == 0) {
        return;
    }
    if (m_pieces.empty() || m_pieces.back().borrowed != nullptr) {
        m_pieces.push_back(Piece{nullptr, m_own.size(), 0});
    }
    m_own.insert(m_own.end(), data, data + bytes);
    m_pieces.back().length += bytes;
    m_size += bytes;
}

void CborPieces::text(std::string_view s) {
    head(3, s.size());
    own(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

void CborPieces::borrowedBytes(const void* data, size_t bytes) {
    head(2, bytes);
    if (bytes > 0) {
        m_pieces.push_back(Piece{static_cast<const uint8_t*>(data), 0, bytes});
        m_size += bytes;
    }
}

void CborPieces::ownedBytes(const void* data, size_t bytes) {
    head(2, bytes);
    own(static_cast<const uint8_t*>(data), bytes);
}

void CborPieces::value(const nlohmann::json& v) {
    const std::vector<uint8_t> encoded = nlohmann::json::to_cbor(v);
    own(encoded.data(), encoded.size());
}

const uint8_t* CborPieces::pieceData(const Piece& piece) const {
    return piece.borrowed != nullptr ? piece.borrowed : m_own.data() + piece.offset;
}

uint32_t CborPieces::checksum(uint32_t (*crc_function)(uint32_t, const void*, size_t),
                              uint32_t crc) const {
    for (const Piece& piece : m_pieces) {
        crc = crc_function(crc, pieceData(piece), piece.length);
    }
    return crc;
}

std::vector<iovec> CborPieces::iovecs(const void* prefix, size_t prefix_bytes) const {
    std::vector<iovec> out;
    out.reserve(m_pieces.size() + 1);
    if (prefix_bytes > 0) {
        out.push_back(iovec{const_cast<void*>(prefix), prefix_bytes});
    }
    for (const Piece& piece : m_pieces) {
        out.push_back(iovec{const_cast<uint8_t*>(pieceData(piece)), piece.length});
    }
    return out;
}

std::vector<uint8_t> CborPieces::bytes() const {
    std::vector<uint8_t> out;
    out.reserve(m_size);
    for (const Piece& piece : m_pieces) {
        const uint8_t* data = pieceData(piece);
        out.insert(out.end(), data, data + piece.length);
    }
    return out;
}

}  // namespace memscope
