#pragma once

#include "run/parallel_mode.h"
#include "run/train_options.h"

namespace memscope {

// The rules a run of several processes obeys, written once for memscope-cli (ParallelOptionSet)
// and the GUI's run panel, so that both refuse the same runs with the same words. Each check
// throws ConfigError naming the option at fault.
class ParallelRules {
  public:
    // `world` ranks (at least 1) with strategy `mode` (None: DDP when world > 1) for `options`:
    // the CPU trains on c10d's Gloo backend and CUDA devices on NCCL, so no other device; the
    // ZeRO stages shard training state, so they need the training profile.
    static void check(const TrainOptions& options, ParallelMode mode, int world);
    // A gradient bucket of `mib` MiB (positive).
    static void checkBucket(double mib);
};

}  // namespace memscope
