#include "io/snapshot_importer.h"

#include "io/pickle_error.h"
#include "io/pickle_reader.h"
#include "memscope_version.h"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <limits>
#include <unordered_map>

namespace memscope {

namespace {

constexpr int kMaxDevice = std::numeric_limits<int16_t>::max();

enum class Action : uint8_t {
    Alloc,
    FreeRequested,
    FreeCompleted,
    SegmentAlloc,
    SegmentFree,
    SegmentMap,
    SegmentUnmap,
    Oom,
    Skip,  // "snapshot", "annotate", unknown
};

enum class Field : uint8_t { Action, Addr, Size, TimeUs, Frames, Category, DeviceFree, Other };

// One trace entry, decoded once from its dict.
struct Entry {
    Action action = Action::Skip;
    bool has_addr = false;
    bool has_size = false;
    bool has_time = false;
    bool has_device_free = false;
    bool folded = false;  // a free_requested whose free_completed follows: the Free goes there
    uint32_t index = 0;   // position in the device's trace list (the time when none has one)
    uint64_t addr = 0;
    int64_t size = 0;
    int64_t time_us = 0;
    int64_t device_free = 0;
    const PickleValue* frames = nullptr;
    const PickleValue* category = nullptr;
};

// Addresses as PyTorch writes them: usually non-negative, but the C++ writer stores pointers as
// int64, so a negative value is the same 64 bits.
bool toAddress(const PickleValue& v, uint64_t& out) {
    if (const auto u = v.toUInt64()) {
        out = *u;
        return true;
    }
    if (const auto s = v.toInt64()) {
        out = static_cast<uint64_t>(*s);
        return true;
    }
    return false;
}

bool toSize(const PickleValue& v, int64_t& out) {
    const auto s = v.toInt64();
    if (!s || *s < 0) {
        return false;
    }
    out = *s;
    return true;
}

// Byte totals saturate instead of overflowing: sizes come from the file, and a hostile one may
// add up 2^62-byte blocks.
int64_t addSat(int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) {
        return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
    }
    return r;
}

int64_t subSat(int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_sub_overflow(a, b, &r)) {
        return b < 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
    }
    return r;
}

int64_t saturatingMicrosToNanos(int64_t from_us, int64_t to_us) {
    int64_t delta = 0;
    int64_t ns = 0;
    if (__builtin_sub_overflow(to_us, from_us, &delta) ||
        __builtin_mul_overflow(delta, int64_t(1000), &ns)) {
        return to_us >= from_us ? std::numeric_limits<int64_t>::max()
                                : std::numeric_limits<int64_t>::min();
    }
    return ns;
}

// The segments list: the value of `segments` in a 2.x dict, or the 1.13 bare list itself.
const PickleValue& segmentsOf(const PickleValue& snapshot) {
    return snapshot.isDict() ? snapshot.get("segments") : snapshot;
}

int segmentDevice(const PickleValue& segment) {
    const PickleValue* device = segment.find("device");
    if (!device) {
        return 0;  // single-device files may leave it out
    }
    const auto d = device->toInt64();
    return d && *d >= 0 && *d <= kMaxDevice ? static_cast<int>(*d) : -1;
}

std::string isoTimeFromMicros(int64_t time_us) {
    // Only plausible Unix times (2000 to 2200); anything else is not a wall clock.
    if (time_us < 946684800LL * 1000000 || time_us > 7258118400LL * 1000000) {
        return {};
    }
    const std::time_t seconds = static_cast<std::time_t>(time_us / 1000000);
    std::tm tm{};
    if (!gmtime_r(&seconds, &tm)) {
        return {};
    }
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string baseName(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Builds the Trace of one device.
class Builder {
  public:
    Builder(const PickleValue& snapshot, int device, std::string source)
        : m_snapshot(snapshot), m_device(device), m_source(std::move(source)) {}

    Trace build();

  private:
    void decodeEntries(const PickleValue& trace);
    bool decodeEntry(const PickleValue& dict, Entry& e);
    Field fieldOf(const PickleValue& key);
    Action actionOf(const PickleValue& value);
    void foldFrees();
    // Both emit into the trace's columns with allocated and reserved relative to the levels
    // at the start, which are only known at the end (build() adds them).
    int64_t emitInitialBlocks(EventColumns& out);
    void emitTrace(EventColumns& out, int64_t allocated);
    void emit(EventColumns& out, EventKind kind, int64_t time_ns, uint64_t addr, int64_t size,
              int64_t allocated, int64_t reserved, uint32_t stack);
    void emitRole(EventColumns& out, const PickleValue* category, int64_t time_ns, uint64_t addr,
                  int64_t allocated, int64_t reserved, uint32_t stack);
    uint32_t stackOf(const PickleValue* frames);
    uint32_t frameOf(const PickleValue& frame);

    const PickleValue& m_snapshot;
    const int m_device;
    const std::string m_source;
    Trace m_trace;
    std::vector<Entry> m_entries;
    int64_t m_skipped = 0;

    // Every address an alloc or free of the trace touches (or an initial block has): the
    // action after the current one, for foldFrees() walking backwards; then, for emitTrace()
    // walking forwards, whether the trace has shown it yet, whether it is live and its size.
    // One map for both passes: a million-entry trace has hundreds of thousands of addresses.
    struct Block {
        Action next = Action::Skip;
        bool seen = false;
        bool live = false;
        int64_t size = 0;
    };
    std::unordered_map<uint64_t, Block> m_blocks;
    int64_t m_freedFromStart = 0;  // bytes of frees with no alloc: live when the trace starts
    std::unordered_map<uint64_t, bool> m_segments;  // address -> reserved in the trace
    int64_t m_segmentsFromStart = 0;                // segment frees with no alloc
    int64_t m_reservedDelta = 0;                    // net reserved change over the trace
    int64_t m_firstTimeUs = 0;
    bool m_hasTime = false;

    // Keys and action names are memoized strings in PyTorch's files: one node each, so a
    // pointer comparison usually settles them.
    std::vector<std::pair<const void*, Field>> m_fieldCache;
    std::vector<std::pair<const void*, Action>> m_actionCache;
    std::unordered_map<const void*, uint32_t> m_stackCache;  // frame list node -> stack
    std::unordered_map<const void*, uint32_t> m_frameCache;  // frame dict node -> frame id + 1
};

Field Builder::fieldOf(const PickleValue& key) {
    const void* node = key.node();
    for (const auto& [n, f] : m_fieldCache) {
        if (n == node) {
            return f;
        }
    }
    Field f = Field::Other;
    if (key.isString()) {
        const std::string& k = key.text();
        if (k == "action") {
            f = Field::Action;
        } else if (k == "addr") {
            f = Field::Addr;
        } else if (k == "size") {
            f = Field::Size;
        } else if (k == "time_us") {
            f = Field::TimeUs;
        } else if (k == "frames") {
            f = Field::Frames;
        } else if (k == "category") {
            f = Field::Category;
        } else if (k == "device_free") {
            f = Field::DeviceFree;
        }
    }
    if (node && m_fieldCache.size() < 64) {
        m_fieldCache.emplace_back(node, f);
    }
    return f;
}

Action Builder::actionOf(const PickleValue& value) {
    const void* node = value.node();
    for (const auto& [n, a] : m_actionCache) {
        if (n == node) {
            return a;
        }
    }
    Action a = Action::Skip;
    if (value.isString()) {
        static const std::pair<const char*, Action> names[] = {
            {"alloc", Action::Alloc},
            {"free_requested", Action::FreeRequested},
            {"free_completed", Action::FreeCompleted},
            {"segment_alloc", Action::SegmentAlloc},
            {"segment_free", Action::SegmentFree},
            {"segment_map", Action::SegmentMap},
            {"segment_unmap", Action::SegmentUnmap},
            {"oom", Action::Oom},
            // Older files (2.0) called the requested free just "free".
            {"free", Action::FreeRequested},
        };
        for (const auto& [name, action] : names) {
            if (value.text() == name) {
                a = action;
                break;
            }
        }
    }
    if (node && m_actionCache.size() < 64) {
        m_actionCache.emplace_back(node, a);
    }
    return a;
}

bool Builder::decodeEntry(const PickleValue& dict, Entry& e) {
    if (!dict.isDict()) {
        return false;
    }
    bool has_action = false;
    for (const auto& [key, value] : dict.dictItems()) {
        switch (fieldOf(key)) {
            case Field::Action:
                e.action = actionOf(value);
                has_action = true;
                break;
            case Field::Addr:
                e.has_addr = toAddress(value, e.addr);
                break;
            case Field::Size:
                e.has_size = toSize(value, e.size);
                break;
            case Field::TimeUs:
                if (const auto t = value.toInt64()) {
                    e.time_us = *t;
                    e.has_time = true;
                } else if (const auto d = value.toDouble(); d && *d > -9e18 && *d < 9e18) {
                    e.time_us = static_cast<int64_t>(*d);  // a float time is still a time
                    e.has_time = true;
                }
                break;
            case Field::Frames:
                e.frames = &value;
                break;
            case Field::Category:
                e.category = &value;
                break;
            case Field::DeviceFree:
                e.has_device_free = toSize(value, e.device_free);
                break;
            case Field::Other:
                break;
        }
    }
    if (!has_action) {
        return false;
    }
    switch (e.action) {
        case Action::Alloc:
        case Action::SegmentAlloc:
        case Action::SegmentFree:
        case Action::SegmentMap:
        case Action::SegmentUnmap:
            return e.has_addr && e.has_size;
        case Action::FreeRequested:
        case Action::FreeCompleted:
            return e.has_addr;
        case Action::Oom:
            return true;
        case Action::Skip:
            return false;
    }
    return false;
}

void Builder::decodeEntries(const PickleValue& trace) {
    m_entries.reserve(trace.size());
    const auto& items = trace.items();
    for (size_t i = 0; i < items.size(); ++i) {
        const PickleValue& item = items[i];
        Entry e;
        e.index = static_cast<uint32_t>(std::min<size_t>(i, UINT32_MAX));
        const bool usable = decodeEntry(item, e);
        // Time starts at the first entry that has one, skipped entries included.
        if (e.has_time && !m_hasTime) {
            m_firstTimeUs = e.time_us;
            m_hasTime = true;
        }
        if (usable) {
            m_entries.push_back(e);
        } else {
            ++m_skipped;
        }
    }
}

// memory_viz folds "free_requested" followed by "free_completed" at the same address into one
// free. Walking backwards, the next action at each address is known when its free_requested
// is reached.
void Builder::foldFrees() {
    m_blocks.reserve(std::min<size_t>(m_entries.size(), 1 << 16));
    for (size_t i = m_entries.size(); i-- > 0;) {
        Entry& e = m_entries[i];
        if (e.action != Action::Alloc && e.action != Action::FreeRequested &&
            e.action != Action::FreeCompleted) {
            continue;
        }
        Block& b = m_blocks[e.addr];
        e.folded = e.action == Action::FreeRequested && b.next == Action::FreeCompleted;
        b.next = e.action;
    }
}

void Builder::emit(EventColumns& out, EventKind kind, int64_t time_ns, uint64_t addr, int64_t size,
                   int64_t allocated, int64_t reserved, uint32_t stack) {
    Event ev;
    ev.time_ns = time_ns;
    ev.addr = addr;
    ev.size = size;
    ev.allocated = allocated;
    ev.reserved = reserved;
    ev.stack = stack;
    ev.step = 0;
    ev.kind = kind;
    ev.phase = Phase::Other;
    ev.thread = 0;
    ev.device = static_cast<int16_t>(m_device);
    out.append(ev);
}

void Builder::emitRole(EventColumns& out, const PickleValue* category, int64_t time_ns,
                       uint64_t addr, int64_t allocated, int64_t reserved, uint32_t stack) {
    if (!category || !category->isString() || category->text().size() > 64) {
        return;
    }
    std::string upper = category->text();
    for (char& c : upper) {
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    if (const auto parsed = parseCategory(upper)) {
        emit(out, EventKind::Role, time_ns, addr, static_cast<int64_t>(*parsed), allocated,
             reserved, stack);
    }
}

uint32_t Builder::frameOf(const PickleValue& frame) {
    if (!frame.isDict()) {
        return 0;  // not a frame: 0 means skip (frame ids are looked up as id - 1 below)
    }
    if (auto it = m_frameCache.find(frame.node()); it != m_frameCache.end()) {
        return static_cast<uint32_t>(it->second);
    }
    Frame f;
    f.kind = FrameKind::Other;
    const PickleValue& name = frame.get("name");
    f.name = name.isString() ? name.text() : std::string("<unknown>");
    const PickleValue& file = frame.get("filename");
    if (file.isString()) {
        f.file = file.text();
    }
    if (const auto line = frame.get("line").toInt64()) {
        f.line = static_cast<int32_t>(std::clamp<int64_t>(
            *line, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()));
    }
    const uint32_t id = m_trace.stacks.internFrame(f) + 1;
    m_frameCache.emplace(frame.node(), id);
    return id;
}

uint32_t Builder::stackOf(const PickleValue* frames) {
    if (!frames || !frames->isSequence() || frames->size() == 0) {
        return StackTable::kEmpty;
    }
    if (auto it = m_stackCache.find(frames->node()); it != m_stackCache.end()) {
        return it->second;
    }
    uint32_t node = StackTable::kEmpty;
    const auto& items = frames->items();
    for (size_t i = items.size(); i-- > 0;) {  // PyTorch lists the innermost frame first
        if (const uint32_t id = frameOf(items[i])) {
            node = m_trace.stacks.child(node, id - 1);
        }
    }
    m_stackCache.emplace(frames->node(), node);
    return node;
}

void Builder::emitTrace(EventColumns& out, int64_t allocated) {
    out.reserve(out.count() + m_entries.size() + m_entries.size() / 8);
    int64_t reserved = 0;
    int64_t time_ns = 0;
    for (size_t i = 0; i < m_entries.size(); ++i) {
        const Entry& e = m_entries[i];
        if (!m_hasTime) {
            time_ns = static_cast<int64_t>(e.index) * 1000;
        } else if (e.has_time) {
            time_ns = saturatingMicrosToNanos(m_firstTimeUs, e.time_us);
        }
        switch (e.action) {
            case Action::Alloc: {
                Block& b = m_blocks[e.addr];
                b.seen = true;
                if (b.live) {
                    // Its free is not in the trace; Trace::finalize() ends it here too.
                    allocated = subSat(allocated, b.size);
                }
                b.live = true;
                b.size = e.size;
                allocated = addSat(allocated, e.size);
                const uint32_t stack = stackOf(e.frames);
                emit(out, EventKind::Alloc, time_ns, e.addr, e.size, allocated, reserved, stack);
                emitRole(out, e.category, time_ns, e.addr, allocated, reserved, stack);
                break;
            }
            case Action::FreeRequested:
            case Action::FreeCompleted: {
                if (e.folded) {
                    break;  // the free_completed that follows is the free
                }
                Block& b = m_blocks[e.addr];
                if (!b.seen) {
                    if (!e.has_size || e.size == 0) {
                        ++m_skipped;  // a free of unknown size with no alloc: nothing to show
                        break;
                    }
                    b.seen = true;
                    // Freed, never allocated in the trace: live from the start, so its bytes
                    // are in the starting level and its free lowers the total like any other.
                    m_freedFromStart = addSat(m_freedFromStart, e.size);
                    b.size = e.size;
                    b.live = true;
                }
                if (!b.live) {
                    ++m_skipped;  // already freed: not a second free
                    break;
                }
                b.live = false;
                allocated = subSat(allocated, b.size);
                emit(out, EventKind::Free, time_ns, e.addr, -b.size, allocated, reserved,
                     stackOf(e.frames));
                break;
            }
            case Action::SegmentAlloc:
            case Action::SegmentMap:
                m_segments[e.addr] = true;
                reserved = addSat(reserved, e.size);
                m_reservedDelta = addSat(m_reservedDelta, e.size);
                emit(out, EventKind::SegmentAlloc, time_ns, e.addr, e.size, allocated, reserved,
                     stackOf(e.frames));
                break;
            case Action::SegmentFree:
            case Action::SegmentUnmap: {
                auto [it, inserted] = m_segments.try_emplace(e.addr, false);
                if (!it->second) {
                    m_segmentsFromStart =
                        addSat(m_segmentsFromStart, e.size);  // reserved before the trace began
                }
                it->second = false;
                reserved = subSat(reserved, e.size);
                m_reservedDelta = subSat(m_reservedDelta, e.size);
                emit(out, EventKind::SegmentFree, time_ns, e.addr, -e.size, allocated, reserved,
                     stackOf(e.frames));
                break;
            }
            case Action::Oom: {
                int64_t capacity = reserved;
                if (e.has_device_free) {
                    capacity = addSat(capacity, e.device_free);
                }
                emit(out, EventKind::Oom, time_ns, e.has_addr ? e.addr : 0, e.has_size ? e.size : 0,
                     allocated, capacity, stackOf(e.frames));
                break;
            }
            case Action::Skip:
                break;
        }
    }
}

int64_t Builder::emitInitialBlocks(EventColumns& out) {
    int64_t allocated = 0;
    for (const PickleValue& segment : segmentsOf(m_snapshot).items()) {
        if (!segment.isDict() || segmentDevice(segment) != m_device) {
            continue;
        }
        uint64_t next_address = 0;
        bool has_address = toAddress(segment.get("address"), next_address);
        for (const PickleValue& block : segment.get("blocks").items()) {
            if (!block.isDict()) {
                continue;
            }
            int64_t block_size = 0;
            const bool has_block_size = toSize(block.get("size"), block_size);
            // Newer files leave out block addresses: they follow from the segment's address
            // and the sizes of the blocks before (as memory_viz computes them).
            uint64_t addr = next_address;
            bool has_addr = has_address;
            if (toAddress(block.get("address"), addr)) {
                has_addr = true;
            }
            const PickleValue& history = block.get("history");
            // The latest allocation in the block (1.13); at() gives None for an empty list.
            // (References throughout: the importer never copies a value, see pickle_value.h.)
            const PickleValue& last = history.at(history.size() - 1);
            if (!has_addr && toAddress(last.get("addr"), addr)) {
                has_addr = true;
            }
            if (has_addr && has_block_size) {
                next_address = addr + static_cast<uint64_t>(block_size);
                has_address = true;
            } else {
                has_address = false;
            }

            const PickleValue& state = block.get("state");
            if (!has_addr || !state.isString() || state.text() != "active_allocated" ||
                m_blocks.count(addr)) {
                continue;
            }
            int64_t size = 0;
            if (!toSize(block.get("requested_size"), size) &&
                !toSize(last.get("real_size"), size) && !has_block_size) {
                continue;
            }
            if (size == 0 && has_block_size) {
                size = block_size;
            }
            const PickleValue* frames = block.find("frames");
            if (!frames || !frames->isSequence()) {
                frames = last.find("frames");
            }
            const uint32_t stack = stackOf(frames);
            allocated = addSat(allocated, size);
            m_blocks[addr].seen = true;  // a block listed twice counts once
            emit(out, EventKind::Alloc, 0, addr, size, allocated, 0, stack);
            emitRole(out, block.find("category"), 0, addr, allocated, 0, stack);
        }
    }
    return allocated;
}

Trace Builder::build() {
    m_trace.meta.memscope_version = MEMSCOPE_VERSION;
    m_trace.meta.source = "imported from " + baseName(m_source);
    m_trace.meta.device = "cuda:" + std::to_string(m_device);
    m_trace.meta.torch_version.clear();
    m_trace.meta.config = nlohmann::json::object();

    const PickleValue& traces = m_snapshot.get("device_traces");
    if (m_device >= 0 && size_t(m_device) < traces.size()) {
        decodeEntries(traces.at(size_t(m_device)));
    }
    foldFrees();
    // The untouched live blocks come first, and are found by what the trace does not touch.
    EventColumns& out = m_trace.events;
    const int64_t initial = emitInitialBlocks(out);
    emitTrace(out, initial);

    // Reserved at the start: what the snapshot's segments hold minus what the trace reserved;
    // without segments (or when they disagree), the segments the trace frees without having
    // reserved them.
    int64_t start_reserved = m_segmentsFromStart;
    const PickleValue& segments = segmentsOf(m_snapshot);
    if (segments.isSequence()) {
        int64_t at_end = 0;
        bool any = false;
        for (const PickleValue& segment : segments.items()) {
            int64_t total = 0;
            if (segment.isDict() && segmentDevice(segment) == m_device &&
                toSize(segment.get("total_size"), total)) {
                at_end = addSat(at_end, total);
                any = true;
            }
        }
        if (any && subSat(at_end, m_reservedDelta) >= 0) {
            start_reserved = subSat(at_end, m_reservedDelta);
        }
    }

    // Frees-from-start were live before the first event: every level includes them.
    for (auto& a : out.allocated) {
        a = addSat(a, m_freedFromStart);
    }
    for (auto& r : out.reserved) {
        r = addSat(r, start_reserved);
    }

    m_trace.summary = {{"imported", true},
                       {"devices", SnapshotImporter::devices(m_snapshot)},
                       {"skipped_entries", m_skipped}};
    if (m_hasTime) {
        m_trace.meta.started_at = isoTimeFromMicros(m_firstTimeUs);
    }
    m_trace.finalize();
    return std::move(m_trace);
}

}  // namespace

std::vector<int> SnapshotImporter::devices(const PickleValue& snapshot) {
    std::vector<int> out;
    const PickleValue& traces = snapshot.get("device_traces");
    for (size_t i = 0; i < traces.size() && i <= size_t(kMaxDevice); ++i) {
        if (traces.at(i).isSequence() && traces.at(i).size() > 0) {
            out.push_back(static_cast<int>(i));
        }
    }
    for (const PickleValue& segment : segmentsOf(snapshot).items()) {
        if (segment.isDict()) {
            if (const int d = segmentDevice(segment); d >= 0) {
                out.push_back(d);
            }
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

Trace SnapshotImporter::import(const std::string& path, int device) {
    const PickleValue snapshot = PickleReader::readFile(path);
    return fromValue(snapshot, device, path);
}

Trace SnapshotImporter::fromValue(const PickleValue& snapshot, int device,
                                  const std::string& source_name) {
    static const char* known_keys[] = {
        "segments",      "device_traces", "allocator_settings",      "external_annotations",
        "host_segments", "host_traces",   "trace_alloc_max_entries", "trace_alloc_overflowed"};
    if (snapshot.isDict()) {
        const bool known = snapshot.size() == 0 ||
                           std::any_of(std::begin(known_keys), std::end(known_keys),
                                       [&](const char* k) { return snapshot.find(k) != nullptr; });
        if (!known) {
            throw PickleError(source_name,
                              "not a memory snapshot: a dict without 'segments' or "
                              "'device_traces' (" +
                                  snapshot.repr(80) + ")");
        }
    } else if (snapshot.isList()) {
        const auto& items = snapshot.items();
        if (!items.empty() && std::none_of(items.begin(), items.end(),
                                           [](const PickleValue& v) { return v.isDict(); })) {
            throw PickleError(source_name,
                              "not a memory snapshot: a list that holds no segment dicts");
        }
    } else {
        throw PickleError(source_name, std::string("not a memory snapshot: the pickle holds ") +
                                           (snapshot.isInt() ? "an " : "a ") + snapshot.typeName());
    }

    const std::vector<int> available = devices(snapshot);
    if (device < 0) {
        device = available.empty() ? 0 : available.front();
        const PickleValue& traces = snapshot.get("device_traces");
        for (size_t i = 0; i < traces.size() && i <= size_t(kMaxDevice); ++i) {
            if (traces.at(i).isSequence() && traces.at(i).size() > 0) {
                device = static_cast<int>(i);
                break;
            }
        }
    } else if (std::find(available.begin(), available.end(), device) == available.end()) {
        std::string list;
        for (const int d : available) {
            list += (list.empty() ? "" : ", ") + std::to_string(d);
        }
        throw PickleError(
            source_name,
            "device " + std::to_string(device) + " is not in the snapshot (" +
                (list.empty() ? std::string("it holds no devices") : "devices: " + list) + ")");
    }
    return Builder(snapshot, device, source_name).build();
}

}  // namespace memscope
