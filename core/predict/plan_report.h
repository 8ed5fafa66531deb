#pragma once

#include "predict/plan_result.h"

#include <string>

namespace memscope {

// A PlanResult as text for a terminal (verdict, breakdown, time, strategies, bottlenecks,
// recommendations, assumptions), as CSV (one row per section entry) or JSON.
class PlanReport {
  public:
    enum class Format { Text, Json, Csv };

    static std::string render(const PlanResult& result, Format format);
    static std::string text(const PlanResult& result);
    static std::string csv(const PlanResult& result);
    static std::string json(const PlanResult& result);
    // By the output file's suffix: .json, .csv, anything else text.
    static Format formatForPath(const std::string& path);
};

}  // namespace memscope
