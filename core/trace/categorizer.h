#pragma once

#include "trace/backward_ends.h"
#include "trace/backward_starts.h"
#include "trace/category_rule.h"
#include "trace/trace.h"

namespace memscope {

// Assigns a Category to every allocation, and says which rule did (CategoryRule). Memscope owns
// the training loop, so the strongest evidence is exact: after each phase the trainer (or a
// Python recording's hooks) names the storages of parameters, gradients, optimizer state and the
// input batch (EventKind::Role events), and an allocation named so takes that category (Named).
// Everything else follows from when it was made and freed:
//   - made in forward, freed in backward of the same step (FreedInBackward), or made in forward
//     and alive when backward starts (AliveAtBackward)                   -> ACTIVATION
//   - made and freed inside one phase of one step (FreedInPhase); made in backward and freed
//     before that backward pass ended                                    -> TEMPORARY
//   - made in backward, still alive when that backward pass ends (the first event after it
//     that forward, optimizer or init placed: trace/backward_ends.h), and freed at the next
//     zero_grad (an optimizer-phase free), by a later backward, or never
//     (AliveAfterBackward)                                               -> GRADIENT
//     This is a gradient's lifetime whoever made it: AccumulateGrad copies a leaf's gradient
//     or keeps the backward op's output without a copy (BmmBackward0's aten::bmm), so the
//     weight gradients are not all made under AccumulateGrad.
//   - made in backward and kept otherwise (freed in a later forward, or the trace ends inside
//     that backward) (KeptAfterBackward)                                 -> AUTOGRAD_DETAIL
//   - made in forward of a step whose forward ran out of memory, and alive at that out-of-memory
//     event: the activations the step would have saved, waiting for a backward that never
//     came (AliveAtOutOfMemory)                                          -> ACTIVATION
//   - made in forward and freed later without a backward in between
//     (forward-only runs: logits, loss) (ForwardFreedLater)              -> TEMPORARY
//   - allocated at step -1: a forked child's inheritance, what its parent had alive at the
//     fork (python/memscope/_child.py) (BeforeRecording)                -> BEFORE_RECORDING
//   - anything else (including frees of blocks never seen allocated)    -> UNKNOWN
// Before the timing rules, an allocation no Role event named that was made inside a collective
// (its stack holds a c10d operator, `c10d::allreduce_`, or C++ frame, `c10d::Reducer::...`,
// `record_param_comms`, or, as the innermost Python frame that is not nn.Module's machinery, one
// of torch/distributed/ or DDP's module, torch/nn/parallel/distributed.py: DDP's reducer
// buckets, the broadcast buffers that sync the ranks' parameters, FSDP's all-gather and
// reduce-scatter buffers; collectiveEvidence) (MadeInCollective)
//                                                                       -> COMMUNICATION
// Imported snapshots (RunMetadata::categories_inferred) carry no Role events but those of the
// file's own `category` fields; their phases and steps are inferred
// (interchange/phase_inference.h), and inferredCategoryOf() applies the same rules over them, with
// what the trainer would have named taken from the evidence an import has:
//   - allocated before the trace began (no alloc event, or an alloc at step -1: a live block of
//     the snapshot's segments) (BeforeRecording)                        -> BEFORE_RECORDING
//   - made in forward: the rules above (ACTIVATION, TEMPORARY, UNKNOWN)
//   - made in backward: freed in that backward pass -> TEMPORARY; kept, and made under
//     AccumulateGrad (the node that stores a leaf's .grad) (MadeByAccumulateGrad), or with a
//     gradient's lifetime (AliveAfterBackward, above)                    -> GRADIENT
//     kept otherwise                                                     -> AUTOGRAD_DETAIL
//   - made in the optimizer: freed in that optimizer phase -> TEMPORARY; kept into a later step
//     or to the end (KeptByOptimizer)                                    -> OPTIMIZER_STATE
//   - made in init: freed in it -> TEMPORARY
//   - made where nothing tells the phase (Phase::Other), and anything else -> UNKNOWN
class Categorizer {
  public:
    struct Result {
        Category category = Category::Unknown;
        CategoryRule rule = CategoryRule::NothingTells;
    };
    // The category of one allocation: `role` is the category code a Role event named it with, or
    // -1; `backward_start` the first event of each step's backward pass, `backward_end` where
    // each backward pass ended, `forward_oom` the first out-of-memory event of each step's forward
    // (a BackwardStarts of those events). LiveTraceBuilder (and so Trace::finalize) calls it for
    // each allocation that new events can change.
    // `collective`: the allocation's stack says it was made inside a collective (above).
    static Result categoryOf(const EventColumns& events, const Allocation& allocation, int64_t role,
                             const BackwardStarts& backward_start, const BackwardEnds& backward_end,
                             const BackwardStarts& forward_oom, bool collective = false);
    // The rules for imports; `accumulate_grad`: the allocation's stack holds an AccumulateGrad
    // autograd node (FrameKind::BackwardNode "AccumulateGrad").
    static Result inferredCategoryOf(const EventColumns& events, const Allocation& allocation,
                                     int64_t role, const BackwardStarts& backward_start,
                                     const BackwardEnds& backward_end,
                                     const BackwardStarts& forward_oom, bool accumulate_grad,
                                     bool collective = false);
    // What one frame says of a collective (MadeInCollective), read from the outermost frame in:
    // a c10d operator or C++ frame anywhere makes the allocation a collective's; of the Python
    // frames, the innermost one that is the program's own or torch.distributed's (DDP's module
    // included) decides, PyTorch's other frames (nn.Module's call machinery) are passed over.
    // So DDP's reducer buckets (made in DistributedDataParallel.__init__) are a collective's,
    // and the activations of a forward that DDP's forward runs are not.
    enum class CollectiveEvidence : uint8_t {
        None = 0,
        Operator = 1,  // a c10d operator or C++ frame, or record_param_comms
        Program = 2,   // a Python frame of the program's own
        Library = 3,   // a Python frame of torch.distributed or DDP's module
        Other = 4,     // any other frame
    };
    static CollectiveEvidence collectiveEvidence(const Frame& frame);
};

}  // namespace memscope
