#include "interchange/snapshot_importer.h"

#include "interchange/frame_cleaner.h"
#include "interchange/phase_inference.h"
#include "trace/trace_annotations.h"
#include "trace/trace_range.h"

#include "interchange/address_slots.h"
#include "interchange/snapshot_exporter.h"
#include "io/run_file_cancelled.h"
#include "memscope_version.h"
#include "pickle/pickle_error.h"
#include "pickle/pickle_reader.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>

#ifdef __GLIBC__
#include <malloc.h>  // malloc_trim
#endif

namespace memscope {

namespace {

constexpr int kMaxDevice = std::numeric_limits<int16_t>::max();

// Small blocks freed after reading (the reader's values, its memo pages, entries that took the
// general path) stay in glibc's heap, which keeps their pages: 39 MB after a 1 GB import, at
// the peak (Trace::finalize). Giving them back keeps the peak within the file's size. Only for
// large traces: trimming walks the heap, which small imports (a fuzzer's thousands) need not.
void returnFreeHeap(size_t events) {
#ifdef __GLIBC__
    if (events >= (size_t(1) << 20)) {
        malloc_trim(0);
    }
#else
    (void)events;
#endif
}
// Imported annotation regions kept at most (a marker each for START and END).
constexpr size_t kMaxAnnotations = 1000000;

enum class Action : uint8_t {
    Alloc,
    FreeRequested,
    FreeCompleted,
    SegmentAlloc,
    SegmentFree,
    SegmentMap,
    SegmentUnmap,
    Oom,
    Annotation,  // "user_defined": a record_function scope's START or END (see addEntry)
    Skip,        // "snapshot", "annotate", unknown
};

enum class Field : uint8_t {
    Action,
    Addr,
    Size,
    TimeUs,
    Frames,
    Category,
    DeviceFree,
    Stream,
    PoolId,
    Other
};

enum EntryFlag : uint8_t {
    kHasAddr = 1,
    kHasSize = 2,
    kHasTime = 4,
    kHasDeviceFree = 8,
    kHasStream = 16,
    kFolded = 32,  // a free_requested whose free_completed follows: the Free goes there
};

// One trace entry, decoded from its dict as soon as the reader has it (48 bytes: the dict and
// its values are freed right after). Frames are already a stack and the category a code.
struct Entry {
    uint64_t addr = 0;
    int64_t size = 0;
    int64_t time_us = 0;
    int64_t extra = 0;   // "oom": device_free; others: stream
    uint32_t index = 0;  // position in the device's trace list (the time when none has one)
    uint32_t stack = StackTable::kEmpty;  // a node of the raw stacks (Trace::raw_stacks)
    Action action = Action::Skip;
    uint8_t flags = 0;
    int8_t category = -1;  // Category code, -1: none of Memscope's
    uint8_t pool = 0;      // index into Builder::m_pools, 0: none given
    // Alloc and frees: the number of the entry's address in its device's AddressSlots.
    uint32_t slot = AddressSlots::kNone;
    bool has(EntryFlag f) const { return (flags & f) != 0; }
};
static_assert(sizeof(Entry) == 48, "a trace entry stays 48 bytes: 17M of them are read at once");

// The entries of one device in chunks: growing never copies more than the first chunk, so a
// 10M-entry trace never needs twice its size while it is read. The first chunk grows as a vector
// does, so a small snapshot does not take a whole chunk (48 MiB) per device. A chunk is larger
// than glibc's largest mmap threshold (32 MiB), so that each is mapped on its own and goes back
// to the system when emitTrace() frees it; smaller ones came from the heap, which kept them
// (issue 52: 186 of 228 MB of heap free after a 0.3 GB import).
class EntryList {
  public:
    void push(const Entry& e) {
        if (m_chunks.empty() || m_chunks.back().size() == kChunk) {
            m_chunks.emplace_back();
            if (m_chunks.size() > 1) {
                m_chunks.back().reserve(kChunk);
            }
        }
        m_chunks.back().push_back(e);
        ++m_count;
    }
    size_t size() const { return m_count; }
    Entry& operator[](size_t i) { return m_chunks[i / kChunk][i % kChunk]; }
    // Frees the chunks that lie wholly before entry i (which are not read again): the trace's
    // columns grow as the entries they were made from go, instead of beside all of them.
    void releaseBefore(size_t i) {
        for (size_t c = m_released; c < i / kChunk && c < m_chunks.size(); ++c) {
            m_chunks[c] = std::vector<Entry>();
        }
        m_released = std::max(m_released, i / kChunk);
    }

  private:
    static constexpr size_t kChunk = size_t(1) << 20;
    std::vector<std::vector<Entry>> m_chunks;
    size_t m_count = 0;
    size_t m_released = 0;  // chunks [0, m_released) are freed
};

// A record_function scope opening or closing, before START and END are paired into regions.
struct AnnotationMarker {
    bool start = false;
    std::string name;
    int64_t time_us = 0;
};

struct DeviceTrace {
    EntryList entries;
    // The addresses that allocs and frees touch, numbered, and per number the entry that last
    // touched it (for folding a free_requested into the free_completed that follows it).
    AddressSlots slots;
    std::vector<uint64_t> last_entry;
    std::vector<AnnotationMarker> markers;  // from "user_defined" entries, in trace order
    uint64_t seen = 0;                      // entries in the list, skipped ones included
    int64_t skipped = 0;
    int64_t first_time_us = 0;
    bool has_time = false;
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
    if (!s || *s < 0 || *s > kMaxEventBytes) {  // beyond 256 TiB: damage, not a size
        return false;
    }
    out = *s;
    return true;
}

// Byte totals saturate at +-256 TiB (kMaxEventBytes, what run files take) instead of
// overflowing: sizes come from the file, and a hostile one may add up many huge blocks.
int64_t clampBytes(int64_t v) {
    return std::clamp(v, -kMaxEventBytes, kMaxEventBytes);
}

int64_t addSat(int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) {
        return b > 0 ? kMaxEventBytes : -kMaxEventBytes;
    }
    return clampBytes(r);
}

int64_t subSat(int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_sub_overflow(a, b, &r)) {
        return b < 0 ? kMaxEventBytes : -kMaxEventBytes;
    }
    return clampBytes(r);
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

// allocator_settings and other small values as JSON, for the summary. `budget` bounds the values
// written: shared lists can nest into a DAG that would expand exponentially; past it, "...".
nlohmann::json toJson(const PickleValue& v, int64_t& budget) {
    if (--budget < 0) {
        return "...";
    }
    switch (v.type()) {
        case PickleValue::Type::None:
            return nullptr;
        case PickleValue::Type::Bool:
            return v.toBool();
        case PickleValue::Type::Int:
            if (const auto i = v.toInt64()) {
                return *i;
            }
            return *v.toUInt64();
        case PickleValue::Type::BigInt:
            return v.toDecimal();
        case PickleValue::Type::Float:
            return *v.toDouble();
        case PickleValue::Type::String: {
            // JSON text must be strict UTF-8: encoded surrogates (which pickles may hold) are
            // kept as Python's repr.
            const std::string& t = v.text();
            for (size_t i = 0; i + 1 < t.size(); ++i) {
                if (uint8_t(t[i]) == 0xed && uint8_t(t[i + 1]) >= 0xa0) {
                    return v.repr(4096);
                }
            }
            return t;
        }
        case PickleValue::Type::Bytes:
            return v.repr(4096);
        case PickleValue::Type::List:
        case PickleValue::Type::Tuple: {
            nlohmann::json out = nlohmann::json::array();
            for (const PickleValue& item : v.items()) {
                out.push_back(toJson(item, budget));
            }
            return out;
        }
        case PickleValue::Type::Dict: {
            nlohmann::json out = nlohmann::json::object();
            for (const auto& [key, value] : v.dictItems()) {
                out[key.isString() ? key.text() : key.repr(80)] = toJson(value, budget);
            }
            return out;
        }
    }
    return nullptr;
}

// A segment of the snapshot's `segments` list (the allocator's state at the end).
struct SnapshotSegment {
    uint64_t addr = 0;
    int64_t size = 0;
    int64_t stream = 0;
    std::string pool;
};

// Reads trace entries (streamed from the reader, or from a tree) and builds the Trace of one
// device.
class Builder : public PickleListSink {
  public:
    explicit Builder(std::string source, const std::atomic<bool>* cancel = nullptr,
                     uint64_t stop_after = 0)
        : m_source(std::move(source)), m_cancel(cancel), m_stopAfter(stop_after) {}
    // Whether reading stopped at the preview's limit (ImportOptions::preview_entries).
    bool stoppedForPreview() const { return m_stopped; }

    // Streams the lists of `device_traces` at the top of the snapshot dict: the reader's stack
    // is [dict, key, value, ..., "device_traces", outer list, earlier device lists...].
    int streamList(const std::vector<PickleValue>& stack, size_t size) override;
    void item(int tag, PickleValue&& value) override { addEntry(tag, value); }
    // Trace entries read straight from the bytes (the reader's fast path): no dict is built.
    bool takesDictItems() const override { return true; }
    void dictItem(int tag, const PickleValue::DictItems::value_type* pairs, size_t n) override {
        addEntry(tag, pairs, n);
    }

    // Entries of one device (or every device: -1) from a snapshot tree; streamed lists are
    // empty there, so this adds what was not streamed.
    void collect(const PickleValue& snapshot, int only_device = -1);
    // Trace entries received so far, of every device (skipped ones included).
    uint64_t entriesSeen() const {
        uint64_t n = 0;
        for (const auto& [device, trace] : m_traces) {
            n += trace.seen;
        }
        return n;
    }
    // Devices with trace entries or segments, ascending.
    std::vector<int> devices(const PickleValue& snapshot) const;
    // The first device with trace entries, else the first with segments, else 0.
    int defaultDevice(const PickleValue& snapshot) const;

    Trace build(const PickleValue& snapshot, int device, const RunRange& range = RunRange());

  private:
    // Throws RunFileCancelled when the cancel flag is set; cheap enough for every 64K entries.
    void checkCancel() const {
        if (m_cancel && m_cancel->load(std::memory_order_relaxed)) {
            throw RunFileCancelled(m_source);
        }
    }
    static constexpr size_t kCancelEvery = size_t(1) << 16;
    using Pair = PickleValue::DictItems::value_type;
    void addEntry(int device, const PickleValue& dict);
    // A trace entry's keys and values (a dict's items, or the reader's pairs); nullptr: the
    // entry is not a dict.
    void addEntry(int device, const Pair* pairs, size_t n);
    bool decodeEntry(const Pair* pairs, size_t n, Entry& e, const PickleValue** frames);
    Field fieldOf(const PickleValue& key);
    Action actionOf(const PickleValue& value);
    uint8_t poolIndex(const PickleValue& pool_id);
    void foldFree(DeviceTrace& trace, Entry& e);
    std::vector<SnapshotSegment> snapshotSegments(const PickleValue& snapshot) const;
    // Emit into the trace's columns with allocated relative to the level at the start and
    // reserved without the segments freed before being reserved, which are only known at the
    // end (build() adds them).
    int64_t emitInitialSegments(EventColumns& out, const std::vector<SnapshotSegment>& segments,
                                EntryList& entries);
    int64_t emitInitialBlocks(EventColumns& out, const PickleValue& snapshot, int64_t reserved,
                              const AddressSlots& touched);
    void emitTrace(EventColumns& out, DeviceTrace& trace, int64_t allocated, int64_t reserved,
                   const std::vector<SnapshotSegment>& segments);
    void emit(EventColumns& out, EventKind kind, int64_t time_ns, uint64_t addr, int64_t size,
              int64_t allocated, int64_t reserved, uint32_t stack);
    void emitSegment(EventColumns& out, int64_t time_ns, uint64_t addr, int64_t size,
                     int64_t allocated, int64_t reserved, uint32_t stack, int64_t stream,
                     const std::string& pool);
    void emitRole(EventColumns& out, int8_t category, int64_t time_ns, uint64_t addr,
                  int64_t allocated, int64_t reserved, uint32_t stack);
    static int8_t categoryOf(const PickleValue* category);
    // What a Memscope export says of its run (SnapshotExporter::kMarkerKey): device, whether it
    // had a caching allocator, the versions; anything missing or malformed is left as it was.
    void readMarker(const PickleValue& marker);
    // The raw stack of a frame list (a node of m_trace.raw_stacks); emit() cleans it.
    uint32_t stackOf(const PickleValue* frames);
    uint32_t frameOf(const PickleValue& frame);

    const std::string m_source;
    const std::atomic<bool>* m_cancel = nullptr;
    uint64_t m_stopAfter = 0;   // ImportOptions::preview_entries
    uint64_t m_entryCount = 0;  // entries of every device so far
    bool m_stopped = false;
    FrameCleaner m_cleaner;
    int m_device = 0;
    int m_eventDevice = 0;  // the events' device: m_device, or -1 for a Memscope export's CPU
    // false for a Memscope export of a run without a caching allocator (a CPU run): its segment
    // entries are the exporter's one segment per block, not an allocator's (see readMarker).
    bool m_cachingAllocator = true;
    bool m_fromMemscope = false;  // the snapshot is a Memscope export (it has the marker)
    int32_t m_step = 0;           // -1 while emitting what was there before the trace began
    Trace m_trace;
    std::map<int, DeviceTrace> m_traces;
    DeviceTrace* m_lastTrace = nullptr;  // the device of the entry before, in m_traces
    int m_lastDevice = -1;
    std::vector<std::string> m_pools{std::string()};

    // Every address an alloc or free of the trace touches, by its slot (Entry::slot), for
    // emitTrace(): whether the trace has shown it yet, whether it is live and its size.
    struct Block {
        bool seen = false;
        bool live = false;
        int64_t size = 0;
    };
    std::vector<Block> m_blocks;
    // Initial blocks emitted (a block listed twice counts once).
    std::unordered_map<uint64_t, bool> m_initialBlocks;
    int64_t m_freedFromStart = 0;  // bytes of frees with no alloc: live when the trace starts
    // Segments (or mapped ranges) the trace has reserved and not released, by address.
    struct OpenSegment {
        int64_t size = 0;
        int64_t stream = 0;
        std::string pool;
    };
    std::map<uint64_t, OpenSegment> m_open;
    int64_t m_segmentsFromStart = 0;  // segment frees with no alloc: reserved at the start
    int64_t m_skipped = 0;

    // Keys and action names are memoized strings in PyTorch's files: one node each, so a
    // pointer comparison usually settles them. Entries hold a value so that its node is not
    // freed and reused while the cache names it.
    std::vector<std::pair<PickleValue, Field>> m_fieldCache;
    // The key node last seen at each position of an entry and its field (the nodes are kept
    // alive by m_fieldCache, which holds every node put here).
    static constexpr size_t kKeyPositions = 16;
    std::pair<const void*, Field> m_keyAt[kKeyPositions] = {};
    std::vector<std::pair<PickleValue, Action>> m_actionCache;
    // Shared frame lists and frame dicts (the memo holds them; so does the cache, for the same
    // reason) -> stack node / frame id + 1. Unshared ones are converted each time they come.
    std::unordered_map<const void*, std::pair<PickleValue, uint32_t>> m_stackCache;
    struct RecentStack {
        const void* list = nullptr;
        uint32_t stack = 0;
    };
    static constexpr size_t kRecentStacks = 1024;
    std::vector<RecentStack> m_recentStacks = std::vector<RecentStack>(kRecentStacks);
    std::unordered_map<const void*, std::pair<PickleValue, uint32_t>> m_frameCache;
};

int Builder::streamList(const std::vector<PickleValue>& stack, size_t size) {
    if (size < 3 || !stack[0].isDict()) {
        return -1;
    }
    size_t j = size;  // stack[j, size): the outer list and the device lists before this one
    while (j > 0 && stack[j - 1].isList()) {
        --j;
    }
    if (j < 2 || j >= size) {
        return -1;
    }
    const size_t key = j - 1;
    if (key % 2 != 1 || !stack[key].isString() || stack[key].text() != "device_traces") {
        return -1;
    }
    for (size_t i = 1; i < key; i += 2) {
        if (!stack[i].isString()) {
            return -1;  // not a key of the top-level dict
        }
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
}

std::vector<int> Builder::devices(const PickleValue& snapshot) const {
    std::vector<int> out = SnapshotImporter::devices(snapshot);  // lists not streamed
    for (const auto& [device, trace] : m_traces) {
        if (trace.seen > 0) {
            out.push_back(device);
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

int Builder::defaultDevice(const PickleValue& snapshot) const {
    for (const auto& [device, trace] : m_traces) {
        if (trace.seen > 0) {
            return device;
        }
    }
    const std::vector<int> available = devices(snapshot);
    return available.empty() ? 0 : available.front();
}

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
    e.extra = e.action == Action::Oom ? device_free : stream;
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
    out.time_us = e.time_us;
    return true;
}

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
        m_lastTrace = &m_traces[device];  // std::map: the pointer stays valid
        m_lastDevice = device;
    }
    DeviceTrace& trace = *m_lastTrace;
    Entry e;
    e.index = static_cast<uint32_t>(std::min<uint64_t>(trace.seen, UINT32_MAX));
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
    if (e.slot == trace.last_entry.size()) {
        trace.last_entry.push_back(trace.entries.size());
        return;
    }
    uint64_t& last = trace.last_entry[e.slot];
    if (e.action == Action::FreeCompleted) {
        Entry& before = trace.entries[last];
        if (before.action == Action::FreeRequested) {
            before.flags |= kFolded;
        }
    }
    last = trace.entries.size();
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

std::vector<SnapshotSegment> Builder::snapshotSegments(const PickleValue& snapshot) const {
    std::vector<SnapshotSegment> out;
    for (const PickleValue& segment : segmentsOf(snapshot).items()) {
        if (!segment.isDict() || segmentDevice(segment) != m_device) {
            continue;
        }
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
                                     EntryList& entries) {
    if (!m_cachingAllocator) {
        return 0;
    }
    std::vector<std::pair<uint64_t, uint64_t>> touched;  // [begin, end) of trace segment events
    for (size_t i = 0; i < entries.size(); ++i) {
        const Entry& e = entries[i];
        if (e.action == Action::SegmentAlloc || e.action == Action::SegmentFree ||
            e.action == Action::SegmentMap || e.action == Action::SegmentUnmap) {
            const uint64_t end = e.addr + std::max<uint64_t>(1, uint64_t(e.size));
            touched.emplace_back(e.addr, end < e.addr ? UINT64_MAX : end);
        }
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
    for (size_t i = 0; i < entries.size(); ++i) {
        if (i % kCancelEvery == 0) {
            checkCancel();
            entries.releaseBefore(i);
        }
        const Entry& e = entries[i];
        if (!trace.has_time) {
            time_ns = static_cast<int64_t>(e.index) * 1000;
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
                seg.stream = e.has(kHasStream) || !known ? e.extra : known->stream;
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
                    capacity = addSat(capacity, e.extra);
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
    for (const PickleValue& segment : segmentsOf(snapshot).items()) {
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

// Pairs START and END markers into {"name", "begin_ns", "end_ns"} regions (appended to
// `out`): each START with the next END of the same name (nested scopes of one name close
// innermost first); an END without its START (recording began inside the scope) is dropped, a
// START never closed lasts to `end_ns`. Times are relative to the trace's first entry. At most
// kMaxAnnotations regions in `out`.
void pairMarkers(const std::vector<AnnotationMarker>& markers, int64_t first_time_us,
                 int64_t end_ns, nlohmann::json& out) {
    std::map<std::string, std::vector<int64_t>> open;  // name -> begin times, innermost last
    for (const AnnotationMarker& m : markers) {
        if (out.size() >= kMaxAnnotations) {
            break;
        }
        const int64_t ns = std::max<int64_t>(0, saturatingMicrosToNanos(first_time_us, m.time_us));
        if (m.start) {
            open[m.name].push_back(ns);
            continue;
        }
        auto it = open.find(m.name);
        if (it == open.end() || it->second.empty()) {
            continue;
        }
        out.push_back({{"name", m.name},
                       {"begin_ns", it->second.back()},
                       {"end_ns", std::max(ns, it->second.back())}});
        it->second.pop_back();
    }
    for (const auto& [name, begins] : open) {
        for (const int64_t begin : begins) {
            if (out.size() < kMaxAnnotations) {
                out.push_back(
                    {{"name", name}, {"begin_ns", begin}, {"end_ns", std::max(begin, end_ns)}});
            }
        }
    }
}

// PyTorch's user annotations (2.5+): the snapshot's top-level "external_annotations" list of
// {"stage": "START" | "END", "name", "device", "time_us"} dicts, recorded when a
// record_function scope opens and closes while memory history is on; this device's as markers.
std::vector<AnnotationMarker> externalAnnotations(const PickleValue& list, int device) {
    std::vector<AnnotationMarker> out;
    if (!list.isSequence()) {
        return out;
    }
    for (const PickleValue& item : list.items()) {
        if (!item.isDict() || out.size() >= 2 * kMaxAnnotations) {
            continue;
        }
        const PickleValue* stage = item.find("stage");
        const PickleValue* name = item.find("name");
        const PickleValue* time = item.find("time_us");
        const PickleValue* dev = item.find("device");
        if (!stage || !stage->isString() || !name || !name->isString() || !time) {
            continue;
        }
        const auto time_us = time->toInt64();
        if (!time_us || (dev && dev->toInt64() && *dev->toInt64() != device) ||
            (stage->text() != "START" && stage->text() != "END")) {
            continue;
        }
        out.push_back({stage->text() == "START", name->text(), *time_us});
    }
    return out;
}

Trace Builder::build(const PickleValue& snapshot, int device, const RunRange& range) {
    m_device = device;
    m_eventDevice = device;
    m_trace.meta.memscope_version = MEMSCOPE_VERSION;
    m_trace.meta.source = "imported from " + baseName(m_source);
    m_trace.meta.device = "cuda:" + std::to_string(m_device);
    m_trace.meta.torch_version.clear();
    m_trace.meta.config = nlohmann::json::object();
    m_trace.meta.categories_inferred = true;
    if (const PickleValue* marker =
            snapshot.isDict() ? snapshot.find(SnapshotExporter::kMarkerKey) : nullptr) {
        readMarker(*marker);
    }

    DeviceTrace& trace = m_traces[device];
    EntryList& entries = trace.entries;
    m_skipped = trace.skipped;
    m_blocks.assign(trace.slots.size(), Block());
    EventColumns& out = m_trace.events;
    out.reserve(entries.size() + entries.size() / 8 + 64);
    m_trace.raw_stack.reserve(entries.size() + entries.size() / 8 + 64);
    // Time 0: the segments reserved before the trace, then the live blocks it never touches
    // (found by what the trace does not touch), then the trace.
    // Those at time 0 have step -1: TimelineLayout puts such blocks at x = 0, at the bottom, as
    // memory_viz does, instead of one x each.
    const std::vector<SnapshotSegment> segments = snapshotSegments(snapshot);
    m_step = -1;
    const int64_t initial_reserved = emitInitialSegments(out, segments, entries);
    const int64_t initial = emitInitialBlocks(out, snapshot, initial_reserved, trace.slots);
    m_step = 0;
    emitTrace(out, trace, initial, initial_reserved, segments);

    // Frees-from-start were live before the first event, and released segments that the trace
    // never reserved were reserved before it: every level includes them.
    for (auto& a : out.allocated) {
        a = addSat(a, m_freedFromStart);
    }
    for (auto& r : out.reserved) {
        r = addSat(r, m_segmentsFromStart);
    }

    m_trace.summary = {
        {"imported", true}, {"devices", devices(snapshot)}, {"skipped_entries", m_skipped}};
    if (const PickleValue* settings =
            snapshot.isDict() ? snapshot.find("allocator_settings") : nullptr) {
        int64_t budget = 10000;
        m_trace.summary["allocator_settings"] = toJson(*settings, budget);
    }
    // PyTorch keeps the trace in a ring buffer of trace_alloc_max_entries entries and sets
    // trace_alloc_overflowed once it dropped older ones (at the top level, or among the
    // allocator's settings): then the history started late, and what the dropped entries
    // allocated and had not freed is what this trace shows as present from the start.
    {
        const PickleValue* settings =
            snapshot.isDict() ? snapshot.find("allocator_settings") : nullptr;
        auto field = [&](const char* key) -> const PickleValue* {
            const PickleValue* v = snapshot.isDict() ? snapshot.find(key) : nullptr;
            return v ? v : settings ? settings->find(key) : nullptr;
        };
        const PickleValue* max_entries = field("trace_alloc_max_entries");
        const PickleValue* overflowed = field("trace_alloc_overflowed");
        if (max_entries || overflowed) {
            nlohmann::json history = {{"overflowed", overflowed && overflowed->toBool()},
                                      {"entries", trace.seen}};
            if (const auto n = max_entries ? max_entries->toInt64() : std::nullopt; n && *n > 0) {
                history["max_entries"] = *n;
            }
            m_trace.summary["trace_history"] = std::move(history);
        }
    }
    // Annotations: PyTorch 2.5+'s external_annotations, and the user_defined entries that
    // nightlies of mid-2024 wrote into device_traces instead. Both are placed by the trace
    // entries' times: without them there is nothing to place them by.
    std::vector<PhaseInference::Region> phase_regions;
    if (trace.has_time) {
        nlohmann::json regions = nlohmann::json::array();
        const int64_t end_ns = out.time_ns.empty() ? 0 : out.time_ns.back();
        if (const PickleValue* annotations =
                snapshot.isDict() ? snapshot.find("external_annotations") : nullptr) {
            pairMarkers(externalAnnotations(*annotations, device), trace.first_time_us, end_ns,
                        regions);
        }
        pairMarkers(trace.markers, trace.first_time_us, end_ns, regions);
        phase_regions.reserve(regions.size());
        nlohmann::json user = nlohmann::json::array();
        for (auto& r : regions) {
            PhaseInference::Region region{r["name"].get<std::string>(),
                                          r["begin_ns"].get<int64_t>(), r["end_ns"].get<int64_t>()};
            // A Memscope export's "forward step 2" regions are the trainer's phases: they come
            // back as Trace::phases, not as user annotations too.
            const auto meaning = PhaseInference::meaningOf(region.name);
            if (!(m_fromMemscope && meaning.phase && meaning.step)) {
                user.push_back(std::move(r));
            }
            phase_regions.push_back(std::move(region));
        }
        regions = std::move(user);
        if (!regions.empty()) {
            m_trace.summary[TraceAnnotations::kSummaryKey] = std::move(regions);
        }
    }
    // Phases and steps from the frames' evidence and the annotations (categories follow from
    // them in finalize(): Categorizer::inferredCategoryOf).
    {
        std::vector<uint8_t> evidence(out.count());
        for (size_t i = 0; i < evidence.size(); ++i) {
            evidence[i] = m_cleaner.evidence(m_trace.raw_stack[i]);
        }
        m_trace.phases = PhaseInference::apply(out, evidence, phase_regions);
    }
    if (trace.has_time) {
        m_trace.meta.started_at = isoTimeFromMicros(trace.first_time_us);
    }
    m_traces.clear();  // the entries are not needed any more: free them before finalize()
    m_lastTrace = nullptr;
    checkCancel();
    if (!range.isAll()) {
        const size_t count = out.count();
        const auto [first, last] = TraceRange::events(out, range);
        TraceRange::keep(m_trace, first, last);
        m_trace.meta.source += "; loaded " + range.describe() + ": events " +
                               std::to_string(first) + ".." + std::to_string(last) + " of " +
                               std::to_string(count);
        checkCancel();
    }
    returnFreeHeap(m_trace.events.count());
    m_trace.finalize();
    return std::move(m_trace);
}

// Throws unless the value looks like a memory snapshot.
void checkSnapshot(const PickleValue& snapshot, const std::string& source_name) {
    static const char* known_keys[] = {"segments",
                                       "device_traces",
                                       "allocator_settings",
                                       "external_annotations",
                                       "host_segments",
                                       "host_traces",
                                       "trace_alloc_max_entries",
                                       "trace_alloc_overflowed",
                                       SnapshotExporter::kMarkerKey};
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
}

// The device asked for, or the default; throws when the snapshot lacks it.
int chooseDevice(const Builder& builder, const PickleValue& snapshot, int device,
                 const std::string& source_name) {
    const std::vector<int> available = builder.devices(snapshot);
    if (device < 0) {
        return builder.defaultDevice(snapshot);
    }
    if (std::find(available.begin(), available.end(), device) == available.end()) {
        std::string list;
        for (const int d : available) {
            list += (list.empty() ? "" : ", ") + std::to_string(d);
        }
        throw PickleError(
            source_name,
            "device " + std::to_string(device) + " is not in the snapshot (" +
                (list.empty() ? std::string("it holds no devices") : "devices: " + list) + ")");
    }
    return device;
}

}  // namespace

namespace {
Trace importSnapshotFile(const std::string& path, int device,
                         const SnapshotImporter::ImportOptions& options);
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
    return import(path, device, ImportOptions());
}

Trace SnapshotImporter::import(const std::string& path, int device, const ImportOptions& options) {
    Trace trace = importSnapshotFile(path, device, options);
    returnFreeHeap(trace.events.count());  // the builder's too, before the caller summarizes
    return trace;
}

namespace {

Trace importSnapshotFile(const std::string& path, int device,
                         const SnapshotImporter::ImportOptions& options) {
    // The device traces stream from the reader into compact entries as they are parsed; the
    // rest of the snapshot (segments, settings) is a small tree.
    Builder builder(path, options.cancel, options.preview_entries);
    PickleReader::FileOptions file_options;
    uint64_t bytes_read = 0;  // where a preview stopped, to the reader's chunk (1 MiB)
    file_options.progress = [&bytes_read, &options](uint64_t bytes, uint64_t size) {
        bytes_read = bytes;
        if (options.progress) {
            options.progress(bytes, size);
        }
    };
    file_options.cancel = options.cancel;
    PickleValue salvage;
    if (options.keep_partial || options.preview_entries > 0) {
        file_options.salvage = &salvage;
    }
    PickleValue snapshot;
    std::optional<PickleError> damage;
    try {
        snapshot = PickleReader(path).parseFile(path, &builder, file_options);
    } catch (const PickleError& e) {
        // Something to show: trace entries, or segments (the allocator's state).
        const bool something =
            builder.entriesSeen() > 0 ||
            ((salvage.isDict() || salvage.isList()) && segmentsOf(salvage).size() > 0);
        if (!builder.stoppedForPreview() && (!options.keep_partial || !something)) {
            throw;
        }
        damage = e;
        snapshot = std::move(salvage);
    }
    checkSnapshot(snapshot, path);
    builder.collect(snapshot);
    device = chooseDevice(builder, snapshot, device, path);
    Trace trace = builder.build(snapshot, device, options.range);
    if (damage) {
        uint64_t file_bytes = 0;
        if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
            if (std::fseek(f, 0, SEEK_END) == 0) {
                file_bytes = static_cast<uint64_t>(std::max(0L, std::ftell(f)));
            }
            std::fclose(f);
        }
        const int64_t offset = builder.stoppedForPreview() ? int64_t(bytes_read)
                                                           : std::max<int64_t>(0, damage->offset());
        if (builder.stoppedForPreview()) {
            trace.meta.source += "; preview: the first " + std::to_string(options.preview_entries) +
                                 " trace entries (byte " + std::to_string(offset) + " of " +
                                 std::to_string(file_bytes) + ")";
            trace.summary["preview"] = {{"entries", options.preview_entries},
                                        {"offset", offset},
                                        {"file_bytes", file_bytes}};
        } else {
            trace.meta.source += "; partial: read up to byte " + std::to_string(offset) + " of " +
                                 std::to_string(file_bytes) + ", the rest is damaged";
            trace.summary["partial"] = {
                {"error", damage->what()}, {"offset", offset}, {"file_bytes", file_bytes}};
        }
    }
    return trace;
}

}  // namespace

Trace SnapshotImporter::fromValue(const PickleValue& snapshot, int device,
                                  const std::string& source_name) {
    checkSnapshot(snapshot, source_name);
    // Only the device asked for is read (the default one is known from the tree).
    const std::vector<int> available = devices(snapshot);
    const int asked = device;
    if (device < 0) {
        device = available.empty() ? 0 : available.front();
        const PickleValue& traces = snapshot.get("device_traces");
        for (size_t i = 0; i < traces.size() && i <= size_t(kMaxDevice); ++i) {
            if (traces.at(i).isSequence() && traces.at(i).size() > 0) {
                device = static_cast<int>(i);
                break;
            }
        }
    }
    Builder builder(source_name);
    builder.collect(snapshot, device);
    if (asked >= 0) {
        chooseDevice(builder, snapshot, device, source_name);
    }
    return builder.build(snapshot, device);
}

}  // namespace memscope
