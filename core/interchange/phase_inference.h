#pragma once

#include "run/phase.h"
#include "trace/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace memscope {

// Phases and steps of an imported snapshot, from what it holds: the evidence of each event's
// frames (FrameCleaner::Evidence bits) and the record_function regions it kept
// (external_annotations, the mid-2024 user_defined entries). Nothing is guessed: an event that
// nothing places keeps Phase::Other ("unknown" for an import) and, without step evidence in the
// whole trace, step 0.
//
// Phase of an event, the first that applies:
//   1. its frames show the autograd engine or an autograd node            -> backward
//   2. its frames show the optimizer (torch/optim/)                        -> optimizer
//   3. the innermost phase region around its time ([begin, end)): "Optimizer.step#AdamW.step",
//      "Optimizer.zero_grad#AdamW.zero_grad" -> optimizer; a region named with the word forward,
//      backward or optimizer (fwd, bwd, optim; only one of them), or as Memscope's exports name
//      the trainer's phases ("forward step 2")                            -> that phase
//   4. its frames show a module's forward (a `forward` frame, module.py's _call_impl) -> forward
//   5. the events on both sides of it that rules 1-4 placed agree       -> their phase
//   6. the nearest event before it that rules 1-4 placed is forward, the nearest after it
//      backward: in a training step what runs between the model's forward and backward is
//      forward (autograd records it), e.g. the loss computed outside the model (log_softmax,
//      cross_entropy in the user's own nn_utils.py)                    -> forward
// Steps, the first that applies to the trace:
//   - step regions: "ProfilerStep#N" -> step N + 1 (Memscope's step 1 is the first step), a
//     Memscope export's "PHASE step N" -> step N. An event takes the innermost step region
//     around its time; one between two regions the step before it; before the first, step 0;
//   - optimizer-step boundaries: step 1 from the start; a forward event that follows an
//     optimizer event (since the step began) begins the next step;
//   - otherwise every event is step 0.
// Events with step -1 (what the snapshot held before the trace began, at time 0) are left alone.
class PhaseInference {
  public:
    struct Region {
        std::string name;
        int64_t begin_ns = 0;
        int64_t end_ns = 0;  // exclusive, as TraceAnnotation's: the END marker's time
    };
    // What a region's name says.
    struct Meaning {
        std::optional<Phase> phase;
        std::optional<int32_t> step;
    };
    static Meaning meaningOf(const std::string& name);

    // Sets events.phase and events.step (evidence: one byte per event) and returns the phase
    // intervals: each run of events of one phase and step (events of unknown phase inside a run
    // do not break it), from its first event's time to the next run's first (the last run to its
    // last event).
    static std::vector<PhaseInterval> apply(EventColumns& events,
                                            const std::vector<uint8_t>& evidence,
                                            const std::vector<Region>& regions);
};

}  // namespace memscope
