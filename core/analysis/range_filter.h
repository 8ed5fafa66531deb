#pragma once

#include "run/run_range.h"
#include "trace/trace.h"

#include <array>
#include <cstdint>
#include <vector>

namespace memscope {

// Which allocations a range of events selects, for the range filter every view applies.
//
// An allocation is live on the events [alloc_event, free_event): from its alloc up to, not
// including, its free (-1 alloc: live from before the first event; -1 free: to after the last).
// "Alive in" [first, last) means live after some event of the range; "made in" means its alloc
// event lies in the range (allocations present from the start are made in no range).
class RangeFilter {
  public:
    enum class Mode { AliveIn, MadeIn };

    // An event range [first, last) and how it selects; an empty filter (first >= last) selects
    // nothing.
    int64_t first = 0;
    int64_t last = 0;
    Mode mode = Mode::AliveIn;

    RangeFilter() = default;
    RangeFilter(int64_t first_event, int64_t last_event, Mode how = Mode::AliveIn)
        : first(first_event), last(last_event), mode(how) {}

    bool empty() const { return first >= last; }
    bool operator==(const RangeFilter& o) const {
        return first == o.first && last == o.last && mode == o.mode;
    }
    bool operator!=(const RangeFilter& o) const { return !(*this == o); }

    // Whether allocation `a` of `trace` passes. O(1).
    bool selects(const Allocation& a) const;
    // The indices of the allocations of `trace` that pass, ascending. O(allocations).
    std::vector<int64_t> allocations(const Trace& trace) const;
    // The same as one flag per allocation (1: passes), for views that test membership.
    std::vector<uint8_t> mask(const Trace& trace) const;

    // The times the range covers, for what has times rather than events (op spans): from the
    // time of its first event up to, not including, the time of the event after it. Open on
    // the side where the range reaches the trace's first or last event, so that the whole
    // run's range covers every span (also those before the first event or after the last).
    struct TimeWindow {
        int64_t begin_ns = 0;
        int64_t end_ns = 0;
    };
    TimeWindow timeWindow(const Trace& trace) const;
    // Whether an op call ran in the window: its span [begin, end], both ends included (an
    // event taken at the very nanosecond a call ended was made in it), overlaps the window.
    // The same in both modes: a call that made an allocation in the range always ran in it,
    // and a range inside one long call still counts that call. O(1).
    static bool overlaps(const Span& span, const TimeWindow& window) {
        return span.begin_ns < window.end_ns && span.end_ns >= window.begin_ns;
    }

    // What the filtered range holds, for the summary page.
    struct Summary {
        int64_t allocations = 0;  // selected
        int64_t bytes = 0;        // their sizes summed
        std::array<int64_t, kCategoryCount> bytes_by_category{};
        int64_t peak_event = -1;  // the event of [first, last) with the most live bytes
        int64_t peak_bytes = 0;   // Trace::events.allocated there
        int64_t begin_ns = 0;     // times of the first and the last event of the range
        int64_t end_ns = 0;
    };
    // O(allocations + last - first).
    Summary summarize(const Trace& trace) const;

    // The event range a RunRange names in `trace` (event indices clamped to the trace; times:
    // the events whose time lies in [begin, end), by binary search over the event times, which
    // a finalized trace keeps non-decreasing). The whole run for RunRange::Kind::All.
    static RangeFilter fromRunRange(const Trace& trace, const RunRange& range,
                                    Mode how = Mode::AliveIn);
};

}  // namespace memscope
