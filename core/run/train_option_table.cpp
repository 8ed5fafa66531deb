#include "run/train_option_table.h"

#include <limits>
#include <stdexcept>

namespace memscope {

const std::vector<TrainOptionSpec>& TrainOptionTable::integers() {
    // Past these, tensors stop fitting any machine long before (SizeLimits guards the bytes).
    static const std::vector<TrainOptionSpec> table{
        {"hidden_dim", "--hidden-dim", 1, 65536},
        {"num_layers", "--num-layers", 1, 1024},
        {"num_heads", "--num-heads", 1, 1024},
        {"num_kv_heads", "--num-kv-heads", 1, 1024},
        {"intermediate_dim", "--intermediate-dim", 1, 1 << 20},
        {"vocab_size", "--vocab-size", 2, 1 << 22},
        {"max_seq_len", "--max-seq-len", 1, 1 << 20},
        {"batch_size", "--batch-size", 1, 1 << 16},
        {"seq_len", "--seq-len", 1, 1 << 20},
        {"num_steps", "--num-steps", 1, 1000000},
        {"warmup_steps", "--warmup-steps", 0, 1000000},
        {"seed", "--seed", 0, std::numeric_limits<int32_t>::max()},
        {"threads", "--threads", 0, 1024},
    };
    return table;
}

const TrainOptionSpec& TrainOptionTable::integer(std::string_view key) {
    for (const TrainOptionSpec& spec : integers()) {
        if (key == spec.key) {
            return spec;
        }
    }
    throw std::logic_error("no training option " + std::string(key));
}

}  // namespace memscope
