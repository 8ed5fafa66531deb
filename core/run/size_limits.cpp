#include "run/size_limits.h"

#include "model/config_error.h"
#include "model/train_option_table.h"

#include <cstdint>
#include <sstream>

namespace memscope {

void SizeLimits::check(const TrainOptions& o) {
    // Byte counts are 64-bit everywhere (the planner's tape, the recorder, the run file); a
    // tensor of more than 2^60 bytes (1 EiB) cannot exist, and sizes that ask for one would
    // overflow those counts. Products in double so that the check itself cannot overflow.
    constexpr double kMaxBytes = double(int64_t(1) << 60);
    const double b = double(o.batch_size), s = double(o.seq_len), h = double(o.model.hidden_dim),
                 f = double(o.model.intermediate_dim), v = double(o.model.vocab_size),
                 l = double(o.model.n_layers), heads = double(o.model.n_heads);
    auto refuse = [&](const char* key, const char* what, double bytes) {
        if (bytes > kMaxBytes) {
            std::ostringstream text;
            text << "is too large: " << what << " would take " << bytes
                 << " bytes, more than 2^60 (1 EiB)";
            throw ConfigError(TrainOptionTable::flag(key), text.str());
        }
    };
    refuse("batch_size", "the logits (batch x sequence x vocabulary x 4 bytes)", b * s * v * 4);
    refuse("batch_size", "the attention scores (batch x heads x sequence^2 x 4 bytes)",
           b * heads * s * s * 4);
    refuse("intermediate_dim", "a feed-forward activation (batch x sequence x intermediate)",
           b * s * f * 4);
    refuse("hidden_dim", "the model states (parameters, gradients, optimizer state)",
           (2 * v * h + l * (4 * h * h + 3 * h * f)) * 16);
}

}  // namespace memscope
