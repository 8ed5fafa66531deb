#pragma once

#include "trace/trace.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>

namespace memscope {

// Reserved memory of a run's caching allocator: the reserved total after every event, its peak,
// and fragmentation (reserved - allocated, largest free block, free blocks) at the allocated peak
// and at the first out-of-memory event. A CPU run has no caching allocator (the CPU allocator
// reserves nothing beyond what it hands out): hasCachingAllocator() is false and views say so
// instead of drawing reserved equal to allocated.
//
// Where the reserved total comes from: the event column `reserved` (what the allocator reported:
// the recorder on a GPU, imported snapshots) when it is non-zero anywhere, else the running sum
// of segment sizes. Out-of-memory events carry a capacity in that column, not a reserved total:
// they repeat the previous event's reserved.
class ReservedMemory {
  public:
    struct Point {
        int64_t event = -1;
        int64_t reserved = 0;
        int64_t allocated = 0;
        int64_t free_bytes = 0;  // reserved - allocated
        // From the segments' free gaps; -1 when the run has reserved totals but no segments.
        int64_t largest_free_block = -1;
        int64_t free_blocks = -1;
        int64_t segments = -1;

        nlohmann::json toJson() const;
    };

    static ReservedMemory compute(const Trace& trace);
    // Segments, or a non-zero reserved total on any event that is not an out-of-memory event.
    static bool hasCachingAllocator(const Trace& trace);
    // Whether the run ran on a CPU: its device "" (older files) or "cpu...".
    static bool ranOnCpu(const Trace& trace);
    // Calls visit(event index, reserved after it) for every event in order.
    static void forEachReserved(const Trace& trace,
                                const std::function<void(size_t, int64_t)>& visit);
    // Fragmentation just after `event`: from the segments when the run has them (allocated is
    // then the bytes of blocks inside segments), else reserved total minus live bytes.
    static Point at(const Trace& trace, int64_t event);

    bool cachingAllocator() const { return m_caching; }
    // Whether the run ran on a CPU (its device "" or "cpu..."): without a caching allocator a CPU
    // run has none to record, a GPU run (an imported snapshot with neither segments nor reserved
    // totals) did not record it.
    bool onCpu() const { return m_cpu; }
    int64_t peakReserved() const { return m_peakReserved; }
    int64_t peakReservedEvent() const { return m_peakReservedEvent; }
    // At the allocated peak (Trace::peakEvent), and at the first OOM event if there is one.
    const Point& atPeak() const { return m_atPeak; }
    const std::optional<Point>& atOom() const { return m_atOom; }

    // {"caching_allocator": false} (a CPU run), {"caching_allocator": false, "cpu": false} (a GPU
    // run without reserved figures) or {"caching_allocator": true, "peak_reserved_bytes",
    // "peak_reserved_event", "at_peak": Point, "at_oom": Point or null}.
    nlohmann::json toJson() const;
    // Lines for `memscope-cli info`: "Reserved: no caching allocator (CPU)", "Reserved: not
    // recorded (...)" or the figures.
    static std::string toText(const nlohmann::json& reserved);

  private:
    bool m_caching = false;
    bool m_cpu = true;
    int64_t m_peakReserved = 0;
    int64_t m_peakReservedEvent = -1;
    Point m_atPeak;
    std::optional<Point> m_atOom;
};

}  // namespace memscope
