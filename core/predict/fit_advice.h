#pragma once

#include "run/train_options.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace memscope {

// The smallest single changes that make a run of the built-in trainer fit a memory limit
// (issue 41, "advice that is checked"), each with MemoryModel's predicted peak and its headroom:
//   activation checkpointing per block     the same math, recomputed in backward
//   memory-efficient attention             the same function, O(S) memory
//   bf16                                   half the bytes of every tensor (different numerics)
//   the largest batch size that fits       fewer samples per step
//   the longest sequence length that fits  shorter contexts
//   ZeRO stage 1-3 over N ranks (2-8)      the fewest ranks and the lowest stage that fit, each
//                                          rank keeping the run's micro batch
// In that order (the ones that change least of what the run computes first), those that fit
// only. The limit is on allocated bytes, the figure --device-memory-limit caps; the planner is
// exact for the CPU trainer (MemoryModel), so "fits" means predicted peak <= limit.
class FitAdvice {
  public:
    struct Suggestion {
        std::string kind;      // "checkpointing", "attention", "dtype", "batch_size",
                               // "seq_len", "zero"
        std::string change;    // "--checkpointing per-block", "--nproc 2 --parallel zero1"
        std::string summary;   // "activation checkpointing per block"
        TrainOptions options;  // the run's options with the change
        int ranks = 1;         // > 1: a ZeRO suggestion (options.batch_size per rank)
        int zero_stage = 0;
        int64_t predicted_peak = 0;
        int64_t headroom = 0;  // limit - predicted_peak
        bool single_process() const { return ranks == 1; }
    };

    // The run's own predicted peak (for "needs X, has Y") and the suggestions that fit `limit`.
    // Throws ConfigError for options the planner cannot model.
    static int64_t predictedPeak(const TrainOptions& options);
    static std::vector<Suggestion> suggest(const TrainOptions& options, int64_t limit);

    // The first single-process suggestion (what `record --check-advice` reruns), or nullptr.
    static const Suggestion* topSingleProcess(const std::vector<Suggestion>& suggestions);

    // Lines for a terminal or a report: "  1. --checkpointing per-block  (activation ...):
    // predicted peak 61.2 MiB, headroom 38.8 MiB".
    static std::string toText(const std::vector<Suggestion>& suggestions, int64_t limit);
    static nlohmann::json toJson(const std::vector<Suggestion>& suggestions, int64_t limit);
};

}  // namespace memscope
