#include "io/run_file.h"

#include "io/column_codec.h"
#include "model/input_error.h"
#include "run/step_metrics_json.h"
#include "trace/for_each_event_column.h"
#include "trace/trace_range.h"

#include <zstd.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <unordered_map>
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

// The largest element: one tight pass the compiler vectorises; the slow search for the first
// offender runs only when the maximum is out of range.
template <typename T>
T maxOf(const std::vector<T>& v) {
    T m = 0;
    for (const T x : v)
        m = std::max(m, x);
    return m;
}

// The largest |value| (int64's minimum counts as 2^63), in one pass the compiler vectorises.
uint64_t largestMagnitude(const std::vector<int64_t>& v) {
    uint64_t m = 0;
    for (const int64_t x : v) {
        const uint64_t u = uint64_t(x);
        m = std::max(m, x < 0 ? ~u + 1 : u);
    }
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
    const std::pair<const char*, const std::vector<int64_t>*> byte_columns[] = {
        {"size", &events.size}, {"allocated", &events.allocated}, {"reserved", &events.reserved}};
    for (const auto& [name, column] : byte_columns) {
        if (!column->empty() && largestMagnitude(*column) > uint64_t(kMaxEventBytes)) {
            const size_t i = size_t(std::find_if(column->begin(), column->end(), beyondEventBytes) -
                                    column->begin());
            return "event " + std::to_string(i) + " has " + name + " " +
                   std::to_string((*column)[i]) + ", beyond 256 TiB";
        }
    }
    return {};
}

// ---- version 2 column encodings (io/column_codec.h) -------------------------------------------

using Encoding = ColumnEncoding;

const char* encodingName(Encoding e) {
    return columnEncodingName(e);
}

bool encodingFromName(const std::string& name, Encoding& out) {
    return columnEncodingFromName(name, out);
}

// The writer's choice per column (see the format comment in run_file.h).
Encoding encodingFor(const std::string& column, bool varints) {
    if (column == "time_ns" || column == "addr" || column == "allocated" || column == "reserved" ||
        column == "step") {
        return varints ? Encoding::DeltaVarint : Encoding::Delta;
    }
    if (column == "size")
        return varints ? Encoding::Varint : Encoding::Raw;
    return Encoding::Raw;
}

// Runs task(i) for i in [0, count) on the calling thread and one more, in order of i. after(i)
// runs on the calling thread after each of its own tasks. The first exception thrown by any
// task stops both threads (remaining tasks are skipped) and is rethrown here.
template <typename Task, typename After>
void runOnTwoThreads(size_t count, Task&& task, After&& after) {
    std::atomic<size_t> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr error;
    std::mutex error_mutex;
    auto work = [&](bool caller) {
        for (;;) {
            const size_t i = next.fetch_add(1);
            if (i >= count || failed.load())
                return;
            try {
                task(i);
                if (caller)
                    after(i);
            } catch (...) {
                std::lock_guard<std::mutex> lock(error_mutex);
                if (!error)
                    error = std::current_exception();
                failed = true;
                return;
            }
        }
    };
    std::thread helper;
    if (count > 1)
        helper = std::thread(work, false);
    work(true);
    if (helper.joinable())
        helper.join();
    if (error)
        std::rethrow_exception(error);
}

struct ChunkEntry {
    uint64_t offset = 0;
    uint64_t length = 0;
    uint64_t raw_length = 0;
    uint64_t checksum = 0;
};

// Keys allocations and segments by device and address, as Trace::finalize pairs them.
// ---- header pieces ----------------------------------------------------------------------------

template <typename T>
json::binary_t toBytes(const std::vector<T>& v) {
    std::vector<uint8_t> bytes(v.size() * sizeof(T));
    if (!bytes.empty())
        std::memcpy(bytes.data(), v.data(), bytes.size());
    return json::binary_t(std::move(bytes));
}

// A little-endian array stored as CBOR bytes. Throws an InputError saying what is wrong.
template <typename T>
std::vector<T> arrayFromBytes(const json& j, const char* name) {
    if (!j.is_binary())
        throw InputError(std::string("'") + name + "' is not bytes");
    const auto& bytes = j.get_binary();
    if (bytes.size() % sizeof(T) != 0) {
        throw InputError(std::string("'") + name + "' holds " + std::to_string(bytes.size()) +
                         " bytes, not a whole number of elements");
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
    } catch (const InputError& e) {
        return e.what();
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
// Throws an InputError saying what is wrong.
std::vector<uint32_t> uint32Array(const json& j, const char* name) {
    std::vector<uint32_t> out;
    if (j.is_binary()) {
        const auto& bytes = j.get_binary();
        if (bytes.size() % sizeof(uint32_t) != 0) {
            throw InputError(std::string("'") + name + "' holds " + std::to_string(bytes.size()) +
                             " bytes, not a whole number of uint32");
        }
        out.resize(bytes.size() / sizeof(uint32_t));
        if (!out.empty())
            std::memcpy(out.data(), bytes.data(), bytes.size());
    } else if (j.is_array()) {
        out.reserve(j.size());
        for (const auto& v : j)
            out.push_back(v.get<uint32_t>());
    } else {
        throw InputError(std::string("'") + name + "' is neither bytes nor an array");
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
    } catch (const InputError& e) {
        return e.what();
    }
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

json segmentTagsToJson(const std::vector<SegmentTag>& tags) {
    std::vector<int64_t> event, stream;
    json pool = json::array();
    for (const auto& t : tags) {
        event.push_back(t.event), stream.push_back(t.stream), pool.push_back(t.pool);
    }
    return {{"event", toBytes(event)}, {"stream", toBytes(stream)}, {"pool", std::move(pool)}};
}

// Returns an error message, "" on success.
std::string segmentTagsFromJson(const json& j, std::vector<SegmentTag>& tags) {
    try {
        if (!j.is_object())
            return "not a map";
        const auto event = arrayFromBytes<int64_t>(j.at("event"), "event");
        const auto stream = arrayFromBytes<int64_t>(j.at("stream"), "stream");
        const json& pool = j.at("pool");
        if (!pool.is_array() || stream.size() != event.size() || pool.size() != event.size())
            return "tag arrays have different lengths";
        tags.resize(event.size());
        for (size_t i = 0; i < event.size(); ++i) {
            tags[i] = SegmentTag{event[i], stream[i], pool[i].get<std::string>()};
        }
    } catch (const InputError& e) {
        return e.what();
    }
    return {};
}

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
    save(trace, path, SaveOptions());
}

void RunFile::save(const Trace& trace, const std::string& path, const SaveOptions& options) {
    const EventColumns& events = trace.events;
    if (options.format_version < 1 || options.format_version > kFormatVersion) {
        throw RunFileError(path, "cannot save: format version " +
                                     std::to_string(options.format_version) + " is not 1 or " +
                                     std::to_string(kFormatVersion));
    }
    if (auto error = events.checkLengths(); !error.empty()) {
        throw RunFileError(path, "cannot save: " + error);
    }
    // Refuse to write what load would refuse to read.
    if (auto error = checkEventValues(events, trace.stacks.nodeCount()); !error.empty()) {
        throw RunFileError(path, "cannot save: " + error);
    }
    const bool v2 = options.format_version >= 2;
    const uint64_t chunk_events = std::max<uint64_t>(1, options.chunk_events);
    const size_t count = events.count();
    const size_t chunks_per_column = v2 ? size_t((count + chunk_events - 1) / chunk_events) : 0;

    // Version 2: every chunk of every column encoded and compressed up front (on two threads),
    // since the directory in the header must know their lengths.
    struct Job {
        size_t column = 0;
        size_t chunk = 0;
    };
    std::vector<Job> jobs;
    std::vector<std::vector<std::vector<uint8_t>>> stored;  // [column][chunk]
    std::vector<std::vector<ChunkEntry>> entries;
    std::vector<Encoding> encodings;
    forEachEventColumn(events, [&](const char* name, const auto&) {
        encodings.push_back(encodingFor(name, options.varints));
    });
    if (v2) {
        stored.assign(encodings.size(), std::vector<std::vector<uint8_t>>(chunks_per_column));
        entries.assign(encodings.size(), std::vector<ChunkEntry>(chunks_per_column));
        for (size_t c = 0; c < encodings.size(); ++c) {
            for (size_t k = 0; k < chunks_per_column; ++k)
                jobs.push_back({c, k});
        }
        std::string error;
        runOnTwoThreads(
            jobs.size(),
            [&](size_t j) {
                const Job job = jobs[j];
                const size_t first = job.chunk * chunk_events;
                const size_t n = std::min<size_t>(chunk_events, count - first);
                std::vector<uint8_t> raw;
                size_t column = 0;
                forEachEventColumn(events, [&](const char*, const auto& v) {
                    if (column++ == job.column)
                        encodeColumn(v.data() + first, n, encodings[job.column], raw);
                });
                std::vector<uint8_t>& out = stored[job.column][job.chunk];
                out.resize(ZSTD_compressBound(raw.size()));
                const size_t z = ZSTD_compress(out.data(), out.size(), raw.data(), raw.size(),
                                               options.compression_level);
                if (ZSTD_isError(z)) {
                    throw RunFileError(path,
                                       std::string("cannot compress: ") + ZSTD_getErrorName(z));
                }
                out.resize(z);
                out.shrink_to_fit();
                entries[job.column][job.chunk] =
                    ChunkEntry{0, z, raw.size(), checksum(out.data(), out.size())};
            },
            [](size_t) {});
    }

    json columns = json::array();
    uint64_t offset = 0;
    size_t column_index = 0;
    forEachEventColumn(events, [&](const char* name, const auto& column) {
        if (!v2) {
            const uint64_t length = column.size() * sizeof(column[0]);
            columns.push_back({{"name", name},
                               {"element_size", sizeof(column[0])},
                               {"offset", offset},
                               {"length", length},
                               {"checksum", checksum(column.data(), length)}});
            offset += length;
            return;
        }
        json chunks = json::array();
        for (auto& e : entries[column_index]) {
            e.offset = offset;
            offset += e.length;
            chunks.push_back({e.offset, e.length, e.raw_length, e.checksum});
        }
        columns.push_back({{"name", name},
                           {"element_size", sizeof(column[0])},
                           {"encoding", encodingName(encodings[column_index])},
                           {"chunks", std::move(chunks)}});
        ++column_index;
    });
    json operators = json::array();
    for (const auto& op : trace.operators)
        operators.push_back(op.toJson());
    json steps = json::array();
    for (const auto& s : trace.steps)
        steps.push_back(s.toJson());
    json header = {{"meta", trace.meta.toJson()},
                   {"stacks", stacksToJson(trace.stacks)},
                   {"operators", std::move(operators)},
                   {"steps", std::move(steps)},
                   {"summary", trace.summary},
                   {"events", count},
                   {"spans", spansToJson(trace.spans)},
                   {"phases", phasesToJson(trace.phases)},
                   {"shape_strings", trace.shape_strings},
                   {"columns", std::move(columns)}};
    if (v2) {
        header["chunk_events"] = chunk_events;
        if (!trace.segment_tags.empty())
            header["segment_tags"] = segmentTagsToJson(trace.segment_tags);
    }
    if (trace.hasRawStacks()) {
        json raw = stacksToJson(trace.raw_stacks);
        raw["events"] = toBytes(trace.raw_stack);
        header["raw_stacks"] = std::move(raw);
    }
    std::vector<uint8_t> cbor = json::to_cbor(header);
    header = json();
    if (v2) {
        std::vector<uint8_t> z(ZSTD_compressBound(cbor.size()));
        const size_t n =
            ZSTD_compress(z.data(), z.size(), cbor.data(), cbor.size(), options.compression_level);
        if (ZSTD_isError(n))
            throw RunFileError(path, std::string("cannot compress: ") + ZSTD_getErrorName(n));
        z.resize(n);
        cbor = std::move(z);
    }

    unsigned char preamble[kPreambleSize];
    std::memcpy(preamble, kMagic, sizeof(kMagic));
    putLe(preamble + 8, options.format_version, 4);
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
    if (v2) {
        for (const auto& column : stored) {
            for (const auto& chunk : column)
                put(chunk.data(), chunk.size());
        }
    } else {
        // Straight from the vectors: stdio passes writes this large to the kernel without
        // copying.
        forEachEventColumn(events, [&](const char*, const auto& column) {
            put(column.data(), column.size() * sizeof(column[0]));
        });
    }
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
    return load(path, LoadOptions());
}

Trace RunFile::load(const std::string& path, const LoadOptions& options) {
    double reported = 0;
    auto progress = [&](double fraction) {
        fraction = std::min(1.0, std::max(reported, fraction));
        reported = fraction;
        if (options.progress)
            options.progress(fraction);
    };
    auto checkCancel = [&]() {
        if (options.cancel && options.cancel->load(std::memory_order_relaxed))
            throw RunFileCancelled(path);
    };
    progress(0);
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
    std::mutex file_mutex;  // the two decoding threads share the FILE
    auto readExactly = [&](void* out, uint64_t bytes, uint64_t at, const std::string& what) {
        if (bytes == 0)
            return;
        std::lock_guard<std::mutex> lock(file_mutex);
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
    if (version >= 2) {
        // Streamed into a growing buffer: a damaged frame cannot make us allocate what its
        // header claims, and a frame that would inflate past the cap is refused.
        const uint64_t cap = std::min<uint64_t>(uint64_t(4) << 30, header_size * 4096 + (1 << 20));
        std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> dctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
        std::vector<uint8_t> out;
        ZSTD_inBuffer in{cbor.data(), cbor.size(), 0};
        size_t ret = 1;
        while (in.pos < in.size || ret != 0) {
            if (out.size() >= cap)
                throw RunFileError(path, "header is not valid (it inflates past its limit)");
            const size_t old = out.size();
            out.resize(std::min<uint64_t>(cap, std::max<size_t>(old * 2, 1 << 16)));
            ZSTD_outBuffer ob{out.data() + old, out.size() - old, 0};
            ret = ZSTD_decompressStream(dctx.get(), &ob, &in);
            out.resize(old + ob.pos);
            if (ZSTD_isError(ret)) {
                throw RunFileError(
                    path, std::string("header is not valid zstd (") + ZSTD_getErrorName(ret) + ")");
            }
            if (ret != 0 && in.pos == in.size && ob.pos < ob.size) {
                throw RunFileError(path, "header is not valid zstd (the frame is incomplete)");
            }
        }
        cbor = std::move(out);
    }
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
            trace.steps.push_back(stepMetricsFromJson(s));
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
    section("raw_stacks", [&](const json& j) {
        if (auto error = stacksFromJson(j, trace.raw_stacks); !error.empty()) {
            throw RunFileError(path, "bad 'raw_stacks': " + error);
        }
        try {
            trace.raw_stack = uint32Array(j.at("events"), "events");
        } catch (const InputError& e) {
            throw RunFileError(path, std::string("bad 'raw_stacks': ") + e.what());
        }
    });
    section("segment_tags", [&](const json& j) {
        if (auto error = segmentTagsFromJson(j, trace.segment_tags); !error.empty())
            throw RunFileError(path, "bad segment_tags: " + error);
    });
    progress(0.02);
    checkCancel();

    // ---- column directory: everything is checked before a single column is allocated
    const uint64_t count = headerUnsigned(header, "events", path);
    if (version == 1 && count > data_size) {
        // Every column holds at least a byte per event.
        throw RunFileError(path, "truncated: header declares " + std::to_string(count) +
                                     " events, but only " + std::to_string(data_size) +
                                     " bytes of column data follow it");
    }
    const auto dir = header.find("columns");
    if (dir == header.end() || !dir->is_array()) {
        throw RunFileError(path, "header lacks the column directory");
    }
    uint64_t chunk_events = count;
    if (version >= 2) {
        chunk_events = headerUnsigned(header, "chunk_events", path);
        if (chunk_events == 0)
            throw RunFileError(path, "header field 'chunk_events' is 0");
    }
    // A zstd frame inflates by at most a fixed factor with real data, but a damaged directory
    // can claim anything: a chunk's raw length is bounded by what its events can need.
    const uint64_t chunk_count = version >= 2 ? (count + chunk_events - 1) / chunk_events : 0;
    if (version >= 2 && chunk_count > data_size / 9 + 1) {
        // Every stored chunk is a zstd frame of at least 9 bytes.
        throw RunFileError(path, "truncated: header declares " + std::to_string(count) +
                                     " events, but only " + std::to_string(data_size) +
                                     " bytes of column data follow it");
    }
    struct DirEntry {
        ColumnEntry column;
        Encoding encoding = Encoding::Raw;
        std::vector<ChunkEntry> chunks;
    };
    std::vector<std::pair<std::string, DirEntry>> entries;
    forEachEventColumn(trace.events, [&](const char* name, auto& column) {
        DirEntry e;
        e.column.element_size = sizeof(column[0]);
        entries.push_back({name, std::move(e)});
    });
    auto eventsInChunk = [&](uint64_t k) {
        return std::min<uint64_t>(chunk_events, count - k * chunk_events);
    };
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
        ColumnEntry& entry = e->second.column;
        if (entry.present)
            throw RunFileError(path, "column '" + name + "' is listed twice");
        entry.present = true;
        const std::string where = "column '" + name + "'";
        const uint64_t element_size = headerUnsigned(c, "element_size", path);
        if (element_size != entry.element_size) {
            throw RunFileError(path, where + " has element size " + std::to_string(element_size) +
                                         ", expected " + std::to_string(entry.element_size));
        }
        if (version >= 2) {
            const auto enc = c.find("encoding");
            if (enc == c.end() || !enc->is_string() ||
                !encodingFromName(enc->get<std::string>(), e->second.encoding)) {
                throw RunFileError(path, where + " has no known encoding");
            }
            const auto chunks = c.find("chunks");
            if (chunks == c.end() || !chunks->is_array() || chunks->size() != chunk_count) {
                throw RunFileError(path, where + " does not list " + std::to_string(chunk_count) +
                                             " chunks for " + std::to_string(count) + " events");
            }
            const bool fixed =
                e->second.encoding == Encoding::Raw || e->second.encoding == Encoding::Delta;
            for (uint64_t k = 0; k < chunk_count; ++k) {
                const json& ch = (*chunks)[k];
                const std::string what = where + " chunk " + std::to_string(k);
                auto field = [&](size_t i) -> uint64_t {
                    if (!ch.is_array() || ch.size() < 4 || !ch[i].is_number_unsigned())
                        throw RunFileError(path, what + " is not [offset, length, raw, sum]");
                    return ch[i].get<uint64_t>();
                };
                ChunkEntry chunk{field(0), field(1), field(2), field(3)};
                const uint64_t n = eventsInChunk(k);
                const uint64_t most = fixed ? n * element_size : n * 10;
                const uint64_t least = fixed ? n * element_size : n;
                if (chunk.raw_length > most || chunk.raw_length < least) {
                    throw RunFileError(path,
                                       what + " declares " + std::to_string(chunk.raw_length) +
                                           " encoded bytes for " + std::to_string(n) + " events");
                }
                if (chunk.offset > data_size || chunk.length > data_size - chunk.offset) {
                    const uint64_t at = chunk.offset > UINT64_MAX - data_start
                                            ? UINT64_MAX
                                            : data_start + chunk.offset;
                    throw truncated(what, chunk.length, at);
                }
                e->second.chunks.push_back(chunk);
            }
            continue;
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
        if (!entry.column.present)
            throw RunFileError(path, "column '" + name + "' is missing");
    }
    header = json();

    // ---- columns
    constexpr double kColumnsEnd = 0.85;  // finalize() takes the rest
    if (version == 1) {
        // One column at a time, straight into the vector, in pieces of 64 MiB so that
        // progress and cancel work on big files; then the checksum.
        uint64_t total = 0, done = 0;
        for (const auto& e : entries)
            total += e.second.column.length;
        size_t index = 0;
        forEachEventColumn(trace.events, [&](const char* name, auto& column) {
            const ColumnEntry& entry = entries[index++].second.column;
            column.resize(static_cast<size_t>(count));
            const std::string what = std::string("column '") + name + "'";
            auto* bytes = reinterpret_cast<unsigned char*>(column.data());
            constexpr uint64_t kPiece = uint64_t(64) << 20;
            for (uint64_t at = 0; at < entry.length; at += kPiece) {
                checkCancel();
                const uint64_t n = std::min(kPiece, entry.length - at);
                // A short read of a piece still reports the whole column.
                if (!seekTo(file.get(), data_start + entry.offset + at))
                    throw RunFileError(path, "cannot read: " + errnoText());
                if (std::fread(bytes + at, 1, n, file.get()) != n) {
                    if (std::ferror(file.get()))
                        throw RunFileError(path, "cannot read " + what + ": " + errnoText());
                    throw truncated(what, entry.length, data_start + entry.offset);
                }
                done += n;
                progress(0.02 + (kColumnsEnd - 0.02) * double(done) /
                                    double(std::max<uint64_t>(total, 1)));
            }
            if (checksum(column.data(), entry.length) != entry.checksum) {
                throw RunFileError(path, what + " is corrupt (checksum mismatch)");
            }
        });
    } else {
        std::vector<std::pair<size_t, size_t>> jobs;  // (column, chunk)
        uint64_t total = 0;
        for (size_t c = 0; c < entries.size(); ++c) {
            for (size_t k = 0; k < entries[c].second.chunks.size(); ++k) {
                jobs.push_back({c, k});
                total += entries[c].second.chunks[k].raw_length;
            }
        }
        forEachEventColumn(trace.events,
                           [&](const char*, auto& column) { column.resize(size_t(count)); });
        std::atomic<uint64_t> done{0};
        runOnTwoThreads(
            jobs.size(),
            [&](size_t j) {
                checkCancel();
                const auto [c, k] = jobs[j];
                const auto& [name, entry] = entries[c];
                const ChunkEntry& chunk = entry.chunks[k];
                const std::string what = "column '" + name + "' chunk " + std::to_string(k);
                std::vector<uint8_t> stored(size_t(chunk.length));
                readExactly(stored.data(), chunk.length, data_start + chunk.offset, what);
                if (checksum(stored.data(), stored.size()) != chunk.checksum)
                    throw RunFileError(path, what + " is corrupt (checksum mismatch)");
                std::vector<uint8_t> raw(size_t(chunk.raw_length));
                const size_t got =
                    ZSTD_decompress(raw.data(), raw.size(), stored.data(), stored.size());
                if (ZSTD_isError(got) || got != raw.size()) {
                    throw RunFileError(path,
                                       what + " is corrupt (" +
                                           (ZSTD_isError(got) ? std::string(ZSTD_getErrorName(got))
                                                              : "wrong decoded length") +
                                           ")");
                }
                stored = {};
                const size_t first = size_t(k * chunk_events);
                const size_t n = size_t(eventsInChunk(k));
                size_t column = 0;
                bool ok = true;
                forEachEventColumn(trace.events, [&](const char*, auto& v) {
                    if (column++ == c)
                        ok = decodeColumn(raw.data(), raw.size(), entry.encoding, v.data() + first,
                                          n);
                });
                if (!ok) {
                    throw RunFileError(
                        path, what + " is corrupt (its " + encodingName(entry.encoding) +
                                  " values do not decode to " + std::to_string(n) + " events)");
                }
                done += chunk.raw_length;
            },
            [&](size_t) {
                progress(0.02 + (kColumnsEnd - 0.02) * double(done.load()) /
                                    double(std::max<uint64_t>(total, 1)));
            });
    }
    file.reset();
    checkCancel();

    if (auto error = checkEventValues(trace.events, trace.stacks.nodeCount()); !error.empty()) {
        throw RunFileError(path, error);
    }
    if (!trace.raw_stack.empty()) {
        if (trace.raw_stack.size() != count) {
            throw RunFileError(path, "bad 'raw_stacks': " + std::to_string(trace.raw_stack.size()) +
                                         " event stacks for " + std::to_string(count) + " events");
        }
        const size_t nodes = trace.raw_stacks.nodeCount();
        for (size_t i = 0; i < trace.raw_stack.size(); ++i) {
            if (trace.raw_stack[i] >= nodes) {
                throw RunFileError(
                    path, "bad 'raw_stacks': event " + std::to_string(i) + " names raw stack " +
                              std::to_string(trace.raw_stack[i]) + " of " + std::to_string(nodes));
            }
        }
    }
    if (!options.range.isAll()) {
        const auto [first, last] = TraceRange::events(trace.events, options.range);
        TraceRange::keep(trace, first, last);
        trace.meta.source += "; loaded " + options.range.describe() + ": events " +
                             std::to_string(first) + ".." + std::to_string(last) + " of " +
                             std::to_string(count);
    }
    progress(kColumnsEnd);
    checkCancel();
    trace.finalize();
    progress(1);
    return trace;
}

}  // namespace memscope
