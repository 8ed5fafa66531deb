#pragma once

#include <cstdint>

namespace memscope {

// A 64-bit mix (MurmurHash3's finalizer): every input bit moves about half the output bits.
// For hash tables keyed by values whose low bits vary little (pointers, small integers).
inline uint64_t mix64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xFF51AFD7ED558CCDull;
    x ^= x >> 33;
    x *= 0xC4CEB9FE1A85EC53ull;
    x ^= x >> 33;
    return x;
}

}  // namespace memscope
