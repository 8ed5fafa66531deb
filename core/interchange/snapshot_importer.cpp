#include "interchange/snapshot_importer.h"

#include "interchange/snapshot_builder.h"

#include "interchange/address_slots.h"
#include "interchange/frame_cleaner.h"
#include "io/run_file_cancelled.h"
#include "pickle/pickle_error.h"
#include "pickle/pickle_reader.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>

namespace memscope::snapshot_detail {

namespace {

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
    if (!s || *s < 0 || *s > kMaxEventBytes) {  // beyond 256 TiB: damage, not a size
        return false;
    }
    out = *s;
    return true;
}

// A pool as Segment::pool names it: a private pool's id "(1, 2)", else the segment type
// ("large", "small"), else "" (the default pool).
std::string poolName(const PickleValue& pool_id, const PickleValue& segment_type) {
    if (pool_id.isSequence() && pool_id.size() > 0) {
        bool is_default = true;
        for (const PickleValue& v : pool_id.items()) {
            is_default = is_default && v.toInt64() == std::optional<int64_t>(0);
        }
        if (!is_default) {
            return pool_id.repr(64);
        }
    }
    if (segment_type.isString() && segment_type.text().size() <= 64) {
        return segment_type.text();
    }
    return {};
}

int64_t streamOf(const PickleValue& v) {
    uint64_t s = 0;
    return toAddress(v, s) ? static_cast<int64_t>(s) : 0;
}

}  // namespace

int Builder::streamList(const std::vector<PickleValue>& stack, size_t size) {
    if (size < 2 || !stack[0].isDict()) {
        return -1;
    }
    size_t j = size;  // stack[j, size): the outer list and the lists in it not appended yet
    while (j > 0 && stack[j - 1].isList()) {
        --j;
    }
    if (j < 2) {
        return -1;
    }
    const size_t key = j - 1;
    if (key % 2 != 1 || !stack[key].isString()) {
        return -1;
    }
    const bool host = stack[key].text() == "host_traces";
    if (!host && stack[key].text() != "device_traces") {
        return -1;
    }
    for (size_t i = 1; i < key; i += 2) {
        if (!stack[i].isString()) {
            return -1;  // not a key of the top-level dict
        }
    }
    if (host) {
        // The outer list (a flat list of entries) and the lists in it (a list of lists):
        // item() takes the inner lists, emptied by streaming, as nothing.
        return kHostLane;
    }
    if (j >= size) {
        return -1;
    }
    const size_t device = stack[j].size() + (size - j - 1);
    return device <= size_t(kMaxDevice) ? static_cast<int>(device) : -1;
}

void Builder::collect(const PickleValue& snapshot, int only_device) {
    const PickleValue& traces = snapshot.get("device_traces");
    for (size_t i = 0; i < traces.size() && i <= size_t(kMaxDevice); ++i) {
        const PickleValue& list = traces.at(i);
        if (!list.isSequence() || (only_device >= 0 && size_t(only_device) != i)) {
            continue;
        }
        for (const PickleValue& item : list.items()) {
            addEntry(static_cast<int>(i), item);
        }
    }
    if (only_device < 0 || only_device == kHostLane) {
        forEachHostEntry(snapshot, [this](const PickleValue& item) { addEntry(kHostLane, item); });
    }
}

std::vector<int> Builder::devices(const PickleValue& snapshot) const {
    // The lists not streamed and the segments' devices, then those streamed.
    std::vector<int> out = SnapshotImporter::devices(snapshot);
    for (const auto& [device, trace] : m_traces) {
        if (trace.seen > 0 && device != kHostLane) {
            out.push_back(device);
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

bool Builder::hasHostLane(const PickleValue& snapshot) const {
    const auto it = m_traces.find(kHostLane);
    return (it != m_traces.end() && it->second.seen > 0) || SnapshotImporter::hasHostLane(snapshot);
}

int Builder::defaultDevice(const PickleValue& snapshot) const {
    for (const auto& [device, trace] : m_traces) {
        if (trace.seen > 0 && device != kHostLane) {
            return device;
        }
    }
    const std::vector<int> available = devices(snapshot);
    if (available.empty() && hasHostLane(snapshot)) {
        return kHostLane;  // only pinned host memory in the file
    }
    return available.empty() ? 0 : available.front();
}

namespace {

// What `table` names the string `value` (`fallback` for any other value or text), remembered
// by the value's pickle node: a snapshot's keys and actions are memoized strings, so the same few
// nodes come back for every trace entry. Up to 64 nodes are remembered.
template <typename T, size_t N>
T lookupByNode(std::vector<std::pair<PickleValue, T>>& cache, const PickleValue& value,
               const std::pair<const char*, T> (&table)[N], T fallback) {
    const void* node = value.node();
    for (const auto& [v, found] : cache) {
        if (v.node() == node) {
            return found;
        }
    }
    T found = fallback;
    if (value.isString()) {
        for (const auto& [name, named] : table) {
            if (value.text() == name) {
                found = named;
                break;
            }
        }
    }
    if (node && cache.size() < 64) {
        cache.emplace_back(value, found);
    }
    return found;
}

}  // namespace

Field Builder::fieldOf(const PickleValue& key) {
    static const std::pair<const char*, Field> names[] = {
        {"action", Field::Action},
        {"addr", Field::Addr},
        {"size", Field::Size},
        {"time_us", Field::TimeUs},
        {"frames", Field::Frames},
        {"category", Field::Category},
        {"device_free", Field::DeviceFree},
        {"stream", Field::Stream},
        {"pool_id", Field::PoolId},
    };
    return lookupByNode(m_fieldCache, key, names, Field::Other);
}

Action Builder::actionOf(const PickleValue& value) {
    static const std::pair<const char*, Action> names[] = {
        {"alloc", Action::Alloc},
        {"free_requested", Action::FreeRequested},
        {"free_completed", Action::FreeCompleted},
        {"segment_alloc", Action::SegmentAlloc},
        {"segment_free", Action::SegmentFree},
        {"segment_map", Action::SegmentMap},
        {"segment_unmap", Action::SegmentUnmap},
        {"oom", Action::Oom},
        {"user_defined", Action::Annotation},
        // Older files (2.0) called the requested free just "free".
        {"free", Action::FreeRequested},
    };
    return lookupByNode(m_actionCache, value, names, Action::Skip);
}

uint32_t Builder::extraIndex(int64_t value) {
    if (value == m_lastExtra) {
        return m_lastExtraIndex;
    }
    auto [it, added] = m_extraIndex.try_emplace(value, uint32_t(m_extras.size()));
    if (added) {
        m_extras.push_back(value);
    }
    m_lastExtra = value;
    m_lastExtraIndex = it->second;
    return it->second;
}

uint8_t Builder::poolIndex(const PickleValue& pool_id) {
    const std::string name = poolName(pool_id, PickleValue());
    if (name.empty()) {
        return 0;
    }
    for (size_t i = 1; i < m_pools.size(); ++i) {
        if (m_pools[i] == name) {
            return static_cast<uint8_t>(i);
        }
    }
    if (m_pools.size() > 255) {
        return 0;  // more private pools than a file plausibly has: the rest go unnamed
    }
    m_pools.push_back(name);
    return static_cast<uint8_t>(m_pools.size() - 1);
}

int8_t Builder::categoryOf(const PickleValue* category) {
    if (!category || !category->isString() || category->text().size() > 64) {
        return -1;
    }
    std::string upper = category->text();
    for (char& c : upper) {
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    const auto parsed = parseCategory(upper);
    return parsed ? static_cast<int8_t>(*parsed) : int8_t(-1);
}

bool Builder::decodeEntry(const Pair* pairs, size_t n, Entry& e, const PickleValue** frames) {
    if (!pairs) {
        return false;
    }
    bool has_action = false;
    int64_t stream = 0;
    int64_t device_free = 0;
    for (size_t i = 0; i < n; ++i) {
        const PickleValue& key = pairs[i].first;
        const PickleValue& value = pairs[i].second;
        // Entries list their keys in the same order: the key at this position is usually the
        // one the entry before had there.
        Field field;
        if (i < kKeyPositions && key.node() && m_keyAt[i].first == key.node()) {
            field = m_keyAt[i].second;
        } else {
            field = fieldOf(key);
            const bool kept =
                std::any_of(m_fieldCache.begin(), m_fieldCache.end(),
                            [&](const auto& cached) { return cached.first.node() == key.node(); });
            if (i < kKeyPositions && key.node() && kept) {
                m_keyAt[i] = {key.node(), field};
            }
        }
        switch (field) {
            case Field::Action:
                e.action = actionOf(value);
                has_action = true;
                break;
            case Field::Addr:
                if (toAddress(value, e.addr)) {
                    e.flags |= kHasAddr;
                }
                break;
            case Field::Size:
                if (toSize(value, e.size)) {
                    e.flags |= kHasSize;
                }
                break;
            case Field::TimeUs:
                if (const auto t = value.toInt64()) {
                    e.time_us = *t;
                    e.flags |= kHasTime;
                } else if (const auto d = value.toDouble(); d && *d > -9e18 && *d < 9e18) {
                    e.time_us = static_cast<int64_t>(*d);  // a float time is still a time
                    e.flags |= kHasTime;
                }
                break;
            case Field::Frames:
                *frames = &value;  // a stack, unless the entry turns out to be an annotation
                break;
            case Field::Category:
                e.category = categoryOf(&value);
                break;
            case Field::DeviceFree:
                if (toSize(value, device_free)) {
                    e.flags |= kHasDeviceFree;
                }
                break;
            case Field::Stream:
                stream = streamOf(value);
                e.flags |= kHasStream;
                break;
            case Field::PoolId:
                e.pool = poolIndex(value);
                break;
            case Field::Other:
                break;
        }
    }
    e.extra = extraIndex(e.action == Action::Oom ? device_free : stream);
    if (!has_action) {
        return false;
    }
    if (*frames && e.action != Action::Annotation) {
        e.stack = stackOf(*frames);
    }
    switch (e.action) {
        case Action::Alloc:
        case Action::SegmentAlloc:
        case Action::SegmentFree:
        case Action::SegmentMap:
        case Action::SegmentUnmap:
            return e.has(kHasAddr) && e.has(kHasSize);
        case Action::FreeRequested:
        case Action::FreeCompleted:
            return e.has(kHasAddr);
        case Action::Oom:
            return true;
        case Action::Annotation:  // not an event: addEntry keeps its marker
        case Action::Skip:
            return false;
    }
    return false;
}

namespace {

// The marker of a "user_defined" entry, which PyTorch's CUDA caching allocator wrote into
// device_traces for record_function scopes between PyTorch PR #129072 (June 2024) and #130964
// (July 2024, which moved them to "external_annotations"): addr, size and stream 0, time_us,
// and as its frames one made-up frame {"name": "START" | "END", "filename": the scope's name,
// "line": 0} (the allocator's recordAnnotation stored an unwind::Frame{scope name, stage, 0},
// whose fields are filename, funcname, lineno). PyTorch appends such frames after any other,
// so the last one is read. Without frames (history recorded with context=None or "state"
// drops them) there is no name: nothing to keep.
bool annotationMarker(const PickleValue* frames, const Entry& e, AnnotationMarker& out) {
    if (!frames || !frames->isSequence() || frames->items().empty() || !e.has(kHasTime)) {
        return false;
    }
    const PickleValue& frame = frames->items().back();
    const PickleValue* stage = frame.isDict() ? frame.find("name") : nullptr;
    const PickleValue* name = frame.isDict() ? frame.find("filename") : nullptr;
    if (!stage || !stage->isString() || !name || !name->isString() ||
        (stage->text() != "START" && stage->text() != "END")) {
        return false;
    }
    out.start = stage->text() == "START";
    out.name = name->text();
    out.time_us = e.has(kHasTime) ? e.time_us : 0;
    return true;
}

}  // namespace

void Builder::addEntry(int device, const PickleValue& dict) {
    if (dict.isDict()) {
        addEntry(device, dict.dictItems().data(), dict.dictItems().size());
    } else {
        addEntry(device, nullptr, 0);
    }
}

void Builder::addEntry(int device, const Pair* pairs, size_t n) {
    if (m_stopAfter != 0 && m_entryCount >= m_stopAfter) {
        // A preview has its entries: the reader stops as at a cut, and keeps what it read.
        m_stopped = true;
        throw PickleError(
            m_source, "the preview ends after " + std::to_string(m_stopAfter) + " trace entries");
    }
    ++m_entryCount;
    if (!m_lastTrace || m_lastDevice != device) {
        m_lastTrace = &m_traces.try_emplace(device, m_entryChunk).first->second;  // stays valid
        m_lastDevice = device;
    }
    DeviceTrace& trace = *m_lastTrace;
    Entry e;
    e.time_us = static_cast<int64_t>(std::min<uint64_t>(trace.seen, UINT32_MAX));  // no time
    ++trace.seen;
    const PickleValue* frames = nullptr;
    const bool usable = decodeEntry(pairs, n, e, &frames);
    // Time starts at the first entry that has one, skipped entries included.
    if (e.has(kHasTime) && !trace.has_time) {
        trace.first_time_us = e.time_us;
        trace.has_time = true;
    }
    AnnotationMarker marker;
    if (usable) {
        if (e.action == Action::Alloc || e.action == Action::FreeRequested ||
            e.action == Action::FreeCompleted) {
            foldFree(trace, e);
        } else if (e.action == Action::SegmentAlloc || e.action == Action::SegmentFree ||
                   e.action == Action::SegmentMap || e.action == Action::SegmentUnmap) {
            const uint64_t end = e.addr + std::max<uint64_t>(1, uint64_t(e.size));
            trace.segment_ranges.emplace_back(e.addr, end < e.addr ? UINT64_MAX : end);
        }
        trace.entries.push(e);
    } else if (e.action == Action::Annotation && trace.markers.size() < 2 * kMaxAnnotations &&
               annotationMarker(frames, e, marker)) {
        trace.markers.push_back(std::move(marker));
    } else {
        ++trace.skipped;
    }
}

// memory_viz folds "free_requested" followed by "free_completed" at the same address into one
// free: when an alloc or free comes, the entry that touched its address before is known, and
// is marked when it is a free_requested and this a free_completed. Numbers the address too.
void Builder::foldFree(DeviceTrace& trace, Entry& e) {
    e.slot = trace.slots.slotOf(e.addr);
    const uint64_t mark =
        uint64_t(trace.entries.size()) << 1 | uint64_t(e.action == Action::FreeRequested);
    if (e.slot == trace.last_entry.size()) {
        trace.last_entry.push_back(mark);
        return;
    }
    uint64_t& last = trace.last_entry[e.slot];
    if (e.action == Action::FreeCompleted && (last & 1) != 0) {
        trace.entries.markFolded(size_t(last >> 1));
    }
    last = mark;
}

void Builder::emit(EventColumns& out, EventKind kind, int64_t time_ns, uint64_t addr, int64_t size,
                   int64_t allocated, int64_t reserved, uint32_t stack) {
    Event ev;
    ev.time_ns = time_ns;
    ev.addr = addr;
    ev.size = size;
    ev.allocated = allocated;
    ev.reserved = reserved;
    ev.stack = m_cleaner.clean(m_trace.raw_stacks, stack, m_trace.stacks);
    ev.step = m_step;
    ev.kind = kind;
    ev.phase = Phase::Other;
    ev.thread = 0;
    ev.device = static_cast<int16_t>(m_eventDevice);
    out.append(ev);
    m_trace.raw_stack.push_back(stack);
}

void Builder::emitSegment(EventColumns& out, int64_t time_ns, uint64_t addr, int64_t size,
                          int64_t allocated, int64_t reserved, uint32_t stack, int64_t stream,
                          const std::string& pool) {
    SegmentTag tag;
    tag.event = static_cast<int64_t>(out.count());
    tag.stream = stream;
    tag.pool = pool;
    m_trace.segment_tags.push_back(std::move(tag));
    emit(out, EventKind::SegmentAlloc, time_ns, addr, size, allocated, reserved, stack);
}

void Builder::emitRole(EventColumns& out, int8_t category, int64_t time_ns, uint64_t addr,
                       int64_t allocated, int64_t reserved, uint32_t stack) {
    if (category >= 0) {
        emit(out, EventKind::Role, time_ns, addr, category, allocated, reserved, stack);
    }
}

void Builder::readMarker(const PickleValue& marker) {
    if (!marker.isDict()) {
        return;
    }
    m_fromMemscope = true;
    auto text = [&](const char* key) -> std::string {
        const PickleValue* v = marker.find(key);
        return v && v->isString() && v->text().size() <= 256 ? v->text() : std::string();
    };
    if (const PickleValue* caching = marker.find("caching_allocator");
        caching && caching->isBool()) {
        m_cachingAllocator = caching->toBool();
    }
    const PickleValue* cpu = marker.find("cpu_device");
    const auto cpu_index = cpu ? cpu->toInt64() : std::nullopt;
    if (cpu_index && *cpu_index == m_device) {
        m_eventDevice = -1;
        m_trace.meta.device = "cpu";
    } else if (const std::string dev = text("device"); !dev.empty() && dev != "cpu") {
        const auto colon = dev.find(':');
        if (colon != std::string::npos && dev.substr(colon + 1) == std::to_string(m_device)) {
            m_trace.meta.device = dev;  // "hip:0" stays hip
        }
    }
    m_trace.meta.device_name = text("device_name");
    m_trace.meta.torch_version = text("torch_version");
    if (const PickleValue* threads = marker.find("threads")) {
        if (const auto t = threads->toInt64(); t && *t > 0 && *t < 1000000) {
            m_trace.meta.threads = static_cast<int>(*t);
        }
    }
    if (const std::string version = text("memscope_version"); !version.empty()) {
        m_trace.meta.source += " (exported by Memscope " + version + ")";
    }
}

uint32_t Builder::frameOf(const PickleValue& frame) {
    if (!frame.isDict()) {
        return 0;  // not a frame: 0 means skip (frame ids are looked up as id - 1 below)
    }
    if (auto it = m_frameCache.find(frame.node()); it != m_frameCache.end()) {
        return it->second.second;
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
    const uint32_t id = m_trace.raw_stacks.internFrame(f) + 1;
    if (frame.shared()) {
        m_frameCache.emplace(frame.node(), std::make_pair(frame, id));
    }
    return id;
}

uint32_t Builder::stackOf(const PickleValue* frames) {
    if (!frames || !frames->isSequence() || frames->size() == 0) {
        return StackTable::kEmpty;
    }
    // Most entries reuse one of a few hundred frame lists: a direct-mapped table of them in
    // front of the hash map (only nodes the map keeps alive go in).
    const void* list = frames->node();
    RecentStack& recent = m_recentStacks[(reinterpret_cast<uintptr_t>(list) >> 4) % kRecentStacks];
    if (recent.list == list) {
        return recent.stack;
    }
    if (auto it = m_stackCache.find(list); it != m_stackCache.end()) {
        recent = {list, it->second.second};
        return it->second.second;
    }
    uint32_t node = StackTable::kEmpty;
    const auto& items = frames->items();
    for (size_t i = items.size(); i-- > 0;) {  // PyTorch lists the innermost frame first
        if (const uint32_t id = frameOf(items[i])) {
            node = m_trace.raw_stacks.child(node, id - 1);
        }
    }
    if (frames->shared()) {
        m_stackCache.emplace(frames->node(), std::make_pair(*frames, node));
        recent = {list, node};
    }
    return node;
}

std::vector<const PickleValue*> Builder::laneSegments(const PickleValue& snapshot) const {
    std::vector<const PickleValue*> out;
    if (m_device == kHostLane) {
        // The host allocator's own list: every segment in it is the lane's, whatever its
        // `device` says.
        for (const PickleValue& segment : snapshot.get("host_segments").items()) {
            if (segment.isDict()) {
                out.push_back(&segment);
            }
        }
        return out;
    }
    for (const PickleValue& segment : segmentsOf(snapshot).items()) {
        if (segment.isDict() && segmentDevice(segment) == m_device) {
            out.push_back(&segment);
        }
    }
    return out;
}

std::vector<SnapshotSegment> Builder::snapshotSegments(const PickleValue& snapshot) const {
    std::vector<SnapshotSegment> out;
    for (const PickleValue* lane_segment : laneSegments(snapshot)) {
        const PickleValue& segment = *lane_segment;
        SnapshotSegment s;
        if (!toAddress(segment.get("address"), s.addr) ||
            !toSize(segment.get("total_size"), s.size)) {
            continue;
        }
        s.stream = streamOf(segment.get("stream"));
        s.pool = poolName(segment.get("segment_pool_id"), segment.get("segment_type"));
        out.push_back(std::move(s));
    }
    return out;
}

// Segments of the snapshot that no segment event of the trace overlaps were reserved before
// the trace began: SegmentAlloc events at time 0, so that Trace::segments() holds them.
int64_t Builder::emitInitialSegments(EventColumns& out,
                                     const std::vector<SnapshotSegment>& segments,
                                     std::vector<std::pair<uint64_t, uint64_t>> touched) {
    if (!m_cachingAllocator) {
        return 0;
    }
    std::sort(touched.begin(), touched.end());
    std::vector<uint64_t> max_end(touched.size());  // highest end among touched[0..i]
    for (size_t i = 0; i < touched.size(); ++i) {
        max_end[i] = std::max(touched[i].second, i ? max_end[i - 1] : 0);
    }
    int64_t reserved = 0;
    std::unordered_map<uint64_t, bool> emitted;
    for (const SnapshotSegment& s : segments) {
        const uint64_t end = std::max(s.addr, s.addr + uint64_t(s.size));
        // Ranges starting before `end`: the last of them reaches past s.addr if any does.
        const auto it =
            std::lower_bound(touched.begin(), touched.end(), std::make_pair(end, uint64_t(0)));
        const bool overlaps =
            it != touched.begin() && max_end[size_t(it - touched.begin()) - 1] > s.addr;
        if (overlaps || !emitted.emplace(s.addr, true).second) {
            continue;
        }
        reserved = addSat(reserved, s.size);
        emitSegment(out, 0, s.addr, s.size, 0, reserved, StackTable::kEmpty, s.stream, s.pool);
    }
    return reserved;
}

void Builder::emitTrace(EventColumns& out, DeviceTrace& trace, int64_t allocated, int64_t reserved,
                        const std::vector<SnapshotSegment>& segments) {
    EntryList& entries = trace.entries;
    // The snapshot's segment holding an address, for the stream and pool of a segment event
    // that does not name them (an expandable segment's mapped ranges lie inside it).
    std::vector<const SnapshotSegment*> by_addr;
    for (const SnapshotSegment& s : segments) {
        by_addr.push_back(&s);
    }
    std::sort(by_addr.begin(), by_addr.end(),
              [](const SnapshotSegment* l, const SnapshotSegment* r) { return l->addr < r->addr; });
    auto containing = [&](uint64_t addr) -> const SnapshotSegment* {
        auto it =
            std::upper_bound(by_addr.begin(), by_addr.end(), addr,
                             [](uint64_t a, const SnapshotSegment* s) { return a < s->addr; });
        if (it == by_addr.begin()) {
            return nullptr;
        }
        const SnapshotSegment* s = *--it;
        return addr - s->addr < uint64_t(s->size) ? s : nullptr;
    };
    int64_t time_ns = 0;
    EntryList::Reader reader(entries);
    for (size_t i = 0; i < entries.size(); ++i) {
        if (i % kCancelEvery == 0) {
            checkCancel();
            entries.releaseBefore(i);
        }
        const Entry& e = reader[i];
        if (!trace.has_time) {
            time_ns = static_cast<int64_t>(e.time_us) * 1000;  // its position (Entry)
        } else if (e.has(kHasTime)) {
            time_ns = saturatingMicrosToNanos(trace.first_time_us, e.time_us);
        }
        switch (e.action) {
            case Action::Alloc: {
                Block& b = m_blocks[e.slot];
                b.seen = true;
                if (b.live) {
                    // Its free is not in the trace; Trace::finalize() ends it here too.
                    allocated = subSat(allocated, b.size);
                }
                b.live = true;
                b.size = e.size;
                allocated = addSat(allocated, e.size);
                emit(out, EventKind::Alloc, time_ns, e.addr, e.size, allocated, reserved, e.stack);
                emitRole(out, e.category, time_ns, e.addr, allocated, reserved, e.stack);
                break;
            }
            case Action::FreeRequested:
            case Action::FreeCompleted: {
                if (e.has(kFolded)) {
                    break;  // the free_completed that follows is the free
                }
                Block& b = m_blocks[e.slot];
                if (!b.seen) {
                    if (!e.has(kHasSize) || e.size == 0) {
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
                emit(out, EventKind::Free, time_ns, e.addr, -b.size, allocated, reserved, e.stack);
                break;
            }
            case Action::SegmentAlloc:
            case Action::SegmentMap: {
                if (!m_cachingAllocator) {
                    break;
                }
                OpenSegment seg;
                seg.size = e.size;
                const SnapshotSegment* known = containing(e.addr);
                seg.stream = e.has(kHasStream) || !known ? m_extras[e.extra] : known->stream;
                seg.pool = e.pool ? m_pools[e.pool] : known ? known->pool : std::string();
                if (auto it = m_open.find(e.addr); it != m_open.end()) {
                    // Reserved again without a release in the trace: finalize() ends the old
                    // one here.
                    reserved = subSat(reserved, it->second.size);
                }
                reserved = addSat(reserved, e.size);
                emitSegment(out, time_ns, e.addr, e.size, allocated, reserved, e.stack, seg.stream,
                            seg.pool);
                m_open[e.addr] = std::move(seg);
                break;
            }
            case Action::SegmentFree:
            case Action::SegmentUnmap: {
                if (!m_cachingAllocator) {
                    break;
                }
                const uint64_t end =
                    e.addr + uint64_t(e.size) < e.addr ? UINT64_MAX : e.addr + uint64_t(e.size);
                auto it = m_open.find(e.addr);
                const bool exact = it != m_open.end() && it->second.size == e.size;
                // An unmap of part of a mapped range (expandable segments) releases that range
                // and reserves what is left of it on either side, with the same stream and pool.
                std::vector<std::pair<uint64_t, OpenSegment>> overlapping;
                if (!exact && e.action == Action::SegmentUnmap) {
                    auto o = m_open.upper_bound(e.addr);
                    if (o != m_open.begin()) {
                        --o;
                    }
                    while (o != m_open.end() && o->first < end) {
                        const uint64_t o_end = o->first + uint64_t(o->second.size);
                        if (o_end > e.addr) {
                            overlapping.emplace_back(o->first, o->second);
                            o = m_open.erase(o);
                        } else {
                            ++o;
                        }
                    }
                }
                if (overlapping.empty()) {
                    if (it != m_open.end()) {
                        m_open.erase(it);
                    } else {
                        // Reserved before the trace began.
                        m_segmentsFromStart = addSat(m_segmentsFromStart, e.size);
                    }
                    reserved = subSat(reserved, e.size);
                    emit(out, EventKind::SegmentFree, time_ns, e.addr, -e.size, allocated, reserved,
                         e.stack);
                    break;
                }
                int64_t after = reserved;
                for (const auto& [begin, seg] : overlapping) {
                    const uint64_t seg_end = begin + uint64_t(seg.size);
                    const uint64_t cut_begin = std::max(begin, e.addr);
                    const uint64_t cut_end = std::min(seg_end, end);
                    after = subSat(after, static_cast<int64_t>(cut_end - cut_begin));
                }
                for (const auto& [begin, seg] : overlapping) {
                    const uint64_t seg_end = begin + uint64_t(seg.size);
                    emit(out, EventKind::SegmentFree, time_ns, begin, -seg.size, allocated, after,
                         e.stack);
                    if (begin < e.addr) {
                        OpenSegment left = seg;
                        left.size = static_cast<int64_t>(e.addr - begin);
                        emitSegment(out, time_ns, begin, left.size, allocated, after, e.stack,
                                    seg.stream, seg.pool);
                        m_open[begin] = std::move(left);
                    }
                    if (seg_end > end) {
                        OpenSegment right = seg;
                        right.size = static_cast<int64_t>(seg_end - end);
                        emitSegment(out, time_ns, end, right.size, allocated, after, e.stack,
                                    seg.stream, seg.pool);
                        m_open[end] = std::move(right);
                    }
                }
                reserved = after;
                break;
            }
            case Action::Oom: {
                int64_t capacity = reserved;
                if (e.has(kHasDeviceFree)) {
                    capacity = addSat(capacity, m_extras[e.extra]);
                }
                emit(out, EventKind::Oom, time_ns, e.has(kHasAddr) ? e.addr : 0,
                     e.has(kHasSize) ? e.size : 0, allocated, capacity, e.stack);
                break;
            }
            case Action::Annotation:
            case Action::Skip:
                break;
        }
    }
}

int64_t Builder::emitInitialBlocks(EventColumns& out, const PickleValue& snapshot, int64_t reserved,
                                   const AddressSlots& touched) {
    int64_t allocated = 0;
    for (const PickleValue* lane_segment : laneSegments(snapshot)) {
        const PickleValue& segment = *lane_segment;
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
                touched.find(addr) != AddressSlots::kNone || m_initialBlocks.count(addr)) {
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
            m_initialBlocks.emplace(addr, true);
            emit(out, EventKind::Alloc, 0, addr, size, allocated, reserved, stack);
            emitRole(out, categoryOf(block.find("category")), 0, addr, allocated, reserved, stack);
        }
    }
    return allocated;
}

}  // namespace memscope::snapshot_detail
