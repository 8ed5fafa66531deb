#include "layout/timeline_layout.h"

#include "model/input_error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <new>
#include <numeric>
#include <stdexcept>

namespace memscope {
namespace {

// Totals per leaf of the max tree: range queries scan at most two partial blocks, so the tree
// costs X / 16 values instead of 2 X.
constexpr int64_t kBlock = 32;

// Allocation order for the detail: size descending, then lower index first.
struct BySize {
    const AllocationSizes* size;
    bool operator()(int32_t l, int32_t r) const {
        const int64_t sl = (*size)[size_t(l)];
        const int64_t sr = (*size)[size_t(r)];
        return sl != sr ? sl > sr : l < r;
    }
};

// Recomputes the leaves of an implicit block tree for blocks [first, end) of `values` and their
// ancestors (`better` picks the kept value, `none` fills empty leaves).
template <typename Values, typename Better>
void updateBlockTree(const Values& values, std::vector<int64_t>& tree, size_t leaves, size_t first,
                     size_t end, Better better) {
    const size_t blocks = (values.size() + size_t(kBlock) - 1) / size_t(kBlock);
    end = std::min(end, blocks);
    if (first >= end) {
        return;
    }
    for (size_t b = first; b < end; ++b) {
        const size_t from = b * size_t(kBlock);
        const size_t to = std::min(values.size(), from + size_t(kBlock));
        int64_t best = values[from];
        forEachValue(values, from + 1, to, [&](int64_t v) { best = better(best, v); });
        tree[leaves + b] = best;
    }
    for (size_t l = (leaves + first) / 2, r = (leaves + end - 1) / 2; l >= 1; l /= 2, r /= 2) {
        for (size_t i = l; i <= r; ++i) {
            tree[i] = better(tree[2 * i], tree[2 * i + 1]);
        }
        if (l == 1) {
            break;
        }
    }
}

// Leaves of an implicit block tree over `count` values: the power of two that holds their
// blocks of kBlock.
size_t blockTreeLeaves(size_t count) {
    const size_t blocks = (count + size_t(kBlock) - 1) / size_t(kBlock);
    size_t leaves = 1;
    while (leaves < blocks) {
        leaves *= 2;
    }
    return leaves;
}

int64_t maxOfBlocks(int64_t l, int64_t r) {
    return std::max(l, r);
}
int64_t minOf(int64_t l, int64_t r) {
    return std::min(l, r);
}

// An alloc event marked as made before the trace began (step < 0: an imported snapshot's blocks
// that were live when recording started): its block is present from the start and takes no x.
bool beforeTrace(const EventColumns& events, size_t i) {
    return static_cast<EventKind>(events.kind[i]) == EventKind::Alloc && events.step[i] < 0;
}

// Appends the x axis of events [from, end): one x per alloc and free event (allocs made before
// the trace take none), its time, and each allocation's begin and end x. Threads' buffers can
// interleave slightly out of time order; a running maximum keeps the times sorted for
// xAtTime's binary search.
void appendXAxis(const EventColumns& events, const std::vector<int32_t>& allocation_of_event,
                 size_t from, PackedColumn<uint32_t>& event_of_x, PackedColumn<int64_t>& time_of_x,
                 std::vector<int32_t>& begin_x, std::vector<int32_t>& end_x) {
    int64_t latest = time_of_x.empty() ? std::numeric_limits<int64_t>::min() : time_of_x.back();
    PackedReader kinds(events.kind);
    PackedReader steps(events.step);
    PackedReader times(events.time_ns);
    for (size_t i = from; i < events.count(); ++i) {
        const auto kind = static_cast<EventKind>(kinds[i]);
        if ((kind != EventKind::Alloc && kind != EventKind::Free) ||
            (kind == EventKind::Alloc && steps[i] < 0)) {  // beforeTrace
            continue;
        }
        const auto x = static_cast<int32_t>(event_of_x.size());
        if (i > std::numeric_limits<uint32_t>::max() ||
            event_of_x.size() >= size_t(std::numeric_limits<int32_t>::max())) {
            // Event indices are 32-bit here (4 bytes an x), an allocation's begin and end x 31
            // bits (8 bytes an allocation): a trace of over 2^31 alloc and free events would
            // need hundreds of GB laid out.
            throw std::bad_alloc();
        }
        event_of_x.push_back(static_cast<uint32_t>(i));
        latest = std::max(latest, times[i]);
        time_of_x.push_back(latest);
        const int64_t a = allocation_of_event[i];
        if (a < 0) {
            continue;
        }
        if (kind == EventKind::Alloc) {
            begin_x[static_cast<size_t>(a)] = x;
        } else {
            end_x[static_cast<size_t>(a)] = x;
        }
    }
}

}  // namespace

TimelineLayout::TimelineLayout(const Trace& trace, int64_t detail) {
    const auto& allocations = trace.allocations();
    const auto& events = trace.events;
    const auto& allocation_of_event = trace.allocationOfEvent();
    if (allocation_of_event.size() != events.count()) {
        throw std::logic_error("TimelineLayout needs a finalized Trace (call Trace::finalize())");
    }
    if (allocations.size() > size_t(std::numeric_limits<int32_t>::max())) {
        throw InputError("TimelineLayout supports at most 2^31 - 1 allocations");
    }
    const size_t count = allocations.size();
    m_size.resize(count);
    m_category.resize(count);
    m_beginX.assign(count, 0);  // present from the start: x = 0
    m_endX.assign(count, -1);
    for (size_t a = 0; a < count; ++a) {
        m_size.set(a, allocations[a].size);
        m_category[a] = allocations[a].category;
    }

    // Present from the start: freed without a recorded alloc, or allocated by an event marked
    // as before the trace began (step < 0: an imported snapshot's blocks that were live when
    // recording started). Those allocs take no x: the blocks are there at x = 0.
    auto before_trace = [&](size_t i) { return beforeTrace(events, i); };
    std::vector<uint8_t> present_from_start(count, 0);
    for (size_t a = 0; a < count; ++a) {
        const int64_t e = allocations[a].alloc_event;
        present_from_start[a] = e < 0 || before_trace(static_cast<size_t>(e));
    }

    // The x axis: alloc and free events only. Pairing is the Trace's (per device and address).
    size_t alloc_free = 0;
    {
        PackedReader kinds(events.kind);
        PackedReader steps(events.step);
        for (size_t i = 0; i < events.count(); ++i) {
            const auto kind = static_cast<EventKind>(kinds[i]);
            alloc_free += (kind == EventKind::Alloc && steps[i] >= 0) || kind == EventKind::Free;
        }
    }
    m_eventOfX.reserve(alloc_free);
    m_timeOfX.reserve(alloc_free);
    appendXAxis(events, allocation_of_event, 0, m_eventOfX, m_timeOfX, m_beginX, m_endX);
    const int64_t x_count = xCount();
    for (size_t a = 0; a < count; ++a) {
        const int64_t free_event = allocations[a].free_event;
        if (free_event < 0) {
            m_endX[a] = int32_t(x_count);  // still live: runs to the end
        } else if (m_endX[a] < 0) {
            // Ended by a second alloc at its address (its free was never recorded): it ends at
            // that alloc's x. Rare, so a binary search each.
            const auto it = std::lower_bound(m_eventOfX.begin(), m_eventOfX.end(), free_event);
            m_endX[a] = int32_t(it - m_eventOfX.begin());
        }
        m_endX[a] = std::max(m_endX[a], m_beginX[a]);
    }

    // Stack order: present-from-start allocations at the bottom, the one freed last lowest
    // (memory_viz reverses its list of them), then everything else in allocation order.
    // Trace::finalize appends allocations in event order, so index order is allocation order.
    std::vector<int32_t> present;
    m_stackOrder.reserve(count);
    for (size_t a = 0; a < count; ++a) {
        if (present_from_start[a]) {
            present.push_back(static_cast<int32_t>(a));
        }
    }
    std::stable_sort(present.begin(), present.end(), [&](int32_t l, int32_t r) {
        return allocations[size_t(l)].free_event > allocations[size_t(r)].free_event;
    });
    m_presentCount = present.size();
    m_stackOrder = present;
    for (size_t a = 0; a < count; ++a) {
        if (!present_from_start[a]) {
            m_stackOrder.push_back(static_cast<int32_t>(a));
        }
    }

    // The largest `detail` allocations in order, not all of them: BySize is a total order, so
    // they are the first of the whole sort, which ensureBySize makes when a larger detail is
    // asked for. Sorting the 6.09M allocations of a 1 GB snapshot took a third of its layout.
    const auto top = size_t(std::clamp<int64_t>(detail, 0, int64_t(count)));
    m_bySize.resize(count);
    std::iota(m_bySize.begin(), m_bySize.end(), 0);
    if (top < count) {
        std::nth_element(m_bySize.begin(), m_bySize.begin() + std::ptrdiff_t(top), m_bySize.end(),
                         BySize{&m_size});
        m_bySize.resize(top);
        m_bySize.shrink_to_fit();
        m_bySizeComplete = false;
    }
    std::sort(m_bySize.begin(), m_bySize.end(), BySize{&m_size});

    // Alloc and free actions in x order by a counting sort on x; frees first within an x, so a
    // free recorded implicitly by a re-alloc at the same address leaves before the new one comes.
    // Offsets fit 32 bits: at most two actions an allocation, and under 2^31 allocations.
    std::vector<uint32_t> start(static_cast<size_t>(x_count) + 1, 0);
    size_t action_count = 0;
    for (size_t a = 0; a < count; ++a) {
        if (!present_from_start[a]) {
            ++start[static_cast<size_t>(m_beginX[a])];
            ++action_count;
        }
        if (m_endX[a] < x_count) {
            ++start[static_cast<size_t>(m_endX[a])];
            ++action_count;
        }
    }
    uint32_t offset = 0;
    for (auto& s : start) {
        const uint32_t n = s;
        s = offset;
        offset += n;
    }
    // An action is an allocation index and a bit, 32 bits in all (4 bytes an x fewer): over
    // 2^31 allocations would need hundreds of GB laid out.
    if (count > (size_t(1) << 31)) {
        throw std::bad_alloc();
    }
    m_actions.resize(action_count);
    for (size_t a = 0; a < count; ++a) {
        if (m_endX[a] < x_count) {
            m_actions[size_t(start[size_t(m_endX[a])]++)] = uint32_t(a) << 1 | 1;
        }
    }
    for (size_t a = 0; a < count; ++a) {
        if (!present_from_start[a]) {
            m_actions[size_t(start[size_t(m_beginX[a])]++)] = uint32_t(a) << 1;
        }
    }
    // Given back before the trees, the category blocks and the detail are made, which used to be
    // made beside them: 4 bytes an x and one an allocation, 55 MB at a 1 GB snapshot's 12M x and
    // 6M allocations (issue 52).
    std::vector<uint32_t>().swap(start);
    std::vector<uint8_t>().swap(present_from_start);

    // Total live bytes per x: the allocations present from the start, then the actions at each
    // x in turn (the same sums as a difference array of +size at an allocation's begin and
    // -size at its end, without that array's 8 bytes an x).
    int64_t running = 0;
    for (size_t r = 0; r < m_presentCount; ++r) {
        running += m_size[size_t(m_stackOrder[r])];
    }
    m_total.reserve(size_t(x_count));
    int64_t peak = 0;
    for (size_t x = 0, action = 0; x < size_t(x_count); ++x) {
        for (; action < m_actions.size() && actionX(m_actions[action]) == int64_t(x); ++action) {
            const auto a = size_t(m_actions[action] >> 1);
            running += (m_actions[action] & 1) ? -m_size[a] : m_size[a];
        }
        m_total.push_back(running);
        if (m_peakX < 0 || running > peak) {
            m_peakX = int64_t(x), peak = running;
        }
    }
    m_eventOfX.shrink_to_fit();
    m_timeOfX.shrink_to_fit();
    m_total.shrink_to_fit();
    buildTotalTrees();

    m_eventCount = static_cast<int64_t>(events.count());
    for (size_t a = 0; a < count; ++a) {
        if (allocations[a].free_event < 0) {
            m_open.push_back(static_cast<int32_t>(a));
        }
    }

    buildCategoryBlocks();
    mapPhases(trace);
    setDetail(detail);
}

void TimelineLayout::applyAction(int64_t action, CategoryBytes& bytes) const {
    const auto a = size_t(action >> 1);
    if (m_endX[a] == m_beginX[a]) {
        return;  // never live
    }
    const auto c = categoryIndex(int(m_category[a]));
    bytes[c] += (action & 1) ? -m_size[a] : m_size[a];
}

void TimelineLayout::buildCategoryBlocks(size_t from) {
    const int64_t x_count = xCount();
    const auto blocks = size_t((x_count + kCategoryBlock - 1) / kCategoryBlock);
    if (const size_t old_blocks = m_categoryBlockAction.size(); from >= old_blocks) {
        from = old_blocks > 0 ? old_blocks - 1 : 0;  // the last stored block's state is valid
    }
    m_categoryBlockStart.resize(blocks * kCategoryCount, 0);
    m_categoryBlockMax.resize(blocks * kCategoryCount, 0);
    m_categoryBlockAction.resize(blocks, 0);
    std::fill(m_categoryBlockMax.begin() + std::ptrdiff_t(std::min(from, blocks) * kCategoryCount),
              m_categoryBlockMax.end(), 0);
    CategoryBytes bytes{};
    size_t action = 0;
    if (from > 0 && from < blocks) {
        // Resume from the block's stored state: nothing before it changed.
        std::copy_n(m_categoryBlockStart.begin() + std::ptrdiff_t(from * kCategoryCount),
                    kCategoryCount, bytes.begin());
        action = size_t(m_categoryBlockAction[from]);
    } else {
        from = 0;
        std::fill(m_categoryBlockMax.begin(), m_categoryBlockMax.end(), 0);
        // Allocations present from the start are live before the first action; they have none.
        for (size_t r = 0; r < m_presentCount; ++r) {
            const auto a = size_t(m_stackOrder[r]);
            if (m_endX[a] > m_beginX[a]) {
                bytes[categoryIndex(int(m_category[a]))] += m_size[a];
            }
        }
    }
    for (int64_t x = int64_t(from) * kCategoryBlock; x < x_count; ++x) {
        const auto b = size_t(x / kCategoryBlock);
        if (x % kCategoryBlock == 0) {
            std::copy(bytes.begin(), bytes.end(),
                      m_categoryBlockStart.begin() + std::ptrdiff_t(b * kCategoryCount));
            m_categoryBlockAction[b] = int64_t(action);
        }
        for (; action < m_actions.size() && actionX(m_actions[action]) == x; ++action) {
            applyAction(m_actions[action], bytes);
        }
        int64_t* top = m_categoryBlockMax.data() + b * kCategoryCount;
        int64_t sum = 0;
        for (size_t c = 0; c < size_t(kCategoryCount); ++c) {
            sum += bytes[c];
            top[c] = std::max(top[c], sum);
        }
    }
}

template <typename Visit>
void TimelineLayout::sweepCategoryBlock(int64_t b, int64_t from, int64_t to, Visit&& visit) const {
    CategoryBytes bytes;
    std::copy_n(m_categoryBlockStart.begin() + std::ptrdiff_t(size_t(b) * kCategoryCount),
                kCategoryCount, bytes.begin());
    auto action = size_t(m_categoryBlockAction[size_t(b)]);
    for (int64_t x = b * kCategoryBlock; x < to; ++x) {
        for (; action < m_actions.size() && actionX(m_actions[action]) == x; ++action) {
            applyAction(m_actions[action], bytes);
        }
        if (x >= from) {
            visit(bytes);
        }
    }
}

TimelineLayout::CategoryBytes TimelineLayout::categoryBytesAt(int64_t x) const {
    CategoryBytes out{};
    if (x < 0 || x >= xCount()) {
        return out;
    }
    sweepCategoryBlock(x / kCategoryBlock, x, x + 1, [&](const CategoryBytes& b) { out = b; });
    return out;
}

TimelineLayout::CategoryBytes TimelineLayout::categoryStackMax(int64_t x0, int64_t x1) const {
    CategoryBytes out{};
    x0 = std::max<int64_t>(x0, 0);
    x1 = std::min(x1, xCount());
    auto take = [&out](const CategoryBytes& bytes) {
        int64_t sum = 0;
        for (size_t c = 0; c < size_t(kCategoryCount); ++c) {
            sum += bytes[c];
            out[c] = std::max(out[c], sum);
        }
    };
    int64_t x = x0;
    while (x < x1) {
        const int64_t b = x / kCategoryBlock;
        const int64_t block_end = std::min((b + 1) * kCategoryBlock, xCount());
        if (x == b * kCategoryBlock && block_end <= x1) {
            const int64_t* top = m_categoryBlockMax.data() + size_t(b) * kCategoryCount;
            for (size_t c = 0; c < size_t(kCategoryCount); ++c) {
                out[c] = std::max(out[c], top[c]);
            }
        } else {
            sweepCategoryBlock(b, x, std::min(block_end, x1), take);
        }
        x = block_end;
    }
    return out;
}

void TimelineLayout::buildTotalTrees() {
    const size_t blocks = (m_total.size() + size_t(kBlock) - 1) / size_t(kBlock);
    m_blockLeaves = blockTreeLeaves(m_total.size());
    m_blockMax.assign(2 * m_blockLeaves, std::numeric_limits<int64_t>::min());
    m_blockMin.assign(2 * m_blockLeaves, std::numeric_limits<int64_t>::max());
    for (size_t b = 0; b < blocks; ++b) {
        int64_t lowest = std::numeric_limits<int64_t>::max();
        int64_t highest = std::numeric_limits<int64_t>::min();
        m_total.forEach(
            b * size_t(kBlock), std::min(m_total.size(), (b + 1) * size_t(kBlock)),
            [&](int64_t v) { lowest = std::min(lowest, v), highest = std::max(highest, v); });
        m_blockMax[m_blockLeaves + b] = highest;
        m_blockMin[m_blockLeaves + b] = lowest;
    }
    for (size_t i = m_blockLeaves - 1; i >= 1; --i) {
        m_blockMax[i] = std::max(m_blockMax[2 * i], m_blockMax[2 * i + 1]);
        m_blockMin[i] = std::min(m_blockMin[2 * i], m_blockMin[2 * i + 1]);
    }
}

template <typename Values, typename Better>
int64_t TimelineLayout::rangeQuery(const Values& values, const std::vector<int64_t>& tree,
                                   size_t leaves, int64_t x0, int64_t x1, Better better) const {
    int64_t best = values[size_t(x0)];
    auto scan = [&](int64_t from, int64_t to) {
        if (from < to) {
            forEachValue(values, size_t(from), size_t(to),
                         [&](int64_t v) { best = better(best, v); });
        }
    };
    const int64_t first_full = (x0 + kBlock - 1) / kBlock;
    const int64_t last_full = x1 / kBlock;  // blocks [first_full, last_full) lie inside
    if (first_full >= last_full) {
        scan(x0, x1);
        return best;
    }
    scan(x0, first_full * kBlock);
    scan(last_full * kBlock, x1);
    // Iterative bottom-up query over leaves [first_full, last_full).
    size_t l = leaves + size_t(first_full);
    size_t r = leaves + size_t(last_full);
    while (l < r) {
        if (l & 1) {
            best = better(best, tree[l++]);
        }
        if (r & 1) {
            best = better(best, tree[--r]);
        }
        l /= 2;
        r /= 2;
    }
    return best;
}

int64_t TimelineLayout::maxTotal(int64_t x0, int64_t x1) const {
    x0 = std::max<int64_t>(x0, 0);
    x1 = std::min(x1, xCount());
    if (x0 >= x1) {
        return 0;
    }
    return rangeQuery(m_total, m_blockMax, m_blockLeaves, x0, x1,
                      [](int64_t l, int64_t r) { return std::max(l, r); });
}

int64_t TimelineLayout::minTotal(int64_t x0, int64_t x1) const {
    x0 = std::max<int64_t>(x0, 0);
    x1 = std::min(x1, xCount());
    if (x0 >= x1) {
        return 0;
    }
    return rangeQuery(m_total, m_blockMin, m_blockLeaves, x0, x1,
                      [](int64_t l, int64_t r) { return std::min(l, r); });
}

int64_t TimelineLayout::minDrawnTop(int64_t x0, int64_t x1) const {
    x0 = std::max<int64_t>(x0, 0);
    x1 = std::min(x1, xCount());
    if (x0 >= x1) {
        return 0;
    }
    // The value at x0 (of the step before k0), and those of the steps inside (x0, x1).
    const auto k0 =
        std::upper_bound(m_drawnTopX.begin(), m_drawnTopX.end(), x0) - m_drawnTopX.begin();
    int64_t lowest = k0 == 0 ? 0 : m_drawnTopValue[size_t(k0 - 1)];
    const auto k1 =
        std::lower_bound(m_drawnTopX.begin(), m_drawnTopX.end(), x1) - m_drawnTopX.begin();
    if (k0 < k1) {
        lowest = std::min(lowest, rangeQuery(m_drawnTopValue, m_blockMinDrawnTop, m_drawnTopLeaves,
                                             k0, k1, minOf));
    }
    return lowest;
}

int64_t TimelineLayout::drawnTopAt(int64_t x) const {
    const auto k =
        std::upper_bound(m_drawnTopX.begin(), m_drawnTopX.end(), x) - m_drawnTopX.begin();
    return k == 0 ? 0 : m_drawnTopValue[size_t(k - 1)];
}

std::vector<int64_t> TimelineLayout::drawnTop() const {
    std::vector<int64_t> out(size_t(xCount()), 0);
    for (size_t k = 0; k < m_drawnTopX.size(); ++k) {
        const size_t end = k + 1 < m_drawnTopX.size() ? size_t(m_drawnTopX[k + 1]) : out.size();
        std::fill(out.begin() + std::ptrdiff_t(m_drawnTopX[k]), out.begin() + std::ptrdiff_t(end),
                  m_drawnTopValue[k]);
    }
    return out;
}

void TimelineLayout::rebuildDrawnTop() {
    // A step where a drawn allocation begins or ends: 2 * detail at most, sorted by x. (Stored
    // per x it took 8 bytes an x whatever the detail: 97 MB at 12M events, issue 52.)
    const int64_t x_count = xCount();
    std::vector<std::pair<int32_t, int64_t>> changes;
    changes.reserve(2 * m_drawn.size());
    for (size_t d = 0; d < m_drawn.size(); ++d) {
        if (m_drawnBegin[d] >= m_drawnEnd[d]) {
            continue;  // never live
        }
        const int64_t size = m_size[size_t(m_drawn[d])];
        changes.emplace_back(int32_t(m_drawnBegin[d]), size);
        if (m_drawnEnd[d] < x_count) {
            changes.emplace_back(int32_t(m_drawnEnd[d]), -size);
        }
    }
    std::sort(changes.begin(), changes.end(),
              [](const auto& l, const auto& r) { return l.first < r.first; });
    m_drawnTopX.clear();
    m_drawnTopValue.clear();
    int64_t running = 0;
    for (size_t i = 0; i < changes.size();) {
        const int32_t x = changes[i].first;
        for (; i < changes.size() && changes[i].first == x; ++i) {
            running += changes[i].second;
        }
        const int64_t before = m_drawnTopValue.empty() ? 0 : m_drawnTopValue.back();
        if (running != before) {
            m_drawnTopX.push_back(x);
            m_drawnTopValue.push_back(running);
        }
    }
    // Block minima over the steps' values (the band's lower envelope per pixel column).
    m_drawnTopLeaves = blockTreeLeaves(m_drawnTopValue.size());
    m_blockMinDrawnTop.assign(2 * m_drawnTopLeaves, std::numeric_limits<int64_t>::max());
    updateBlockTree(m_drawnTopValue, m_blockMinDrawnTop, m_drawnTopLeaves, 0, m_drawnTopLeaves,
                    minOf);
}

void TimelineLayout::mapPhases(const Trace& trace) {
    // The sampled times first: xAtTime searches them.
    m_timeIndex.clear();
    m_timeIndex.reserve(m_timeOfX.size() / kTimeStride + 1);
    for (size_t x = 0; x < m_timeOfX.size(); x += kTimeStride) {
        m_timeIndex.push_back(m_timeOfX[x]);
    }
    m_phaseX.resize(trace.phases.size());
    for (size_t i = 0; i < trace.phases.size(); ++i) {
        m_phaseX[i] = {xAtTime(trace.phases[i].begin_ns), xAtTime(trace.phases[i].end_ns)};
    }
}

int64_t TimelineLayout::xAtTime(int64_t time_ns) const {
    // In the sampled times (every kTimeStride-th, small enough to stay in the cache), then in
    // the stride they bound: the answer x has m_timeIndex[k - 1] < time <= m_timeIndex[k].
    if (m_timeIndex.empty() ||
        m_timeIndex.size() != (m_timeOfX.size() + kTimeStride - 1) / kTimeStride) {
        return std::lower_bound(m_timeOfX.begin(), m_timeOfX.end(), time_ns) - m_timeOfX.begin();
    }
    const auto k = size_t(std::lower_bound(m_timeIndex.begin(), m_timeIndex.end(), time_ns) -
                          m_timeIndex.begin());
    if (k == 0) {
        return 0;
    }
    const size_t lo = (k - 1) * kTimeStride + 1;
    const size_t hi = std::min(k * kTimeStride, m_timeOfX.size());
    return std::lower_bound(m_timeOfX.begin() + std::ptrdiff_t(lo),
                            m_timeOfX.begin() + std::ptrdiff_t(hi), time_ns) -
           m_timeOfX.begin();
}

double TimelineLayout::endTime() const {
    if (m_timeOfX.empty()) {
        return 1;
    }
    const double first = double(m_timeOfX.front());
    const double last = double(m_timeOfX.back());
    return last + std::max(1.0, (last - first) / double(m_timeOfX.size()));
}

int64_t TimelineLayout::detailForPercent(double percent) const {
    if (!(percent > 0)) {  // also NaN
        return 0;
    }
    const double n = std::round(double(allocationCount()) * std::min(percent, 100.0) / 100.0);
    return std::clamp<int64_t>(int64_t(n), 0, allocationCount());
}

void TimelineLayout::setDetail(int64_t n) {
    m_requestedDetail = n;
    n = std::clamp<int64_t>(n, 0, allocationCount());
    m_detail = n;
    ensureBySize(n);

    // Which allocations are drawn, then their drawn indices in stack order. Buffers are reused
    // from the previous detail: at a million allocations, fresh pages cost more than the work.
    m_drawnIndex.assign(m_size.size(), -1);
    for (int64_t k = 0; k < n; ++k) {
        m_drawnIndex[size_t(m_bySize[size_t(k)])] = 0;
    }
    m_drawn.clear();
    size_t drawn_present = 0;  // drawn allocations present from the start: the first ones
    for (size_t r = 0; r < m_stackOrder.size(); ++r) {
        const int32_t a = m_stackOrder[r];
        if (m_drawnIndex[size_t(a)] == 0) {
            m_drawnIndex[size_t(a)] = static_cast<int32_t>(m_drawn.size());
            m_drawn.push_back(a);
            drawn_present += r < m_presentCount;
        }
    }
    const size_t drawn = m_drawn.size();
    m_drawnBegin.resize(drawn);
    m_drawnEnd.resize(drawn);
    for (size_t d = 0; d < drawn; ++d) {
        m_drawnBegin[d] = m_beginX[size_t(m_drawn[d])];
        m_drawnEnd[d] = m_endX[size_t(m_drawn[d])];
    }

    rebuildDrawnTop();

    // The drawn allocations' actions, in order: all the sweep below needs.
    m_drawnActions.clear();
    for (const int64_t action : m_actions) {
        if (m_drawnIndex[size_t(action >> 1)] >= 0) {
            m_drawnActions.push_back(action);
        }
    }
    sweepPoints(drawn_present);
}

void TimelineLayout::ensureBySize(int64_t n) {
    if (m_bySizeComplete || int64_t(m_bySize.size()) >= n) {
        return;
    }
    m_bySize.resize(m_size.size());
    std::iota(m_bySize.begin(), m_bySize.end(), 0);
    std::sort(m_bySize.begin(), m_bySize.end(), BySize{&m_size});
    m_bySizeComplete = true;
}

void TimelineLayout::sweepPoints(size_t drawn_present) {
    const size_t drawn = m_drawn.size();
    // The sweep, run twice: once counting each drawn allocation's points, once writing them
    // straight into their place in the flat array (no per-allocation vectors, no sort).
    // `m_live` holds the live drawn allocations in stack order (drawn index order), so it stays
    // sorted: a new allocation goes on top (its rank exceeds every live one) and a free finds its
    // slot by binary search; everything after that slot slides down and gets one point. Each
    // entry carries its bottom and its point counter or write cursor, so the inner loop touches
    // one contiguous array.
    enum class Pass { Count, Write };
    auto sweep = [&](Pass pass) {
        m_live.clear();
        int64_t drawn_total = 0;
        auto arrive = [&](size_t d, int64_t x) {
            LiveEntry e{int32_t(d), drawn_total, pass == Pass::Count ? 1 : m_pointStart[d]};
            if (pass == Pass::Write) {
                m_points[size_t(e.slot++)] = {x, drawn_total};
            }
            return e;
        };
        auto leave = [&](const LiveEntry& e) {
            if (pass == Pass::Count) {
                m_pointStart[size_t(e.d) + 1] = e.slot;
            }
        };
        for (size_t d = 0; d < drawn_present; ++d) {
            const LiveEntry e = arrive(d, 0);
            // One freed at x = 0 has no width: it takes a point but no room, so that the ones
            // above start where the state after event 0 puts them.
            if (m_drawnEnd[d] > 0) {
                drawn_total += m_size[size_t(m_drawn[d])];
                m_live.push_back(e);
            } else {
                leave(e);
            }
        }
        for (const int64_t action : m_drawnActions) {
            const auto a = size_t(action >> 1);
            const int32_t d = m_drawnIndex[a];
            if (d < 0) {
                continue;  // summarized: moves nothing that is drawn
            }
            const int64_t size = m_size[a];
            if ((action & 1) == 0) {
                m_live.push_back(arrive(size_t(d), m_beginX[a]));
                drawn_total += size;
                continue;
            }
            const auto it =
                std::lower_bound(m_live.begin(), m_live.end(), d,
                                 [](const LiveEntry& e, int32_t value) { return e.d < value; });
            if (it == m_live.end() || it->d != d) {
                continue;  // freed at x = 0 before anything happened (see above)
            }
            const int64_t x = m_endX[a];
            for (auto above = it + 1; above != m_live.end(); ++above) {
                above->bottom -= size;
                if (pass == Pass::Write) {
                    m_points[size_t(above->slot)] = {x, above->bottom};
                }
                ++above->slot;
            }
            leave(*it);
            m_live.erase(it);
            drawn_total -= size;
        }
        for (const LiveEntry& e : m_live) {
            leave(e);
        }
    };
    m_pointStart.assign(drawn + 1, 0);
    sweep(Pass::Count);
    for (size_t d = 0; d < drawn; ++d) {
        m_pointStart[d + 1] += m_pointStart[d];
    }
    m_points.resize(size_t(m_pointStart[drawn]));
    sweep(Pass::Write);
}

void TimelineLayout::updateTotalTrees(size_t first_block) {
    const size_t blocks = (m_total.size() + size_t(kBlock) - 1) / size_t(kBlock);
    if (blocks > m_blockLeaves) {
        buildTotalTrees();  // the leaves doubled: once per doubling of the axis
        return;
    }
    updateBlockTree(m_total, m_blockMax, m_blockLeaves, first_block, blocks, maxOfBlocks);
    updateBlockTree(m_total, m_blockMin, m_blockLeaves, first_block, blocks, minOf);
}

void TimelineLayout::extend(const Trace& trace) {
    const auto& allocations = trace.allocations();
    const auto& events = trace.events;
    const auto& allocation_of_event = trace.allocationOfEvent();
    if (allocation_of_event.size() != events.count()) {
        throw std::logic_error("TimelineLayout needs a finalized Trace (call Trace::finalize())");
    }
    auto before_trace = [&](size_t i) { return beforeTrace(events, i); };
    const size_t old_count = m_size.size();
    const size_t count = allocations.size();
    const int64_t old_x = xCount();
    // In place only while nothing is present from the start (their stack order depends on when
    // they are freed) and the trace only grew.
    bool in_place = m_presentCount == 0 && count >= old_count &&
                    events.count() >= size_t(m_eventCount) &&
                    count <= size_t(std::numeric_limits<int32_t>::max());
    for (size_t a = old_count; in_place && a < count; ++a) {
        const int64_t e = allocations[a].alloc_event;
        in_place = e >= 0 && !before_trace(size_t(e));
    }
    if (!in_place) {
        *this = TimelineLayout(trace, m_requestedDetail);
        return;
    }

    // Per allocation: the new ones, and those live at the old end (their end is open again).
    m_size.resize(count);
    m_category.resize(count);
    m_beginX.resize(count, 0);
    m_endX.resize(count, -1);
    for (size_t a = old_count; a < count; ++a) {
        m_size.set(a, allocations[a].size);
        m_category[a] = allocations[a].category;
        m_stackOrder.push_back(static_cast<int32_t>(a));
    }
    m_revisited.swap(m_open);
    m_open.clear();
    for (const int32_t a : m_revisited) {
        m_endX[size_t(a)] = -1;
    }

    // The x axis over the new events.
    appendXAxis(events, allocation_of_event, size_t(m_eventCount), m_eventOfX, m_timeOfX, m_beginX,
                m_endX);
    const int64_t x_count = xCount();
    auto settle_end = [&](size_t a) {
        const int64_t free_event = allocations[a].free_event;
        if (free_event < 0) {
            m_endX[a] = int32_t(x_count);
            m_open.push_back(static_cast<int32_t>(a));
        } else if (m_endX[a] < 0) {
            const auto it = std::lower_bound(m_eventOfX.begin(), m_eventOfX.end(), free_event);
            m_endX[a] = int32_t(it - m_eventOfX.begin());
        }
        m_endX[a] = std::max(m_endX[a], m_beginX[a]);
    };
    // Category bytes change from the first x of an allocation whose category changed.
    int64_t changed_from = old_x;
    for (const int32_t a : m_revisited) {
        settle_end(size_t(a));
        const Category c = allocations[size_t(a)].category;
        if (c != m_category[size_t(a)]) {
            m_category[size_t(a)] = c;
            changed_from = std::min<int64_t>(changed_from, m_beginX[size_t(a)]);
        }
    }
    for (size_t a = old_count; a < count; ++a) {
        settle_end(a);
    }

    // Totals over the new x from the ends and starts in them.
    std::vector<int64_t> diff(size_t(x_count - old_x) + 1, 0);
    auto add = [&](int64_t x, int64_t bytes) {
        if (x >= old_x && x < x_count) {
            diff[size_t(x - old_x)] += bytes;
        }
    };
    for (const int32_t a : m_revisited) {
        add(m_endX[size_t(a)], -m_size[size_t(a)]);
    }
    for (size_t a = old_count; a < count; ++a) {
        add(m_beginX[a], m_size[a]);
        add(m_endX[a], -m_size[a]);
    }
    int64_t running = old_x > 0 ? m_total[size_t(old_x - 1)] : 0;
    int64_t peak = m_peakX >= 0 ? m_total[size_t(m_peakX)] : 0;
    for (int64_t x = old_x; x < x_count; ++x) {
        running += diff[size_t(x - old_x)];
        m_total.push_back(running);
        if (m_peakX < 0 || running > peak) {
            m_peakX = x, peak = running;
        }
    }
    updateTotalTrees(size_t(old_x / kBlock));

    // Actions at the new x, ordered as the constructor's counting sort orders them.
    const size_t first_action = m_actions.size();
    {
        std::vector<int64_t> start(size_t(x_count - old_x) + 1, 0);
        size_t added = 0;
        for (const int32_t a : m_revisited) {
            if (m_endX[size_t(a)] < x_count) {
                ++start[size_t(m_endX[size_t(a)] - old_x)], ++added;
            }
        }
        for (size_t a = old_count; a < count; ++a) {
            ++start[size_t(m_beginX[a] - old_x)], ++added;
            if (m_endX[a] < x_count) {
                ++start[size_t(m_endX[a] - old_x)], ++added;
            }
        }
        int64_t offset = int64_t(first_action);
        for (auto& slot : start) {
            const int64_t n = slot;
            slot = offset;
            offset += n;
        }
        m_actions.resize(first_action + added);
        for (const int32_t a : m_revisited) {
            if (m_endX[size_t(a)] < x_count) {
                m_actions[size_t(start[size_t(m_endX[size_t(a)] - old_x)]++)] =
                    uint32_t(a) << 1 | 1;
            }
        }
        for (size_t a = old_count; a < count; ++a) {
            if (m_endX[a] < x_count) {
                m_actions[size_t(start[size_t(m_endX[a] - old_x)]++)] = uint32_t(a) << 1 | 1;
            }
        }
        for (size_t a = old_count; a < count; ++a) {
            m_actions[size_t(start[size_t(m_beginX[a] - old_x)]++)] = uint32_t(a) << 1;
        }
    }
    buildCategoryBlocks(size_t(changed_from / kCategoryBlock));

    // Detail: the top n by size of old and new together lies in the old top n and the new ones.
    const auto n = size_t(std::clamp<int64_t>(m_requestedDetail, 0, int64_t(count)));
    if (!m_bySizeComplete && m_bySize.size() < n) {
        ensureBySize(int64_t(n));
    } else {
        std::vector<int32_t> added(count - old_count);
        std::iota(added.begin(), added.end(), int32_t(old_count));
        std::sort(added.begin(), added.end(), BySize{&m_size});
        const size_t old_top = std::min(m_bySize.size(), n);
        std::vector<int32_t> merged;
        merged.reserve(old_top + added.size());
        std::merge(m_bySize.begin(), m_bySize.begin() + std::ptrdiff_t(old_top), added.begin(),
                   added.end(), std::back_inserter(merged), BySize{&m_size});
        m_bySizeComplete = m_bySizeComplete && old_top == m_bySize.size();
        if (merged.size() > n) {
            merged.resize(n);
            m_bySizeComplete = false;
        }
        m_bySize.swap(merged);
    }
    m_detail = int64_t(n);
    // Kept, added and pushed out of the detail.
    constexpr int32_t kKept = -3;
    constexpr int32_t kAdded = -2;
    m_drawnIndex.resize(count, -1);
    for (size_t k = 0; k < n; ++k) {
        int32_t& index = m_drawnIndex[size_t(m_bySize[k])];
        index = index >= 0 ? kKept : kAdded;
    }
    std::vector<int32_t> drawn;
    std::vector<int32_t> evicted;
    drawn.reserve(n);
    for (const int32_t a : m_drawn) {
        if (m_drawnIndex[size_t(a)] == kKept) {
            drawn.push_back(a);
        } else {
            evicted.push_back(a);
            m_drawnIndex[size_t(a)] = -1;
        }
    }
    std::vector<int32_t> added;
    for (size_t k = 0; k < n; ++k) {
        if (m_drawnIndex[size_t(m_bySize[k])] == kAdded) {
            added.push_back(m_bySize[k]);
        }
    }
    std::sort(added.begin(), added.end());
    const bool added_old = !added.empty() && size_t(added.front()) < old_count;
    {
        // Stack order is index order here (nothing present from the start).
        std::vector<int32_t> merged;
        merged.reserve(n);
        std::merge(drawn.begin(), drawn.end(), added.begin(), added.end(),
                   std::back_inserter(merged));
        m_drawn.swap(merged);
    }
    m_drawnBegin.resize(m_drawn.size());
    m_drawnEnd.resize(m_drawn.size());
    for (size_t d = 0; d < m_drawn.size(); ++d) {
        const auto a = size_t(m_drawn[d]);
        m_drawnIndex[a] = int32_t(d);
        m_drawnBegin[d] = m_beginX[a];
        m_drawnEnd[d] = m_endX[a];
    }

    // The drawn top, from the drawn allocations (2 * detail steps at most).
    rebuildDrawnTop();

    // The drawn actions: the old ones still drawn, then the drawn ones among the new.
    if (added_old) {
        m_drawnActions.clear();  // an older allocation joined the detail: filter them all
        for (const int64_t action : m_actions) {
            if (m_drawnIndex[size_t(action >> 1)] >= 0) {
                m_drawnActions.push_back(action);
            }
        }
    } else {
        m_drawnActions.erase(std::remove_if(m_drawnActions.begin(), m_drawnActions.end(),
                                            [this](int64_t action) {
                                                return m_drawnIndex[size_t(action >> 1)] < 0;
                                            }),
                             m_drawnActions.end());
        for (size_t k = first_action; k < m_actions.size(); ++k) {
            if (m_drawnIndex[size_t(m_actions[k] >> 1)] >= 0) {
                m_drawnActions.push_back(m_actions[k]);
            }
        }
    }
    sweepPoints(0);

    m_eventCount = static_cast<int64_t>(events.count());
    m_firstNew = static_cast<int64_t>(old_count);
    mapPhases(trace);
}

}  // namespace memscope
