#pragma once

#include "trace/packed_column.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace memscope {

// Maps a visible window of the timeline, x in [x0, x1] (event index) by bytes in [0, ymax], onto a
// plot rectangle in pixels (y grows downwards, bytes upwards), plus the zoom, pan and tick
// arithmetic the view needs. Plain numbers, no Qt, so every rule is tested on its own.
//
// Two x axes. By event index (the default) pixels are proportional to x. By wall time
// (withTimeAxis) they are proportional to the time of x: x = k is the k-th alloc/free event at
// times[k], the state after it lasts until the next one, so a fractional x interpolates
// between neighbouring times and x = count is end_time; the window [x0, x1] then spans
// [t0, t1] in time, and zoom, pan and clamping work linearly in time (pixel -> x by binary
// search). Events at the same time take no width.
struct TimelineMapping {
    double x0 = 0;
    double x1 = 1;
    double ymax = 1;
    double left = 0;
    double top = 0;
    double width = 1;
    double height = 1;
    // Time axis: the time of each x (non-decreasing, count entries; nullptr: event axis), the
    // time at x = count, and the window in time (kept in step with x0, x1).
    const PackedColumn<int64_t>* times = nullptr;
    int64_t count = 0;
    double end_time = 0;
    double t0 = 0;
    double t1 = 1;

    bool timeAxis() const { return times != nullptr && count > 0; }
    // This mapping with a time axis over `times` (count entries, the last axis time end_time).
    TimelineMapping withTimeAxis(const PackedColumn<int64_t>* times_of_x, int64_t n,
                                 double end) const {
        TimelineMapping m = *this;
        m.times = times_of_x;
        m.count = n;
        m.end_time = end;
        m.t0 = m.timeAtX(x0);
        m.t1 = m.timeAtX(x1);
        return m;
    }
    // This mapping showing [nx0, nx1] (t0, t1 follow on a time axis).
    TimelineMapping withWindow(double nx0, double nx1) const {
        TimelineMapping m = *this;
        m.x0 = nx0;
        m.x1 = nx1;
        if (m.timeAxis()) {
            m.t0 = m.timeAtX(nx0);
            m.t1 = m.timeAtX(nx1);
        }
        return m;
    }
    // The time at x (clamped to [0, count]), interpolated between events.
    double timeAtX(double x) const {
        if (!timeAxis() || !(x > 0)) {
            return timeAxis() ? double((*times)[0]) : 0.0;
        }
        if (x >= double(count)) {
            return end_time;
        }
        const auto k = int64_t(x);
        const double tk = double((*times)[k]);
        const double next = k + 1 < count ? double((*times)[k + 1]) : end_time;
        return tk + (x - double(k)) * (next - tk);
    }
    // The x at time t (clamped to the axis): inverse of timeAtX, by binary search. Within a run
    // of events at one time it answers the last of them.
    double xAtTime(double t) const {
        if (!timeAxis() || !(t > double((*times)[0]))) {
            return 0.0;
        }
        if (t >= end_time) {
            return double(count);
        }
        const auto it = std::upper_bound(times->begin(), times->begin() + count, t,
                                         [](double v, int64_t e) { return v < double(e); });
        const int64_t k = (it - times->begin()) - 1;
        const double tk = double((*times)[k]);
        const double next = k + 1 < count ? double((*times)[k + 1]) : end_time;
        return next > tk ? double(k) + std::min((t - tk) / (next - tk), 1.0) : double(k);
    }
    // Window and axis in axis units: x itself, or time.
    double u0() const { return timeAxis() ? t0 : x0; }
    double u1() const { return timeAxis() ? t1 : x1; }
    double toAxis(double x) const { return timeAxis() ? timeAtX(x) : x; }
    double fromAxis(double u) const { return timeAxis() ? xAtTime(u) : u; }

    double span() const { return x1 - x0; }
    double axisSpan() const { return u1() - u0(); }
    double pixelsPerX() const { return width / span(); }
    double bytesPerPixel() const { return ymax / height; }

    double xToPixel(double x) const {
        if (timeAxis()) {
            return timeToPixel(timeAtX(x));
        }
        return left + (x - x0) * width / span();
    }
    double pixelToX(double px) const {
        if (timeAxis()) {
            return xAtTime(pixelToTime(px));
        }
        return x0 + (px - left) * span() / width;
    }
    double timeToPixel(double t) const { return left + (t - t0) * width / (t1 - t0); }
    double pixelToTime(double px) const { return t0 + (px - left) * (t1 - t0) / width; }
    double bytesToPixel(double bytes) const { return top + height - bytes * height / ymax; }
    double pixelToBytes(double py) const { return (top + height - py) * ymax / height; }

    // Zooms by `factor` (above 1 zooms in) keeping the x under pixel column px where it is. The
    // window stays inside [lo, hi] and no narrower than min_span (nor wider than hi - lo). On a
    // time axis all of it is measured in time: min_span events count as min_span average gaps.
    TimelineMapping zoomedAt(double px, double factor, double lo, double hi,
                             double min_span) const {
        TimelineMapping m = *this;
        if (timeAxis()) {
            const double ulo = timeAtX(lo);
            const double uhi = timeAtX(hi);
            const double full = std::max(uhi - ulo, 0.0);
            const double gap = (end_time - double((*times)[0])) / double(count);
            const double new_span =
                std::clamp(axisSpan() / factor, std::min(min_span * gap, full), full);
            const double anchor = pixelToTime(px);
            const double fraction = std::clamp((px - left) / width, 0.0, 1.0);
            m.t0 = anchor - fraction * new_span;
            m.t1 = m.t0 + new_span;
            return m.clampedTo(lo, hi);
        }
        const double full = std::max(hi - lo, 0.0);
        const double new_span = std::clamp(span() / factor, std::min(min_span, full), full);
        const double anchor = pixelToX(px);
        const double fraction = std::clamp((px - left) / width, 0.0, 1.0);
        m.x0 = anchor - fraction * new_span;
        m.x1 = m.x0 + new_span;
        return m.clampedTo(lo, hi);
    }

    // Moves the content by dx pixels, as a drag does: dragging right shows earlier x.
    TimelineMapping pannedBy(double dx, double lo, double hi) const {
        TimelineMapping m = *this;
        if (timeAxis()) {
            const double shift = -dx * axisSpan() / width;
            m.t0 += shift;
            m.t1 += shift;
            return m.clampedTo(lo, hi);
        }
        const double shift = -dx * span() / width;
        m.x0 += shift;
        m.x1 += shift;
        return m.clampedTo(lo, hi);
    }

    // Slides the window (keeping its span where it fits) so that it lies inside [lo, hi]. On a
    // time axis the window in time (t0, t1) is what slides; x0 and x1 follow from it.
    TimelineMapping clampedTo(double lo, double hi) const {
        TimelineMapping m = *this;
        if (timeAxis()) {
            const double ulo = timeAtX(lo);
            const double uhi = timeAtX(hi);
            const double s = std::min(t1 - t0, uhi - ulo);
            m.t0 = std::min(std::max(t0, ulo), uhi - s);
            m.t1 = m.t0 + s;
            m.x0 = std::max(xAtTime(m.t0), lo);
            m.x1 = std::min(std::max(xAtTime(m.t1), m.x0), hi);
            return m;
        }
        const double s = std::min(span(), hi - lo);
        if (m.x0 < lo) {
            m.x0 = lo;
        }
        if (m.x0 + s > hi) {
            m.x0 = hi - s;
        }
        m.x1 = m.x0 + s;
        return m;
    }

    // Tick step for a time axis in nanoseconds: 1, 2 or 5 times a power of ten, the smallest
    // that leaves at most max_ticks intervals over `range` (at least 1 ns).
    static double timeTickStep(double range_ns, int max_ticks) {
        const double raw = std::max(range_ns / std::max(max_ticks, 1), 1.0);
        const double step = std::pow(10.0, std::floor(std::log10(raw)));
        for (const double multiple : {1.0, 2.0, 5.0}) {
            if (step * multiple >= raw * (1 - 1e-12)) {
                return step * multiple;
            }
        }
        return step * 10;
    }

    // Tick step for an event-index axis: 1, 2 or 5 times a power of ten, the smallest that
    // leaves at most max_ticks intervals over `range` (never below 1: events are whole).
    static double indexTickStep(double range, int max_ticks) {
        const double raw = std::max(range / std::max(max_ticks, 1), 1.0);
        double step = std::pow(10.0, std::floor(std::log10(raw)));
        for (const double multiple : {1.0, 2.0, 5.0, 10.0}) {
            if (step * multiple >= raw * (1 - 1e-12)) {
                return step * multiple;
            }
        }
        return step * 10;
    }

    // Tick step for a byte axis: a power of two (so ticks read 32 MiB, 64 MiB, 96 MiB...), the
    // smallest leaving at most max_ticks intervals over max_bytes.
    static double byteTickStep(double max_bytes, int max_ticks) {
        const double raw = std::max(max_bytes / std::max(max_ticks, 1), 1.0);
        return std::pow(2.0, std::ceil(std::log2(raw) - 1e-12));
    }

    // The top of a byte axis showing `peak` with a little headroom, on a whole tick. At least
    // one step, so an empty window still has an axis.
    static double niceByteTop(double peak, int max_ticks, double headroom = 0.06) {
        const double wanted = std::max(peak * (1 + headroom), 1.0);
        const double step = byteTickStep(wanted, max_ticks);
        return std::max(std::ceil(wanted / step - 1e-12), 1.0) * step;
    }

    // Multiples of step in [lo, hi].
    static std::vector<double> ticks(double lo, double hi, double step) {
        std::vector<double> out;
        if (!(step > 0) || hi < lo) {
            return out;
        }
        for (double k = std::ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9; k += 1) {
            out.push_back(k * step);
        }
        return out;
    }
};

}  // namespace memscope
