#pragma once

#include <cstdint>
#include <string>

namespace memscope {

// Which of the categorizer's rules (trace/categorizer.h) gave an allocation its Category: what
// `info`, the summary and the timeline legend say an import's categories rest on. Kept beside
// each allocation's category by Trace::finalize; not stored in run files (finalize computes it
// again). After Named, one value a rule, in the order categorizer.h lists them.
enum class CategoryRule : uint8_t {
    Named = 0,             // a Role event: the trainer's or the hooks' names, a snapshot's field
    BeforeRecording,       // alive before the trace began
    FreedInBackward,       // made in forward, freed in that step's backward      (Activation)
    AliveAtBackward,       // made in forward, alive when backward began          (Activation)
    FreedInPhase,          // made and freed in one phase of one step             (Temporary)
    ForwardFreedLater,     // made in forward, freed later without a backward     (Temporary)
    MadeByAccumulateGrad,  // made under AccumulateGrad and kept                  (Gradient)
    AliveAfterBackward,    // made in backward, alive after it, freed at zero_grad, by a later
                           // backward or never                                   (Gradient)
    KeptAfterBackward,     // made in backward, kept and freed otherwise          (AutogradDetail)
    KeptByOptimizer,       // made in the optimizer, kept into a later step       (OptimizerState)
    NothingTells,          // no rule applies                                     (Unknown)
    MadeInCollective,      // made inside a collective: a c10d operator or C++ frame, DDP's
                           // module, torch.distributed's Python code (Communication)
    AliveAtOutOfMemory,    // made in forward, alive when that forward ran out of memory
                           // (the step never reached backward)                   (Activation)
    ParameterOfGradient,   // alive from before the trace to its end, one block per gradient
                           // of its size (trace/parameter_inference.h)          (Parameter)
    StateBesideParameter,  // the same, the next one or two blocks of a parameter's size when
                           // the trace has an optimizer phase                    (OptimizerState)
};

inline constexpr int kCategoryRuleCount = 15;

// "made in backward, alive after it": the rule as a person reads it after the category's name
// ("Gradient (inferred: made in backward, alive after it)"). Named reads "named by the recording"
// or, for an import, "named by the snapshot".
std::string describe(CategoryRule rule, bool inferred);

}  // namespace memscope
