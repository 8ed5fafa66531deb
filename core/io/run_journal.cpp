#include "io/run_journal.h"

#include "io/column_codec.h"
#include "io/crc32.h"
#include "io/run_file_error.h"
#include "model/input_error.h"
#include "trace/for_each_event_column.h"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <limits.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace memscope {

using json = nlohmann::json;

namespace {

constexpr const char* kSuffix = ".journal";

void putU32(uint8_t* out, uint32_t v) {
    for (int i = 0; i < 4; ++i) {
        out[i] = static_cast<uint8_t>((v >> (8 * i)) & 0xFF);
    }
}

std::string systemError() {
    return std::strerror(errno);
}

}  // namespace

std::string RunJournal::pathFor(const std::string& run_path) {
    return run_path + kSuffix;
}

bool RunJournal::isJournalPath(const std::string& path) {
    const size_t n = std::strlen(kSuffix);
    return path.size() > n && path.compare(path.size() - n, n, kSuffix) == 0;
}

std::string RunJournal::runPathFor(const std::string& journal_path) {
    return isJournalPath(journal_path)
               ? journal_path.substr(0, journal_path.size() - std::strlen(kSuffix))
               : journal_path;
}

ColumnEncoding RunJournal::eventEncoding(std::string_view column) {
    if (column == "kind" || column == "phase") {
        return ColumnEncoding::Raw;
    }
    return column == "size" ? ColumnEncoding::Varint : ColumnEncoding::DeltaVarint;
}

ColumnEncoding RunJournal::spanEncoding(std::string_view column) {
    return column == "duration_ns" || column == "shapes" ? ColumnEncoding::Varint
                                                         : ColumnEncoding::DeltaVarint;
}

uint8_t* RunJournal::arena(size_t bytes) {
    if (bytes > m_arenaBytes) {
        m_arenaBytes = std::max(bytes, m_arenaBytes * 2);
        m_arena.reset(new uint8_t[m_arenaBytes]);  // uninitialised: every byte is written first
    }
    return m_arena.get();
}

uint32_t RunJournal::checksum(uint32_t version, const void* data, size_t bytes) {
    return version >= 2 ? memscope::crc32c(0, data, bytes) : memscope::crc32(0, data, bytes);
}

std::vector<uint32_t> RunJournal::writableVersions() {
    std::vector<uint32_t> versions;
    for (uint32_t v = kOldestVersion; v <= kVersion; ++v) {
        versions.push_back(v);
    }
    return versions;
}

RunJournal::RunJournal(std::string path, uint32_t version)
    : m_path(std::move(path)), m_version(version) {
    if (version < kOldestVersion || version > kVersion) {
        throw InputError("RunJournal: cannot write journal version " + std::to_string(version));
    }
    m_fd = ::open(m_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    if (m_fd < 0) {
        throw RunFileError(m_path, "cannot create the journal: " + systemError());
    }
    uint8_t header[kFileHeaderSize];
    std::memcpy(header, kMagic, 8);
    putU32(header + 8, m_version);
    writeAll({iovec{header, sizeof header}});
    m_lastSync = std::chrono::steady_clock::now();
    m_dirty = true;
}

RunJournal::~RunJournal() {
    if (m_fd >= 0) {
        ::close(m_fd);
    }
}

void RunJournal::writeAll(std::vector<iovec> pieces) {
    iovec* next = pieces.data();
    size_t left = pieces.size();
    while (left > 0) {
        const int count = static_cast<int>(std::min<size_t>(left, IOV_MAX));
        ssize_t n = ::writev(m_fd, next, count);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            throw RunFileError(m_path, "cannot write the journal: " + systemError());
        }
        if (n == 0) {
            throw RunFileError(m_path, "cannot write the journal: the disk took no bytes");
        }
        // A short write: skip what went out, go on from the middle of a piece.
        while (left > 0 && static_cast<size_t>(n) >= next->iov_len) {
            n -= static_cast<ssize_t>(next->iov_len);
            ++next;
            --left;
        }
        if (left > 0) {
            next->iov_base = static_cast<char*>(next->iov_base) + n;
            next->iov_len -= static_cast<size_t>(n);
        }
    }
}

bool RunJournal::syncDue() const {
    return std::chrono::steady_clock::now() - m_lastSync >= kSyncInterval;
}

void RunJournal::sync() {
    if (m_fd < 0) {
        return;
    }
    if (m_dirty && ::fdatasync(m_fd) != 0) {
        throw RunFileError(m_path, "cannot sync the journal: " + systemError());
    }
    m_dirty = false;
    m_eventsSynced = m_events;
    m_lastSync = std::chrono::steady_clock::now();
}

namespace {

// A byte string of v[first, end), borrowed from the trace.
template <typename T>
void borrowColumn(CborPieces& out, std::string_view key, const std::vector<T>& v, size_t first) {
    out.text(key);
    out.borrowedBytes(v.data() + first, (v.size() - first) * sizeof(T));
}
// The same of a packed column: its values unpacked and copied in.
template <typename T>
void borrowColumn(CborPieces& out, std::string_view key, const PackedColumn<T>& v, size_t first) {
    std::vector<T> scratch;
    const size_t n = v.size() - first;
    out.text(key);
    out.ownedBytes(plainValues(v, first, n, scratch), n * sizeof(T));
}

// One column of the spans, copied out of the trace's span structs into `column` (versions 1-2).
template <typename T, typename Field>
void spanColumn(CborPieces& out, std::string_view key, const std::vector<Span>& spans, size_t first,
                std::vector<T>& column, Field field) {
    column.resize(spans.size() - first);
    for (size_t i = first; i < spans.size(); ++i) {
        column[i - first] = static_cast<T>(spans[i].*field);
    }
    borrowColumn(out, key, column, 0);
}

// n values get(0) .. get(n - 1) encoded into `arena` (version 3), which moves past them.
template <typename T, typename Get>
void codedColumn(CborPieces& out, std::string_view key, size_t n, ColumnEncoding e, uint8_t*& arena,
                 Get get) {
    const size_t bytes = encodeColumn<T>(n, e, arena, get);
    out.text(key);
    out.borrowedBytes(arena, bytes);
    arena += bytes;
}

// v[first, end) encoded as the journal encodes event column `key` (version 3).
template <typename Column>
void codedEventColumn(CborPieces& out, std::string_view key, const Column& v, size_t first,
                      uint8_t*& arena) {
    using T = std::decay_t<decltype(v[0])>;
    codedColumn<T>(out, key, v.size() - first, RunJournal::eventEncoding(key), arena,
                   [&v, first](size_t i) { return v[first + i]; });
}

}  // namespace

void RunJournal::append(const Trace& trace, bool operators) {
    if (m_fd < 0) {
        return;
    }
    // The chunk is a CBOR map written in pieces (io/cbor_pieces.h): the event and node columns go
    // from the trace to the file without a copy. Each entry is a key and its value; the map's
    // head, which needs the number of entries, is written in front at the end.
    CborPieces& out = m_pieces;
    out.clear();
    int entries = 0;
    auto key = [&](std::string_view name) {
        out.text(name);
        ++entries;
    };
    // Bounded runs (max_events) drop old events from the front: index events from the run start.
    const int64_t dropped = trace.meta.dropped_events;
    const int64_t total = dropped + static_cast<int64_t>(trace.events.count());
    const auto first_event = static_cast<size_t>(std::max<int64_t>(m_events - dropped, 0));
    const size_t new_events = total > m_events ? trace.events.count() - first_event : 0;
    const size_t new_spans = trace.spans.size() > m_spans ? trace.spans.size() - m_spans : 0;
    // Version 3 encodes the event and span columns into one buffer, sized for the most they can
    // take (10 bytes a value) before anything borrows from it.
    uint8_t* coded = m_version >= 3 ? arena((new_events * 11 + new_spans * 5) * 10) : nullptr;
    const json meta = trace.meta.toJson();
    if (meta != m_meta) {
        key("meta");
        out.value(meta);
        m_meta = meta;
    }
    const StackTable& stacks = trace.stacks;
    if (stacks.frameCount() > m_frames) {
        json frames = json::array();
        for (size_t f = m_frames; f < stacks.frameCount(); ++f) {
            const Frame& frame = stacks.frame(static_cast<uint32_t>(f));
            frames.push_back({frame.name, frame.file, frame.line, static_cast<int>(frame.kind)});
        }
        key("frame_first");
        out.unsignedInt(m_frames);
        key("frames");
        out.value(frames);
        m_frames = stacks.frameCount();
    }
    if (stacks.nodeCount() > m_nodes) {
        key("node_first");
        out.unsignedInt(m_nodes);
        ++entries;
        borrowColumn(out, "parents", stacks.parents(), m_nodes);
        ++entries;
        borrowColumn(out, "node_frames", stacks.nodeFrames(), m_nodes);
        m_nodes = stacks.nodeCount();
    }
    if (total > m_events) {
        const size_t first = first_event;
        const EventColumns& c = trace.events;
        key("event_first");
        out.unsignedInt(static_cast<uint64_t>(first) + static_cast<uint64_t>(dropped));
        key("events");
        if (m_version >= 3) {
            out.mapHead(12);
            out.text("count");
            out.unsignedInt(c.count() - first);
            forEachEventColumn(c, [&](const char* name, const auto& column) {
                codedEventColumn(out, name, column, first, coded);
            });
        } else {
            out.mapHead(11);
            forEachEventColumn(c, [&](const char* name, const auto& column) {
                borrowColumn(out, name, column, first);
            });
        }
        m_events = total;
    }
    if (trace.spans.size() > m_spans) {
        const auto& spans = trace.spans;
        key("span_first");
        out.unsignedInt(m_spans);
        key("spans");
        if (m_version >= 3) {
            const Span* from = spans.data() + m_spans;
            const size_t n = spans.size() - m_spans;
            out.mapHead(6);
            out.text("count");
            out.unsignedInt(n);
            codedColumn<int64_t>(
                out, "duration_ns", n, spanEncoding("duration_ns"), coded, [from](size_t i) {
                    // modulo 2^64, as the reader subtracts it again
                    return int64_t(uint64_t(from[i].end_ns) - uint64_t(from[i].begin_ns));
                });
            codedColumn<int64_t>(out, "end_ns", n, spanEncoding("end_ns"), coded,
                                 [from](size_t i) { return from[i].end_ns; });
            codedColumn<uint32_t>(out, "shapes", n, spanEncoding("shapes"), coded,
                                  [from](size_t i) { return from[i].shapes; });
            codedColumn<uint32_t>(out, "stack", n, spanEncoding("stack"), coded,
                                  [from](size_t i) { return from[i].stack; });
            codedColumn<uint16_t>(out, "thread", n, spanEncoding("thread"), coded,
                                  [from](size_t i) { return from[i].thread; });
        } else {
            out.mapHead(5);
            spanColumn(out, "begin_ns", spans, m_spans, m_spanBegin, &Span::begin_ns);
            spanColumn(out, "end_ns", spans, m_spans, m_spanEnd, &Span::end_ns);
            spanColumn(out, "shapes", spans, m_spans, m_spanShapes, &Span::shapes);
            spanColumn(out, "stack", spans, m_spans, m_spanStack, &Span::stack);
            spanColumn(out, "thread", spans, m_spans, m_spanThread, &Span::thread);
        }
        m_spans = spans.size();
    }
    if (!trace.phases.empty()) {
        // The last phase already written may have ended since: send it again.
        const size_t first = m_phases > 0 ? m_phases - 1 : 0;
        const PhaseInterval& last = trace.phases.back();
        const bool changed = trace.phases.size() > m_phases || m_phaseEnd != last.end_ns;
        if (changed) {
            json phases = json::array();
            for (size_t i = first; i < trace.phases.size(); ++i) {
                const PhaseInterval& p = trace.phases[i];
                phases.push_back({static_cast<int>(p.phase), p.step, p.begin_ns, p.end_ns});
            }
            key("phase_first");
            out.unsignedInt(first);
            key("phases");
            out.value(phases);
            m_phases = trace.phases.size();
            m_phaseEnd = last.end_ns;
        }
    }
    if (trace.shape_strings.size() > m_shapes) {
        key("shape_first");
        out.unsignedInt(m_shapes);
        key("shapes");
        out.value(std::vector<std::string>(
            trace.shape_strings.begin() + static_cast<std::ptrdiff_t>(m_shapes),
            trace.shape_strings.end()));
        m_shapes = trace.shape_strings.size();
    }
    if (trace.steps.size() > m_steps) {
        json steps = json::array();
        for (size_t i = m_steps; i < trace.steps.size(); ++i) {
            steps.push_back(trace.steps[i].toJson());
        }
        key("step_first");
        out.unsignedInt(m_steps);
        key("steps");
        out.value(steps);
        m_steps = trace.steps.size();
    }
    if (operators && !trace.operators.empty()) {
        json ops = json::array();
        for (const auto& o : trace.operators) {
            ops.push_back(o.toJson());
        }
        key("operators");
        out.value(ops);
    }
    if (entries > 0) {
        CborPieces map_head;
        map_head.mapHead(static_cast<uint64_t>(entries));
        const std::vector<uint8_t> head_bytes = map_head.bytes();
        const auto payload_bytes = head_bytes.size() + out.size();
        uint8_t header[kChunkHeaderSize + 9];  // and the map's head (at most 9 bytes)
        std::memcpy(header, kChunkMagic, 4);
        putU32(header + 4, static_cast<uint32_t>(payload_bytes));
        const auto crc = m_version >= 2 ? memscope::crc32c : memscope::crc32;
        putU32(header + 8, out.checksum(crc, crc(0, head_bytes.data(), head_bytes.size())));
        std::memcpy(header + kChunkHeaderSize, head_bytes.data(), head_bytes.size());
        // One write per chunk: a crash tears at most this chunk, which the reader drops.
        writeAll(out.iovecs(header, kChunkHeaderSize + head_bytes.size()));
        m_dirty = true;
        ++m_chunks;
    }
    if (syncDue()) {
        sync();
    }
}

void RunJournal::remove() {
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
    ::unlink(m_path.c_str());
}

}  // namespace memscope
