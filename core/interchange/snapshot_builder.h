#pragma once

// SnapshotImporter's Builder, shared by its two files: snapshot_importer.cpp reads the trace
// entries into compact Entry records and emits them (the hot path); snapshot_importer_build.cpp
// builds the Trace from them (Builder::build) and holds SnapshotImporter's entry points.
// Internal to core/interchange.

#include "interchange/address_slots.h"
#include "interchange/entry_list.h"
#include "interchange/frame_cleaner.h"
#include "interchange/snapshot_importer.h"
#include "io/run_file_cancelled.h"
#include "pickle/pickle_reader.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace memscope::snapshot_detail {

constexpr int kMaxDevice = std::numeric_limits<int16_t>::max();
// The host lane's number inside the Builder (its streamed lists' tag and its key in m_traces):
// past every device index, since a streamed list's tag must be >= 0. Outside it is
// SnapshotImporter::kHostDevice.
constexpr int kHostLane = kMaxDevice + 1;

// Imported annotation regions kept at most (a marker each for START and END).
constexpr size_t kMaxAnnotations = 1000000;

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

// A record_function scope opening or closing, before START and END are paired into regions.
struct AnnotationMarker {
    bool start = false;
    std::string name;
    int64_t time_us = 0;
};

struct DeviceTrace {
    explicit DeviceTrace(size_t chunk = EntryList::kDefaultChunk) : entries(chunk) {}
    EntryList entries;
    // The addresses that allocs and frees touch, numbered, and per number the entry that last
    // touched it, as its index times two plus one when it is a free_requested (for folding a
    // free_requested into the free_completed that follows it).
    AddressSlots slots;
    std::vector<uint64_t> last_entry;
    // [begin, end) of each segment entry (alloc, free, map, unmap), in trace order.
    std::vector<std::pair<uint64_t, uint64_t>> segment_ranges;
    std::vector<AnnotationMarker> markers;  // from "user_defined" entries, in trace order
    uint64_t seen = 0;                      // entries in the list, skipped ones included
    int64_t skipped = 0;
    int64_t first_time_us = 0;
    bool has_time = false;
};

// Byte totals saturate at +-256 TiB (kMaxEventBytes, what run files take) instead of
// overflowing: sizes come from the file, and a hostile one may add up many huge blocks.
inline int64_t clampBytes(int64_t v) {
    return std::clamp(v, -kMaxEventBytes, kMaxEventBytes);
}

inline int64_t addSat(int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) {
        return b > 0 ? kMaxEventBytes : -kMaxEventBytes;
    }
    return clampBytes(r);
}

inline int64_t subSat(int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_sub_overflow(a, b, &r)) {
        return b < 0 ? kMaxEventBytes : -kMaxEventBytes;
    }
    return clampBytes(r);
}

inline int64_t saturatingMicrosToNanos(int64_t from_us, int64_t to_us) {
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
inline const PickleValue& segmentsOf(const PickleValue& snapshot) {
    return snapshot.isDict() ? snapshot.get("segments") : snapshot;
}

inline int segmentDevice(const PickleValue& segment) {
    const PickleValue* device = segment.find("device");
    if (!device) {
        return 0;  // single-device files may leave it out
    }
    const auto d = device->toInt64();
    return d && *d >= 0 && *d <= kMaxDevice ? static_cast<int>(*d) : -1;
}

// The host lane's entries: `host_traces` as a flat list of trace entries, or as a list of lists
// of them (as device_traces is), taken in order. PyTorch's writer of the key was not read, so
// both are accepted.
template <typename F>
void forEachHostEntry(const PickleValue& snapshot, F&& f) {
    if (!snapshot.isDict()) {
        return;
    }
    for (const PickleValue& item : snapshot.get("host_traces").items()) {
        if (item.isSequence()) {
            for (const PickleValue& entry : item.items()) {
                f(entry);
            }
        } else {
            f(item);
        }
    }
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
    // entry_chunk: entries of a device held plain before they are packed (EntryList; 0: its
    // default).
    explicit Builder(std::string source, const std::atomic<bool>* cancel = nullptr,
                     uint64_t stop_after = 0, size_t entry_chunk = 0)
        : m_source(std::move(source)),
          m_cancel(cancel),
          m_stopAfter(stop_after),
          m_entryChunk(entry_chunk ? entry_chunk : EntryList::kDefaultChunk) {}
    // Whether reading stopped at the preview's limit (ImportOptions::preview_entries).
    bool stoppedForPreview() const { return m_stopped; }

    // Streams the lists of `device_traces` at the top of the snapshot dict: the reader's stack
    // is [dict, key, value, ..., "device_traces", outer list, earlier device lists...]; and
    // `host_traces` (kHostLane), its outer list and any list right inside it.
    int streamList(const std::vector<PickleValue>& stack, size_t size) override;
    void item(int tag, PickleValue&& value) override {
        if (tag == kHostLane && value.isList()) {
            // An inner list of a nested host_traces: streamed itself, so empty by now.
            for (const PickleValue& entry : value.items()) {
                addEntry(tag, entry);
            }
            return;
        }
        addEntry(tag, value);
    }
    // Trace entries read straight from the bytes (the reader's fast path): no dict is built.
    bool takesDictItems() const override { return true; }
    void dictItem(int tag, const PickleValue::DictItems::value_type* pairs, size_t n) override {
        addEntry(tag, pairs, n);
    }

    // Entries of one device or the host lane (kHostLane), or of every lane (-1), from a
    // snapshot tree; streamed lists are empty there, so this adds what was not streamed.
    void collect(const PickleValue& snapshot, int only_device = -1);
    // Trace entries received so far, of every device (skipped ones included).
    uint64_t entriesSeen() const {
        uint64_t n = 0;
        for (const auto& [device, trace] : m_traces) {
            n += trace.seen;
        }
        return n;
    }
    // Devices with trace entries or segments, ascending (the host lane is not one).
    std::vector<int> devices(const PickleValue& snapshot) const;
    // Whether the host lane has trace entries or segments.
    bool hasHostLane(const PickleValue& snapshot) const;
    // The first device with trace entries, else the first with segments, else the host lane
    // when there is one, else 0.
    int defaultDevice(const PickleValue& snapshot) const;

    // device: an index, or kHostLane.
    Trace build(const PickleValue& snapshot, int device, const RunRange& range = RunRange());

  private:
    // The members marked inline are defined in snapshot_importer.cpp and used only there, in the
    // per-entry and per-event loops: inline keeps them inlinable there as they were while the
    // Builder was file-local (the library is built with -fPIC, where GCC calls an exported
    // non-inline function rather than inline it, since it could be interposed).

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
    inline bool decodeEntry(const Pair* pairs, size_t n, Entry& e, const PickleValue** frames);
    inline Field fieldOf(const PickleValue& key);
    inline Action actionOf(const PickleValue& value);
    inline uint8_t poolIndex(const PickleValue& pool_id);
    inline uint32_t extraIndex(int64_t value);
    inline void foldFree(DeviceTrace& trace, Entry& e);
    // The segment dicts of the lane being built: `segments` of m_device, or `host_segments`.
    std::vector<const PickleValue*> laneSegments(const PickleValue& snapshot) const;
    std::vector<SnapshotSegment> snapshotSegments(const PickleValue& snapshot) const;
    // Emit into the trace's columns with allocated relative to the level at the start and
    // reserved without the segments freed before being reserved, which are only known at the
    // end (build() adds them).
    int64_t emitInitialSegments(EventColumns& out, const std::vector<SnapshotSegment>& segments,
                                std::vector<std::pair<uint64_t, uint64_t>> touched);
    int64_t emitInitialBlocks(EventColumns& out, const PickleValue& snapshot, int64_t reserved,
                              const AddressSlots& touched);
    void emitTrace(EventColumns& out, DeviceTrace& trace, int64_t allocated, int64_t reserved,
                   const std::vector<SnapshotSegment>& segments);
    inline void emit(EventColumns& out, EventKind kind, int64_t time_ns, uint64_t addr,
                     int64_t size, int64_t allocated, int64_t reserved, uint32_t stack);
    inline void emitSegment(EventColumns& out, int64_t time_ns, uint64_t addr, int64_t size,
                            int64_t allocated, int64_t reserved, uint32_t stack, int64_t stream,
                            const std::string& pool);
    inline void emitRole(EventColumns& out, int8_t category, int64_t time_ns, uint64_t addr,
                         int64_t allocated, int64_t reserved, uint32_t stack);
    static inline int8_t categoryOf(const PickleValue* category);
    // What a Memscope export says of its run (SnapshotExporter::kMarkerKey): device, whether it
    // had a caching allocator, the versions; anything missing or malformed is left as it was.
    void readMarker(const PickleValue& marker);
    // The raw stack of a frame list (a node of m_trace.raw_stacks); emit() cleans it.
    inline uint32_t stackOf(const PickleValue* frames);
    inline uint32_t frameOf(const PickleValue& frame);

    const std::string m_source;
    const std::atomic<bool>* m_cancel = nullptr;
    uint64_t m_stopAfter = 0;   // ImportOptions::preview_entries
    size_t m_entryChunk;        // EntryList's chunk (ImportOptions::entry_chunk)
    uint64_t m_entryCount = 0;  // entries of every device so far
    bool m_stopped = false;
    FrameCleaner m_cleaner;
    int m_device = 0;       // the device index, or kHostLane
    int m_eventDevice = 0;  // the events' device: m_device, or -1 for a Memscope export's CPU
                            // and for the host lane
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
    // The distinct streams and device_free values of the entries (Entry::extra; 0 is 0): a
    // trace has a few streams, and an oom or two.
    std::vector<int64_t> m_extras{0};
    std::unordered_map<int64_t, uint32_t> m_extraIndex;
    int64_t m_lastExtra = 0;
    uint32_t m_lastExtraIndex = 0;

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

}  // namespace memscope::snapshot_detail
