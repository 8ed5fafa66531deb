#include "analysis/range_filter.h"

#include <algorithm>
#include <limits>

namespace memscope {

bool RangeFilter::selects(const Allocation& a) const {
    if (empty()) {
        return false;
    }
    if (mode == Mode::MadeIn) {
        return a.alloc_event >= first && a.alloc_event < last;
    }
    const int64_t begin = a.alloc_event;  // -1: before every event
    const int64_t end = a.free_event < 0 ? std::numeric_limits<int64_t>::max() : a.free_event;
    return std::max(begin, first) < std::min(end, last);
}

std::vector<int64_t> RangeFilter::allocations(const Trace& trace) const {
    std::vector<int64_t> out;
    if (empty()) {
        return out;
    }
    const auto& all = trace.allocations();
    for (size_t i = 0; i < all.size(); ++i) {
        if (selects(all[i])) {
            out.push_back(static_cast<int64_t>(i));
        }
    }
    return out;
}

std::vector<uint8_t> RangeFilter::mask(const Trace& trace) const {
    const auto& all = trace.allocations();
    std::vector<uint8_t> out(all.size(), 0);
    if (empty()) {
        return out;
    }
    for (size_t i = 0; i < all.size(); ++i) {
        out[i] = selects(all[i]) ? 1 : 0;
    }
    return out;
}

RangeFilter::Summary RangeFilter::summarize(const Trace& trace) const {
    Summary out;
    const auto& all = trace.allocations();
    for (const Allocation& a : all) {
        if (selects(a)) {
            ++out.allocations;
            out.bytes += a.size;
            out.bytes_by_category[static_cast<size_t>(a.category)] += a.size;
        }
    }
    const auto count = static_cast<int64_t>(trace.events.count());
    const int64_t begin = std::clamp<int64_t>(first, 0, count);
    const int64_t end = std::clamp<int64_t>(last, 0, count);
    for (int64_t i = begin; i < end; ++i) {
        const auto kind = static_cast<EventKind>(trace.events.kind[size_t(i)]);
        if (kind == EventKind::Oom || kind == EventKind::Role) {
            continue;  // an OOM's allocated column is not a total after an event of ours
        }
        const int64_t live = trace.events.allocated[size_t(i)];
        if (out.peak_event < 0 || live > out.peak_bytes) {
            out.peak_event = i;
            out.peak_bytes = live;
        }
    }
    if (begin < end) {
        out.begin_ns = trace.events.time_ns[size_t(begin)];
        out.end_ns = trace.events.time_ns[size_t(end - 1)];
    }
    return out;
}

RangeFilter::TimeWindow RangeFilter::timeWindow(const Trace& trace) const {
    TimeWindow out;
    const auto count = static_cast<int64_t>(trace.events.count());
    const int64_t begin = std::clamp<int64_t>(first, 0, count);
    const int64_t end = std::clamp<int64_t>(last, 0, count);
    if (empty() || begin >= end) {
        // Nothing: no span begins before the smallest time.
        out.begin_ns = std::numeric_limits<int64_t>::max();
        out.end_ns = std::numeric_limits<int64_t>::min();
        return out;
    }
    const auto& times = trace.events.time_ns;
    out.begin_ns = begin == 0 ? std::numeric_limits<int64_t>::min() : times[size_t(begin)];
    out.end_ns = end == count ? std::numeric_limits<int64_t>::max() : times[size_t(end)];
    return out;
}

RangeFilter RangeFilter::fromRunRange(const Trace& trace, const RunRange& range, Mode how) {
    const int64_t count = static_cast<int64_t>(trace.events.count());
    switch (range.kind) {
        case RunRange::Kind::All:
            return RangeFilter(0, count, how);
        case RunRange::Kind::Events:
            return RangeFilter(std::clamp<int64_t>(range.first, 0, count),
                               std::clamp<int64_t>(range.last, 0, count), how);
        case RunRange::Kind::Time: {
            const auto& times = trace.events.time_ns;
            const auto first = std::lower_bound(times.begin(), times.end(), range.first);
            const auto last = range.last == RunRange::kOpen
                                  ? times.end()
                                  : std::lower_bound(first, times.end(), range.last);
            return RangeFilter(first - times.begin(), last - times.begin(), how);
        }
    }
    return RangeFilter();
}

}  // namespace memscope
