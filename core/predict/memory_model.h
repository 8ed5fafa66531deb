#pragma once

#include "predict/memory_prediction.h"
#include "run/train_options.h"

#include <string>

namespace memscope {

// Predicts the bytes Memscope's trainer allocates, step by step, without building a tensor.
//
// The model replays the trainer's tensor lifetimes op by op on a MemoryTape: what each op of
// the Tiny LLaMA forward creates, which of those autograd saves, the gradients and temporaries
// backward makes and frees, the lazily created AdamW state and the per-parameter temporaries of
// LibTorch's optimizer loop. On a CPU the allocator has no rounding or caching, so the
// prediction is meant to equal the measured peak; the accuracy benchmark checks it against real
// runs (tests/bench/bench_predict_accuracy.cpp).
class MemoryModel {
  public:
    struct Semantics {
        // PyTorch 2.x's zero_grad() frees gradients before each step; Memscope keeps them.
        bool grads_set_to_none = false;
        // LibTorch 2.x on a GPU runs sdpa with a flash / memory-efficient kernel (O(S) memory).
        bool sdpa_is_flash = false;
        // Whose autograd the replay follows: LibTorch 1.x keeps x.pow(2) of RMSNorm until
        // backward and repeats GQA's keys and values by index_select with saved indices; 2.x
        // frees the square right away and repeats by expand + clone. Default: the LibTorch
        // this build links (MEMSCOPE_LIBTORCH_MAJOR).
        int libtorch_major = defaultLibTorchMajor();
        static int defaultLibTorchMajor();
        // "LibTorch 2.x autograd" or "LibTorch 1.13 autograd", for reports.
        std::string autogradName() const;
    };

    // Data-parallel training as core/train/parallel_engine.h runs it: one of `ranks` processes,
    // DDP (zero_stage 0) or ZeRO 1-3, gradient buckets of bucket_bytes. options.batch_size is
    // the rank's micro batch. The prediction is one rank's: sharded parameters, gradients and
    // optimizer state, the flat buffers, the gathered blocks of ZeRO-3 and the buffers c10d's
    // Gloo backend allocates (all-gather output, reduce buckets) as temporaries.
    struct DataParallel {
        int ranks = 1;
        int zero_stage = 0;
        int64_t bucket_bytes = int64_t(25) << 20;
    };
    // Throws ConfigError naming the option for configurations that cannot be built.
    static MemoryPrediction predict(const TrainOptions& options);
    static MemoryPrediction predict(const TrainOptions& options, const Semantics& semantics);
    static MemoryPrediction predict(const TrainOptions& options, const Semantics& semantics,
                                    const DataParallel& parallel);
};

}  // namespace memscope
