#include "io/journal_recovery.h"

#include "io/run_file_error.h"
#include "io/run_journal.h"
#include "trace/trace_summary.h"
#include "train/step_metrics_json.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace memscope {

using json = nlohmann::json;

namespace {

uint32_t getU32(const char* p) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
        v |= uint32_t(uint8_t(p[i])) << (8 * i);
    }
    return v;
}

// A byte array of T from a chunk, or throws a message naming the field.
template <typename T>
std::vector<T> typedArray(const json& parent, const char* field, size_t expected) {
    const auto it = parent.find(field);
    if (it == parent.end() || !it->is_binary()) {
        throw std::string("'") + field + "' is missing or not a byte array";
    }
    const auto& bytes = it->get_binary();
    if (bytes.size() % sizeof(T) != 0 ||
        (expected != size_t(-1) && bytes.size() / sizeof(T) != expected)) {
        throw std::string("'") + field + "' has " + std::to_string(bytes.size()) +
            " bytes, not a whole number of entries of the other fields' length";
    }
    std::vector<T> out(bytes.size() / sizeof(T));
    if (!out.empty()) {
        std::memcpy(out.data(), bytes.data(), bytes.size());
    }
    return out;
}

size_t firstIndex(const json& chunk, const char* field, size_t have, bool may_overlap) {
    const auto it = chunk.find(field);
    if (it == chunk.end() || !it->is_number_unsigned()) {
        throw std::string("'") + field + "' is missing";
    }
    const auto first = it->get<uint64_t>();
    if (may_overlap ? first > have : first != have) {
        throw std::string("'") + field + "' is " + std::to_string(first) + ", expected " +
            std::to_string(have) + " (a chunk is missing)";
    }
    return static_cast<size_t>(first);
}

// What one chunk adds, decoded and checked against the trace so far before anything is applied:
// a chunk is taken whole or not at all.
struct Rebuild {
    json meta;
    std::vector<Frame> frames;
    std::vector<uint32_t> parents{StackTable::kEmpty};
    std::vector<uint32_t> node_frames{0};
    EventColumns events;
    int64_t event_base = 0;  // index of the first event (bounded runs dropped the ones before)
    bool have_events = false;
    std::vector<Span> spans;
    std::vector<PhaseInterval> phases;
    std::vector<std::string> shapes{std::string()};
    std::vector<StepMetrics> steps;
    std::vector<OperatorStat> operators;
};

void applyChunk(const json& c, Rebuild& r) {
    if (!c.is_object()) {
        throw std::string("the payload is not a map");
    }
    json meta = c.contains("meta") ? c.at("meta") : r.meta;
    if (!meta.is_object() && !meta.is_null()) {
        throw std::string("'meta' is not a map");
    }

    std::vector<Frame> frames;
    if (c.contains("frames")) {
        firstIndex(c, "frame_first", r.frames.size(), false);
        for (const auto& f : c.at("frames")) {
            if (!f.is_array() || f.size() != 4 || !f[0].is_string() || !f[1].is_string() ||
                !f[2].is_number_integer() || !f[3].is_number_integer() || f[3].get<int>() < 0 ||
                f[3].get<int>() > static_cast<int>(FrameKind::Other)) {
                throw std::string("a frame is not [name, file, line, kind]");
            }
            frames.push_back(Frame{f[0].get<std::string>(), f[1].get<std::string>(),
                                   f[2].get<int32_t>(), static_cast<FrameKind>(f[3].get<int>())});
        }
    }
    const size_t frame_count = r.frames.size() + frames.size();

    std::vector<uint32_t> parents, node_frames;
    if (c.contains("parents")) {
        firstIndex(c, "node_first", r.parents.size(), true);
        const size_t first = c.at("node_first").get<size_t>();
        parents = typedArray<uint32_t>(c, "parents", size_t(-1));
        node_frames = typedArray<uint32_t>(c, "node_frames", parents.size());
        // Node 0 (the empty stack) is in the first chunk again; skip what is already there.
        const size_t skip = r.parents.size() - first;
        if (skip > parents.size()) {
            throw std::string("'node_first' overlaps more nodes than it sends");
        }
        parents.erase(parents.begin(), parents.begin() + static_cast<std::ptrdiff_t>(skip));
        node_frames.erase(node_frames.begin(),
                          node_frames.begin() + static_cast<std::ptrdiff_t>(skip));
        for (size_t i = 0; i < parents.size(); ++i) {
            const size_t id = r.parents.size() + i;
            if (parents[i] >= id || node_frames[i] >= frame_count) {
                throw std::string("stack node ") + std::to_string(id) +
                    " names a parent or frame that does not exist";
            }
        }
    }
    const size_t node_count = r.parents.size() + parents.size();

    EventColumns events;
    int64_t event_first = r.event_base + static_cast<int64_t>(r.events.count());
    if (c.contains("events")) {
        const auto it = c.find("event_first");
        if (it == c.end() || !it->is_number_unsigned()) {
            throw std::string("'event_first' is missing");
        }
        event_first = it->get<int64_t>();
        // A bounded run may have dropped events between chunks; never may one go back.
        if (r.have_events ? event_first != r.event_base + static_cast<int64_t>(r.events.count())
                          : false) {
            throw std::string("'event_first' is ") + std::to_string(event_first) + ", expected " +
                std::to_string(r.event_base + static_cast<int64_t>(r.events.count())) +
                " (a chunk is missing)";
        }
        const json& e = c.at("events");
        events.time_ns = typedArray<int64_t>(e, "time_ns", size_t(-1));
        const size_t n = events.time_ns.size();
        events.addr = typedArray<uint64_t>(e, "addr", n);
        events.size = typedArray<int64_t>(e, "size", n);
        events.allocated = typedArray<int64_t>(e, "allocated", n);
        events.reserved = typedArray<int64_t>(e, "reserved", n);
        events.stack = typedArray<uint32_t>(e, "stack", n);
        events.step = typedArray<int32_t>(e, "step", n);
        events.kind = typedArray<uint8_t>(e, "kind", n);
        events.phase = typedArray<uint8_t>(e, "phase", n);
        events.thread = typedArray<uint16_t>(e, "thread", n);
        events.device = typedArray<int16_t>(e, "device", n);
        for (size_t i = 0; i < n; ++i) {
            if (events.stack[i] >= node_count) {
                throw std::string("an event names stack ") + std::to_string(events.stack[i]) +
                    ", beyond the " + std::to_string(node_count) + " stack nodes";
            }
            if (events.kind[i] > static_cast<uint8_t>(EventKind::Role) ||
                events.phase[i] > static_cast<uint8_t>(Phase::Other)) {
                throw std::string("an event has an unknown kind or phase");
            }
        }
    }

    std::vector<std::string> shapes;
    if (c.contains("shapes")) {
        firstIndex(c, "shape_first", r.shapes.size(), true);
        const size_t first = c.at("shape_first").get<size_t>();
        for (const auto& s : c.at("shapes")) {
            if (!s.is_string()) {
                throw std::string("'shapes' holds something that is not a string");
            }
            shapes.push_back(s.get<std::string>());
        }
        const size_t skip = r.shapes.size() - first;
        if (skip > shapes.size()) {
            throw std::string("'shape_first' overlaps more strings than it sends");
        }
        shapes.erase(shapes.begin(), shapes.begin() + static_cast<std::ptrdiff_t>(skip));
    }
    const size_t shape_count = r.shapes.size() + shapes.size();

    std::vector<Span> spans;
    if (c.contains("spans")) {
        firstIndex(c, "span_first", r.spans.size(), false);
        const json& s = c.at("spans");
        const auto begin = typedArray<int64_t>(s, "begin_ns", size_t(-1));
        const auto end = typedArray<int64_t>(s, "end_ns", begin.size());
        const auto stack = typedArray<uint32_t>(s, "stack", begin.size());
        const auto thread = typedArray<uint16_t>(s, "thread", begin.size());
        const auto shape = typedArray<uint32_t>(s, "shapes", begin.size());
        for (size_t i = 0; i < begin.size(); ++i) {
            if (stack[i] >= node_count || shape[i] >= shape_count) {
                throw std::string("a span names a stack node or shape that does not exist");
            }
            spans.push_back(Span{begin[i], end[i], stack[i], thread[i], shape[i]});
        }
    }

    std::vector<PhaseInterval> phases;
    size_t phase_first = r.phases.size();
    if (c.contains("phases")) {
        phase_first = firstIndex(c, "phase_first", r.phases.size(), true);
        for (const auto& p : c.at("phases")) {
            if (!p.is_array() || p.size() != 4 || !p[0].is_number_integer() ||
                p[0].get<int>() < 0 || p[0].get<int>() > static_cast<int>(Phase::Other) ||
                !p[1].is_number_integer() || !p[2].is_number_integer() ||
                !p[3].is_number_integer()) {
                throw std::string("a phase is not [phase, step, begin_ns, end_ns]");
            }
            phases.push_back(PhaseInterval{static_cast<Phase>(p[0].get<int>()), p[1].get<int32_t>(),
                                           p[2].get<int64_t>(), p[3].get<int64_t>()});
        }
    }

    std::vector<StepMetrics> steps;
    if (c.contains("steps")) {
        firstIndex(c, "step_first", r.steps.size(), false);
        for (const auto& s : c.at("steps")) {
            if (!s.is_object()) {
                throw std::string("a step is not a map");
            }
            steps.push_back(stepMetricsFromJson(s));
        }
    }

    std::vector<OperatorStat> operators;
    const bool have_operators = c.contains("operators");
    if (have_operators) {
        for (const auto& o : c.at("operators")) {
            if (!o.is_object()) {
                throw std::string("an operator is not a map");
            }
            operators.push_back(OperatorStat::fromJson(o));
        }
    }

    // Everything checked: apply.
    r.meta = std::move(meta);
    r.frames.insert(r.frames.end(), frames.begin(), frames.end());
    r.parents.insert(r.parents.end(), parents.begin(), parents.end());
    r.node_frames.insert(r.node_frames.end(), node_frames.begin(), node_frames.end());
    if (c.contains("events")) {
        if (!r.have_events) {
            r.event_base = event_first;
            r.have_events = true;
        }
        r.events.reserve(r.events.count() + events.count());
        for (size_t i = 0; i < events.count(); ++i) {
            r.events.append(events.at(i));
        }
    }
    r.shapes.insert(r.shapes.end(), shapes.begin(), shapes.end());
    r.spans.insert(r.spans.end(), spans.begin(), spans.end());
    if (c.contains("phases")) {
        r.phases.resize(phase_first);
        r.phases.insert(r.phases.end(), phases.begin(), phases.end());
    }
    r.steps.insert(r.steps.end(), steps.begin(), steps.end());
    if (have_operators) {
        r.operators = std::move(operators);
    }
}

}  // namespace

std::string JournalRecovery::Result::describe() const {
    std::ostringstream out;
    out << "recovered " << events << " events (" << steps << (steps == 1 ? " step" : " steps")
        << " finished) from " << chunks << (chunks == 1 ? " chunk" : " chunks");
    if (bytes_dropped > 0) {
        out << "; dropped the last " << bytes_dropped << " bytes: " << dropped_reason;
    }
    return out.str();
}

JournalRecovery::Result JournalRecovery::recover(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw RunFileError(path, "cannot open the journal");
    }
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (data.size() < RunJournal::kFileHeaderSize ||
        data.compare(0, 8, RunJournal::kMagic, 8) != 0) {
        throw RunFileError(path, "not a Memscope journal (the file does not start with " +
                                     std::string(RunJournal::kMagic) + ")");
    }
    const uint32_t version = getU32(data.data() + 8);
    if (version > RunJournal::kVersion) {
        throw RunFileError(path, "journal version " + std::to_string(version) +
                                     " is newer than this Memscope reads (" +
                                     std::to_string(RunJournal::kVersion) + ")");
    }
    Result result;
    Rebuild r;
    size_t pos = RunJournal::kFileHeaderSize;
    while (pos < data.size()) {
        const size_t left = data.size() - pos;
        const std::string at =
            "chunk " + std::to_string(result.chunks + 1) + " at byte " + std::to_string(pos);
        if (left < RunJournal::kChunkHeaderSize) {
            result.dropped_reason = at + " is cut short (the run died while writing it)";
            break;
        }
        if (data.compare(pos, 4, RunJournal::kChunkMagic, 4) != 0) {
            result.dropped_reason =
                at + " does not start with " + std::string(RunJournal::kChunkMagic);
            break;
        }
        const uint32_t length = getU32(data.data() + pos + 4);
        const uint32_t crc = getU32(data.data() + pos + 8);
        if (length > left - RunJournal::kChunkHeaderSize) {
            result.dropped_reason = at + " is cut short (the run died while writing it)";
            break;
        }
        const char* payload = data.data() + pos + RunJournal::kChunkHeaderSize;
        if (RunJournal::crc32(payload, length) != crc) {
            result.dropped_reason = at + " fails its checksum";
            break;
        }
        try {
            const json chunk = json::from_cbor(payload, payload + length);
            applyChunk(chunk, r);
        } catch (const std::string& message) {
            result.dropped_reason = at + ": " + message;
            break;
        } catch (const std::exception& e) {
            result.dropped_reason = at + " cannot be read: " + e.what();
            break;
        }
        ++result.chunks;
        pos += RunJournal::kChunkHeaderSize + length;
    }
    result.bytes_kept = static_cast<int64_t>(pos);
    result.bytes_dropped = static_cast<int64_t>(data.size() - pos);
    if (result.chunks == 0 || !r.meta.is_object()) {
        throw RunFileError(path,
                           "nothing can be recovered from the journal" +
                               (result.dropped_reason.empty() ? std::string(": it holds no chunks")
                                                              : ": " + result.dropped_reason));
    }

    Trace& trace = result.trace;
    trace.meta = RunMetadata::fromJson(r.meta);
    trace.meta.source = "recovered from an unfinished journal";
    std::string error =
        trace.stacks.assign(std::move(r.frames), std::move(r.parents), std::move(r.node_frames));
    if (!error.empty()) {
        throw RunFileError(path, "the journal's stack table is inconsistent: " + error);
    }
    trace.events = std::move(r.events);
    if (r.event_base > 0) {
        trace.meta.dropped_events = std::max(trace.meta.dropped_events, r.event_base);
    }
    trace.spans = std::move(r.spans);
    trace.phases = std::move(r.phases);
    trace.shape_strings = std::move(r.shapes);
    trace.steps = std::move(r.steps);
    trace.operators = std::move(r.operators);
    trace.finalize();
    json summary = TraceSummary::compute(trace);
    // The trainer's own summary died with the run; its peak is the recorder's (CPU runs).
    if (summary.contains("peak_allocated_bytes_recorded")) {
        summary["peak_allocated_bytes"] = summary["peak_allocated_bytes_recorded"];
    }
    summary["recovered"] = true;
    summary["steps_completed"] = trace.steps.size();
    trace.summary = std::move(summary);
    result.events = static_cast<int64_t>(trace.events.count());
    result.steps = static_cast<int64_t>(trace.steps.size());
    return result;
}

std::vector<std::string> JournalRecovery::findJournals(const std::string& dir) {
    namespace fs = std::filesystem;
    std::vector<std::pair<fs::file_time_type, std::string>> found;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string p = it->path().string();
        if (it->is_regular_file(ec) && RunJournal::isJournalPath(p)) {
            found.emplace_back(it->last_write_time(ec), p);
        }
    }
    std::sort(found.begin(), found.end());
    std::vector<std::string> out;
    for (auto& f : found) {
        out.push_back(std::move(f.second));
    }
    return out;
}

}  // namespace memscope
