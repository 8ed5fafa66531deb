#pragma once

#include "layout/timeline_layout.h"
#include "layout/timeline_mapping.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace memscope {

class TimelineColors;
class Trace;

// What the last paint of a timeline drew, for tests and the benchmark.
struct TimelinePaintStats {
    int64_t allocations = 0;  // drawn allocations painted (as polygons or merged columns)
    int64_t polygons = 0;     // of which as their own polygon (stacked plot: layers)
    int64_t mergedRuns = 0;   // rectangles painting the sub-pixel-wide ones
    bool summarizedBand = false;
    double milliseconds = 0;
};

// A pixel column's envelope when a window has more x than pixel columns: the lowest and the
// highest total over the x's the column shows.
struct TimelineColumnEnvelope {
    int column = 0;  // counted from the plot's left edge
    int64_t lo = 0;
    int64_t hi = 0;
};

// An out-of-memory event: where on the x axis, what was asked for and what was in use.
struct TimelineOomMark {
    int64_t x = 0;
    int64_t requested = 0;
    int64_t in_use = 0;
};

// Everything a layer of the timeline paints from: the run, its layout and colours, the mapping
// of the visible window onto the plot, the visible x's and, zoomed out, every column's
// envelope. Each layer (TimelineEnvelopePainter, TimelineAllocationPainter, ...) takes it and a
// QPainter clipped to the plot; TimelineView builds one per paint and calls the layers in order.
struct TimelinePaintContext {
    TimelinePaintContext(const Trace* run, const TimelineLayout& timeline_layout,
                         const TimelineColors& timeline_colors, const TimelineMapping& mapping)
        : trace(run),
          layout(timeline_layout),
          colors(timeline_colors),
          m(mapping),
          wx0(std::max<int64_t>(0, int64_t(std::floor(mapping.x0)))),
          wx1(std::min(timeline_layout.xCount(), int64_t(std::ceil(mapping.x1)))) {}

    const Trace* trace = nullptr;  // nullptr: a layout without its trace (no phases, no stacks)
    const TimelineLayout& layout;
    const TimelineColors& colors;
    TimelineMapping m;
    int64_t wx0 = 0;  // the x's in view: [wx0, wx1)
    int64_t wx1 = 0;
    // Per pixel column its envelope, when the window has more x than columns; else empty and
    // every layer draws each x as it is.
    std::vector<TimelineColumnEnvelope> envelope;
    const std::vector<TimelineOomMark>* ooms = nullptr;
    TimelinePaintStats* stats = nullptr;  // what was drawn, counted by the layers

    bool zoomedOut() const { return !envelope.empty(); }

    // Pixel column of a time (phase and step boundaries) on either axis.
    double timeToPixel(int64_t time_ns) const {
        if (m.timeAxis()) {
            return m.timeToPixel(double(time_ns));
        }
        return m.xToPixel(double(layout.xAtTime(time_ns)));
    }

    // Pixel column of the begin or end of the trace's phase i (Trace::phases): on the event axis
    // from the layout's mapped phases (no search per frame), else as timeToPixel.
    double phaseBeginPixel(size_t i) const {
        if (!m.timeAxis() && i < layout.phaseCount()) {
            return m.xToPixel(double(layout.phaseBeginX(i)));
        }
        return timeToPixel(trace->phases[i].begin_ns);
    }
    double phaseEndPixel(size_t i) const {
        if (!m.timeAxis() && i < layout.phaseCount()) {
            return m.xToPixel(double(layout.phaseEndX(i)));
        }
        return timeToPixel(trace->phases[i].end_ns);
    }

    // The x's pixel column c (counted from the plot's left edge) shows when many share a
    // column: every x whose extent overlaps it, so that on the time axis an x wider than a
    // column is seen in each column it covers. Only for windows of more x than columns.
    static std::pair<int64_t, int64_t> columnRange(const TimelineMapping& m, int c, int64_t x0,
                                                   int64_t x1) {
        const int64_t lo = std::clamp(int64_t(std::floor(m.pixelToX(m.left + c))), x0, x1);
        const int64_t hi =
            std::clamp(std::max(lo + 1, int64_t(std::ceil(m.pixelToX(m.left + c + 1)))), x0, x1);
        return {lo, hi};
    }
};

}  // namespace memscope
