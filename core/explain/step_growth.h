#pragma once

#include "trace/trace.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace memscope {

// Why memory grows every step (issue 53): what each step makes that the steps after it keep.
//
// A step is complete when a later step began (the events after the last optimizer step of a
// Python program, or its teardown, are not one); its end is its last event. Of the allocations
// a complete step s made, the expected ones are left out: parameters, their gradients, optimizer
// state and what was alive before the recording (their categories). The rest is
//   kept to the next step   alive at the end of step s + 1
//   kept to the last step   alive at the end of the last complete step K
// Only steps 1 .. K - 1 are judged: what step K made has no later step to outlive. A program's
// steady state (a buffer replaced each step, a loss kept until the next one) is freed by the
// end of the next step or two and is not kept to the last step, except what step K - 1 made.
//
// The kept allocations are grouped by the stack that made them, and by module. A group
//   grows         when it kept bytes in each of the last two judged steps (K - 2 and K - 1):
//                 its bytes per step are the mean over the trailing run of steps that kept some,
//                 and it started at that run's first step;
//   stopped       when it kept bytes in two or more steps, not the last (a cache filled over
//                 the first steps, then complete);
//   once          when it kept bytes in one step only (a warm-up: lazily made state).
// The run grows when a group grows (its rate is theirs summed), stopped when none grows and one
// stopped, and is steady otherwise. Fewer than three complete steps: too few to tell.
class StepGrowth {
  public:
    enum class Verdict { TooFewSteps, Steady, Grows, Stopped };
    enum class Trend { Grows, Stopped, Once };

    struct StepRow {
        int32_t step = 0;
        int64_t end_event = -1;       // the step's last event
        int64_t floor_bytes = 0;      // live bytes at its end (the end-of-step floor)
        int64_t made_bytes = 0;       // allocations it made, the expected ones left out
        int64_t kept_next_bytes = 0;  // of those, alive at the end of the next step
        int64_t kept_last_bytes = 0;  // of those, alive at the end of the last complete step
        int64_t kept_last_count = 0;
    };

    struct Group {
        std::string name;     // the stack ("a > b > c") or the module path ("(no module)")
        uint32_t stack = 0;   // the stack node (stack groups; 0 for modules)
        std::string made_at;  // innermost frame with a source file: "train.py:12 Net.forward"
        std::string
            called_from;  // the innermost sourced frame outside every module, if not made_at
        std::string op;   // the innermost operator, or ""
        Trend trend = Trend::Once;
        int32_t first_step = 0;      // the first step whose allocations it kept
        int32_t last_step = 0;       // the last one
        int32_t steps = 0;           // how many judged steps kept some
        int32_t from_step = 0;       // growing groups: the start of the trailing run
        int64_t bytes_per_step = 0;  // growing: the trailing run's mean; else kept / steps
        int64_t count_per_step = 0;  // allocations per step, the same way
        int64_t kept_bytes = 0;      // kept to the last step, over the judged steps
        int64_t kept_count = 0;
        std::vector<int64_t> allocations;  // Trace::allocations() indices kept to the last step
    };

    static StepGrowth analyze(const Trace& trace);

    Verdict verdict() const { return m_verdict; }
    int32_t completeSteps() const { return m_complete; }
    int64_t bytesPerStep() const { return m_bytesPerStep; }  // growing groups summed
    int32_t fromStep() const { return m_fromStep; }
    const std::vector<StepRow>& steps() const { return m_steps; }
    // Largest first: growing groups by bytes per step, then stopped, then once, by kept bytes.
    const std::vector<Group>& byStack() const { return m_byStack; }
    const std::vector<Group>& byModule() const { return m_byModule; }

    // The stack groups of one trend together (0s when none): bytes kept, allocations a step,
    // the first and last step, the largest group. The verdict's figures, here and in the GUI.
    struct Span {
        int64_t kept_bytes = 0;
        int64_t count_per_step = 0;
        int32_t first_step = 0;
        int32_t last_step = 0;
        const Group* top = nullptr;
    };
    Span span(Trend trend) const;

    static std::string verdictId(Verdict verdict);  // "grows", "steady", ...
    static std::string trendId(Trend trend);
    // One sentence: "grows 48.5 KiB a step from step 2: 4 allocations a step kept to step 8,
    // made at train.py:38 Net.forward, called from train.py:90 main".
    std::string verdictText() const;
    // The verdict, then the growing and stopped groups (at most `top` of each), then the steps.
    std::string toText(size_t top = 5) const;
    nlohmann::json toJson(size_t top = 20) const;

  private:
    Verdict m_verdict = Verdict::TooFewSteps;
    int32_t m_complete = 0;
    int64_t m_bytesPerStep = 0;
    int32_t m_fromStep = 0;
    std::vector<StepRow> m_steps;
    std::vector<Group> m_byStack;
    std::vector<Group> m_byModule;
};

}  // namespace memscope
