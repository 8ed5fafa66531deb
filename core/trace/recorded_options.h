#pragma once

#include "run/train_options.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>

namespace memscope {

struct RunMetadata;

// The training options a run was recorded with, read from the configuration it stores
// (RunMetadata::config, TrainOptions::toJson's keys): the one typed reading of it, so that no
// reader names the keys or restates their defaults (issue 30). A known preset fills what the
// configuration leaves out (an import given a partial --config), then the keys it has; nullopt
// when there is none (an import without --config), when it is a Python program's
// ({"program": ...}) or when it is not a training configuration (a key of the wrong type).
std::optional<TrainOptions> recordedOptions(const RunMetadata& meta);
std::optional<TrainOptions> recordedOptions(const nlohmann::json& config);

}  // namespace memscope
