#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace memscope {

// Maps a visible window of the timeline, x in [x0, x1] (event index) by bytes in [0, ymax], onto a
// plot rectangle in pixels (y grows downwards, bytes upwards), plus the zoom, pan and tick
// arithmetic the view needs. Plain numbers, no Qt, so every rule is tested on its own.
struct TimelineMapping {
    double x0 = 0;
    double x1 = 1;
    double ymax = 1;
    double left = 0;
    double top = 0;
    double width = 1;
    double height = 1;

    double span() const { return x1 - x0; }
    double pixelsPerX() const { return width / span(); }
    double bytesPerPixel() const { return ymax / height; }

    double xToPixel(double x) const { return left + (x - x0) * width / span(); }
    double pixelToX(double px) const { return x0 + (px - left) * span() / width; }
    double bytesToPixel(double bytes) const { return top + height - bytes * height / ymax; }
    double pixelToBytes(double py) const { return (top + height - py) * ymax / height; }

    // Zooms by `factor` (above 1 zooms in) keeping the x under pixel column px where it is. The
    // window stays inside [lo, hi] and no narrower than min_span (nor wider than hi - lo).
    TimelineMapping zoomedAt(double px, double factor, double lo, double hi,
                             double min_span) const {
        TimelineMapping m = *this;
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
        const double shift = -dx * span() / width;
        m.x0 += shift;
        m.x1 += shift;
        return m.clampedTo(lo, hi);
    }

    // Slides the window (keeping its span where it fits) so that it lies inside [lo, hi].
    TimelineMapping clampedTo(double lo, double hi) const {
        TimelineMapping m = *this;
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
