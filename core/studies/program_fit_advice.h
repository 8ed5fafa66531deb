#pragma once

#include "predict/program_memory_fit.h"
#include "studies/program_sweep.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace memscope {

// What to change so that a Python program that ran out of memory fits, predicted by a fit of a
// sweep of that program (issue 44 item 5, the advice of issue 41 for programs Memscope did not
// write). The run's sizes are read from its recorded command line where the sweep's placeholders
// stand (ProgramSweepSpec::sizesIn); then, for each size a user turns down to fit, batch (b)
// and then context (s), the largest value below the run's whose predicted peak fits the limit.
//
// "Fits" leaves headroom for the fit's own error: the predicted peak plus the largest relative
// error the fit made on the sweep points it left out (at least 0.5%) must stay under the limit,
// the figure --device-memory-limit caps (allocated bytes). Each suggestion carries the program's
// command line with the change, which record --check-advice reruns.
class ProgramFitAdvice {
  public:
    using Sizes = std::map<std::string, int64_t>;
    struct Suggestion {
        std::string size;                  // "b"
        int64_t from = 0;                  // the run's value
        int64_t to = 0;                    // the suggested one
        Sizes sizes;                       // the run's sizes with the change
        std::vector<std::string> command;  // the run's SCRIPT ARGS... with the change
        int64_t predicted_peak = 0;
        int64_t headroom = 0;  // limit - predicted_peak
    };
    struct Advice {
        Sizes sizes;                 // the run's, with the sizes the sweep fixed
        int64_t predicted_peak = 0;  // at the run's sizes
        int64_t limit = 0;
        double margin = 0;  // the relative headroom demanded (the fit's held-out error)
        std::vector<Suggestion> suggestions;
        std::vector<std::string> notes;  // why a size has no suggestion
    };

    // The run's command line as recorded (the run's meta.config["program"]: "script" or
    // "module", and "argv"); throws InputError when the run is not a Python program's.
    static std::vector<std::string> commandOf(const nlohmann::json& config);
    // Throws InputError when the command is not a point of the sweep's program, or the fit
    // cannot say the run's sizes. A limit of 0: the prediction at the run's sizes only.
    static Advice advise(const ProgramSweep& sweep, const ProgramMemoryFit& fit,
                         const std::vector<std::string>& command, int64_t limit);

    // "The fit of SWEEP predicts X at b=8, s=64 (limit Y): it does not fit.\n  1. b=5 (was 8):
    // predicted peak ..., headroom ...\n"
    static std::string toText(const Advice& advice);
    static nlohmann::json toJson(const Advice& advice);
};

}  // namespace memscope
