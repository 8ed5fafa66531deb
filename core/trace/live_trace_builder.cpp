#include "trace/live_trace_builder.h"

#include "trace/categorizer.h"
#include "trace/column_growth.h"
#include "trace/expected_run_length.h"
#include "trace/program_stack_order.h"

#include <algorithm>
#include <limits>
#include <new>
#include <nlohmann/json.hpp>

namespace memscope {
namespace {

uint64_t addressKey(int16_t device, uint64_t addr) {
    return addr ^ (uint64_t(uint16_t(device)) << 48);  // as Trace::finalize keys them
}

template <typename Column>
void appendTail(Column& to, const Column& from) {
    if (from.size() > to.size()) {
        appendValues(to, from.begin() + std::ptrdiff_t(to.size()), from.end());
    }
}

// Reserves the copy's allocation index and allocations ahead of `needed` events (its event
// columns are packed and grow by blocks): for the whole run where its length is known, else
// twice what they hold, in buffers advised to use huge pages (trace/column_growth.h). Columns of
// millions of events then are not reallocated (and copied) again and again as a live run grows,
// nor faulted in page by page.
void reserveAhead(std::vector<int32_t>& allocation_of_event,
                  std::vector<AllocationRecord>& allocations, size_t have, size_t needed,
                  size_t expected) {
    if (needed <= allocation_of_event.capacity()) {
        return;
    }
    growColumn(allocation_of_event, needed, expected);
    // The events an 8-byte column would hold (the cap counts bytes; allocation_of_event's are 4).
    const size_t want =
        std::min(allocation_of_event.capacity(), reserveAheadLimitBytes() / sizeof(int64_t));
    // Allocations in the proportion to events seen so far (each alloc or free makes at most one),
    // capped as the columns are: at six times an 8-byte event column's bytes each, half of a
    // capped column's events asked for about 0.4 of memory in one mapping. Past the cap, or
    // refused, they grow as any vector does.
    const size_t per = have > 0 ? allocations.size() * want / have + 1024 : want / 2;
    const size_t cap = reserveAheadLimitBytes() / sizeof(AllocationRecord);
    try {
        allocations.reserve(std::max(allocations.capacity(), std::min({per, want, cap})));
    } catch (const std::bad_alloc&) {
    }
}

}  // namespace

bool LiveTraceBuilder::update(Trace& copy, const Trace& source) {
    const bool continues =
        source.events.count() >= m_events && source.meta.dropped_events == m_dropped &&
        source.spans.size() >= copy.spans.size() && source.phases.size() >= copy.phases.size() &&
        source.steps.size() >= copy.steps.size() &&
        source.segment_tags.size() >= copy.segment_tags.size() &&
        source.shape_strings.size() >= copy.shape_strings.size() &&
        source.stacks.frameCount() >= copy.stacks.frameCount() &&
        source.stacks.nodeCount() >= copy.stacks.nodeCount();
    if (!continues) {
        *this = LiveTraceBuilder();
        copy = Trace();
    }
    m_dropped = source.meta.dropped_events;

    // The small parts whole, the growing ones by their new tail.
    copy.meta = source.meta;
    copy.operators = source.operators;
    copy.summary = source.summary;
    appendTail(copy.shape_strings, source.shape_strings);
    for (size_t f = copy.stacks.frameCount(); f < source.stacks.frameCount(); ++f) {
        copy.stacks.internFrame(source.stacks.frame(uint32_t(f)));
    }
    for (size_t n = copy.stacks.nodeCount(); n < source.stacks.nodeCount(); ++n) {
        copy.stacks.child(source.stacks.parent(uint32_t(n)), source.stacks.frameOf(uint32_t(n)));
    }
    growSpans(copy.spans, source.spans.size(), expectedRunTotal(source, source.spans.size()));
    appendTail(copy.spans, source.spans);
    if (!copy.phases.empty()) {
        copy.phases.back() = source.phases[copy.phases.size() - 1];  // it may have closed since
    }
    appendTail(copy.phases, source.phases);
    appendTail(copy.steps, source.steps);
    appendTail(copy.segment_tags, source.segment_tags);

    auto& to = copy.events;
    const auto& from = source.events;
    reserveAhead(copy.m_allocationOfEvent, copy.m_allocations, to.count(), from.count(),
                 expectedRunTotal(source, source.events.count(), true));
    m_role.reserve(copy.m_allocations.capacity());
    appendTail(to.time_ns, from.time_ns);
    appendTail(to.addr, from.addr);
    appendTail(to.size, from.size);
    appendTail(to.allocated, from.allocated);
    appendTail(to.reserved, from.reserved);
    appendTail(to.stack, from.stack);
    appendTail(to.step, from.step);
    appendTail(to.kind, from.kind);
    appendTail(to.phase, from.phase);
    appendTail(to.thread, from.thread);
    appendTail(to.device, from.device);
    pairAppended(copy);
    return continues;
}

bool LiveTraceBuilder::madeByAccumulateGrad(const StackTable& stacks, uint32_t node) {
    if (node >= stacks.nodeCount()) {
        return false;
    }
    // Node ids grow from their parents', so each new node's flag follows from its parent's.
    for (size_t n = m_accumulateGrad.size(); n < stacks.nodeCount(); ++n) {
        if (n == 0) {
            m_accumulateGrad.push_back(0);  // the empty stack
            continue;
        }
        const auto id = static_cast<uint32_t>(n);
        const Frame& f = stacks.frame(stacks.frameOf(id));
        const bool here = f.kind == FrameKind::BackwardNode && f.name == "AccumulateGrad";
        m_accumulateGrad.push_back(here || m_accumulateGrad[stacks.parent(id)]);
    }
    return m_accumulateGrad[node] != 0;
}

namespace {

// Whether the stack at `node` says it was made inside a collective (Categorizer::
// collectiveEvidence), memoized per node from its parent's state: node ids grow from their
// parents'. A state is a c10d frame seen (bit 0) and the deciding Python frame so far (bits 1-2:
// none, the program's, torch.distributed's).
bool collectiveNode(const StackTable& stacks, uint32_t node, std::vector<uint8_t>& memo) {
    if (node >= stacks.nodeCount()) {
        return false;
    }
    using Evidence = Categorizer::CollectiveEvidence;
    for (size_t n = memo.size(); n < stacks.nodeCount(); ++n) {
        if (n == 0) {
            memo.push_back(0);
            continue;
        }
        const auto id = static_cast<uint32_t>(n);
        uint8_t state = memo[stacks.parent(id)];
        switch (Categorizer::collectiveEvidence(stacks.frame(stacks.frameOf(id)))) {
            case Evidence::Operator:
                state |= 1;
                break;
            case Evidence::Program:
                state = uint8_t((state & 1) | (1 << 1));
                break;
            case Evidence::Library:
                state = uint8_t((state & 1) | (2 << 1));
                break;
            default:
                break;
        }
        memo.push_back(state);
    }
    const uint8_t state = memo[node];
    return (state & 1) != 0 || (state >> 1) == 2;
}

}  // namespace

bool LiveTraceBuilder::madeInCollective(const Trace& trace, size_t e) {
    if (collectiveNode(trace.stacks, trace.events.stack[e], m_collective)) {
        return true;
    }
    return trace.hasRawStacks() &&
           collectiveNode(trace.raw_stacks, trace.raw_stack[e], m_rawCollective);
}

void LiveTraceBuilder::pairAppended(Trace& trace) {
    const auto& events = trace.events;
    const size_t first = m_events;
    const size_t count = events.count();
    auto& allocations = trace.m_allocations;
    auto& allocation_of_event = trace.m_allocationOfEvent;
    if (count > size_t(std::numeric_limits<int32_t>::max())) {
        throw std::bad_alloc();  // events are numbered in 31 bits (Allocation::alloc_event)
    }
    allocation_of_event.resize(count, -1);
    if (first == 0 && allocations.empty()) {
        // A whole trace at once (Trace::finalize): an allocation per alloc or free at most.
        // Reserved, so that the vectors never grow by copying: each copy held the old and the
        // new vector at once, which was the peak of importing a 1 GB snapshot (issue 52).
        size_t most = 0;
        events.kind.forEach(0, count, [&most](uint8_t k) {
            const auto kind = static_cast<EventKind>(k);
            most += kind == EventKind::Alloc || kind == EventKind::Free;
        });
        allocations.reserve(most);
        m_role.reserve(most);
    }
    // Allocation indices are 31 bits in allocationOfEvent (4 bytes an event): 2^31 allocations
    // would need over 100 GB of trace.
    auto index_of_next = [&allocations]() {
        if (allocations.size() >= size_t(std::numeric_limits<int32_t>::max())) {
            throw std::bad_alloc();
        }
        return static_cast<int32_t>(allocations.size());
    };

    // The allocations live before these events: their free, name and category may change.
    std::vector<size_t> revisit;
    revisit.reserve(m_open.size());
    for (const auto& [key, a] : m_open) {
        revisit.push_back(a);
    }
    const size_t first_new = allocations.size();
    for (; m_tagsSeen < trace.segment_tags.size(); ++m_tagsSeen) {
        m_tags[trace.segment_tags[m_tagsSeen].event] = m_tagsSeen;
    }

    bool segments_changed = false;
    // The columns this pass reads at every event, a block at a time (trace/packed_column.h).
    PackedReader kinds(events.kind);
    PackedReader phases(events.phase);
    PackedReader steps(events.step);
    PackedReader devices(events.device);
    PackedReader addrs(events.addr);
    PackedReader sizes(events.size);
    for (size_t i = first; i < count; ++i) {
        const auto kind = static_cast<EventKind>(kinds[i]);
        if (static_cast<Phase>(phases[i]) == Phase::Backward) {
            m_backwardStart.note(std::max(0, steps[i]), static_cast<int64_t>(i));
        } else if (static_cast<Phase>(phases[i]) == Phase::Forward &&
                   static_cast<EventKind>(kinds[i]) == EventKind::Oom) {
            m_forwardOom.note(std::max(0, steps[i]), static_cast<int64_t>(i));
        }
        m_backwardEnd.note(static_cast<int64_t>(i), static_cast<Phase>(phases[i]));
        const uint64_t key = addressKey(devices[i], addrs[i]);
        if (kind == EventKind::Alloc) {
            if (auto it = m_open.find(key); it != m_open.end()) {
                // A second alloc at a live address: the old one's free was not recorded.
                allocations[it->second].free_event = static_cast<int32_t>(i);
            }
            AllocationRecord a;  // its address and size are this event's
            a.alloc_event = static_cast<int32_t>(i);
            a.device = devices[i];
            allocation_of_event[i] = index_of_next();
            m_open[key] = allocations.size();
            allocations.push_back(a);
            m_role.push_back(-1);
        } else if (kind == EventKind::Free) {
            if (auto it = m_open.find(key); it != m_open.end()) {
                allocations[it->second].free_event = static_cast<int32_t>(i);
                allocation_of_event[i] = static_cast<int32_t>(it->second);
                m_open.erase(it);
            } else {
                // Freed, never seen allocated: present from the start (its address and size
                // are this event's).
                AllocationRecord a;
                a.free_event = static_cast<int32_t>(i);
                a.device = devices[i];
                allocation_of_event[i] = index_of_next();
                allocations.push_back(a);
                m_role.push_back(-1);
            }
        } else if (kind == EventKind::Role) {
            if (auto it = m_open.find(key);
                it != m_open.end() && sizes[i] >= 0 && sizes[i] < kCategoryCount) {
                m_role[it->second] = static_cast<int8_t>(sizes[i]);
            }
        } else if (kind == EventKind::SegmentAlloc) {
            segments_changed = true;
            if (auto it = m_openSegments.find(key); it != m_openSegments.end()) {
                m_reserved[it->second].release_event = static_cast<int64_t>(i);
            }
            Segment s;
            s.addr = addrs[i];
            s.size = sizes[i];
            s.reserve_event = static_cast<int64_t>(i);
            s.device = devices[i];
            if (auto t = m_tags.find(static_cast<int64_t>(i)); t != m_tags.end()) {
                s.stream = trace.segment_tags[t->second].stream;
                s.pool = trace.segment_tags[t->second].pool;
            }
            m_openSegments[key] = m_reserved.size();
            m_reserved.push_back(std::move(s));
        } else if (kind == EventKind::SegmentFree) {
            segments_changed = true;
            if (auto it = m_openSegments.find(key); it != m_openSegments.end()) {
                m_reserved[it->second].release_event = static_cast<int64_t>(i);
                m_openSegments.erase(it);
            } else {
                Segment s;
                s.addr = addrs[i];
                s.size = -sizes[i];
                s.release_event = static_cast<int64_t>(i);
                s.device = devices[i];
                m_fromStart.push_back(std::move(s));
            }
        }
    }

    // Categories: Categorizer's rules (an import's inferred ones), for the allocations these
    // events can change.
    const AllocationList list = trace.allocations();
    auto categorize = [&](size_t a) {
        const Allocation al = list[a];
        const int64_t e = al.alloc_event;
        // The built-in trainer names its communication buffers itself (Role events); imports
        // and Python programs are told by their frames.
        const bool collective =
            e >= 0 && (trace.meta.categories_inferred || ProgramStackOrder::applies(trace)) &&
            madeInCollective(trace, size_t(e));
        if (!trace.meta.categories_inferred) {
            return Categorizer::categoryOf(events, al, m_role[a], m_backwardStart, m_backwardEnd,
                                           m_forwardOom, collective);
        }
        return Categorizer::inferredCategoryOf(
            events, al, m_role[a], m_backwardStart, m_backwardEnd, m_forwardOom,
            e >= 0 && madeByAccumulateGrad(trace.stacks, events.stack[e]), collective);
    };
    auto apply = [&](size_t a) {
        const Categorizer::Result r = categorize(a);
        allocations[a].category = r.category;
        allocations[a].rule = r.rule;
    };
    for (const size_t a : revisit) {
        apply(a);
    }
    for (size_t a = first_new; a < allocations.size(); ++a) {
        apply(a);
    }
    if (segments_changed) {
        auto& segments = trace.m_segments;
        segments = m_fromStart;
        segments.insert(segments.end(), m_reserved.begin(), m_reserved.end());
    }
    m_events = count;
}

}  // namespace memscope
