#include "io/run_journal.h"

#include "io/run_file_error.h"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <unistd.h>
#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

namespace memscope {

using json = nlohmann::json;

namespace {

constexpr const char* kSuffix = ".journal";

std::array<uint32_t, 256> makeCrcTable() {
    std::array<uint32_t, 256> table{};
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t c = i;
        for (int k = 0; k < 8; ++k) {
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        }
        table[i] = c;
    }
    return table;
}

template <typename T>
json bytesOf(const std::vector<T>& v, size_t first) {
    const auto* begin = reinterpret_cast<const uint8_t*>(v.data() + first);
    const auto* end = reinterpret_cast<const uint8_t*>(v.data() + v.size());
    return json::binary(std::vector<uint8_t>(begin, end));
}

void putU32(std::string& out, uint32_t v) {
    for (int i = 0; i < 4; ++i) {
        out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
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

uint32_t RunJournal::crc32(const void* data, size_t bytes) {
    static const std::array<uint32_t, 256> table = makeCrcTable();
    uint32_t c = 0xFFFFFFFFu;
    const auto* p = static_cast<const uint8_t*>(data);
    for (size_t i = 0; i < bytes; ++i) {
        c = table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
    }
    return c ^ 0xFFFFFFFFu;
}

RunJournal::RunJournal(std::string path) : m_path(std::move(path)) {
    m_fd = ::open(m_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    if (m_fd < 0) {
        throw RunFileError(m_path, "cannot create the journal: " + systemError());
    }
    std::string header(kMagic, 8);
    putU32(header, kVersion);
    writeAll(header.data(), header.size());
    m_lastSync = std::chrono::steady_clock::now();
    m_dirty = true;
}

RunJournal::~RunJournal() {
    if (m_fd >= 0) {
        ::close(m_fd);
    }
}

void RunJournal::writeAll(const void* data, size_t bytes) {
    const auto* p = static_cast<const char*>(data);
    while (bytes > 0) {
        const ssize_t n = ::write(m_fd, p, bytes);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            throw RunFileError(m_path, "cannot write the journal: " + systemError());
        }
        p += n;
        bytes -= static_cast<size_t>(n);
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

void RunJournal::append(const Trace& trace, bool operators) {
    if (m_fd < 0) {
        return;
    }
    json chunk = json::object();
    const json meta = trace.meta.toJson();
    if (meta != m_meta) {
        chunk["meta"] = meta;
        m_meta = meta;
    }
    const StackTable& stacks = trace.stacks;
    if (stacks.frameCount() > m_frames) {
        json frames = json::array();
        for (size_t f = m_frames; f < stacks.frameCount(); ++f) {
            const Frame& frame = stacks.frame(static_cast<uint32_t>(f));
            frames.push_back({frame.name, frame.file, frame.line, static_cast<int>(frame.kind)});
        }
        chunk["frame_first"] = m_frames;
        chunk["frames"] = std::move(frames);
        m_frames = stacks.frameCount();
    }
    if (stacks.nodeCount() > m_nodes) {
        chunk["node_first"] = m_nodes;
        chunk["parents"] = bytesOf(stacks.parents(), m_nodes);
        chunk["node_frames"] = bytesOf(stacks.nodeFrames(), m_nodes);
        m_nodes = stacks.nodeCount();
    }
    // Bounded runs (max_events) drop old events from the front: index events from the run start.
    const int64_t dropped = trace.meta.dropped_events;
    const int64_t total = dropped + static_cast<int64_t>(trace.events.count());
    if (total > m_events) {
        const auto first = static_cast<size_t>(std::max<int64_t>(m_events - dropped, 0));
        const EventColumns& c = trace.events;
        chunk["event_first"] = static_cast<int64_t>(first) + dropped;
        chunk["events"] = {
            {"time_ns", bytesOf(c.time_ns, first)},   {"addr", bytesOf(c.addr, first)},
            {"size", bytesOf(c.size, first)},         {"allocated", bytesOf(c.allocated, first)},
            {"reserved", bytesOf(c.reserved, first)}, {"stack", bytesOf(c.stack, first)},
            {"step", bytesOf(c.step, first)},         {"kind", bytesOf(c.kind, first)},
            {"phase", bytesOf(c.phase, first)},       {"thread", bytesOf(c.thread, first)},
            {"device", bytesOf(c.device, first)}};
        m_events = total;
    }
    if (trace.spans.size() > m_spans) {
        std::vector<int64_t> begin, end;
        std::vector<uint32_t> stack, shapes;
        std::vector<uint16_t> thread;
        for (size_t i = m_spans; i < trace.spans.size(); ++i) {
            const Span& s = trace.spans[i];
            begin.push_back(s.begin_ns);
            end.push_back(s.end_ns);
            stack.push_back(s.stack);
            thread.push_back(s.thread);
            shapes.push_back(s.shapes);
        }
        chunk["span_first"] = m_spans;
        chunk["spans"] = {{"begin_ns", bytesOf(begin, 0)},
                          {"end_ns", bytesOf(end, 0)},
                          {"stack", bytesOf(stack, 0)},
                          {"thread", bytesOf(thread, 0)},
                          {"shapes", bytesOf(shapes, 0)}};
        m_spans = trace.spans.size();
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
            chunk["phase_first"] = first;
            chunk["phases"] = std::move(phases);
            m_phases = trace.phases.size();
            m_phaseEnd = last.end_ns;
        }
    }
    if (trace.shape_strings.size() > m_shapes) {
        chunk["shape_first"] = m_shapes;
        chunk["shapes"] = std::vector<std::string>(
            trace.shape_strings.begin() + static_cast<std::ptrdiff_t>(m_shapes),
            trace.shape_strings.end());
        m_shapes = trace.shape_strings.size();
    }
    if (trace.steps.size() > m_steps) {
        json steps = json::array();
        for (size_t i = m_steps; i < trace.steps.size(); ++i) {
            steps.push_back(trace.steps[i].toJson());
        }
        chunk["step_first"] = m_steps;
        chunk["steps"] = std::move(steps);
        m_steps = trace.steps.size();
    }
    if (operators && !trace.operators.empty()) {
        json ops = json::array();
        for (const auto& o : trace.operators) {
            ops.push_back(o.toJson());
        }
        chunk["operators"] = std::move(ops);
    }
    if (!chunk.empty()) {
        const std::vector<uint8_t> payload = json::to_cbor(chunk);
        std::string record(kChunkMagic, 4);
        putU32(record, static_cast<uint32_t>(payload.size()));
        putU32(record, crc32(payload.data(), payload.size()));
        record.append(reinterpret_cast<const char*>(payload.data()), payload.size());
        // One write per chunk: a crash tears at most this chunk, which the reader drops.
        writeAll(record.data(), record.size());
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
