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
using run_file_detail::phasesToJson;
using run_file_detail::runOnTwoThreads;
using run_file_detail::segmentTagsToJson;
using run_file_detail::spansToJson;
using run_file_detail::stacksToJson;
using run_file_detail::toBytes;

// Highest EventKind value; viewers index tables with it.
constexpr uint8_t kMaxEventKind = static_cast<uint8_t>(EventKind::Role);

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

void putLe(unsigned char* out, uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i)
        out[i] = static_cast<unsigned char>(value >> (8 * i));
}

// The largest |value| (int64's minimum counts as 2^63), in one pass the compiler vectorises.
template <typename Column>
uint64_t largestMagnitude(const Column& v) {
    uint64_t m = 0;
    forEachValue(v, 0, v.size(), [&m](int64_t x) {
        const uint64_t u = uint64_t(x);
        m = std::max(m, x < 0 ? ~u + 1 : u);
    });
    return m;
}

template <typename T>
size_t firstAtLeast(const PackedColumn<T>& v, uint64_t limit) {
    for (size_t i = 0; i < v.size(); ++i) {
        if (uint64_t(v[i]) >= limit)
            return i;
    }
    return v.size();
}

}  // namespace

// "" when every value a viewer indexes with is in range.
std::string run_file_detail::checkEventValues(const EventColumns& events, size_t node_count) {
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
    std::string problem;
    auto check = [&](const char* name, const auto& column) {
        if (problem.empty() && !column.empty() &&
            largestMagnitude(column) > uint64_t(kMaxEventBytes)) {
            const size_t i = size_t(std::find_if(column.begin(), column.end(), beyondEventBytes) -
                                    column.begin());
            problem = "event " + std::to_string(i) + " has " + name + " " +
                      std::to_string(column[i]) + ", beyond 256 TiB";
        }
    };
    check("size", events.size), check("allocated", events.allocated);
    check("reserved", events.reserved);
    return problem;
}

namespace {

// ---- version 2 column encodings (io/column_codec.h) -------------------------------------------

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
    // Version 2 keeps the raw stack of each event (imports, Python programs) as one more column,
    // chunked as the others, so that a preview reads its first chunks only; the header's
    // raw_stacks.events is then empty (a build before this reads the file without them).
    const bool raw_column = v2 && trace.hasRawStacks();
    auto forEachColumn = [&](auto&& fn) {
        forEachEventColumn(events, fn);
        if (raw_column) {
            fn("raw_stack", trace.raw_stack);
        }
    };
    forEachColumn([&](const char* name, const auto&) {
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
                forEachColumn([&](const char*, const auto& v) {
                    if (column++ == job.column) {
                        std::vector<std::decay_t<decltype(v[0])>> scratch;
                        encodeColumn(plainValues(v, first, n, scratch), n, encodings[job.column],
                                     raw);
                    }
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
    forEachColumn([&](const char* name, const auto& column) {
        if (!v2) {
            const uint64_t length = column.size() * sizeof(column[0]);
            std::vector<std::decay_t<decltype(column[0])>> scratch;
            const auto* values = plainValues(column, 0, column.size(), scratch);
            columns.push_back({{"name", name},
                               {"element_size", sizeof(column[0])},
                               {"offset", offset},
                               {"length", length},
                               {"checksum", checksum(values, length)}});
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
        raw["events"] = toBytes(raw_column ? std::vector<uint32_t>() : trace.raw_stack.toVector());
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
        // Straight from the vectors (a packed column unpacked first): stdio passes writes this
        // large to the kernel without copying.
        forEachEventColumn(events, [&](const char*, const auto& column) {
            std::vector<std::decay_t<decltype(column[0])>> scratch;
            put(plainValues(column, 0, column.size(), scratch), column.size() * sizeof(column[0]));
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

}  // namespace memscope
