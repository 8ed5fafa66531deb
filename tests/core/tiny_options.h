#pragma once

#include "run/train_options.h"

// The tiny training configuration the core suites share: fast on 2 cores, still every module.
inline memscope::TrainOptions tinyTrainOptions() {
    memscope::TrainOptions o;
    o.preset = "custom";
    o.model.vocab_size = 64;
    o.model.hidden_dim = 32;
    o.model.n_layers = 2;
    o.model.n_heads = 4;
    o.model.n_kv_heads = 2;
    o.model.intermediate_dim = 64;
    o.batch_size = 2;
    o.seq_len = 16;
    o.num_steps = 3;
    o.threads = 1;
    return o;
}
