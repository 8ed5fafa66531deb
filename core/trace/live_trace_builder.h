#pragma once

#include "trace/backward_ends.h"
#include "trace/backward_starts.h"
#include "trace/trace.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace memscope {

// Keeps a copy of a growing trace (a live run's recording trace) finalized as it grows: update()
// appends what the source gained since the last call (events, spans, phases, steps, stack nodes,
// segment tags; the small parts, metadata and operators, are copied whole) and then pairs and
// categorises only the new events, revisiting the allocations still live before them (their
// free, Role name and category can change; a freed allocation's category is final). The copy
// then equals the source copied and finalized (Trace::finalize) at that moment, for a cost of
// what the source gained plus the allocations live, not of the whole trace.
//
// The pairing state (live allocations and segments by device and address, Role names, where each
// step's backward pass began) is kept between calls; Trace::finalize runs the same pairing once
// over all events with a fresh builder.
class LiveTraceBuilder {
  public:
    // Brings `copy`, which only this builder writes (start from an empty Trace), up to `source`,
    // which must only have grown since the last call. When it did not (a bounded run dropped its
    // oldest events), the copy is rebuilt from the whole source and false is returned.
    bool update(Trace& copy, const Trace& source);
    // Pairs and categorises the events of `trace` appended since the last call (all of them on a
    // new builder, whose trace must have no allocations, allocation indices or segments yet) and
    // fixes the allocations they can change. Trace::finalize is this, once over all events.
    void pairAppended(Trace& trace);
    // Events of the copy paired so far.
    size_t eventCount() const { return m_events; }

  private:
    // Whether stack `node` holds an AccumulateGrad autograd node (inferred categories' GRADIENT).
    bool madeByAccumulateGrad(const StackTable& stacks, uint32_t node);
    // Whether event `e` was made inside a collective (Categorizer::isCollectiveFrame on any
    // frame of its stack, or of its raw stack where the trace keeps them: a Python program's
    // PyTorch frames are only there).
    bool madeInCollective(const Trace& trace, size_t e);

    size_t m_events = 0;
    int64_t m_dropped = 0;
    std::unordered_map<uint64_t, size_t> m_open;  // (device, addr) -> live allocation
    // Per allocation: the Role category code, or -1 (a byte: a 1 GB import has 6M allocations).
    std::vector<int8_t> m_role;
    BackwardStarts m_backwardStart;                       // per step: its first backward event
    BackwardStarts m_forwardOom;                          // per step: its forward's first OOM event
    BackwardEnds m_backwardEnd;                           // where each backward pass ended
    std::unordered_map<uint64_t, size_t> m_openSegments;  // (device, addr) -> m_reserved index
    std::vector<Segment> m_reserved;                      // segments seen reserved, in order
    std::vector<Segment> m_fromStart;            // freed, never seen reserved (they go first)
    std::unordered_map<int64_t, size_t> m_tags;  // SegmentAlloc event -> segment_tags index
    size_t m_tagsSeen = 0;
    std::vector<uint8_t> m_accumulateGrad;  // per stack node, see madeByAccumulateGrad
    std::vector<uint8_t> m_collective;      // per stack node, see madeInCollective
    std::vector<uint8_t> m_rawCollective;   // per raw stack node
};

}  // namespace memscope
