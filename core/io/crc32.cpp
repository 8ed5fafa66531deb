#include "io/crc32.h"

#include <array>

namespace memscope {

namespace {

using Tables = std::array<std::array<uint32_t, 256>, 8>;

// tables[0] is the byte-wise table; tables[k][b] is the CRC of byte b followed by k zero bytes.
Tables makeTables() {
    Tables t{};
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t c = i;
        for (int k = 0; k < 8; ++k) {
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        }
        t[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; ++i) {
        for (size_t k = 1; k < t.size(); ++k) {
            t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xFF];
        }
    }
    return t;
}

uint32_t loadLittleEndian32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

}  // namespace

uint32_t crc32(uint32_t crc, const void* data, size_t bytes) {
    static const Tables t = makeTables();
    uint32_t c = ~crc;
    const auto* p = static_cast<const uint8_t*>(data);
    for (; bytes >= 8; p += 8, bytes -= 8) {
        const uint32_t low = loadLittleEndian32(p) ^ c;
        const uint32_t high = loadLittleEndian32(p + 4);
        c = t[7][low & 0xFF] ^ t[6][(low >> 8) & 0xFF] ^ t[5][(low >> 16) & 0xFF] ^
            t[4][low >> 24] ^ t[3][high & 0xFF] ^ t[2][(high >> 8) & 0xFF] ^
            t[1][(high >> 16) & 0xFF] ^ t[0][high >> 24];
    }
    for (; bytes > 0; ++p, --bytes) {
        c = t[0][(c ^ *p) & 0xFF] ^ (c >> 8);
    }
    return ~c;
}

}  // namespace memscope
