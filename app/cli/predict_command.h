#pragma once

#include "train_option_set.h"

#include <CLI/App.hpp>

#include <optional>
#include <string>

namespace memscope::cli {

// `memscope-cli predict`: memory, fit and time before a run. Three ways to describe it:
// memprof-training's form (`predict transformer 13 32 --sequence-length 4096 --gpu-type
// "NVIDIA H100" --gpus 4 --strategy tensor_parallel --bottlenecks --max-batch-size`), a YAML
// configuration (--config FILE) or Memscope's own model options (--preset, --hidden-dim, ...).
// Prints text, or writes text / JSON / CSV by the suffix of --output.
class PredictCommand {
  public:
    explicit PredictCommand(CLI::App& parent);

    bool selected() const { return m_app->parsed(); }
    // Exit status: 0 done (whether or not the run fits), 1 cannot write, 2 bad input.
    // In predict_command_run.cpp (memscope_cli: LibTorch); the options are read without it.
    int run();
    // `predict --fit SWEEPDIR --at d=2560,L=32,s=512,b=4`: a user's program predicted from the
    // fit of its sweep (memscope-cli sweep --python; ProgramMemoryFit). Needs no LibTorch
    // (predict_command_fit.cpp). Exit status: 0 done, 1 the sweep cannot be read or fitted, 2
    // bad input (--at outside what the fit can say included).
    bool usesFit() const { return !m_fit.empty(); }
    int runFit();

  private:
    CLI::App* m_app;
    TrainOptionSet m_options;
    std::optional<std::string> m_modelType;
    std::optional<double> m_billions;
    std::optional<int64_t> m_batch;
    std::optional<int64_t> m_sequence;
    std::string m_config;
    std::string m_output;
    std::string m_format = "text";
    std::string m_deviceDb;
    std::optional<std::string> m_gpuType;
    std::optional<int> m_gpus;
    std::optional<std::string> m_strategy;
    std::optional<int> m_dp, m_tp, m_pp, m_zero, m_microBatches, m_gpusPerNode;
    std::optional<std::string> m_interconnect;
    std::optional<double> m_mfu, m_trainTokens;
    std::string m_calibrate;
    bool m_bottlenecks = false;
    bool m_maxBatch = false;
    bool m_gradsSetToNone = false;
    bool m_verbose = false;
    std::string m_fit;
    std::string m_at;
    std::string m_check;
};

}  // namespace memscope::cli
