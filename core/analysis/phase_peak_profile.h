#pragma once

#include "predict/phase_peaks.h"
#include "trace/trace.h"

namespace memscope {

// Measures the PhasePeaks of a recorded run (its Trace finalized): each phase's peak in step 1
// and in the last step, and the peaks of each phase's regions, the places of the program named
// by module path (layer numbers made positions) and operator. Python programs and the built-in
// trainer alike: the module frames are the recorder's ("Model.layers.3.attn.q_proj", "backward
// of Model.layers.3.attn"), the phases and steps the run's.
class PhasePeakProfile {
  public:
    // Throws InputError when the run has no step with a forward phase.
    static PhasePeaks measure(const Trace& trace);
    // The region an allocation made at `stack` belongs to: "first:attn.q_proj|aten::mm",
    // "after:lm_head|aten::mm", "before:-|aten::empty". `position` is "first", "last", "mid"
    // (for a layer), "before", "after" or "outside" (no layer seen in the phase).
    struct Place {
        int64_t layer = -1;  // the layer's number, -1 outside the layers
        std::string module;  // the module path below the layer (or below the model), "-" if none
        std::string op;      // innermost operator or autograd node, "" if none
    };
    static Place placeOf(const StackTable& stacks, uint32_t stack);
};

}  // namespace memscope
