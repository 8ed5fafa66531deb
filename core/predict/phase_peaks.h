#pragma once

#include "trace/category.h"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <string>

namespace memscope {

// The memory peaks of one recorded run that ProgramMemoryFit fits (measured by
// analysis/phase_peak_profile.h). Keys name a step and a phase: "first/forward" (step 1),
// "steady/backward" (the last step of a run with more than one), ... "optimizer".
// Beside each phase's peak, the peaks of its regions: the highest live total right after an
// allocation made in one place of the program ("last:attn.q_proj|aten::mm": the last layer's
// q_proj, its mm; "after:lm_head|...", "before:-|..." outside the model), with the layer's
// number replaced by its position (first, last; middle layers are no region). A phase's peak is
// the highest of its regions' peaks, and each region's peak grows with the sizes in one way, so
// the fit predicts every region and takes the highest: where the peak lies may move with the
// sizes (the last layer's attention at long contexts, the logits at large vocabularies).
struct PhasePeaks {
    struct Peak {
        int64_t bytes = 0;
        std::array<int64_t, kCategoryCount> by_category{};  // live at that moment
    };

    std::map<std::string, Peak> phases;                          // "first/forward"
    std::map<std::string, std::map<std::string, Peak>> regions;  // phase key -> region
    int64_t layers = 0;  // numbered layers the run's modules showed (0: none)
    int64_t steps = 0;   // optimizer steps recorded

    nlohmann::json toJson() const;
    // Throws InputError naming the field.
    static PhasePeaks fromJson(const nlohmann::json& json);
};

}  // namespace memscope
