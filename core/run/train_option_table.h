#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace memscope {

// The training options' one table (issue 30): for each whole-number option of TrainOptions its
// key (the JSON key of TrainOptions::toJson and the Run panel field's object name), its
// memscope-cli flag and the values it may take. memscope-cli checks its flags against these
// ranges, and the Run panel and the Planner size their fields with them, so that a value one
// accepts the others accept too. The enum-valued options list their names beside their types
// (dtypeNames(), attentionKindNames(), ...).
struct TrainOptionSpec {
    const char* key;   // "batch_size"
    const char* flag;  // "--batch-size"
    int64_t min;
    int64_t max;
};

class TrainOptionTable {
  public:
    static const std::vector<TrainOptionSpec>& integers();
    // The entry of `key`; throws std::logic_error naming it when there is none (the keys are
    // the code's own, never a user's).
    static const TrainOptionSpec& integer(std::string_view key);
};

}  // namespace memscope
