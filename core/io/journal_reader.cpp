#include "io/journal_reader.h"

#include "io/column_codec.h"
#include "io/run_file_error.h"
#include "io/run_journal.h"
#include "model/input_error.h"
#include "run/step_metrics_json.h"
#include "trace/for_each_event_column.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <type_traits>

namespace memscope {

using json = nlohmann::json;

namespace {

template <typename T>
void appendColumn(std::vector<T>& to, std::vector<T>&& from) {
    if (to.empty()) {
        to = std::move(from);
    } else {
        to.insert(to.end(), from.begin(), from.end());
    }
}
template <typename T>
void appendColumn(PackedColumn<T>& to, PackedColumn<T>&& from) {
    if (to.empty()) {
        to = std::move(from);
    } else {
        to.append(from.begin(), from.end());
    }
}

void appendColumns(EventColumns& to, EventColumns&& from) {
    appendColumn(to.time_ns, std::move(from.time_ns));
    appendColumn(to.addr, std::move(from.addr));
    appendColumn(to.size, std::move(from.size));
    appendColumn(to.allocated, std::move(from.allocated));
    appendColumn(to.reserved, std::move(from.reserved));
    appendColumn(to.stack, std::move(from.stack));
    appendColumn(to.step, std::move(from.step));
    appendColumn(to.kind, std::move(from.kind));
    appendColumn(to.phase, std::move(from.phase));
    appendColumn(to.thread, std::move(from.thread));
    appendColumn(to.device, std::move(from.device));
}

uint32_t getU32(const char* p) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
        v |= uint32_t(uint8_t(p[i])) << (8 * i);
    }
    return v;
}

// A byte array of T from a chunk, or throws an InputError naming the field.
template <typename T>
std::vector<T> typedArray(const json& parent, const char* field, size_t expected) {
    const auto it = parent.find(field);
    if (it == parent.end() || !it->is_binary()) {
        throw InputError(std::string("'") + field + "' is missing or not a byte array");
    }
    const auto& bytes = it->get_binary();
    if (bytes.size() % sizeof(T) != 0 ||
        (expected != size_t(-1) && bytes.size() / sizeof(T) != expected)) {
        throw InputError(std::string("'") + field + "' has " + std::to_string(bytes.size()) +
                         " bytes, not a whole number of entries of the other fields' length");
    }
    std::vector<T> out(bytes.size() / sizeof(T));
    if (!out.empty()) {
        std::memcpy(out.data(), bytes.data(), bytes.size());
    }
    return out;
}

// The number of entries a version 3 map of encoded columns holds ("count").
size_t countOf(const json& parent, const char* what) {
    const auto it = parent.find("count");
    if (it == parent.end() || !it->is_number_unsigned()) {
        throw InputError(std::string("'") + what + "' has no 'count'");
    }
    return static_cast<size_t>(it->get<uint64_t>());
}

// n values of T from a version 3 byte array encoded as `encoding`, or throws an InputError
// naming the field.
template <typename T>
std::vector<T> codedArray(const json& parent, const char* field, size_t n,
                          ColumnEncoding encoding) {
    const auto it = parent.find(field);
    if (it == parent.end() || !it->is_binary()) {
        throw InputError(std::string("'") + field + "' is missing or not a byte array");
    }
    const auto& bytes = it->get_binary();
    // Every value takes a byte at least: a count beyond that is damage, refused before anything
    // is allocated for it.
    std::vector<T> out(std::min(n, bytes.size()));
    if (n > bytes.size() || !decodeColumn(bytes.data(), bytes.size(), encoding, out.data(), n)) {
        throw InputError(std::string("'") + field + "' does not hold " + std::to_string(n) + " " +
                         columnEncodingName(encoding) + " values");
    }
    return out;
}

size_t firstIndex(const json& chunk, const char* field, size_t have, bool may_overlap) {
    const auto it = chunk.find(field);
    if (it == chunk.end() || !it->is_number_unsigned()) {
        throw InputError(std::string("'") + field + "' is missing");
    }
    const auto first = it->get<uint64_t>();
    if (may_overlap ? first > have : first != have) {
        throw InputError(std::string("'") + field + "' is " + std::to_string(first) +
                         ", expected " + std::to_string(have) + " (a chunk is missing)");
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
    int64_t peak = 0;  // the largest `allocated` among the events
};

// A chunk of a journal of `version`: from version 3 on, event and span columns are encoded
// (io/column_codec.h, RunJournal::eventEncoding and spanEncoding).
void applyChunk(const json& c, uint32_t version, Rebuild& r) {
    if (!c.is_object()) {
        throw InputError("the payload is not a map");
    }
    json meta = c.contains("meta") ? c.at("meta") : r.meta;
    if (!meta.is_object() && !meta.is_null()) {
        throw InputError("'meta' is not a map");
    }
    if (c.contains("meta")) {
        (void)RunMetadata::fromJson(meta);  // a field of the wrong type throws here, not later
    }

    std::vector<Frame> frames;
    if (c.contains("frames")) {
        firstIndex(c, "frame_first", r.frames.size(), false);
        for (const auto& f : c.at("frames")) {
            if (!f.is_array() || f.size() != 4 || !f[0].is_string() || !f[1].is_string() ||
                !f[2].is_number_integer() || !f[3].is_number_integer() || f[3].get<int>() < 0 ||
                f[3].get<int>() > static_cast<int>(FrameKind::Other)) {
                throw InputError("a frame is not [name, file, line, kind]");
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
            throw InputError("'node_first' overlaps more nodes than it sends");
        }
        parents.erase(parents.begin(), parents.begin() + static_cast<std::ptrdiff_t>(skip));
        node_frames.erase(node_frames.begin(),
                          node_frames.begin() + static_cast<std::ptrdiff_t>(skip));
        for (size_t i = 0; i < parents.size(); ++i) {
            const size_t id = r.parents.size() + i;
            if (parents[i] >= id || node_frames[i] >= frame_count) {
                throw InputError(std::string("stack node ") + std::to_string(id) +
                                 " names a parent or frame that does not exist");
            }
        }
    }
    const size_t node_count = r.parents.size() + parents.size();

    EventColumns events;
    int64_t event_first = r.event_base + static_cast<int64_t>(r.events.count());
    if (c.contains("events")) {
        const auto it = c.find("event_first");
        if (it == c.end() || !it->is_number_unsigned()) {
            throw InputError("'event_first' is missing");
        }
        event_first = it->get<int64_t>();
        // A bounded run may have dropped events between chunks; never may one go back.
        if (r.have_events ? event_first != r.event_base + static_cast<int64_t>(r.events.count())
                          : false) {
            throw InputError(std::string("'event_first' is ") + std::to_string(event_first) +
                             ", expected " +
                             std::to_string(r.event_base + static_cast<int64_t>(r.events.count())) +
                             " (a chunk is missing)");
        }
        const json& e = c.at("events");
        if (!e.is_object()) {
            throw InputError("'events' is not a map");
        }
        // Version 3 says how many events; before it, the first column (time_ns) does.
        size_t count = version >= 3 ? countOf(e, "events") : size_t(-1);
        forEachEventColumn(events, [&](const char* name, auto& column) {
            using T = typename std::decay_t<decltype(column)>::value_type;
            std::vector<T> values =
                version >= 3 ? codedArray<T>(e, name, count, RunJournal::eventEncoding(name))
                             : typedArray<T>(e, name, count);
            count = values.size();
            assignValues(column, std::move(values));
        });
        const size_t n = events.time_ns.size();
        for (size_t i = 0; i < n; ++i) {
            if (events.stack[i] >= node_count) {
                throw InputError(std::string("an event names stack ") +
                                 std::to_string(events.stack[i]) + ", beyond the " +
                                 std::to_string(node_count) + " stack nodes");
            }
            if (events.kind[i] > static_cast<uint8_t>(EventKind::Role) ||
                events.phase[i] > static_cast<uint8_t>(Phase::Other)) {
                throw InputError("an event has an unknown kind or phase");
            }
            if (beyondEventBytes(events.size[i]) || beyondEventBytes(events.allocated[i]) ||
                beyondEventBytes(events.reserved[i])) {
                throw InputError(std::string("event ") + std::to_string(i) +
                                 " has a size, allocated or reserved count beyond 256 TiB");
            }
        }
    }

    std::vector<std::string> shapes;
    if (c.contains("shapes")) {
        firstIndex(c, "shape_first", r.shapes.size(), true);
        const size_t first = c.at("shape_first").get<size_t>();
        for (const auto& s : c.at("shapes")) {
            if (!s.is_string()) {
                throw InputError("'shapes' holds something that is not a string");
            }
            shapes.push_back(s.get<std::string>());
        }
        const size_t skip = r.shapes.size() - first;
        if (skip > shapes.size()) {
            throw InputError("'shape_first' overlaps more strings than it sends");
        }
        shapes.erase(shapes.begin(), shapes.begin() + static_cast<std::ptrdiff_t>(skip));
    }
    const size_t shape_count = r.shapes.size() + shapes.size();

    std::vector<Span> spans;
    if (c.contains("spans")) {
        firstIndex(c, "span_first", r.spans.size(), false);
        const json& s = c.at("spans");
        if (!s.is_object()) {
            throw InputError("'spans' is not a map");
        }
        std::vector<int64_t> begin, end;
        std::vector<uint32_t> stack, shape;
        std::vector<uint16_t> thread;
        if (version >= 3) {
            const size_t count = countOf(s, "spans");
            const auto column = [&](auto& to, const char* name) {
                to = codedArray<typename std::decay_t<decltype(to)>::value_type>(
                    s, name, count, RunJournal::spanEncoding(name));
            };
            column(end, "end_ns");
            column(begin, "duration_ns");
            column(stack, "stack");
            column(thread, "thread");
            column(shape, "shapes");
            for (size_t i = 0; i < count; ++i) {  // begin = end - duration, modulo 2^64
                begin[i] = int64_t(uint64_t(end[i]) - uint64_t(begin[i]));
            }
        } else {
            begin = typedArray<int64_t>(s, "begin_ns", size_t(-1));
            end = typedArray<int64_t>(s, "end_ns", begin.size());
            stack = typedArray<uint32_t>(s, "stack", begin.size());
            thread = typedArray<uint16_t>(s, "thread", begin.size());
            shape = typedArray<uint32_t>(s, "shapes", begin.size());
        }
        spans.reserve(begin.size());
        for (size_t i = 0; i < begin.size(); ++i) {
            if (stack[i] >= node_count || shape[i] >= shape_count) {
                throw InputError("a span names a stack node or shape that does not exist");
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
                throw InputError("a phase is not [phase, step, begin_ns, end_ns]");
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
                throw InputError("a step is not a map");
            }
            steps.push_back(stepMetricsFromJson(s));
        }
    }

    std::vector<OperatorStat> operators;
    const bool have_operators = c.contains("operators");
    if (have_operators) {
        for (const auto& o : c.at("operators")) {
            if (!o.is_object()) {
                throw InputError("an operator is not a map");
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
        for (const int64_t a : events.allocated) {
            r.peak = std::max(r.peak, a);
        }
        appendColumns(r.events, std::move(events));
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

// A trace from what was taken: `r` is a copy (trace()) or moved out (takeTrace()).
Trace buildTrace(Rebuild r, const std::string& path) {
    Trace trace;
    trace.meta = RunMetadata::fromJson(r.meta);
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
    return trace;
}

}  // namespace

struct JournalReader::State : Rebuild {};

JournalReader::JournalReader(std::string path)
    : m_path(std::move(path)), m_state(std::make_unique<State>()) {}

JournalReader::~JournalReader() = default;

int64_t JournalReader::poll() {
    if (m_failed) {
        return 0;
    }
    std::ifstream in(m_path, std::ios::binary);
    if (!in) {
        return 0;  // not created yet, or removed once the run file was written
    }
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    if (size <= m_bytesRead) {
        return 0;
    }
    // Only what was appended since the last poll.
    in.seekg(m_bytesRead);
    const size_t have = m_pending.size();
    m_pending.resize(have + size_t(size - m_bytesRead));
    in.read(m_pending.data() + have, size - m_bytesRead);
    const std::streamsize got = in.gcount();
    m_pending.resize(have + size_t(std::max<std::streamsize>(got, 0)));
    m_bytesRead += got;

    if (!m_headerChecked) {
        const size_t n = std::min<size_t>(m_pending.size(), 8);
        if (m_pending.compare(0, n, RunJournal::kMagic, n) != 0) {
            throw RunFileError(m_path, "not a Memscope journal (the file does not start with " +
                                           std::string(RunJournal::kMagic) + ")");
        }
        if (m_pending.size() < RunJournal::kFileHeaderSize) {
            return 0;
        }
        uint32_t version = 0;
        for (int i = 0; i < 4; ++i) {
            version |= uint32_t(uint8_t(m_pending[size_t(8 + i)])) << (8 * i);
        }
        if (version == 0) {
            throw RunFileError(m_path, "journal version 0 is not one Memscope writes");
        }
        if (version > RunJournal::kVersion) {
            throw RunFileError(m_path, "journal version " + std::to_string(version) +
                                           " is newer than this Memscope reads (" +
                                           std::to_string(RunJournal::kVersion) + ")");
        }
        m_version = version;
        m_pending.erase(0, RunJournal::kFileHeaderSize);
        m_bytesKept = RunJournal::kFileHeaderSize;
        m_headerChecked = true;
    }
    const int64_t before = m_chunks;
    readChunks();
    return m_chunks - before;
}

void JournalReader::readChunks() {
    size_t pos = 0;
    while (pos < m_pending.size()) {
        const size_t left = m_pending.size() - pos;
        if (left < RunJournal::kChunkHeaderSize) {
            break;  // the rest is still being written
        }
        const std::string at =
            "chunk " + std::to_string(m_chunks + 1) + " at byte " + std::to_string(m_bytesKept);
        const char* head = m_pending.data() + pos;
        if (std::memcmp(head, RunJournal::kChunkMagic, 4) != 0) {
            m_failed = true;
            m_failure = at + " does not start with " + std::string(RunJournal::kChunkMagic);
            break;
        }
        const uint32_t length = getU32(head + 4);
        const uint32_t crc = getU32(head + 8);
        if (length > left - RunJournal::kChunkHeaderSize) {
            break;
        }
        const char* payload = head + RunJournal::kChunkHeaderSize;
        if (RunJournal::checksum(m_version, payload, length) != crc) {
            m_failed = true;
            m_failure = at + " fails its checksum";
            break;
        }
        try {
            const json chunk = json::from_cbor(payload, payload + length);
            applyChunk(chunk, m_version, *m_state);
        } catch (const InputError& e) {
            m_failed = true;
            m_failure = at + ": " + e.what();
            break;
        } catch (const std::exception& e) {
            m_failed = true;
            m_failure = at + " cannot be read: " + e.what();
            break;
        }
        ++m_chunks;
        m_peak = m_state->peak;
        const size_t whole = RunJournal::kChunkHeaderSize + length;
        pos += whole;
        m_bytesKept += int64_t(whole);
    }
    m_pending.erase(0, pos);
}

std::string JournalReader::stopReason() const {
    if (m_failed) {
        return m_failure;
    }
    if (!m_pending.empty()) {
        return "chunk " + std::to_string(m_chunks + 1) + " at byte " + std::to_string(m_bytesKept) +
               " is cut short (the run died while writing it)";
    }
    return std::string();
}

bool JournalReader::hasRun() const {
    return m_state->meta.is_object();
}

int64_t JournalReader::eventCount() const {
    return int64_t(m_state->events.count());
}

const std::vector<StepMetrics>& JournalReader::steps() const {
    return m_state->steps;
}

Trace JournalReader::trace() const {
    return buildTrace(*m_state, m_path);
}

Trace JournalReader::takeTrace() {
    Rebuild r = std::move(*m_state);
    *m_state = State();
    m_peak = 0;
    return buildTrace(std::move(r), m_path);
}

}  // namespace memscope
