#include "trace/trace_range.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace memscope {

namespace {

// An allocation's pairing key, as Trace::finalize keys them.
inline uint64_t rangePairKey(int16_t device, uint64_t addr) {
    return addr ^ (uint64_t(uint16_t(device)) << 48);
}

}  // namespace

std::pair<size_t, size_t> TraceRange::events(const EventColumns& events, const RunRange& range) {
    const size_t n = events.count();
    switch (range.kind) {
        case RunRange::Kind::All:
            return {0, n};
        case RunRange::Kind::Events: {
            const size_t first =
                size_t(std::min<int64_t>(std::max<int64_t>(0, range.first), int64_t(n)));
            const size_t last =
                size_t(std::min<int64_t>(std::max<int64_t>(0, range.last), int64_t(n)));
            return {first, std::max(first, last)};
        }
        case RunRange::Kind::Time: {
            // Threads' buffers can interleave slightly out of time order: a running maximum
            // makes the times sorted, as the timeline's x axis does.
            size_t first = n, last = n;
            int64_t latest = std::numeric_limits<int64_t>::min();
            for (size_t i = 0; i < n; ++i) {
                latest = std::max(latest, events.time_ns[i]);
                if (first == n && latest >= range.first)
                    first = i;
                if (latest >= range.last) {
                    last = i;
                    break;
                }
            }
            return {std::min(first, last), last};
        }
    }
    return {0, n};
}

void TraceRange::keep(Trace& trace, size_t first, size_t last) {
    EventColumns& ev = trace.events;
    const size_t n = ev.count();
    last = std::min(last, n);
    first = std::min(first, last);
    if (first == 0 && last == n)
        return;

    // The live set just before `first`: allocation (and segment) key -> its alloc event, and
    // the last Role event that named it.
    struct Live {
        size_t event;
        int64_t role_event;
    };
    // Allocations live at `first` whose first event in the range is their free become
    // allocations present from the start by themselves (a free without an alloc); the others
    // (live through the range, or ended by a second alloc at their address) need a synthetic
    // alloc.
    std::vector<Live> survivors, segment_survivors;
    {
        std::unordered_map<uint64_t, Live> open;
        std::unordered_map<uint64_t, Live> open_segments;
        for (size_t i = 0; i < first; ++i) {
            const auto kind = static_cast<EventKind>(ev.kind[i]);
            const uint64_t k = rangePairKey(ev.device[i], ev.addr[i]);
            if (kind == EventKind::Alloc)
                open[k] = Live{i, -1};
            else if (kind == EventKind::Free)
                open.erase(k);
            else if (kind == EventKind::Role) {
                if (auto it = open.find(k); it != open.end())
                    it->second.role_event = int64_t(i);
            } else if (kind == EventKind::SegmentAlloc)
                open_segments[k] = Live{i, -1};
            else if (kind == EventKind::SegmentFree)
                open_segments.erase(k);
        }
        std::unordered_map<uint64_t, bool> decided;  // key -> freed by its first range event
        for (size_t i = first; i < last; ++i) {
            const auto kind = static_cast<EventKind>(ev.kind[i]);
            const bool segment_kind =
                kind == EventKind::SegmentAlloc || kind == EventKind::SegmentFree;
            if (kind != EventKind::Alloc && kind != EventKind::Free && !segment_kind)
                continue;
            auto& set = segment_kind ? open_segments : open;
            const uint64_t k = rangePairKey(ev.device[i], ev.addr[i]);
            auto it = set.find(k);
            if (it == set.end())
                continue;
            const bool frees = kind == EventKind::Free || kind == EventKind::SegmentFree;
            if (!frees)
                (segment_kind ? segment_survivors : survivors).push_back(it->second);
            set.erase(it);
        }
        for (const auto& [k, l] : open)
            survivors.push_back(l);
        for (const auto& [k, l] : open_segments)
            segment_survivors.push_back(l);
    }
    auto byEvent = [](const Live& a, const Live& b) { return a.event < b.event; };
    std::sort(survivors.begin(), survivors.end(), byEvent);
    std::sort(segment_survivors.begin(), segment_survivors.end(), byEvent);

    // Synthetic events: at the range's first time, with the totals just before the range, so
    // the allocated and reserved columns stay what they were.
    const bool empty_range = first == last;
    const int64_t time = empty_range ? 0 : ev.time_ns[first];
    const int64_t allocated = first > 0 ? ev.allocated[first - 1] : 0;
    const int64_t reserved = first > 0 ? ev.reserved[first - 1] : 0;
    std::unordered_map<int64_t, const SegmentTag*> tag_of;
    for (const auto& t : trace.segment_tags)
        tag_of[t.event] = &t;

    EventColumns out;
    std::vector<SegmentTag> tags;
    const bool raw = trace.hasRawStacks();
    PackedColumn<uint32_t> raw_out;
    if (!empty_range) {
        out.reserve(survivors.size() * 2 + segment_survivors.size() + (last - first));
        auto synthetic = [&](size_t from) {
            Event e = ev.at(from);
            e.time_ns = time;
            e.allocated = allocated;
            e.reserved = reserved;
            out.append(e);
            if (raw)
                raw_out.push_back(trace.raw_stack[from]);
        };
        for (const Live& s : segment_survivors) {
            if (auto t = tag_of.find(int64_t(s.event)); t != tag_of.end()) {
                SegmentTag tag = *t->second;
                tag.event = int64_t(out.count());
                tags.push_back(std::move(tag));
            }
            synthetic(s.event);
        }
        for (const Live& s : survivors) {
            synthetic(s.event);
            if (s.role_event >= 0)
                synthetic(size_t(s.role_event));
        }
    }
    const int64_t shift = int64_t(out.count()) - int64_t(first);
    for (const auto& t : trace.segment_tags) {
        if (t.event >= int64_t(first) && t.event < int64_t(last)) {
            SegmentTag tag = t;
            tag.event += shift;
            tags.push_back(std::move(tag));
        }
    }
    auto append = [&](auto& to, const auto& from) {
        appendValues(to, from.begin() + std::ptrdiff_t(first), from.begin() + std::ptrdiff_t(last));
    };
    append(out.time_ns, ev.time_ns), append(out.addr, ev.addr), append(out.size, ev.size);
    append(out.allocated, ev.allocated), append(out.reserved, ev.reserved);
    append(out.stack, ev.stack), append(out.step, ev.step), append(out.kind, ev.kind);
    append(out.phase, ev.phase), append(out.thread, ev.thread), append(out.device, ev.device);
    if (raw)
        append(raw_out, trace.raw_stack);
    else
        trace.raw_stacks = StackTable();

    // Spans and phase intervals: those that overlap the range's time.
    if (!empty_range) {
        const int64_t t0 = ev.time_ns[first];
        int64_t t1 = t0;
        for (size_t i = first; i < last; ++i)
            t1 = std::max(t1, ev.time_ns[i]);
        auto outside = [&](int64_t b, int64_t e) { return e < t0 || b > t1; };
        trace.spans.erase(
            std::remove_if(trace.spans.begin(), trace.spans.end(),
                           [&](const Span& s) { return outside(s.begin_ns, s.end_ns); }),
            trace.spans.end());
        trace.phases.erase(
            std::remove_if(trace.phases.begin(), trace.phases.end(),
                           [&](const PhaseInterval& p) { return outside(p.begin_ns, p.end_ns); }),
            trace.phases.end());
    } else {
        trace.spans.clear();
        trace.phases.clear();
    }
    trace.events = std::move(out);
    trace.segment_tags = std::move(tags);
    trace.raw_stack = std::move(raw_out);
}

}  // namespace memscope
