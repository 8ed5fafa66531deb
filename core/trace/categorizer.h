#pragma once

#include "trace/backward_starts.h"
#include "trace/trace.h"

namespace memscope {

// Assigns a Category to every allocation. Memscope owns the training loop, so the strongest
// evidence is exact: after each phase the trainer names the storages of parameters, gradients,
// optimizer state and the input batch (EventKind::Role events), and an allocation named so takes
// that category. Everything else follows from when it was made and freed:
//   - made in forward, freed in backward of the same step, or made in forward and alive when
//     backward starts                                                  -> ACTIVATION
//   - made and freed inside one phase of one step                      -> TEMPORARY
//   - made in backward and outliving it, not named a gradient          -> AUTOGRAD_DETAIL
//   - made in forward and freed later without a backward in between
//     (forward-only runs: logits, loss)                                -> TEMPORARY
//   - anything else (including allocations present before recording)   -> UNKNOWN
// Imported snapshots (RunMetadata::categories_inferred) carry no Role events but those of the
// file's own `category` fields; their phases and steps are inferred (trace/phase_inference.h),
// and inferredCategoryOf() applies the same rules over them, with what the trainer would have
// named taken from the evidence an import has:
//   - allocated before the trace began (no alloc event, or an alloc at step -1: a live block of
//     the snapshot's segments)                                          -> BEFORE_RECORDING
//   - made in forward: the rules above (ACTIVATION, TEMPORARY, UNKNOWN)
//   - made in backward: freed in that backward -> TEMPORARY; kept, and made under AccumulateGrad
//     (the node that stores a leaf's .grad)                                 -> GRADIENT
//     kept otherwise                                                       -> AUTOGRAD_DETAIL
//   - made in the optimizer: freed in that optimizer phase -> TEMPORARY; kept into a later step
//     or to the end                                                        -> OPTIMIZER_STATE
//   - made in init: freed in it -> TEMPORARY
//   - made where nothing tells the phase (Phase::Other), and anything else -> UNKNOWN
class Categorizer {
  public:
    // The category of one allocation: `role` is the category code a Role event named it with, or
    // -1; `backward_start` the first event of each step's backward pass. LiveTraceBuilder (and so
    // Trace::finalize) calls it for each allocation that new events can change.
    static Category categoryOf(const EventColumns& events, const Allocation& allocation,
                               int64_t role, const BackwardStarts& backward_start);
    // The rules for imports; `accumulate_grad`: the allocation's stack holds an AccumulateGrad
    // autograd node (FrameKind::BackwardNode "AccumulateGrad").
    static Category inferredCategoryOf(const EventColumns& events, const Allocation& allocation,
                                       int64_t role, const BackwardStarts& backward_start,
                                       bool accumulate_grad);
};

}  // namespace memscope
