#pragma once

// The seeded mutation engine the fuzzers share (fuzz_pickle_reader, fuzz_run_file,
// fuzz_yaml_readers, fuzz_chrome_trace_names, fuzz_cli_options): plain CTest programs, no
// libFuzzer. A fixed seed makes every run the same sequence of inputs, so a failure names the
// iteration and the seed that reproduce it.
//
//   MEMSCOPE_FUZZ_ITERATIONS=N   executions per fuzzer (each has its own default, a few seconds)
//   MEMSCOPE_FUZZ_SEED=S         another sequence
//   MEMSCOPE_FUZZ_VERBOSE=1      histograms of what refused the inputs

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace memscope::fuzz {

using Bytes = std::vector<uint8_t>;

struct Settings {
    int64_t iterations = 0;
    uint64_t seed = 0;
    bool verbose = false;

    static Settings fromEnvironment(int64_t default_iterations, uint64_t default_seed) {
        Settings s;
        const char* n = std::getenv("MEMSCOPE_FUZZ_ITERATIONS");
        const char* seed = std::getenv("MEMSCOPE_FUZZ_SEED");
        s.iterations = n ? std::atoll(n) : default_iterations;
        s.seed = seed ? std::strtoull(seed, nullptr, 10) : default_seed;
        s.verbose = std::getenv("MEMSCOPE_FUZZ_VERBOSE") != nullptr;
        return s;
    }
};

// Byte-level mutations of a seed input: bit flips, byte replacements, truncations, insertions,
// deletions, copied chunks, corrupted length fields (offsets the seed's writer reported) and,
// for text formats, tokens from a dictionary inserted or written over the input.
class Mutator {
  public:
    Mutator(uint64_t seed, std::vector<uint8_t> interesting,
            std::vector<std::string> dictionary = {})
        : m_rng(seed), m_interesting(std::move(interesting)), m_dictionary(std::move(dictionary)) {}

    std::mt19937_64& rng() { return m_rng; }
    size_t pick(size_t n) { return n ? size_t(m_rng() % n) : 0; }
    bool chance(int percent) { return int(pick(100)) < percent; }
    template <class T>
    const T& pickFrom(const std::vector<T>& v) {
        return v[pick(v.size())];
    }

    uint8_t interestingOrRandom() {
        return pick(2) && !m_interesting.empty() ? m_interesting[pick(m_interesting.size())]
                                                 : uint8_t(m_rng());
    }

    // One round. `original` is the seed the input was made from: length_fields are offsets in
    // it, used while the input still has its size (a proxy for "offsets still match").
    void mutateOnce(Bytes& b, const Bytes& original, const std::vector<size_t>& length_fields) {
        if (b.empty()) {
            b.push_back(interestingOrRandom());
            return;
        }
        switch (pick(m_dictionary.empty() ? 8 : 10)) {
            case 0:  // bit flips
                for (int k = 0, n = 1 + int(pick(4)); k < n; ++k) {
                    b[pick(b.size())] ^= uint8_t(1u << pick(8));
                }
                break;
            case 1:  // byte replacement
                b[pick(b.size())] = interestingOrRandom();
                break;
            case 2:  // truncation
                b.resize(pick(b.size()));
                break;
            case 3: {  // insertion
                const size_t at = pick(b.size() + 1);
                Bytes extra(1 + pick(8));
                for (auto& x : extra) {
                    x = interestingOrRandom();
                }
                b.insert(b.begin() + std::ptrdiff_t(at), extra.begin(), extra.end());
                break;
            }
            case 4: {  // deletion
                const size_t at = pick(b.size());
                const size_t n = std::min(b.size() - at, 1 + pick(16));
                b.erase(b.begin() + std::ptrdiff_t(at), b.begin() + std::ptrdiff_t(at + n));
                break;
            }
            case 5: {  // copy a chunk elsewhere: new structure from old pieces
                const size_t from = pick(b.size());
                const size_t n = std::min(b.size() - from, 1 + pick(64));
                const Bytes chunk(b.begin() + std::ptrdiff_t(from),
                                  b.begin() + std::ptrdiff_t(from + n));
                const size_t at = pick(b.size() + 1);
                b.insert(b.begin() + std::ptrdiff_t(at), chunk.begin(), chunk.end());
                break;
            }
            case 6:
            case 7: {  // corrupt a declared length (only while offsets still match)
                if (b.size() != original.size() || length_fields.empty()) {
                    b[pick(b.size())] = 0xff;
                    break;
                }
                const size_t at = length_fields[pick(length_fields.size())];
                static const uint64_t values[] = {0,      1,          0x7f,       0xff,
                                                  0xffff, 0x7fffffff, 0xffffffff, ~uint64_t(0)};
                uint64_t v = pick(3) ? values[pick(8)] : m_rng();
                if (pick(2)) {
                    v = b.size() - at + pick(4);  // just past the end
                }
                for (size_t k = 0; k < 8 && at + k < b.size(); ++k) {
                    if (k == 0 || pick(4)) {
                        b[at + k] = uint8_t(v >> (8 * k));
                    }
                }
                break;
            }
            case 8: {  // insert a dictionary token
                const std::string& t = pickFrom(m_dictionary);
                b.insert(b.begin() + std::ptrdiff_t(pick(b.size() + 1)), t.begin(), t.end());
                break;
            }
            default: {  // a dictionary token over what was there
                const std::string& t = pickFrom(m_dictionary);
                const size_t at = pick(b.size());
                const size_t n = std::min(b.size() - at, t.size() + pick(4));
                b.erase(b.begin() + std::ptrdiff_t(at), b.begin() + std::ptrdiff_t(at + n));
                b.insert(b.begin() + std::ptrdiff_t(at), t.begin(), t.end());
                break;
            }
        }
    }

    // 1 to max_rounds rounds on a copy of `seed`.
    Bytes mutated(const Bytes& seed, const std::vector<size_t>& length_fields, int max_rounds = 3) {
        Bytes b = seed;
        for (int r = 0, n = 1 + int(pick(size_t(max_rounds))); r < n; ++r) {
            mutateOnce(b, seed, length_fields);
        }
        return b;
    }

  private:
    std::mt19937_64 m_rng;
    std::vector<uint8_t> m_interesting;
    std::vector<std::string> m_dictionary;
};

inline std::string hex(const Bytes& b) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (uint8_t c : b) {
        out += digits[c >> 4];
        out += digits[c & 15];
    }
    return out;
}

// Printable form of a text input for a failure message: C escapes for what is not ASCII.
inline std::string escaped(const std::string& s) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (unsigned char c : s) {
        if (c == '\\') {
            out += "\\\\";
        } else if (c == '\n') {
            out += "\\n";
        } else if (c >= 0x20 && c < 0x7f) {
            out += char(c);
        } else {
            out += "\\x";
            out += digits[c >> 4];
            out += digits[c & 15];
        }
    }
    return out;
}

class Stopwatch {
  public:
    double ms() const {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - m_start)
            .count();
    }
    double seconds() const { return ms() / 1000.0; }

  private:
    std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
};

// No input may take longer than this (a hang, not a speed figure: sanitizer builds on a busy
// 2-core machine are 10x slower than a quiet Release build, and the bound still catches loops).
constexpr double kSlowestInputMs = 5000.0;

}  // namespace memscope::fuzz
