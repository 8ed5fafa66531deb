#pragma once

#include "train_option_set.h"

#include <CLI/App.hpp>

#include <optional>
#include <string>
#include <vector>

namespace memscope::cli {

// `memscope-cli sweep --batch-sizes 4,8,16 --seq-lens 64,128 --attention eager,memory-efficient
// --out DIR`: runs every point of a scaling sweep one after another, recording each into
// DIR/<point>.memscope and the figures into DIR/sweep.json, then prints the points, the seed
// tables asked for and the fitted exponents. The base options are `train`'s; --attention and
// --checkpointing take lists here.
class SweepCommand {
  public:
    explicit SweepCommand(CLI::App& parent);

    bool selected() const { return m_app->parsed(); }
    // Exit status: 0 done (out-of-memory points included), 1 a point failed or a file could not
    // be written, 2 bad options, 130 interrupted (finished points kept).
    // In sweep_command_run.cpp (memscope_cli: LibTorch); the options are read without it.
    int run();

  private:
    CLI::App* m_app;
    TrainOptionSet m_options;
    std::optional<std::string> m_batchSizes, m_seqLens, m_presets, m_dtypes, m_attention,
        m_checkpointing, m_profiles, m_capacity, m_mode, m_config;
    std::optional<int64_t> m_steps;
    bool m_axes = false;
    std::string m_out = "sweep";
    std::vector<std::string> m_tables;
    std::string m_csv;
    std::string m_markdown;
};

}  // namespace memscope::cli
