#include "run/parallel_rules.h"

#include "model/config_error.h"
#include "model/train_option_table.h"

#include <string>

namespace memscope {

void ParallelRules::check(const TrainOptions& options, ParallelMode mode, int world) {
    if (world < 1) {
        throw ConfigError("--nproc", "must be at least 1, not " + std::to_string(world));
    }
    if (world == 1 && mode == ParallelMode::None) {
        return;  // a single process: nothing of these rules applies
    }
    const bool cuda = options.device.rfind("cuda", 0) == 0;
    if (options.device != "cpu" && !cuda) {
        const std::string device = TrainOptionTable::flag("device");
        throw ConfigError(device,
                          "a run of several processes trains on c10d's Gloo backend "
                          "for the CPU and NCCL for CUDA devices: " +
                              device + " " + options.device + " is not supported");
    }
    if (!options.training() && mode != ParallelMode::None && mode != ParallelMode::Ddp) {
        throw ConfigError("--parallel", toString(mode) + " shards training state; it needs " +
                                            TrainOptionTable::argument("profile_type", "training") +
                                            " (or --parallel ddp)");
    }
}

void ParallelRules::checkBucket(double mib) {
    if (!(mib > 0)) {
        throw ConfigError("--bucket-mib", "must be positive");
    }
}

}  // namespace memscope
