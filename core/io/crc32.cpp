#include "io/crc32.h"

#include <array>
#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <nmmintrin.h>
#define MEMSCOPE_CRC32C_SSE42 1
#endif

namespace memscope {

namespace {

using Tables = std::array<std::array<uint32_t, 256>, 8>;

// tables[0] is the byte-wise table of the reflected `polynomial`; tables[k][b] is the CRC of
// byte b followed by k zero bytes.
Tables makeTables(uint32_t polynomial) {
    Tables t{};
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t c = i;
        for (int k = 0; k < 8; ++k) {
            c = (c & 1) ? polynomial ^ (c >> 1) : c >> 1;
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

uint32_t slicingBy8(const Tables& t, uint32_t crc, const void* data, size_t bytes) {
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

#ifdef MEMSCOPE_CRC32C_SSE42
__attribute__((target("sse4.2"))) uint32_t crc32cSse42(uint32_t crc, const void* data,
                                                       size_t bytes) {
    uint64_t c = ~crc;
    const auto* p = static_cast<const uint8_t*>(data);
    for (; bytes >= 8; p += 8, bytes -= 8) {
        uint64_t word;
        std::memcpy(&word, p, 8);
        c = _mm_crc32_u64(c, word);
    }
    auto c32 = static_cast<uint32_t>(c);
    for (; bytes > 0; ++p, --bytes) {
        c32 = _mm_crc32_u8(c32, *p);
    }
    return ~c32;
}
#endif

}  // namespace

uint32_t crc32(uint32_t crc, const void* data, size_t bytes) {
    static const Tables t = makeTables(0xEDB88320u);
    return slicingBy8(t, crc, data, bytes);
}

uint32_t crc32cPortable(uint32_t crc, const void* data, size_t bytes) {
    static const Tables t = makeTables(0x82F63B78u);
    return slicingBy8(t, crc, data, bytes);
}

bool crc32cInHardware() {
#ifdef MEMSCOPE_CRC32C_SSE42
    static const bool sse42 = __builtin_cpu_supports("sse4.2");
    return sse42;
#else
    return false;
#endif
}

uint32_t crc32c(uint32_t crc, const void* data, size_t bytes) {
#ifdef MEMSCOPE_CRC32C_SSE42
    if (crc32cInHardware()) {
        return crc32cSse42(crc, data, bytes);
    }
#endif
    return crc32cPortable(crc, data, bytes);
}

}  // namespace memscope
