#pragma once

// The encodings of a column of integers that the run file (io/run_file.h, format version 2) and
// the recording journal (io/run_journal.h, version 3) store: values as they lie in memory (raw),
// differences from the value before (delta), LEB128 varints of the zigzag-mapped value (varint),
// or of the zigzag-mapped difference (delta_varint). Differences are taken modulo 2^64 after the
// value is widened (sign-extended for signed types), so every value of every type round-trips,
// unsigned 64-bit addresses included. Times, addresses and running totals change little from
// one entry to the next: as delta varints they take 1-3 bytes instead of 8.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace memscope {

enum class ColumnEncoding { Raw, Delta, Varint, DeltaVarint };

// "raw", "delta", "varint", "delta_varint": the names files store.
const char* columnEncodingName(ColumnEncoding e);
// The encoding called `name`; false (and `out` unchanged) for a name that is none of them.
bool columnEncodingFromName(const std::string& name, ColumnEncoding& out);

// The most bytes n values of `value_bytes` bytes each take in encoding `e`.
constexpr size_t maxEncodedBytes(size_t n, size_t value_bytes, ColumnEncoding e) {
    return e == ColumnEncoding::Varint || e == ColumnEncoding::DeltaVarint ? n * 10
                                                                           : n * value_bytes;
}

namespace codec_detail {

inline uint64_t zigzag(int64_t v) {
    // The sign as a mask without shifting a signed value (implementation-defined before C++20).
    const uint64_t u = uint64_t(v);
    return (u << 1) ^ (uint64_t(0) - (u >> 63));
}

inline int64_t unzigzag(uint64_t v) {
    return int64_t(v >> 1) ^ -int64_t(v & 1);
}

// The value sign-extended (signed types) or zero-extended to 64 bits.
template <typename T>
inline int64_t widen(T v) {
    if constexpr (std::is_signed_v<T>) {
        return int64_t(v);
    } else {
        return int64_t(uint64_t(v));
    }
}

}  // namespace codec_detail

// Encodes the n values get(0) .. get(n - 1), each a T, into `out`, which has room for
// maxEncodedBytes(n, sizeof(T), e) bytes; returns the bytes written. `get` lets a column be
// encoded straight from an array of structs.
template <typename T, typename Get>
size_t encodeColumn(size_t n, ColumnEncoding e, uint8_t* out, Get get) {
    using U = std::make_unsigned_t<T>;
    uint8_t* p = out;
    switch (e) {
        case ColumnEncoding::Raw:
            for (size_t i = 0; i < n; ++i, p += sizeof(T)) {
                const T v = get(i);
                std::memcpy(p, &v, sizeof(T));
            }
            break;
        case ColumnEncoding::Delta: {
            U prev = 0;
            for (size_t i = 0; i < n; ++i, p += sizeof(T)) {
                const U v = U(get(i));
                const U d = U(v - prev);
                std::memcpy(p, &d, sizeof(T));
                prev = v;
            }
            break;
        }
        case ColumnEncoding::Varint:
        case ColumnEncoding::DeltaVarint: {
            const bool delta = e == ColumnEncoding::DeltaVarint;
            int64_t prev = 0;
            for (size_t i = 0; i < n; ++i) {
                const int64_t w = codec_detail::widen(T(get(i)));
                uint64_t z =
                    codec_detail::zigzag(delta ? int64_t(uint64_t(w) - uint64_t(prev)) : w);
                prev = w;
                while (z >= 0x80) {
                    *p++ = uint8_t(z | 0x80);
                    z >>= 7;
                }
                *p++ = uint8_t(z);
            }
            break;
        }
    }
    return size_t(p - out);
}

// Encodes v[0, n) into `out` (replacing what it held).
template <typename T>
void encodeColumn(const T* v, size_t n, ColumnEncoding e, std::vector<uint8_t>& out) {
    out.resize(maxEncodedBytes(n, sizeof(T), e));
    out.resize(encodeColumn<T>(n, e, out.data(), [v](size_t i) { return v[i]; }));
}

// Decodes exactly n values from [in, in + bytes) into v[0, n); false when the bytes do not hold
// exactly that (too few, too many, or a varint longer than 64 bits). What the writer wrote
// decodes exactly; damaged bytes that still decode are for the caller's checks to catch.
template <typename T>
bool decodeColumn(const uint8_t* in, size_t bytes, ColumnEncoding e, T* v, size_t n) {
    using U = std::make_unsigned_t<T>;
    switch (e) {
        case ColumnEncoding::Raw:
            if (bytes != n * sizeof(T)) {
                return false;
            }
            if (n != 0) {
                std::memcpy(v, in, bytes);
            }
            return true;
        case ColumnEncoding::Delta: {
            if (bytes != n * sizeof(T)) {
                return false;
            }
            U acc = 0;
            for (size_t i = 0; i < n; ++i) {
                U d;
                std::memcpy(&d, in + i * sizeof(T), sizeof(T));
                acc = U(acc + d);
                v[i] = T(acc);
            }
            return true;
        }
        case ColumnEncoding::Varint:
        case ColumnEncoding::DeltaVarint: {
            const uint8_t* p = in;
            const uint8_t* const end = in + bytes;
            const bool delta = e == ColumnEncoding::DeltaVarint;
            uint64_t acc = 0;
            for (size_t i = 0; i < n; ++i) {
                uint64_t z = 0;
                int shift = 0;
                for (;;) {
                    if (p == end || shift > 63) {
                        return false;
                    }
                    const uint8_t b = *p++;
                    z |= uint64_t(b & 0x7f) << shift;
                    if (b < 0x80) {
                        break;
                    }
                    shift += 7;
                }
                const int64_t x = codec_detail::unzigzag(z);
                acc = delta ? acc + uint64_t(x) : uint64_t(x);
                v[i] = T(U(acc));
            }
            return p == end;
        }
    }
    return false;
}

}  // namespace memscope
