#pragma once

#include "run/phase.h"
#include "run/step_metrics.h"
#include "trace/category.h"
#include "trace/category_rule.h"
#include "trace/index_iterator.h"
#include "trace/packed_column.h"
#include "trace/stack_table.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace memscope {

enum class EventKind : uint8_t {
    Alloc = 0,         // size > 0
    Free = 1,          // size < 0
    Oom = 2,           // size = bytes requested, allocated = bytes in use, reserved = capacity
    SegmentAlloc = 3,  // caching allocator reserved a segment (imported snapshots, GPUs)
    SegmentFree = 4,
    Role = 5,  // the trainer names the storage at addr: size holds a Category code
};

struct Event {
    int64_t time_ns = 0;  // since the run started
    uint64_t addr = 0;
    int64_t size = 0;       // signed: frees are negative
    int64_t allocated = 0;  // live bytes after the event (Memscope's count)
    int64_t reserved = 0;   // allocator's reserved bytes, where it has such a pool
    uint32_t stack = 0;     // StackTable node
    int32_t step = 0;       // 0 = initialisation
    EventKind kind = EventKind::Alloc;
    Phase phase = Phase::Init;
    uint16_t thread = 0;
    int16_t device = -1;  // -1: CPU, otherwise the GPU index
};

// Events stored column by column: ten million of them load and save as a few large copies.
// Every column is packed (trace/packed_column.h): values change little between neighbouring
// events, and step, kind, phase, thread and device mostly not at all (issue 52). Read them as
// any column; append with push_back; rewrite them whole with transform() or assignValues().
struct EventColumns {
    PackedColumn<int64_t> time_ns;
    PackedColumn<uint64_t> addr;
    PackedColumn<int64_t> size;
    PackedColumn<int64_t> allocated;
    PackedColumn<int64_t> reserved;
    PackedColumn<uint32_t> stack;
    PackedColumn<int32_t> step;
    PackedColumn<uint8_t> kind;
    PackedColumn<uint8_t> phase;
    PackedColumn<uint16_t> thread;
    PackedColumn<int16_t> device;

    size_t count() const { return time_ns.size(); }
    void reserve(size_t n);
    void clear();
    void append(const Event& e);
    Event at(size_t i) const;
    // Drops the first n events (bounded mode).
    void dropFront(size_t n);
    // "" when every column has the same length, else which one differs.
    std::string checkLengths() const;
};

// No allocator hands out 256 TiB: a size, allocated or reserved count beyond it in a file is
// damage. Readers refuse it, which keeps every sum and difference the views take of a file's
// events far from int64's limits.
constexpr int64_t kMaxEventBytes = int64_t(1) << 48;
// Whether a size, allocated or reserved count is beyond kMaxEventBytes, of either sign.
constexpr bool beyondEventBytes(int64_t v) {
    return v > kMaxEventBytes || v < -kMaxEventBytes;
}

// One operator, module or autograd-node call: [begin_ns, end_ns) on a thread. Its name and
// nesting are the StackTable node that was current inside it (frame = the call itself).
struct Span {
    int64_t begin_ns = 0;
    int64_t end_ns = 0;
    uint32_t stack = 0;
    uint16_t thread = 0;
    uint32_t shapes = 0;  // index into Trace::shape_strings; 0 = not recorded
};

// A phase of a step as the trainer entered and left it.
struct PhaseInterval {
    Phase phase = Phase::Init;
    int32_t step = 0;
    int64_t begin_ns = 0;
    int64_t end_ns = 0;
};

// What a Trace stores of an allocation (one paired with its free by address, memory_viz
// semantics): its address and size are those of event(), read from the event columns. 12
// bytes instead of an Allocation's 32: 1.2 GB of a 10 GB snapshot's 61 million (issue 52).
struct AllocationRecord {
    // Event indices in 31 bits (a trace holds fewer than 2^31 events: LiveTraceBuilder refuses
    // more); never both -1.
    int32_t alloc_event = -1;  // -1: present from the start (freed without a recorded alloc)
    int32_t free_event = -1;   // -1: still live at the end; may be an Alloc event (a second
                               // alloc at a live address)
    Category category = Category::Unknown;
    CategoryRule rule = CategoryRule::NothingTells;  // which rule gave the category
    int16_t device = -1;

    // The event that made it (its alloc), or for one present from the start its free: the one
    // whose address, size (negated for a free) and stack are the allocation's.
    int32_t event() const { return alloc_event >= 0 ? alloc_event : free_event; }
};
static_assert(sizeof(AllocationRecord) == 12, "an AllocationRecord per alloc: keep it at 12 bytes");

// An allocation as views read it (Trace::allocations()): its record with its address and size.
struct Allocation : AllocationRecord {
    uint64_t addr = 0;
    int64_t size = 0;
};

// A trace's allocations read as Allocation values, made from its records and its event columns
// when read (two packed reads: trace/packed_column.h). Index it and iterate it as a
// std::vector<Allocation>, but an element is a value: take no pointer or reference that
// outlives the expression or loop iteration that read it. A list reads the trace it came from;
// it is valid as long as that trace is, and sees the allocations it has then.
class AllocationList {
  public:
    using const_iterator = IndexIterator<AllocationList>;

    AllocationList() = default;  // empty
    AllocationList(const std::vector<AllocationRecord>& records, const EventColumns& events)
        : m_records(&records), m_events(&events) {}

    size_t size() const { return m_records ? m_records->size() : 0; }
    bool empty() const { return size() == 0; }
    Allocation operator()(size_t i) const { return (*this)[i]; }  // for const_iterator
    Allocation operator[](size_t i) const {
        const AllocationRecord& r = (*m_records)[i];
        const auto e = size_t(r.event());
        Allocation a;
        static_cast<AllocationRecord&>(a) = r;
        a.addr = m_events->addr[e];
        a.size = r.alloc_event >= 0 ? m_events->size[e] : -m_events->size[e];
        return a;
    }
    Allocation front() const { return (*this)[0]; }
    Allocation back() const { return (*this)[size() - 1]; }
    // An iterator holds a copy of the list (two pointers): it outlives the list a call returned.
    const_iterator begin() const { return {*this, 0}; }
    const_iterator end() const { return {*this, size()}; }
    // The records alone, for code that reads no address or size.
    const std::vector<AllocationRecord>& records() const {
        static const std::vector<AllocationRecord> kNone;
        return m_records ? *m_records : kNone;
    }

  private:
    const std::vector<AllocationRecord>* m_records = nullptr;
    const EventColumns* m_events = nullptr;
};

// A block of device memory a caching allocator reserved (cudaMalloc / hipMalloc, or an expandable
// segment's mapped range), paired from SegmentAlloc/SegmentFree events by (device, address) the
// way allocations are. Blocks (allocations) whose address lies in [addr, addr + size) live in it;
// its free bytes at a time are the gaps between them. A CPU run has none: the CPU allocator
// reserves nothing beyond what it hands out.
struct Segment {
    uint64_t addr = 0;
    int64_t size = 0;
    int64_t reserve_event = -1;  // -1: reserved before the trace began
    int64_t release_event = -1;  // -1: still reserved at the end
    int16_t device = -1;
    int64_t stream = 0;  // from SegmentTag, 0 when unknown
    std::string pool;    // from SegmentTag: "" (default pool), "large", "small", a graph pool id
};

// What the event columns cannot hold about a segment: written by importers and recorders for the
// SegmentAlloc event that reserved it.
struct SegmentTag {
    int64_t event = -1;  // index of the SegmentAlloc event
    int64_t stream = 0;
    std::string pool;
};

// Per operator name or per module path.
struct OperatorStat {
    std::string name;
    bool is_module = false;
    int64_t calls = 0;
    int64_t total_ns = 0;         // wall time inside, children included
    int64_t self_ns = 0;          // children excluded
    int64_t device_ns = 0;        // GPU time where measured; 0 on CPU
    int64_t bytes_allocated = 0;  // allocations made inside, children included
    int64_t self_bytes_allocated = 0;
    int64_t self_net_bytes = 0;      // allocated minus freed inside, children excluded
    int64_t largest_allocation = 0;  // children included
    double flops = 0;                // matmul-like ops, from input shapes
    int64_t bytes_sent = 0;          // c10d collectives: payload handed to the other ranks

    nlohmann::json toJson() const;
    static OperatorStat fromJson(const nlohmann::json& j);
};

struct RunMetadata {
    std::string memscope_version;
    std::string torch_version;
    std::string device;  // "cpu", "cuda:0"
    std::string device_name;
    int threads = 0;
    std::string started_at;           // ISO 8601, UTC
    std::string source = "recorded";  // or "imported from FILE"
    // TrainOptions::toJson() of a recorded run (or an import given --config), {"program": FILE}
    // of a Python program's, {} of a bare import: read it typed with recordedOptions().
    nlohmann::json config;
    int64_t max_events = 0;  // 0: unbounded
    int64_t dropped_events = 0;
    int64_t capacity_bytes = 0;  // device-capacity limit in force, 0 if none
    // Imported snapshots: phases, steps and categories inferred from the snapshot's frames and
    // annotations (interchange/phase_inference.h, Categorizer::inferredCategoryOf), not recorded.
    // Saved as "categories_inferred" (absent in older files: false).
    bool categories_inferred = false;

    nlohmann::json toJson() const;
    static RunMetadata fromJson(const nlohmann::json& j);
};

// A recorded (or imported) run: what views, exports and files read. Views never copy events;
// they read these columns and the layouts computed from them.
class Trace {
  public:
    RunMetadata meta;
    StackTable stacks;
    EventColumns events;
    std::vector<OperatorStat> operators;
    std::vector<Span> spans;            // in end order; empty for imported snapshots
    std::vector<PhaseInterval> phases;  // in time order
    // Input shapes of op calls recorded with record_shapes ("[8, 128, 256], [256, 256]"),
    // interned; entry 0 is "" (not recorded).
    std::vector<std::string> shape_strings{std::string()};
    std::vector<StepMetrics> steps;
    // Stream and pool of SegmentAlloc events, in event order (may be empty).
    std::vector<SegmentTag> segment_tags;
    nlohmann::json summary = nlohmann::json::object();
    // Imported snapshots keep the file's own frame lists beside the cleaned stacks that every
    // view, export, search and comparison reads (interchange/frame_cleaner.h): `stacks` and
    // events.stack hold the cleaned stacks; raw_stacks holds the frames as the file lists them
    // (outermost first like any StackTable, kind Other, unresolved files "??"), and raw_stack the
    // raw node of each event, parallel to the event columns. Both are empty for recordings and
    // for files saved before; hasRawStacks() says whether they can be used. Run files store them
    // as the optional header field "raw_stacks" (io/run_file.h).
    StackTable raw_stacks;
    PackedColumn<uint32_t> raw_stack;
    bool hasRawStacks() const { return !raw_stack.empty() && raw_stack.size() == events.count(); }
    // Exchanges the cleaned and the raw stacks (stacks <-> raw_stacks, events.stack <->
    // raw_stack), so that this trace shows the raw frames everywhere it shows stacks: the "raw
    // frames" view is a copy of the trace with this called. Does nothing without raw stacks.
    // Spans keep naming `stacks` nodes, so it is for traces without spans (imports have none);
    // categories stay those finalize() gave over the cleaned stacks.
    void swapRawStacks();

    // Pairs allocs with frees per (device, address) and categorises them (trace/categorizer.h).
    // Call after events change; views and exports read allocations().
    void finalize();
    // Its allocations, each made from its record and its alloc (or free) event when read.
    AllocationList allocations() const { return {m_allocations, events}; }
    // Allocation index per event, or -1 (events that are neither alloc nor free). 32 bits: a
    // trace holds fewer than 2^31 allocations (finalize throws std::bad_alloc beyond).
    const std::vector<int32_t>& allocationOfEvent() const { return m_allocationOfEvent; }
    // Segments paired from SegmentAlloc/SegmentFree events, in reserve order (those reserved
    // before the trace first). Empty for runs without a caching allocator (CPU runs).
    const std::vector<Segment>& segments() const { return m_segments; }
    bool hasCachingAllocator() const { return !m_segments.empty(); }

    // Live bytes per category just after event i (O(events) scan).
    std::vector<int64_t> bytesByCategoryAt(size_t event_index) const;
    // Index of the event with the highest allocated total, or -1.
    int64_t peakEvent() const;

  private:
    // Pairs and categorises appended events in place during a live run
    // (trace/live_trace_builder.h).
    friend class LiveTraceBuilder;
    friend class ParameterInference;

    std::vector<AllocationRecord> m_allocations;
    std::vector<int32_t> m_allocationOfEvent;
    std::vector<Segment> m_segments;
};

}  // namespace memscope
