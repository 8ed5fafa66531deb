#include "explain/segment_state.h"

#include <algorithm>

namespace memscope {

namespace {

bool liveAt(int64_t begin, int64_t end, int64_t event) {
    return begin <= event && (end < 0 || end > event);  // begin -1: from the start
}

}  // namespace

SegmentState SegmentState::at(const Trace& trace, int64_t event) {
    SegmentState state;
    state.m_event = event;
    const auto& segments = trace.segments();
    for (size_t s = 0; s < segments.size(); ++s) {
        const Segment& seg = segments[s];
        if (!liveAt(seg.reserve_event, seg.release_event, event)) {
            continue;
        }
        SegmentBlocks out;
        out.segment = static_cast<int64_t>(s);
        out.addr = seg.addr;
        out.size = seg.size;
        out.device = seg.device;
        out.stream = seg.stream;
        out.pool = seg.pool;
        state.m_reserved += seg.size;
        state.m_segments.push_back(std::move(out));
    }
    auto& live = state.m_segments;
    std::sort(live.begin(), live.end(), [](const SegmentBlocks& a, const SegmentBlocks& b) {
        return a.device != b.device ? a.device < b.device : a.addr < b.addr;
    });
    const auto& allocations = trace.allocations();
    for (size_t a = 0; a < allocations.size(); ++a) {
        const Allocation& alloc = allocations[a];
        if (!liveAt(alloc.alloc_event, alloc.free_event, event)) {
            continue;
        }
        // The last segment on the allocation's device starting at or below its address.
        auto it = std::upper_bound(
            live.begin(), live.end(), std::make_pair(alloc.device, alloc.addr),
            [](const std::pair<int16_t, uint64_t>& key, const SegmentBlocks& s) {
                return key.first != s.device ? key.first < s.device : key.second < s.addr;
            });
        if (it == live.begin() || (it - 1)->device != alloc.device ||
            alloc.addr - (it - 1)->addr >= uint64_t((it - 1)->size)) {
            state.m_outside += alloc.size;
            continue;
        }
        SegmentBlocks& seg = *(it - 1);
        Block block;
        block.offset = static_cast<int64_t>(alloc.addr - seg.addr);
        block.size = std::min(alloc.size, seg.size - block.offset);  // never past its end
        block.category = alloc.category;
        block.allocation = static_cast<int64_t>(a);
        seg.blocks.push_back(block);
    }
    for (SegmentBlocks& seg : live) {
        std::sort(seg.blocks.begin(), seg.blocks.end(),
                  [](const Block& x, const Block& y) { return x.offset < y.offset; });
        int64_t cursor = 0;  // end of the blocks so far (overlapping blocks count once)
        for (const Block& b : seg.blocks) {
            if (b.offset > cursor) {
                seg.gaps.push_back({cursor, b.offset - cursor});
            }
            seg.allocated += std::max<int64_t>(0, b.offset + b.size - std::max(cursor, b.offset));
            cursor = std::max(cursor, b.offset + b.size);
        }
        if (cursor < seg.size) {
            seg.gaps.push_back({cursor, seg.size - cursor});
        }
        state.m_allocated += seg.allocated;
        for (const Gap& g : seg.gaps) {
            state.m_largestFree = std::max(state.m_largestFree, g.size);
        }
        state.m_freeBlocks += static_cast<int64_t>(seg.gaps.size());
    }
    return state;
}

}  // namespace memscope
