#pragma once

#include "trace/trace.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace memscope {

// Memory figures derived from a finalized Trace: what `memscope-cli record --summary-json` adds
// to the training summary and what `info` prints.
//   avg_allocated_bytes: time-weighted mean of live bytes from the first step's first event to
//     the last event (initialisation excluded; imported snapshots have no steps: all events)
//   peak_to_avg_ratio: the recorded peak over avg_allocated_bytes
//   step1_peak_allocated_bytes_recorded, steady_peak_allocated_bytes_recorded: highest live
//     bytes in step 1 and in the steps after it, from the events
//   peak_by_phase: highest live bytes seen during forward / backward / optimizer
//   bytes_by_category_at_peak: live bytes per category at the overall peak
//   category_rules_at_peak: per category alive at the peak, the rule that put the most of its
//     bytes there (leadingRulesAt): {"rule": describe(), "rule_id": "ALIVE_AFTER_BACKWARD",
//     "bytes": that rule's bytes}; `info` prints it for imports, whose categories are inferred
//   before_recording_bytes: the bytes allocated before recording started (beforeRecordingBytes)
//   parameters_inferred (imports with gradients and bytes from before): which of those bytes
//     are the parameters and their optimizer state, by the gradients (parametersInferred)
//   largest_allocations: the 10 largest, with category, phase, module, op (imports: the called
//     operator, calledOperatorOf), frame (the innermost user frame; imports without one: the
//     autograd node) and stack; "before_recording": true for those made before the trace
//     began (their phase reads "before recording")
//   categories_inferred: true for imports (RunMetadata::categories_inferred); their phases read
//     "unknown" where nothing told them
//   oom: null, or the out-of-memory event
//   oom_explanation: null, or why it ran out (OomExplanation::toJson: capacity or
//     fragmentation, the categories and modules that filled the device); toText prints it
//   reserved: the caching allocator's reserved peak and fragmentation at the peak and at the
//     OOM point, or {"caching_allocator": false} (explain/reserved_memory.h)
class TraceSummary {
  public:
    static nlohmann::json compute(const Trace& trace, size_t largest = 10);
    // The run's stored summary with what imports and older run files lack derived from the
    // events: the memory figures, reserved memory, the out-of-memory explanation, the bytes
    // before recording and an import's category rules at the peak (what `info` prints).
    static nlohmann::json completed(const Trace& trace);
    // Which rule put a category's bytes there: of the blocks alive just after event `event`,
    // per category (kCategoryCount entries), the rule with the most bytes (ties: the lower
    // rule); NothingTells and 0 bytes where the category has none.
    struct RuleShare {
        CategoryRule rule = CategoryRule::NothingTells;
        int64_t bytes = 0;
    };
    static std::vector<RuleShare> leadingRulesAt(const Trace& trace, size_t event);
    // The bytes allocated before recording started: blocks freed without an alloc, and an
    // import's blocks alive before its trace (step -1). Usually the model's parameters, and
    // after warm-up steps also gradients and optimizer state.
    static int64_t beforeRecordingBytes(const Trace& trace);
    // An import's parameters inferred from its gradients (trace/parameter_inference.h):
    // {step, gradients, unmatched, parameters, parameter_bytes, states, state_bytes}, or null
    // when nothing was before recording or no gradient was read.
    static nlohmann::json parametersInferred(const Trace& trace);
    // "CATEGORY_RULE" names for JSON ("ALIVE_AFTER_BACKWARD").
    static std::string ruleId(CategoryRule rule);
    // The innermost module on a stack ("backward of X" frames count as X's backward), or "".
    static std::string moduleOf(const StackTable& stacks, uint32_t node);
    // The innermost frame with a source file (an imported snapshot's user Python frame) as
    // "file:line function", or "".
    static std::string userFrameOf(const StackTable& stacks, uint32_t node);
    // userFrameOf, else the innermost autograd node (the engine's thread has no Python frames),
    // else "": where an import's allocation was made.
    static std::string userFrameOrNodeOf(const StackTable& stacks, uint32_t node);
    // The operator the code above the innermost operators called: the outermost of the
    // innermost run of operator frames ("aten::zeros" of aten::zeros > aten::empty), or "".
    // Imports' largest allocations name it; their innermost is nearly always aten::empty.
    static std::string calledOperatorOf(const StackTable& stacks, uint32_t node);
    // The innermost operator (or backward node) on a stack, or "".
    static std::string operatorOf(const StackTable& stacks, uint32_t node);
    // Readable text of a summary JSON plus the top operators of the trace.
    static std::string toText(const Trace& trace, const nlohmann::json& summary, size_t top = 10);
};

}  // namespace memscope
