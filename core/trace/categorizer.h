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
// Imported snapshots carry no Role events; their categories come from the file where it has
// them, else from these timing rules.
class Categorizer {
  public:
    // The category of one allocation: `role` is the category code a Role event named it with, or
    // -1; `backward_start` the first event of each step's backward pass. LiveTraceBuilder (and so
    // Trace::finalize) calls it for each allocation that new events can change.
    static Category categoryOf(const EventColumns& events, const Allocation& allocation,
                               int64_t role, const BackwardStarts& backward_start);
};

}  // namespace memscope
