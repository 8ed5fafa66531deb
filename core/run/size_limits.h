#pragma once

#include "run/train_options.h"

namespace memscope {

// Sizes whose tensors cannot exist. Byte counts are 64-bit everywhere (the planner's tape, the
// recorder, the run file); a model, batch or sequence whose tensors would need more than 2^60
// bytes (1 EiB) would overflow them (the plan request fuzzer found a batch of 2^63 - 1).
class SizeLimits {
  public:
    // Throws ConfigError naming the option's flag (batch size, intermediate or hidden size).
    static void check(const TrainOptions& options);
};

}  // namespace memscope
