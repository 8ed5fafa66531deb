#pragma once

#include "run/train_options.h"

#include <CLI/App.hpp>

#include <optional>
#include <string>

namespace memscope::cli {

// The training options shared by `train`, `record` and `sweep`, named like the workshop script
// (--batch-size, --hidden-dim, ...) and the CS336 script (--model-size, --context-length,
// --profile-type, --use-mixed-precision). Values the user gives override the chosen preset;
// everything else comes from the preset, or from --options FILE: a whole TrainOptions as JSON
// (TrainOptions::toJson, the run's "config"), which is how the GUI hands a run to the CLI.
class TrainOptionSet {
  public:
    void addTo(CLI::App& app);
    // Throws ConfigError naming the option when the combination is invalid.
    TrainOptions resolve() const;

  private:
    // TrainOptions from --options FILE; throws ConfigError naming the option and the file.
    TrainOptions readOptionsFile() const;

    std::string m_preset = "workshop-default";
    std::optional<std::string> m_optionsFile;
    std::optional<std::string> m_modelSize;
    std::optional<int64_t> m_hidden, m_layers, m_heads, m_kvHeads, m_intermediate, m_vocab,
        m_maxSeq, m_seq, m_batch;
    std::optional<int64_t> m_steps, m_warmup;
    std::optional<double> m_lr;
    std::optional<uint64_t> m_seed;
    std::optional<int> m_threads;
    std::optional<std::string> m_dtype, m_attention, m_checkpointing, m_profile, m_optimizer,
        m_device;
    std::optional<std::string> m_memoryLimit;
    bool m_mixedPrecision = false;
    bool m_tieFlag = false;
    bool m_untieFlag = false;
};

}  // namespace memscope::cli
