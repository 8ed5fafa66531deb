#pragma once

#include "layout/allocation_sizes.h"
#include "trace/category.h"
#include "trace/packed_column.h"
#include "trace/trace.h"

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace memscope {

// Where a drawn allocation's bottom edge moves: from x on (up to its next point or its end) the
// allocation lies on [y_bottom, y_bottom + size) bytes.
struct TimelinePoint {
    int64_t x = 0;
    int64_t y_bottom = 0;

    bool operator==(const TimelinePoint& o) const { return x == o.x && y_bottom == o.y_bottom; }
};

// The Active Memory Timeline as pytorch.org/memory_viz lays it out, computed from a finalized
// Trace (Qt-free: the view, the screenshot and exports all draw from it).
//
// Axes. x counts alloc/free events only: the k-th such event is x = k, and the state after it
// holds on [k, k+1); X = xCount() such events, so x runs over [0, X]. timeAt(x) is the wall time of
// that event. y is bytes.
//
// Stacking. A new allocation goes on top of everything live; when one is freed, everything above
// it slides down by its size, so an allocation's bottom edge only ever moves down. Allocations
// present from the start (alloc_event == -1, or allocated by an event with step < 0: before the
// trace began) are live from x = 0 and lie at the bottom, the one
// freed last lowest (memory_viz's order: the first to go is on top, which keeps slides short).
// Allocations never freed run to x = X. An allocation is live on [beginX, endX).
//
// Detail. The largest N allocations (size descending, ties: lower allocation index first) are
// drawn one by one, stacked among themselves; all others are summed into one "summarized" band
// on top of them, [drawnTop(x), total(x)), exactly like memory_viz's detail slider.
//
// Cost (M allocations, X alloc/free events, C = points emitted for the drawn allocations):
//   constructor   O(M log M + X): one pass over the events, one sort by size, prefix sums, and a
//                 block-max tree over total(x); then setDetail(default).
//   setDetail(N)  O(M + X + C): a sweep over the x axis keeping the live drawn allocations in
//                 stack order (run twice: once to count each allocation's points, once to write
//                 them straight into one flat CSR array, with no per-allocation vectors and no
//                 sort). A new allocation always goes on top, so its bottom is the running drawn
//                 total; a free moves only the live drawn allocations above it, one emitted point
//                 each, so the sweep does no work beyond its output. (The Fenwick-tree
//                 formulation, bottom = sum of live drawn sizes below, gives the same points at
//                 O(log M) each; a stack-ordered live list needs no tree because ranks only
//                 grow.) Only drawn allocations emit points: frees of summarized ones move
//                 nothing drawn, which keeps small N cheap whatever M is. C is one point per drawn
//                 allocation plus one per (free, drawn allocation live above it): near-LIFO
//                 training traces give C of a few N; a FIFO-shaped trace with L live drawn
//                 allocations can reach N * L, which bounds how high a useful N goes.
//   maxTotal, minTotal   O(log X + 2 kBlock) per range (block trees over total(x)).
//   bottomAt      O(log points of that allocation).
//   hitTest, drawnIn   O(N) scans over contiguous arrays (a few ms at N = 1,000,000).
class TimelineLayout {
  public:
    // memory_viz's default detail: the 15,000 largest allocations.
    static constexpr int64_t kDefaultDetail = 15000;

    explicit TimelineLayout(const Trace& trace, int64_t detail = kDefaultDetail);

    // --- live runs
    // Brings the layout up to `trace`, the trace it was computed from with events appended and
    // finalized again (a live run: trace/live_trace_builder.h), so that it equals
    // TimelineLayout(trace, detail) for the detail last asked for (setDetail or the
    // constructor). Costs what the new events add, not what the trace holds: the new x and the
    // allocations they make or end, the allocations still live (their end and category may have
    // changed), the detail's n drawn allocations and their points, the x range of any drawn
    // allocation that the new ones push out of the detail, and the category blocks from the
    // first allocation whose category changed. A trace it cannot extend in place (allocations
    // present from the start, events dropped) is laid out again from scratch.
    void extend(const Trace& trace);
    // Events of the trace the layout was last computed or extended from.
    int64_t eventCount() const { return m_eventCount; }
    // After extend: the first allocation it added, and the older ones it looked at again (those
    // live at the end before: their end and category may have changed). Views update what they
    // derive per allocation for these only. After a layout from scratch: 0 (all new) and none.
    int64_t firstNewAllocation() const { return m_firstNew; }
    const std::vector<int32_t>& revisitedAllocations() const { return m_revisited; }

    // --- x axis
    int64_t xCount() const { return static_cast<int64_t>(m_eventOfX.size()); }
    // Event index (into Trace::events) of the x-th alloc/free event.
    int64_t eventAt(int64_t x) const { return m_eventOfX[static_cast<size_t>(x)]; }
    // Wall time (Trace::events.time_ns) of the x-th alloc/free event.
    int64_t timeAt(int64_t x) const { return m_timeOfX[static_cast<size_t>(x)]; }
    // First x whose event happened at or after time_ns (xCount() when none): maps phase and step
    // boundaries onto the x axis.
    int64_t xAtTime(int64_t time_ns) const;
    // timeAt for every x (non-decreasing), and the time the axis ends at (x = xCount()): the last
    // event's plus one average gap between events, so that the last state has a width too.
    const PackedColumn<int64_t>& times() const { return m_timeOfX; }
    double endTime() const;
    // xAtTime of the begin and end of the trace's phases (Trace::phases, by index), mapped with
    // the layout: a frame draws thousands of phase bands, step labels, lines and floors, and a
    // binary search over millions of x each (issue 52: 38 ms of a 95 ms frame at 12M events)
    // costs more than the drawing. phaseCount() is the trace's phase count.
    size_t phaseCount() const { return m_phaseX.size(); }
    int64_t phaseBeginX(size_t i) const { return m_phaseX[i].first; }
    int64_t phaseEndX(size_t i) const { return m_phaseX[i].second; }

    // --- allocations (indices into Trace::allocations())
    int64_t allocationCount() const { return static_cast<int64_t>(m_size.size()); }
    int64_t beginX(int64_t a) const { return m_beginX[static_cast<size_t>(a)]; }
    int64_t endX(int64_t a) const { return m_endX[static_cast<size_t>(a)]; }
    int64_t sizeOf(int64_t a) const { return m_size[static_cast<size_t>(a)]; }
    Category categoryOf(int64_t a) const { return m_category[static_cast<size_t>(a)]; }

    // --- curves: the value at x holds on [x, x+1), for x in [0, xCount())
    int64_t totalAt(int64_t x) const { return m_total[static_cast<size_t>(x)]; }
    // Top of the drawn allocations; the summarized band is [drawnTopAt(x), totalAt(x)).
    // O(log 2 * detail): kept as a step per x where a drawn allocation begins or ends.
    int64_t drawnTopAt(int64_t x) const;
    int64_t summarizedAt(int64_t x) const { return totalAt(x) - drawnTopAt(x); }
    const PackedColumn<int64_t>& total() const { return m_total; }
    // drawnTopAt for every x, written out (O(xCount())).
    std::vector<int64_t> drawnTop() const;
    // Highest total on [x0, x1) (clamped to the axis); 0 for an empty range.
    int64_t maxTotal(int64_t x0, int64_t x1) const;
    // Lowest total on [x0, x1) (clamped); 0 for an empty range. With maxTotal, the envelope of
    // memory over a pixel column: the view fills up to the minimum and shows the range above it.
    int64_t minTotal(int64_t x0, int64_t x1) const;
    // Lowest drawnTopAt on [x0, x1) (clamped); 0 for an empty range. O(log X + 2 kBlock).
    int64_t minDrawnTop(int64_t x0, int64_t x1) const;
    // The first x where the total is highest, and that total; -1 and 0 without events.
    int64_t peakX() const { return m_peakX; }
    int64_t peakBytes() const { return m_peakX >= 0 ? totalAt(m_peakX) : 0; }

    // --- bytes per category (the category-stacked plot, like torch.profiler's memory timeline)
    using CategoryBytes = std::array<int64_t, kCategoryCount>;
    // Live bytes of each category on [x, x+1) (zeros outside the axis). O(kCategoryBlock).
    CategoryBytes categoryBytesAt(int64_t x) const;
    // Over [x0, x1), the highest top of each layer when categories are stacked in enum order:
    // entry c is the maximum over x of the bytes of categories 0..c summed (zeros for an empty
    // range). A pixel column's envelope in the stacked plot. O(kCategoryBlock + blocks in range).
    CategoryBytes categoryStackMax(int64_t x0, int64_t x1) const;
    static constexpr int64_t kCategoryBlock = 64;

    // --- detail
    // Draws the largest n allocations (clamped to [0, allocationCount()]).
    void setDetail(int64_t n);
    int64_t detail() const { return m_detail; }
    // The count that `percent` of all allocations makes (rounded, clamped).
    int64_t detailForPercent(double percent) const;
    // How many allocations are not drawn one by one (those in the summarized band).
    int64_t summarizedCount() const { return allocationCount() - m_detail; }

    // --- drawn allocations, in stack order (bottom first); d is a drawn index
    int64_t drawnCount() const { return static_cast<int64_t>(m_drawn.size()); }
    int64_t drawnAllocation(int64_t d) const { return m_drawn[static_cast<size_t>(d)]; }
    // Drawn index of allocation a, or -1 when it is in the summarized band.
    int64_t drawnIndexOf(int64_t a) const { return m_drawnIndex[static_cast<size_t>(a)]; }
    // The bottom-edge points of drawn allocation d, x ascending, the first at beginX.
    const TimelinePoint* pointsBegin(int64_t d) const {
        return m_points.data() + m_pointStart[static_cast<size_t>(d)];
    }
    const TimelinePoint* pointsEnd(int64_t d) const {
        return m_points.data() + m_pointStart[static_cast<size_t>(d) + 1];
    }
    std::vector<TimelinePoint> points(int64_t d) const { return {pointsBegin(d), pointsEnd(d)}; }
    int64_t pointCount() const { return static_cast<int64_t>(m_points.size()); }
    // Bottom of allocation a at x, or -1 when a is not drawn or not live at x.
    int64_t bottomAt(int64_t a, int64_t x) const;

    // The drawn allocation under (x, y) in layout units (x event index, y bytes), or -1 (nothing
    // there, or the summarized band: see inSummarizedBand).
    int64_t hitTest(double x, double y) const;
    bool inSummarizedBand(double x, double y) const;
    // Drawn indices d whose allocation is live somewhere on [x0, x1), in stack order.
    std::vector<int64_t> drawnIn(int64_t x0, int64_t x1) const;

  private:
    // The per-allocation and per-x parts from the trace's allocations [first, count) and events
    // [m_eventCount, count) (all of them from a fresh layout).
    void buildTotalTrees();
    // Recomputes tree leaves for blocks from `first_block` on and their parents (growing the
    // trees when the blocks outgrow the leaves).
    void updateTotalTrees(size_t first_block);
    // The drawn top's steps and their min tree, from the drawn allocations.
    void rebuildDrawnTop();
    // Bottom-edge points of the drawn allocations, from m_drawnActions.
    void sweepPoints(size_t drawn_present);
    // The exact top n of m_bySize (sorting all allocations when it holds fewer).
    void ensureBySize(int64_t n);
    // m_phaseX from the trace's phases.
    void mapPhases(const Trace& trace);
    // Best of values[x] over [x0, x1) by `better` (max or min), with `tree` the implicit binary
    // tree over blocks of kBlock values built the same way. The range must not be empty.
    template <typename Values, typename Better>
    int64_t rangeQuery(const Values& values, const std::vector<int64_t>& tree, size_t leaves,
                       int64_t x0, int64_t x1, Better better) const;
    // Category blocks from block `from` to the end (from its stored start bytes and action).
    void buildCategoryBlocks(size_t from = 0);
    // The x of an action (a << 1 | is_free), and applying it to per-category bytes.
    int64_t actionX(int64_t action) const {
        const auto a = size_t(action >> 1);
        return (action & 1) ? m_endX[a] : m_beginX[a];
    }
    void applyAction(int64_t action, CategoryBytes& bytes) const;
    // Replays block b from its start, calling visit(bytes) for every x in [from, to).
    template <typename Visit>
    void sweepCategoryBlock(int64_t b, int64_t from, int64_t to, Visit&& visit) const;

    // Per allocation.
    AllocationSizes m_size;  // 4 bytes an allocation (issue 52)
    std::vector<Category> m_category;
    std::vector<int32_t> m_beginX;  // 31 bits: appendXAxis refuses a longer axis
    std::vector<int32_t> m_endX;
    std::vector<int32_t> m_stackOrder;  // allocation indices, bottom of the stack first
    // Allocation indices, largest first: all of them, or (m_bySizeComplete false)
    // only the top ones the detail needs.
    std::vector<int32_t> m_bySize;
    bool m_bySizeComplete = true;
    // Allocations live at the end of the axis (never freed so far), index order: extend revisits
    // them.
    std::vector<int32_t> m_open;
    int64_t m_eventCount = 0;
    int64_t m_firstNew = 0;
    std::vector<int32_t> m_revisited;
    size_t m_presentCount = 0;  // m_stackOrder starts with those present from the start
    // Per x, packed (trace/packed_column.h: 8-20 bits an x where they were 160, issue 52).
    PackedColumn<uint32_t> m_eventOfX;  // event index per x (32-bit: see appendXAxis)
    PackedColumn<int64_t> m_timeOfX;    // running maximum, so binary search is valid
    PackedColumn<int64_t> m_total;
    std::vector<std::pair<int64_t, int64_t>> m_phaseX;  // per phase of the trace: begin, end x
    // Every kTimeStride-th of m_timeOfX, for xAtTime (a stale one, between an extend's new x
    // and its mapPhases, is not used).
    static constexpr size_t kTimeStride = 256;
    std::vector<int64_t> m_timeIndex;
    // Alloc and free actions in x order (frees before allocs at the same x): a << 1 | is_free.
    // Allocations present from the start have no alloc action.
    std::vector<uint32_t> m_actions;  // allocation << 1 | (1: its end), by x
    std::vector<int64_t> m_blockMax;  // implicit binary tree over blocks of kBlock totals
    std::vector<int64_t> m_blockMin;  // the same for the lowest total
    size_t m_blockLeaves = 0;
    int64_t m_peakX = -1;
    // Per block of kCategoryBlock x: bytes per category before the block's first x, the index of
    // its first action, and the block's highest stacked top per category (see categoryStackMax).
    std::vector<int64_t> m_categoryBlockStart;
    std::vector<int64_t> m_categoryBlockMax;
    std::vector<int64_t> m_categoryBlockAction;

    // Detail-dependent.
    int64_t m_detail = 0;
    int64_t m_requestedDetail = 0;  // what setDetail was asked for, before clamping
    // Actions of the drawn allocations, in m_actions order.
    std::vector<int64_t> m_drawnActions;
    std::vector<int32_t> m_drawn;       // allocation per drawn index, stack order
    std::vector<int32_t> m_drawnIndex;  // drawn index per allocation, or -1
    std::vector<int64_t> m_drawnBegin;  // per drawn index, for cache-friendly scans
    std::vector<int64_t> m_drawnEnd;
    std::vector<int64_t> m_pointStart;  // CSR offsets into m_points, drawnCount() + 1 entries
    std::vector<TimelinePoint> m_points;
    // The drawn top: m_drawnTopValue[k] from x = m_drawnTopX[k] on, up to the next step; 0
    // before the first. Only where it changes, so that its size follows the detail.
    std::vector<int32_t> m_drawnTopX;
    std::vector<int64_t> m_drawnTopValue;
    std::vector<int64_t> m_blockMinDrawnTop;  // min tree over blocks of kBlock step values
    size_t m_drawnTopLeaves = 1;
    // Scratch kept between setDetail calls so that its pages are reused.
    struct LiveEntry {
        int32_t d;       // drawn index
        int64_t bottom;  // current bottom edge
        int64_t slot;    // points so far (counting pass) or next write position
    };
    std::vector<LiveEntry> m_live;
};

}  // namespace memscope
