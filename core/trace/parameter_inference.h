#pragma once

#include "trace/trace.h"

#include <cstdint>

namespace memscope {

// The parameters of an import, inferred (issue 52, deliver 7). Most snapshots start after the
// model was built, so its parameters (and after a first step, the optimizer's state) were
// allocated before the trace: Categorizer gives them BEFORE_RECORDING. Every parameter that
// trains gets a gradient of exactly its size, and the gradients are read already (made in
// backward, kept: Categorizer's MadeByAccumulateGrad and AliveAfterBackward). So:
//   - the gradients: the allocations categorized GRADIENT and made in one step, the step that
//     made the most of them (the earliest of those);
//   - the candidates: the blocks alive at the trace's start and still alive at its end (a block
//     the trace frees is no parameter: last step's gradients waiting for zero_grad are freed);
//   - when every gradient finds a candidate of its size, one for one (for each size, at least as
//     many candidates as gradients), then for each size the candidates in address order:
//     the first as many as there are gradients are PARAMETERS (ParameterOfGradient); when the
//     trace has an optimizer phase, the next one or two per gradient are OPTIMIZER_STATE
//     (StateBesideParameter: SGD's momentum, Adam's exp_avg and exp_avg_sq have their
//     parameter's size). Which block of a size is the parameter is not in the file; the bytes
//     of each category are. The rest of a size stays BEFORE_RECORDING.
//   - otherwise nothing changes, and match() says how many gradients found no block.
// Only for traces whose categories are inferred (RunMetadata::categories_inferred); recordings
// name their parameters.
class ParameterInference {
  public:
    struct Match {
        int32_t step = -1;       // the step whose gradients were matched (-1: none)
        int64_t gradients = 0;   // its gradients
        int64_t unmatched = 0;   // of them, without a candidate of their size
        int64_t parameters = 0;  // blocks taken as parameters
        int64_t parameter_bytes = 0;
        int64_t states = 0;  // blocks taken as optimizer state
        int64_t state_bytes = 0;
        bool applies() const { return gradients > 0 && unmatched == 0; }
    };

    // What apply() does to `trace`, without doing it. Reads the categories finalize() gave
    // (before apply: the candidates are the BEFORE_RECORDING ones).
    static Match match(const Trace& trace);
    // Sets the inferred categories and rules; a trace it does not apply to is left as it is.
    // Trace::finalize calls it for imports.
    static Match apply(Trace& trace);
};

}  // namespace memscope
