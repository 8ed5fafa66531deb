#pragma once

// The seeded mutation engine the fuzzers share (fuzz_pickle_reader, fuzz_run_file,
// fuzz_yaml_readers, fuzz_chrome_trace_names, fuzz_cli_options): plain CTest programs, no
// libFuzzer. A fixed seed makes every run the same sequence of inputs, so a failure names the
// iteration and the seed that reproduce it.
//
// Each fuzzer's main is MEMSCOPE_FUZZ_MAIN, which takes these options before Qt Test sees the
// rest of the command line (test function names, -o, -v2, ...):
//
//   --iterations N   executions per fuzzed reader (each has its own default, a few seconds)
//   --seed S         another sequence
//   --progress SEC   a line on stderr every SEC seconds: executions so far, their rate
//   --verbose        histograms of what refused the inputs
//
// or, where a command line cannot be changed (CTest), the environment: MEMSCOPE_FUZZ_ITERATIONS,
// MEMSCOPE_FUZZ_SEED, MEMSCOPE_FUZZ_PROGRESS, MEMSCOPE_FUZZ_VERBOSE=1. The options win.

#include <time.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace memscope::fuzz {

using Bytes = std::vector<uint8_t>;

// What the command line gave (takeArguments); unset fields fall back to the environment.
struct Overrides {
    int64_t iterations = -1;
    bool hasSeed = false;
    uint64_t seed = 0;
    double progressSeconds = -1;
    bool verbose = false;
};

inline Overrides& overrides() {
    static Overrides o;
    return o;
}

// A whole decimal number in [min, max]: true and `out` set, or false.
inline bool parseInteger(const char* text, uint64_t min, uint64_t max, uint64_t& out) {
    if (text == nullptr || *text < '0' || *text > '9') {
        return false;
    }
    errno = 0;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0' || v < min || v > max) {
        return false;
    }
    out = v;
    return true;
}

// Takes --iterations, --seed, --progress and --verbose (also as --name=value) out of argv,
// leaving the rest for Qt Test. A bad value ends the program: exit status 2, one line.
inline void takeArguments(int& argc, char** argv) {
    const char* program = argc > 0 ? argv[0] : "fuzzer";
    auto fail = [program](const std::string& option, const char* value, const char* expected) {
        std::fprintf(stderr, "%s: error: %s: expected %s, got '%s'\n", program, option.c_str(),
                     expected, value ? value : "(nothing)");
        std::exit(2);
    };
    int kept = argc > 0 ? 1 : 0;
    for (int i = kept; i < argc; ++i) {
        std::string name = argv[i];
        const char* value = nullptr;
        const size_t eq = name.find('=');
        if (name.rfind("--", 0) == 0 && eq != std::string::npos) {
            value = argv[i] + eq + 1;
            name.resize(eq);
        }
        const bool takesValue = name == "--iterations" || name == "--seed" || name == "--progress";
        if (name == "--verbose" && value == nullptr) {
            overrides().verbose = true;
            continue;
        }
        if (!takesValue) {
            argv[kept++] = argv[i];
            continue;
        }
        if (value == nullptr) {
            value = i + 1 < argc ? argv[++i] : nullptr;
        }
        uint64_t v = 0;
        if (name == "--iterations") {
            if (!parseInteger(value, 1, uint64_t(INT64_MAX), v)) {
                fail(name, value, "a whole number of executions, at least 1");
            }
            overrides().iterations = int64_t(v);
        } else if (name == "--seed") {
            if (!parseInteger(value, 0, UINT64_MAX, v)) {
                fail(name, value, "a whole number from 0 to 2^64-1");
            }
            overrides().hasSeed = true;
            overrides().seed = v;
        } else {
            if (!parseInteger(value, 1, 86400, v)) {
                fail(name, value, "seconds between progress lines, 1 to 86400");
            }
            overrides().progressSeconds = double(v);
        }
    }
    argc = kept;
    argv[kept] = nullptr;  // argv[argc] is always there
}

struct Settings {
    int64_t iterations = 0;
    uint64_t seed = 0;
    bool verbose = false;
    double progressSeconds = 0;  // 0: no progress lines

    // The command line's options, else the environment's, else the fuzzer's defaults.
    static Settings get(int64_t default_iterations, uint64_t default_seed) {
        Settings s;
        const Overrides& o = overrides();
        const char* n = std::getenv("MEMSCOPE_FUZZ_ITERATIONS");
        const char* seed = std::getenv("MEMSCOPE_FUZZ_SEED");
        const char* progress = std::getenv("MEMSCOPE_FUZZ_PROGRESS");
        s.iterations = o.iterations >= 0 ? o.iterations : n ? std::atoll(n) : default_iterations;
        s.seed = o.hasSeed ? o.seed : seed ? std::strtoull(seed, nullptr, 10) : default_seed;
        s.verbose = o.verbose || std::getenv("MEMSCOPE_FUZZ_VERBOSE") != nullptr;
        s.progressSeconds = o.progressSeconds >= 0 ? o.progressSeconds
                            : progress             ? std::atof(progress)
                                                   : 0;
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

// Wall time since construction, and the CPU time the process spent in it (all threads). The
// hang bound is on CPU time: a fuzzer run at nice 19 beside compilers can wait seconds for a
// core without doing anything wrong.
class Stopwatch {
  public:
    double ms() const {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - m_start)
            .count();
    }
    double seconds() const { return ms() / 1000.0; }
    double cpuMs() const { return processCpuMs() - m_cpuStart; }

    static double processCpuMs() {
        timespec t{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
    }

  private:
    std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
    double m_cpuStart = processCpuMs();
};

// Progress lines for long campaigns (--progress SEC): executions so far, wall and CPU seconds,
// executions per wall second. Checks the clock every 256 executions.
class Progress {
  public:
    Progress(const char* what, const Settings& settings)
        : m_what(what), m_every(settings.progressSeconds), m_total(settings.iterations) {}

    void tick(int64_t done) {
        if (m_every <= 0 || (done & 255) != 0) {
            return;
        }
        const double s = m_watch.seconds();
        if (s - m_last < m_every) {
            return;
        }
        m_last = s;
        std::fprintf(stderr, "%s: %lld / %lld executions, %.0f s (%.0f s CPU), %.0f per s\n",
                     m_what, static_cast<long long>(done), static_cast<long long>(m_total), s,
                     m_watch.cpuMs() / 1000.0, double(done) / s);
    }

  private:
    const char* m_what;
    double m_every;
    int64_t m_total;
    Stopwatch m_watch;
    double m_last = 0;
};

// No input may take longer than this much CPU time (a hang, not a speed figure: sanitizer
// builds are 10x slower than a quiet Release build, and the bound still catches loops).
constexpr double kSlowestInputMs = 5000.0;

// What is wrong with the cost of one input of `input_bytes`: more than kSlowestInputMs of CPU
// time, or a heap peak beyond what the file could justify (a length or count believed without
// checking allocates megabytes to gigabytes); "" when neither.
inline std::string costProblem(double cpu_ms, int64_t heap_peak, size_t input_bytes) {
    if (cpu_ms > kSlowestInputMs) {
        return "took " + std::to_string(cpu_ms) + " ms";
    }
    if (heap_peak > int64_t(input_bytes) * 512 + (4 << 20)) {
        return "used " + std::to_string(heap_peak) + " heap bytes for " +
               std::to_string(input_bytes) + " file bytes";
    }
    return {};
}

// The first `length` characters of a reader's message with its digits as '#': one histogram
// entry for the messages that differ only in offsets and counts (--verbose).
inline std::string reasonKey(const std::string& reason, size_t length) {
    std::string key = reason.substr(0, length);
    for (char& c : key) {
        c = (c >= '0' && c <= '9') ? '#' : c;
    }
    return key;
}

// What is wrong with an error a file reader threw for PATH (whose what() is "PATH: reason"):
// it does not name the file, or says too little; "" when neither.
inline std::string fileErrorProblem(const std::string& path, const std::string& error_path,
                                    const std::string& what, const std::string& reason) {
    if (error_path != path || what.rfind(path + ": ", 0) != 0) {
        return "the error does not name the file: " + what;
    }
    if (reason.size() < 5) {
        return "the error says too little: " + what;
    }
    return {};
}

}  // namespace memscope::fuzz

// main() for a fuzzer: QTEST_GUILESS_MAIN with the options above taken out of argv first.
#define MEMSCOPE_FUZZ_MAIN(TestObject)             \
    int main(int argc, char** argv) {              \
        memscope::fuzz::takeArguments(argc, argv); \
        QCoreApplication app(argc, argv);          \
        TestObject tc;                             \
        QTEST_SET_MAIN_SOURCE_PATH                 \
        return QTest::qExec(&tc, argc, argv);      \
    }
