#pragma once

#include "run/train_options.h"

#include <CLI/App.hpp>

#include <map>
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
    // What the user gave for each of TrainOptionTable's rows (but the preset), by key, as
    // TrainOptions::parseValue read it.
    std::map<std::string, std::optional<std::string>> m_given;
    // A Flag row's two spellings, by key: --tie-embeddings and --no-tie-embeddings.
    std::map<std::string, bool> m_switchedOn;
    std::map<std::string, bool> m_switchedOff;
    bool m_mixedPrecision = false;
};

}  // namespace memscope::cli
