// RunFile::load: reads a .memscope file (io/run_file.h). RunFile::save and the checksum are in
// io/run_file.cpp, the header pieces in io/run_file_header.cpp.
#include "io/run_file.h"

#include "io/column_codec.h"
#include "io/run_file_detail.h"
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
#include <optional>
#include <thread>
#include <type_traits>
#include <unordered_map>
#include <utility>

#ifndef _WIN32
#include <unistd.h>
#endif

namespace memscope {

namespace {

using nlohmann::json;

using run_file_detail::checkEventValues;
using run_file_detail::ChunkEntry;
using run_file_detail::Encoding;
using run_file_detail::encodingName;
using run_file_detail::errnoText;
using run_file_detail::FilePtr;
using run_file_detail::kMagic;
using run_file_detail::maxOf;
using run_file_detail::runOnTwoThreads;
using run_file_detail::segmentTagsFromJson;
using run_file_detail::spansFromJson;
using run_file_detail::stacksFromJson;
using run_file_detail::uint32Array;

// A real header nests four levels deep (summary and config a few more). Anything far deeper is
// damage, and nlohmann's CBOR reader recurses per level, so a damaged header could otherwise
// overflow the stack before it is found to be invalid.
constexpr int kMaxHeaderDepth = 64;

// ---- small file helpers -----------------------------------------------------------------------

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

uint64_t getLe(const unsigned char* in, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i)
        v |= uint64_t(in[i]) << (8 * i);
    return v;
}
// ---- version 2 column encodings (io/column_codec.h) -------------------------------------------

bool encodingFromName(const std::string& name, Encoding& out) {
    return columnEncodingFromName(name, out);
}

// ---- header pieces ----------------------------------------------------------------------------

// Builds the CBOR header in one pass (nlohmann's DOM builder), refusing absurd nesting (see
// kMaxHeaderDepth: the CBOR reader recurses per level) and keeping the parser's message when the
// bytes are not CBOR. One pass matters: a header's binary arrays (a Python run's raw stack per
// event) are read a byte at a time.
class HeaderParser : public nlohmann::detail::json_sax_dom_parser<json> {
  public:
    using Dom = nlohmann::detail::json_sax_dom_parser<json>;
    explicit HeaderParser(json& result) : Dom(result, false) {}
    std::string error;

    bool start_object(std::size_t n) { return enter() && Dom::start_object(n); }
    bool end_object() {
        --m_depth;
        return Dom::end_object();
    }
    bool start_array(std::size_t n) { return enter() && Dom::start_array(n); }
    bool end_array() {
        --m_depth;
        return Dom::end_array();
    }
    template <class Exception>
    bool parse_error(std::size_t position, const std::string& token, const Exception& e) {
        error = std::string("header is not valid CBOR (") + e.what() + ")";
        return Dom::parse_error(position, token, e);
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
};

// Reads the header only up to its top-level "events" (the keys come sorted, so before the
// per-event arrays a big run's header holds) and stops there.
class EventCountReader : public nlohmann::json_sax<json> {
  public:
    std::optional<uint64_t> events;

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t v) override { return found(v >= 0, uint64_t(v)); }
    bool number_unsigned(number_unsigned_t v) override { return found(true, v); }
    bool number_float(number_float_t, const string_t&) override { return !m_atEvents; }
    bool string(string_t&) override { return !m_atEvents; }
    bool binary(binary_t&) override { return !m_atEvents; }
    bool start_object(std::size_t) override { return enter(); }
    bool key(string_t& k) override {
        m_atEvents = m_depth == 1 && k == "events";
        return true;
    }
    bool end_object() override { return leave(); }
    bool start_array(std::size_t) override { return enter(); }
    bool end_array() override { return leave(); }
    bool parse_error(std::size_t, const std::string&, const json::exception&) override {
        return false;
    }

  private:
    int m_depth = 0;
    bool m_atEvents = false;

    bool found(bool valid, uint64_t v) {
        if (m_atEvents && m_depth == 1) {
            if (valid) {
                events = v;
            }
            return false;  // stop: nothing after it is needed
        }
        return true;
    }
    bool enter() {
        if (m_atEvents && m_depth == 1) {
            return false;  // "events" is not a number
        }
        return ++m_depth <= kMaxHeaderDepth;
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

// The file a load reads: open, its size, and reads of exact byte ranges (the two decoding
// threads share the FILE: reads are one at a time).
struct OpenFile {
    explicit OpenFile(const std::string& p) : path(p), file(std::fopen(p.c_str(), "rb")) {
        if (!file)
            throw RunFileError(path, "cannot open: " + errnoText());
        const int64_t bytes = fileSize(file.get());
        if (bytes < 0 || !seekTo(file.get(), 0)) {
            throw RunFileError(path, "cannot read: " + errnoText());
        }
        size = static_cast<uint64_t>(bytes);
    }
    RunFileError truncated(const std::string& what, uint64_t need, uint64_t at) const {
        return RunFileError(path, "truncated: " + what + " needs " + std::to_string(need) +
                                      " bytes at offset " + std::to_string(at) + ", file has " +
                                      std::to_string(size));
    }
    void readExactly(void* out, uint64_t bytes, uint64_t at, const std::string& what) {
        if (bytes == 0)
            return;
        std::lock_guard<std::mutex> lock(mutex);
        if (!seekTo(file.get(), at))
            throw RunFileError(path, "cannot read: " + errnoText());
        if (std::fread(out, 1, bytes, file.get()) != bytes) {
            if (std::ferror(file.get())) {
                throw RunFileError(path, "cannot read " + what + ": " + errnoText());
            }
            throw truncated(what, bytes, at);  // the file shrank while we read it
        }
    }

    const std::string& path;
    FilePtr file;
    uint64_t size = 0;
    std::mutex mutex;
};

// A run file's preamble and header bytes, checked (identity first, so a newer file gets the
// version message whatever follows), and where its column data begins.
struct FileHeader {
    uint32_t version = 0;
    uint64_t data_start = 0;
    uint64_t data_size = 0;
    std::vector<uint8_t> cbor;  // the header, decompressed
};

FileHeader readHeader(OpenFile& f) {
    constexpr size_t kPreambleSize = RunFile::kPreambleSize;
    constexpr uint32_t kFormatVersion = RunFile::kFormatVersion;
    // ---- preamble: identity first, so a newer file gets the version message whatever follows
    unsigned char preamble[kPreambleSize] = {};
    const size_t have = static_cast<size_t>(std::min<uint64_t>(f.size, kPreambleSize));
    if (have > 0 && std::fread(preamble, 1, have, f.file.get()) != have) {
        throw RunFileError(f.path, "cannot read: " + errnoText());
    }
    if (have < sizeof(kMagic) || std::memcmp(preamble, kMagic, sizeof(kMagic)) != 0) {
        throw RunFileError(f.path, "not a Memscope run file");
    }
    if (have < 12)
        throw f.truncated("the format version", 4, 8);
    const auto version = static_cast<uint32_t>(getLe(preamble + 8, 4));
    if (version > kFormatVersion) {
        throw RunFileError(f.path, "written by a newer Memscope (format " +
                                       std::to_string(version) + "; this build reads up to " +
                                       std::to_string(kFormatVersion) + ")");
    }
    if (version == 0)
        throw RunFileError(f.path, "unknown format version 0");
    if (have < kPreambleSize)
        throw f.truncated("the header length", 8, 12);
    const uint64_t header_size = getLe(preamble + 12, 8);
    if (header_size > f.size - kPreambleSize) {
        throw f.truncated("the header", header_size, kPreambleSize);
    }
    const uint64_t data_start = kPreambleSize + header_size;
    const uint64_t data_size = f.size - data_start;

    // ---- header
    std::vector<uint8_t> cbor(static_cast<size_t>(header_size));
    f.readExactly(cbor.data(), header_size, kPreambleSize, "the header");
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
                throw RunFileError(f.path, "header is not valid (it inflates past its limit)");
            const size_t old = out.size();
            out.resize(std::min<uint64_t>(cap, std::max<size_t>(old * 2, 1 << 16)));
            ZSTD_outBuffer ob{out.data() + old, out.size() - old, 0};
            ret = ZSTD_decompressStream(dctx.get(), &ob, &in);
            out.resize(old + ob.pos);
            if (ZSTD_isError(ret)) {
                throw RunFileError(f.path, std::string("header is not valid zstd (") +
                                               ZSTD_getErrorName(ret) + ")");
            }
            if (ret != 0 && in.pos == in.size && ob.pos < ob.size) {
                throw RunFileError(f.path, "header is not valid zstd (the frame is incomplete)");
            }
        }
        cbor = std::move(out);
    }
    FileHeader out;
    out.version = version;
    out.data_start = data_start;
    out.data_size = data_size;
    out.cbor = std::move(cbor);
    return out;
}

// The header's bytes built into JSON.
json parseHeader(const std::string& path, const std::vector<uint8_t>& cbor) {
    json header;
    HeaderParser parser(header);
    bool parsed = false;
    try {
        parsed = json::sax_parse(cbor.begin(), cbor.end(), &parser, json::input_format_t::cbor);
    } catch (const json::exception& e) {  // the builder throws on an absurd size
        throw RunFileError(path, std::string("header is not valid CBOR (") + e.what() + ")");
    }
    if (!parsed) {
        throw RunFileError(path, parser.error.empty() ? "header is not valid CBOR" : parser.error);
    }
    if (!header.is_object())
        throw RunFileError(path, "header is not a map");
    return header;
}

}  // namespace

uint64_t RunFile::eventCount(const std::string& path) {
    OpenFile opened(path);
    const FileHeader read = readHeader(opened);
    EventCountReader reader;
    try {
        json::sax_parse(read.cbor.begin(), read.cbor.end(), &reader, json::input_format_t::cbor);
    } catch (const json::exception&) {
        reader.events.reset();  // parseHeader below says what is wrong
    }
    if (!reader.events) {
        // Not found before the parse stopped: the whole header says what is wrong.
        return headerUnsigned(parseHeader(path, read.cbor), "events", path);
    }
    return *reader.events;
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
    OpenFile opened(path);
    FileHeader read = readHeader(opened);
    const uint32_t version = read.version;
    const uint64_t data_start = read.data_start;
    const uint64_t data_size = read.data_size;
    json header = parseHeader(path, read.cbor);
    read.cbor = {};

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
            assignValues(trace.raw_stack, uint32Array(j.at("events"), "events"));
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
        if (e == entries.end() && name == "raw_stack" && version >= 2) {
            // The raw stack of each event, a column of its own (RunFile::save): after the
            // event columns.
            DirEntry raw;
            raw.column.element_size = sizeof(uint32_t);
            entries.push_back({name, std::move(raw)});
            e = entries.end() - 1;
        }
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
                    throw opened.truncated(what, chunk.length, at);
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
            throw opened.truncated(where, entry.length, at);
        }
    }
    for (const auto& [name, entry] : entries) {
        if (!entry.column.present)
            throw RunFileError(path, "column '" + name + "' is missing");
    }
    const bool raw_column = !entries.empty() && entries.back().first == "raw_stack";
    header = json();
    // A preview reads the chunks that hold its first events, whole chunks (LoadOptions).
    uint64_t loaded = count;
    uint64_t loaded_chunks = chunk_count;
    if (version >= 2 && options.preview_events > 0 && options.preview_events < count) {
        loaded_chunks = (options.preview_events + chunk_events - 1) / chunk_events;
        loaded = std::min(count, loaded_chunks * chunk_events);
    }

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
            std::vector<std::decay_t<decltype(column[0])>> staging;
            auto* values = stageValues(column, static_cast<size_t>(count), staging);
            const std::string what = std::string("column '") + name + "'";
            auto* bytes = reinterpret_cast<unsigned char*>(values);
            constexpr uint64_t kPiece = uint64_t(64) << 20;
            for (uint64_t at = 0; at < entry.length; at += kPiece) {
                checkCancel();
                const uint64_t n = std::min(kPiece, entry.length - at);
                // A short read of a piece still reports the whole column.
                if (!seekTo(opened.file.get(), data_start + entry.offset + at))
                    throw RunFileError(path, "cannot read: " + errnoText());
                if (std::fread(bytes + at, 1, n, opened.file.get()) != n) {
                    if (std::ferror(opened.file.get()))
                        throw RunFileError(path, "cannot read " + what + ": " + errnoText());
                    throw opened.truncated(what, entry.length, data_start + entry.offset);
                }
                done += n;
                progress(0.02 + (kColumnsEnd - 0.02) * double(done) /
                                    double(std::max<uint64_t>(total, 1)));
            }
            if (checksum(values, entry.length) != entry.checksum) {
                throw RunFileError(path, what + " is corrupt (checksum mismatch)");
            }
            unstage(column, staging);
        });
    } else {
        std::vector<std::pair<size_t, size_t>> jobs;  // (column, chunk)
        uint64_t total = 0;
        for (size_t c = 0; c < entries.size(); ++c) {
            for (size_t k = 0; k < size_t(loaded_chunks); ++k) {
                jobs.push_back({c, k});
                total += entries[c].second.chunks[k].raw_length;
            }
        }
        // The columns are packed: each loads through a plain array (uninitialized: every
        // value is decoded into it), made when its first chunk is decoded and packed by the
        // thread that decodes its last. The jobs go column by column, so that two or three
        // columns are plain at a time, not all of them.
        const size_t event_columns = entries.size() - (raw_column ? 1 : 0);
        std::vector<std::unique_ptr<unsigned char[]>> staging(entries.size());
        std::vector<std::once_flag> staged(entries.size());
        std::unique_ptr<std::atomic<uint64_t>[]> remaining(
            new std::atomic<uint64_t>[entries.size()]);
        for (size_t c = 0; c < entries.size(); ++c) {
            remaining[c] = loaded_chunks;
        }
        auto withColumn = [&](size_t c, auto&& f) {  // f(column c), the raw stack last
            size_t index = 0;
            forEachEventColumn(trace.events, [&](const char*, auto& column) {
                if (index++ == c)
                    f(column);
            });
            if (c == event_columns)
                f(trace.raw_stack);
        };
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
                opened.readExactly(stored.data(), chunk.length, data_start + chunk.offset, what);
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
                bool ok = true;
                withColumn(c, [&](auto& column) {
                    using T = std::decay_t<decltype(column[0])>;
                    std::call_once(staged[c], [&] {
                        staging[c].reset(new unsigned char[size_t(loaded) * sizeof(T)]);
                    });
                    ok = decodeColumn(raw.data(), raw.size(), entry.encoding,
                                      reinterpret_cast<T*>(staging[c].get()) + first, n);
                });
                if (!ok) {
                    throw RunFileError(
                        path, what + " is corrupt (its " + encodingName(entry.encoding) +
                                  " values do not decode to " + std::to_string(n) + " events)");
                }
                if (remaining[c].fetch_sub(1) == 1) {
                    withColumn(c, [&](auto& column) {
                        using T = std::decay_t<decltype(column[0])>;
                        column.assign(reinterpret_cast<const T*>(staging[c].get()), size_t(loaded));
                    });
                    staging[c].reset();
                }
                done += chunk.raw_length;
            },
            [&](size_t) {
                progress(0.02 + (kColumnsEnd - 0.02) * double(done.load()) /
                                    double(std::max<uint64_t>(total, 1)));
            });
    }
    opened.file.reset();
    checkCancel();

    if (auto error = checkEventValues(trace.events, trace.stacks.nodeCount()); !error.empty()) {
        throw RunFileError(path, error);
    }
    if (!trace.raw_stack.empty()) {
        // From the header: every event's; from the column: the events read.
        if (trace.raw_stack.size() != (raw_column ? loaded : count)) {
            throw RunFileError(path, "bad 'raw_stacks': " + std::to_string(trace.raw_stack.size()) +
                                         " event stacks for " + std::to_string(count) + " events");
        }
        const size_t nodes = trace.raw_stacks.nodeCount();
        const bool out_of_range = maxOf(trace.raw_stack) >= nodes;
        for (size_t i = 0; out_of_range && i < trace.raw_stack.size(); ++i) {
            if (trace.raw_stack[i] >= nodes) {
                throw RunFileError(
                    path, "bad 'raw_stacks': event " + std::to_string(i) + " names raw stack " +
                              std::to_string(trace.raw_stack[i]) + " of " + std::to_string(nodes));
            }
        }
    }
    if (loaded < count) {
        // The preview: its events as a range from the start keeps them, its figures computed
        // again (the stored summary is the whole run's).
        if (!trace.raw_stack.empty()) {
            trace.raw_stack.resize(size_t(loaded));
        }
        uint64_t reached = 0;
        for (const auto& [name, entry] : entries) {
            for (uint64_t k = 0; k < loaded_chunks; ++k) {
                reached = std::max(reached, entry.chunks[k].offset + entry.chunks[k].length);
            }
        }
        TraceRange::keep(trace, 0, size_t(loaded));
        json summary = json::object();
        if (trace.summary.is_object() && trace.summary.contains("program")) {
            summary["program"] = trace.summary["program"];
        }
        summary["preview"] = {{"entries", loaded},
                              {"events_total", count},
                              {"offset", data_start + reached},
                              {"file_bytes", data_start + data_size}};
        trace.summary = std::move(summary);
        trace.meta.source += "; preview: the first " + std::to_string(loaded) + " events of " +
                             std::to_string(count);
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
