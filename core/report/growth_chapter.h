#pragma once

#include "trace/trace.h"

#include <string>
#include <utility>
#include <vector>

namespace memscope {

// The report's chapter on memory that grows every step (issue 53): per named run, StepGrowth's
// verdict; for each run that grows or grew, the places that keep what their steps made (bytes
// and allocations a step, the steps, where it was made and from which line of the program) and
// the end-of-step floors. "" when no run has three complete steps to judge.
class GrowthChapter {
  public:
    static std::string markdown(const std::vector<std::pair<std::string, const Trace*>>& runs,
                                size_t top = 5);
};

}  // namespace memscope
