#include "io/run_file.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <utility>

#ifndef _WIN32
#include <unistd.h>
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the .memscope column layout assumes a little-endian host"
#endif

namespace memscope {

namespace {

using nlohmann::json;

constexpr char kMagic[8] = {'M', 'E', 'M', 'S', 'C', 'O', 'P', 'E'};
// Highest EventKind and FrameKind values; viewers index tables with them.
constexpr uint8_t kMaxEventKind = static_cast<uint8_t>(EventKind::Role);
constexpr int64_t kMaxFrameKind = static_cast<int64_t>(FrameKind::Other);
// A real header nests four levels deep (summary and config a few more). Anything far deeper is
// damage, and nlohmann's CBOR reader recurses per level, so a damaged header could otherwise
// overflow the stack before it is found to be invalid.
constexpr int kMaxHeaderDepth = 64;

// ---- checksum ---------------------------------------------------------------------------------

constexpr uint64_t kP1 = 0x9E3779B185EBCA87ULL;
constexpr uint64_t kP2 = 0xC2B2AE3D27D4EB4FULL;
constexpr uint64_t kP3 = 0x165667B19E3779F9ULL;

inline uint64_t rotl(uint64_t x, int r) {
    return (x << r) | (x >> (64 - r));
}

inline uint64_t load64(const unsigned char* p) {
    uint64_t w;
    std::memcpy(&w, p, 8);  // unaligned-safe; compiles to one load
    return w;
}

// One multiply-rotate-multiply step: every input bit reaches every output bit within a few words,
// and the order of words matters.
inline uint64_t mix(uint64_t acc, uint64_t word) {
    return rotl(acc + word * kP2, 31) * kP1;
}

// ---- small file helpers -----------------------------------------------------------------------

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

bool seekTo(std::FILE* f, uint64_t offset) {
#ifdef _WIN32
    return _fseeki64(f, static_cast<__int64>(offset), SEEK_SET) == 0;
#else
    return fseeko(f, static_cast<off_t>(offset), SEEK_SET) == 0;
#endif
}

int64_t fileSize(std::FILE* f) {
#ifdef _WIN32
    if (_fseeki64(f, 0, SEEK_END) != 0)
        return -1;
    return _ftelli64(f);
#else
    if (fseeko(f, 0, SEEK_END) != 0)
        return -1;
    return static_cast<int64_t>(ftello(f));
#endif
}

std::string errnoText() {
    return std::strerror(errno);
}

void putLe(unsigned char* out, uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i)
        out[i] = static_cast<unsigned char>(value >> (8 * i));
}

uint64_t getLe(const unsigned char* in, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i)
        v |= uint64_t(in[i]) << (8 * i);
    return v;
}

// Visits every event column with its name, in file order. One list for save and load, so the
// two cannot disagree about which columns exist.
template <typename Columns, typename F>
void forEachColumn(Columns& c, F&& f) {
    f("time_ns", c.time_ns);
    f("addr", c.addr);
    f("size", c.size);
    f("allocated", c.allocated);
    f("reserved", c.reserved);
    f("stack", c.stack);
    f("step", c.step);
    f("kind", c.kind);
    f("phase", c.phase);
    f("thread", c.thread);
    f("device", c.device);
}

// The largest element: one tight pass the compiler vectorises; the slow search for the first
// offender runs only when the maximum is out of range.
template <typename T>
T maxOf(const std::vector<T>& v) {
    T m = 0;
    for (const T x : v)
        m = std::max(m, x);
    return m;
}

template <typename T>
size_t firstAtLeast(const std::vector<T>& v, uint64_t limit) {
    for (size_t i = 0; i < v.size(); ++i) {
        if (uint64_t(v[i]) >= limit)
            return i;
    }
    return v.size();
}

// "" when every value a viewer indexes with is in range.
std::string checkEventValues(const EventColumns& events, size_t node_count) {
    if (!events.stack.empty() && maxOf(events.stack) >= node_count) {
        const size_t i = firstAtLeast(events.stack, node_count);
        return "event " + std::to_string(i) + " has stack id " + std::to_string(events.stack[i]) +
               ", the stack table has " + std::to_string(node_count) + " nodes";
    }
    if (!events.kind.empty() && maxOf(events.kind) > kMaxEventKind) {
        const size_t i = firstAtLeast(events.kind, kMaxEventKind + 1);
        return "event " + std::to_string(i) + " has kind " + std::to_string(events.kind[i]) +
               " (at most " + std::to_string(kMaxEventKind) + ")";
    }
    if (!events.phase.empty() && maxOf(events.phase) >= kPhaseCount) {
        const size_t i = firstAtLeast(events.phase, kPhaseCount);
        return "event " + std::to_string(i) + " has phase " + std::to_string(events.phase[i]) +
               " (at most " + std::to_string(kPhaseCount - 1) + ")";
    }
    return {};
}

// ---- header pieces ----------------------------------------------------------------------------

template <typename T>
json::binary_t toBytes(const std::vector<T>& v) {
    std::vector<uint8_t> bytes(v.size() * sizeof(T));
    if (!bytes.empty())
        std::memcpy(bytes.data(), v.data(), bytes.size());
    return json::binary_t(std::move(bytes));
}

// A little-endian array stored as CBOR bytes. Throws a string saying what is wrong.
template <typename T>
std::vector<T> arrayFromBytes(const json& j, const char* name) {
    if (!j.is_binary())
        throw std::string("'") + name + "' is not bytes";
    const auto& bytes = j.get_binary();
    if (bytes.size() % sizeof(T) != 0) {
        throw std::string("'") + name + "' holds " + std::to_string(bytes.size()) +
            " bytes, not a whole number of elements";
    }
    std::vector<T> out(bytes.size() / sizeof(T));
    if (!out.empty())
        std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
}

// Spans as four parallel byte arrays: a run of a few thousand steps has millions of them.
json spansToJson(const std::vector<Span>& spans) {
    std::vector<int64_t> begin, end;
    std::vector<uint32_t> stack;
    std::vector<uint16_t> thread;
    std::vector<uint32_t> shapes;
    begin.reserve(spans.size()), end.reserve(spans.size());
    stack.reserve(spans.size()), thread.reserve(spans.size()), shapes.reserve(spans.size());
    for (const auto& s : spans) {
        begin.push_back(s.begin_ns), end.push_back(s.end_ns);
        stack.push_back(s.stack), thread.push_back(s.thread), shapes.push_back(s.shapes);
    }
    return {{"begin_ns", toBytes(begin)},
            {"end_ns", toBytes(end)},
            {"stack", toBytes(stack)},
            {"thread", toBytes(thread)},
            {"shapes", toBytes(shapes)}};
}

// Returns an error message, "" on success.
std::string spansFromJson(const json& j, size_t node_count, size_t shape_count,
                          std::vector<Span>& spans) {
    try {
        const auto begin = arrayFromBytes<int64_t>(j.at("begin_ns"), "begin_ns");
        const auto end = arrayFromBytes<int64_t>(j.at("end_ns"), "end_ns");
        const auto stack = arrayFromBytes<uint32_t>(j.at("stack"), "stack");
        const auto thread = arrayFromBytes<uint16_t>(j.at("thread"), "thread");
        // optional: files from before shapes were recorded lack it
        const auto shapes = j.contains("shapes")
                                ? arrayFromBytes<uint32_t>(j.at("shapes"), "shapes")
                                : std::vector<uint32_t>(begin.size(), 0);
        if (end.size() != begin.size() || stack.size() != begin.size() ||
            thread.size() != begin.size() || shapes.size() != begin.size()) {
            return "span arrays have different lengths";
        }
        spans.resize(begin.size());
        for (size_t i = 0; i < begin.size(); ++i) {
            if (stack[i] >= node_count) {
                return "span " + std::to_string(i) + " names stack " + std::to_string(stack[i]) +
                       " of " + std::to_string(node_count);
            }
            if (shapes[i] >= shape_count) {
                return "span " + std::to_string(i) + " names shape string " +
                       std::to_string(shapes[i]) + " of " + std::to_string(shape_count);
            }
            spans[i] = Span{begin[i], end[i], stack[i], thread[i], shapes[i]};
        }
    } catch (const std::string& message) {
        return message;
    }
    return {};
}

json phasesToJson(const std::vector<PhaseInterval>& phases) {
    json out = json::array();
    for (const auto& p : phases) {
        out.push_back({static_cast<int>(p.phase), p.step, p.begin_ns, p.end_ns});
    }
    return out;
}

json stacksToJson(const StackTable& stacks) {
    json frames = json::array();
    for (const auto& f : stacks.frames()) {
        frames.push_back({f.name, f.file, f.line, static_cast<int>(f.kind)});
    }
    return {{"frames", std::move(frames)},
            {"parents", toBytes(stacks.parents())},
            {"node_frames", toBytes(stacks.nodeFrames())}};
}

// Reads a uint32 array stored as bytes (what save writes) or as a JSON array (hand-made files).
// Throws a string saying what is wrong.
std::vector<uint32_t> uint32Array(const json& j, const char* name) {
    std::vector<uint32_t> out;
    if (j.is_binary()) {
        const auto& bytes = j.get_binary();
        if (bytes.size() % sizeof(uint32_t) != 0) {
            throw std::string("'") + name + "' holds " + std::to_string(bytes.size()) +
                " bytes, not a whole number of uint32";
        }
        out.resize(bytes.size() / sizeof(uint32_t));
        if (!out.empty())
            std::memcpy(out.data(), bytes.data(), bytes.size());
    } else if (j.is_array()) {
        out.reserve(j.size());
        for (const auto& v : j)
            out.push_back(v.get<uint32_t>());
    } else {
        throw std::string("'") + name + "' is neither bytes nor an array";
    }
    return out;
}

// Returns an error message, "" on success.
std::string stacksFromJson(const json& j, StackTable& stacks) {
    std::vector<Frame> frames;
    const json& jf = j.at("frames");
    if (!jf.is_array())
        return "'frames' is not an array";
    frames.reserve(jf.size());
    for (size_t i = 0; i < jf.size(); ++i) {
        const json& f = jf[i];
        if (!f.is_array() || f.size() < 4) {
            return "frame " + std::to_string(i) + " is not [name, file, line, kind]";
        }
        Frame frame;
        frame.name = f[0].get<std::string>();
        frame.file = f[1].get<std::string>();
        frame.line = f[2].get<int32_t>();
        const auto kind = f[3].get<int64_t>();
        if (kind < 0 || kind > kMaxFrameKind) {
            return "frame " + std::to_string(i) + " has kind " + std::to_string(kind);
        }
        frame.kind = static_cast<FrameKind>(kind);
        frames.push_back(std::move(frame));
    }
    try {
        auto parents = uint32Array(j.at("parents"), "parents");
        auto node_frames = uint32Array(j.at("node_frames"), "node_frames");
        return stacks.assign(std::move(frames), std::move(parents), std::move(node_frames));
    } catch (const std::string& message) {
        return message;
    }
}

StepMetrics stepFromJson(const json& j) {
    StepMetrics s;
    s.step = j.value("step", int64_t(0));
    s.warmup = j.value("warmup", false);
    s.loss = j.value("loss", 0.0);
    s.forward_s = j.value("forward_s", 0.0);
    s.backward_s = j.value("backward_s", 0.0);
    s.optimizer_s = j.value("optimizer_s", 0.0);
    s.total_s = j.value("total_s", 0.0);
    s.peak_allocated_bytes = j.value("peak_allocated_bytes", int64_t(0));
    s.allocated_bytes_at_end = j.value("allocated_bytes_at_end", int64_t(0));
    return s;
}

// Walks the CBOR header without building it, refusing absurd nesting (see kMaxHeaderDepth) and
// keeping the parser's message when the bytes are not CBOR.
class HeaderCheck : public nlohmann::json_sax<json> {
  public:
    std::string error;

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return enter(); }
    bool key(string_t&) override { return true; }
    bool end_object() override { return leave(); }
    bool start_array(std::size_t) override { return enter(); }
    bool end_array() override { return leave(); }
    bool parse_error(std::size_t, const std::string&, const json::exception& e) override {
        error = std::string("header is not valid CBOR (") + e.what() + ")";
        return false;
    }

  private:
    int m_depth = 0;

    bool enter() {
        if (++m_depth > kMaxHeaderDepth) {
            error = "header nests deeper than " + std::to_string(kMaxHeaderDepth) + " levels";
            return false;
        }
        return true;
    }
    bool leave() {
        --m_depth;
        return true;
    }
};

struct ColumnEntry {
    size_t element_size = 0;
    uint64_t offset = 0;
    uint64_t length = 0;
    uint64_t checksum = 0;
    bool present = false;
};

uint64_t headerUnsigned(const json& j, const char* key, const std::string& path) {
    const auto it = j.find(key);
    if (it == j.end())
        throw RunFileError(path, std::string("header lacks '") + key + "'");
    if (it->is_number_unsigned())
        return it->get<uint64_t>();
    if (it->is_number_integer() && it->get<int64_t>() >= 0)
        return it->get<uint64_t>();
    throw RunFileError(path,
                       std::string("header field '") + key + "' is not a non-negative integer");
}

}  // namespace

uint64_t RunFile::checksum(const void* data, size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    size_t i = 0;
    uint64_t h;
    if (bytes >= 32) {
        // Four independent lanes keep the multiplier busy: a single chain would wait on each
        // multiply's latency and top out near 2 GB/s.
        uint64_t a = kP1 + kP2, b = kP2, c = 0, d = 0 - kP1;
        for (; i + 32 <= bytes; i += 32) {
            a = mix(a, load64(p + i));
            b = mix(b, load64(p + i + 8));
            c = mix(c, load64(p + i + 16));
            d = mix(d, load64(p + i + 24));
        }
        h = rotl(a, 1) + rotl(b, 7) + rotl(c, 12) + rotl(d, 18);
        for (const uint64_t lane : {a, b, c, d})
            h = (h ^ mix(0, lane)) * kP1 + kP3;
    } else {
        h = kP3;
    }
    for (; i + 8 <= bytes; i += 8)
        h = rotl(h ^ mix(0, load64(p + i)), 27) * kP1 + kP3;
    for (; i < bytes; ++i)
        h = rotl(h ^ (uint64_t(p[i]) * kP3), 11) * kP1;
    h += bytes;  // so trailing zero bytes change the sum
    // Final avalanche: spreads the last words' bits over the whole result.
    h ^= h >> 33;
    h *= kP2;
    h ^= h >> 29;
    h *= kP3;
    h ^= h >> 32;
    return h;
}

void RunFile::save(const Trace& trace, const std::string& path) {
    const EventColumns& events = trace.events;
    if (auto error = events.checkLengths(); !error.empty()) {
        throw RunFileError(path, "cannot save: " + error);
    }
    // Refuse to write what load would refuse to read.
    if (auto error = checkEventValues(events, trace.stacks.nodeCount()); !error.empty()) {
        throw RunFileError(path, "cannot save: " + error);
    }

    json columns = json::array();
    uint64_t offset = 0;
    forEachColumn(events, [&](const char* name, const auto& column) {
        const uint64_t length = column.size() * sizeof(column[0]);
        columns.push_back({{"name", name},
                           {"element_size", sizeof(column[0])},
                           {"offset", offset},
                           {"length", length},
                           {"checksum", checksum(column.data(), length)}});
        offset += length;
    });
    json operators = json::array();
    for (const auto& op : trace.operators)
        operators.push_back(op.toJson());
    json steps = json::array();
    for (const auto& s : trace.steps)
        steps.push_back(s.toJson());
    const json header = {{"meta", trace.meta.toJson()},
                         {"stacks", stacksToJson(trace.stacks)},
                         {"operators", std::move(operators)},
                         {"steps", std::move(steps)},
                         {"summary", trace.summary},
                         {"events", events.count()},
                         {"spans", spansToJson(trace.spans)},
                         {"phases", phasesToJson(trace.phases)},
                         {"shape_strings", trace.shape_strings},
                         {"columns", std::move(columns)}};
    const std::vector<uint8_t> cbor = json::to_cbor(header);

    unsigned char preamble[kPreambleSize];
    std::memcpy(preamble, kMagic, sizeof(kMagic));
    putLe(preamble + 8, kFormatVersion, 4);
    putLe(preamble + 12, cbor.size(), 8);

    const std::string tmp = path + ".tmp";
    FilePtr file(std::fopen(tmp.c_str(), "wb"));
    if (!file)
        throw RunFileError(path, "cannot create " + tmp + ": " + errnoText());
    auto fail = [&](const std::string& what) {
        const std::string reason = what + ": " + errnoText();
        file.reset();
        std::remove(tmp.c_str());
        throw RunFileError(path, reason);
    };
    auto put = [&](const void* data, size_t bytes) {
        if (bytes != 0 && std::fwrite(data, 1, bytes, file.get()) != bytes) {
            fail("cannot write " + tmp);
        }
    };
    put(preamble, sizeof(preamble));
    put(cbor.data(), cbor.size());
    // Straight from the vectors: stdio passes writes this large to the kernel without copying.
    forEachColumn(events, [&](const char*, const auto& column) {
        put(column.data(), column.size() * sizeof(column[0]));
    });
    if (std::fflush(file.get()) != 0)
        fail("cannot write " + tmp);
#ifndef _WIN32
    // Data on disk before the rename: otherwise a system crash could leave the new name pointing
    // at a file whose blocks were never written.
    if (fsync(fileno(file.get())) != 0)
        fail("cannot write " + tmp);
#endif
    if (std::fclose(file.release()) != 0) {
        const std::string reason = "cannot write " + tmp + ": " + errnoText();
        std::remove(tmp.c_str());
        throw RunFileError(path, reason);
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string reason = "cannot rename " + tmp + " to " + path + ": " + errnoText();
        std::remove(tmp.c_str());
        throw RunFileError(path, reason);
    }
}

Trace RunFile::load(const std::string& path) {
    FilePtr file(std::fopen(path.c_str(), "rb"));
    if (!file)
        throw RunFileError(path, "cannot open: " + errnoText());
    const int64_t size = fileSize(file.get());
    if (size < 0 || !seekTo(file.get(), 0)) {
        throw RunFileError(path, "cannot read: " + errnoText());
    }
    const auto file_size = static_cast<uint64_t>(size);
    auto truncated = [&](const std::string& what, uint64_t need, uint64_t at) {
        return RunFileError(path, "truncated: " + what + " needs " + std::to_string(need) +
                                      " bytes at offset " + std::to_string(at) + ", file has " +
                                      std::to_string(file_size));
    };
    auto readExactly = [&](void* out, uint64_t bytes, uint64_t at, const std::string& what) {
        if (bytes == 0)
            return;
        if (!seekTo(file.get(), at))
            throw RunFileError(path, "cannot read: " + errnoText());
        if (std::fread(out, 1, bytes, file.get()) != bytes) {
            if (std::ferror(file.get())) {
                throw RunFileError(path, "cannot read " + what + ": " + errnoText());
            }
            throw truncated(what, bytes, at);  // the file shrank while we read it
        }
    };

    // ---- preamble: identity first, so a newer file gets the version message whatever follows
    unsigned char preamble[kPreambleSize] = {};
    const size_t have = static_cast<size_t>(std::min<uint64_t>(file_size, kPreambleSize));
    if (have > 0 && std::fread(preamble, 1, have, file.get()) != have) {
        throw RunFileError(path, "cannot read: " + errnoText());
    }
    if (have < sizeof(kMagic) || std::memcmp(preamble, kMagic, sizeof(kMagic)) != 0) {
        throw RunFileError(path, "not a Memscope run file");
    }
    if (have < 12)
        throw truncated("the format version", 4, 8);
    const auto version = static_cast<uint32_t>(getLe(preamble + 8, 4));
    if (version > kFormatVersion) {
        throw RunFileError(path, "written by a newer Memscope (format " + std::to_string(version) +
                                     "; this build reads up to " + std::to_string(kFormatVersion) +
                                     ")");
    }
    if (version == 0)
        throw RunFileError(path, "unknown format version 0");
    if (have < kPreambleSize)
        throw truncated("the header length", 8, 12);
    const uint64_t header_size = getLe(preamble + 12, 8);
    if (header_size > file_size - kPreambleSize) {
        throw truncated("the header", header_size, kPreambleSize);
    }
    const uint64_t data_start = kPreambleSize + header_size;
    const uint64_t data_size = file_size - data_start;

    // ---- header
    std::vector<uint8_t> cbor(static_cast<size_t>(header_size));
    readExactly(cbor.data(), header_size, kPreambleSize, "the header");
    HeaderCheck check;
    if (!json::sax_parse(cbor.begin(), cbor.end(), &check, json::input_format_t::cbor)) {
        throw RunFileError(path, check.error.empty() ? "header is not valid CBOR" : check.error);
    }
    json header;
    try {
        header = json::from_cbor(cbor);
    } catch (const json::exception& e) {
        throw RunFileError(path, std::string("header is not valid CBOR (") + e.what() + ")");
    }
    cbor = {};
    if (!header.is_object())
        throw RunFileError(path, "header is not a map");

    Trace trace;
    // Each optional section falls back to its default when absent; a present but malformed one
    // is an error naming the section.
    auto section = [&](const char* key, auto&& read) {
        const auto it = header.find(key);
        if (it == header.end() || it->is_null())
            return;
        try {
            read(*it);
        } catch (const json::exception& e) {
            throw RunFileError(path, std::string("bad '") + key + "' in header: " + e.what());
        }
    };
    section("meta", [&](const json& j) { trace.meta = RunMetadata::fromJson(j); });
    section("stacks", [&](const json& j) {
        if (auto error = stacksFromJson(j, trace.stacks); !error.empty()) {
            throw RunFileError(path, "bad stack table: " + error);
        }
    });
    auto requireArray = [&](const json& j, const char* key) {
        if (!j.is_array())
            throw RunFileError(path, std::string("'") + key + "' is not a list");
    };
    section("operators", [&](const json& j) {
        requireArray(j, "operators");
        for (const auto& op : j)
            trace.operators.push_back(OperatorStat::fromJson(op));
    });
    section("steps", [&](const json& j) {
        requireArray(j, "steps");
        for (const auto& s : j)
            trace.steps.push_back(stepFromJson(s));
    });
    section("summary", [&](const json& j) { trace.summary = j; });
    section("shape_strings", [&](const json& j) {
        requireArray(j, "shape_strings");
        trace.shape_strings = j.get<std::vector<std::string>>();
        if (trace.shape_strings.empty())
            trace.shape_strings.emplace_back();
    });
    section("spans", [&](const json& j) {
        if (auto error =
                spansFromJson(j, trace.stacks.nodeCount(), trace.shape_strings.size(), trace.spans);
            !error.empty())
            throw RunFileError(path, "bad spans: " + error);
    });
    section("phases", [&](const json& j) {
        requireArray(j, "phases");
        for (const auto& p : j) {
            if (!p.is_array() || p.size() < 4 || p[0].get<int64_t>() < 0 ||
                p[0].get<int64_t>() >= kPhaseCount) {
                throw RunFileError(path, "bad phase interval in header");
            }
            trace.phases.push_back(PhaseInterval{static_cast<Phase>(p[0].get<int>()),
                                                 p[1].get<int32_t>(), p[2].get<int64_t>(),
                                                 p[3].get<int64_t>()});
        }
    });

    // ---- column directory: everything is checked before a single column is allocated
    const uint64_t count = headerUnsigned(header, "events", path);
    if (count > data_size) {
        // Every column holds at least a byte per event.
        throw RunFileError(path, "truncated: header declares " + std::to_string(count) +
                                     " events, but only " + std::to_string(data_size) +
                                     " bytes of column data follow it");
    }
    const auto dir = header.find("columns");
    if (dir == header.end() || !dir->is_array()) {
        throw RunFileError(path, "header lacks the column directory");
    }
    std::vector<std::pair<std::string, ColumnEntry>> entries;
    forEachColumn(trace.events, [&](const char* name, auto& column) {
        entries.push_back({name, ColumnEntry{sizeof(column[0])}});
    });
    for (const auto& c : *dir) {
        const auto name_it = c.is_object() ? c.find("name") : c.end();
        if (!c.is_object() || name_it == c.end() || !name_it->is_string()) {
            throw RunFileError(path, "column directory entry without a name");
        }
        const std::string name = name_it->get<std::string>();
        auto e = std::find_if(entries.begin(), entries.end(),
                              [&](const auto& x) { return x.first == name; });
        if (e == entries.end())
            continue;  // a column this build does not know: skip it
        ColumnEntry& entry = e->second;
        if (entry.present)
            throw RunFileError(path, "column '" + name + "' is listed twice");
        entry.present = true;
        const std::string where = "column '" + name + "'";
        const uint64_t element_size = headerUnsigned(c, "element_size", path);
        if (element_size != entry.element_size) {
            throw RunFileError(path, where + " has element size " + std::to_string(element_size) +
                                         ", expected " + std::to_string(entry.element_size));
        }
        entry.offset = headerUnsigned(c, "offset", path);
        entry.length = headerUnsigned(c, "length", path);
        entry.checksum = headerUnsigned(c, "checksum", path);
        // count <= data_size < 2^63, so this cannot overflow.
        const uint64_t expected = count * entry.element_size;
        if (entry.length != expected) {
            throw RunFileError(path, where + " holds " + std::to_string(entry.length) +
                                         " bytes, but " + std::to_string(count) + " events need " +
                                         std::to_string(expected));
        }
        if (entry.offset > data_size || entry.length > data_size - entry.offset) {
            // A damaged offset can be near 2^64: saturate rather than wrap in the message.
            const uint64_t at =
                entry.offset > UINT64_MAX - data_start ? UINT64_MAX : data_start + entry.offset;
            throw truncated(where, entry.length, at);
        }
    }
    for (const auto& [name, entry] : entries) {
        if (!entry.present)
            throw RunFileError(path, "column '" + name + "' is missing");
    }

    // ---- columns: one read each, straight into the vector, then the checksum
    size_t index = 0;
    forEachColumn(trace.events, [&](const char* name, auto& column) {
        const ColumnEntry& entry = entries[index++].second;
        column.resize(static_cast<size_t>(count));
        const std::string what = std::string("column '") + name + "'";
        readExactly(column.data(), entry.length, data_start + entry.offset, what);
        if (checksum(column.data(), entry.length) != entry.checksum) {
            throw RunFileError(path, what + " is corrupt (checksum mismatch)");
        }
    });
    file.reset();

    if (auto error = checkEventValues(trace.events, trace.stacks.nodeCount()); !error.empty()) {
        throw RunFileError(path, error);
    }
    trace.finalize();
    return trace;
}

}  // namespace memscope
