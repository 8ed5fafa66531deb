#pragma once

#include "run/train_options.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace memscope {

// One run of a sweep: the full options and a short name for its run file and for tables.
struct SweepPoint {
    TrainOptions options;
    std::string label;  // "workshop-default-bs8-seq128-fp32-eager-none-training"
};

// What a scaling sweep varies. Every list that is empty takes its one value from `base`.
//   Grid: every combination of the lists (batch x seq x preset x dtype x ...).
//   Axes: batch sizes at the base sequence length and sequence lengths at the base batch size
//         (the workshop's exercise: one problem dimension at a time), each crossed with the
//         other lists; the shared base point runs once.
// With presets, each point starts from the preset's model, batch and sequence length (the batch
// and sequence lists still override them); steps, threads, optimizer and the rest come from base.
struct SweepSpec {
    enum class Mode { Grid, Axes };

    TrainOptions base;
    std::vector<int64_t> batch_sizes;
    std::vector<int64_t> seq_lens;
    std::vector<std::string> presets;
    std::vector<Dtype> dtypes;
    std::vector<AttentionKind> attentions;
    std::vector<Checkpointing> checkpointing;
    std::vector<ProfileType> profiles;
    int64_t steps = 0;           // timed steps per point; 0: base.num_steps
    int64_t capacity_bytes = 0;  // emulated device capacity per point; 0: none
    Mode mode = Mode::Grid;

    // The points in run order (validated: throws ConfigError naming the field and the point).
    std::vector<SweepPoint> points() const;

    // Parsing of the list syntax the CLI takes ("4,8,16"); throw ConfigError naming `field`.
    // Sizes are values of the whole-number training option `option` (its TrainOptionTable key:
    // "batch_size", "seq_len", "num_steps"), in that option's range.
    static std::vector<int64_t> parseSizes(const std::string& field, const std::string& text,
                                           std::string_view option);
    static std::vector<Dtype> parseDtypes(const std::string& field, const std::string& text);
    static std::vector<AttentionKind> parseAttentions(const std::string& field,
                                                      const std::string& text);
    // "off"/"none" and "on"/"per-block"/"block".
    static std::vector<Checkpointing> parseCheckpointing(const std::string& field,
                                                         const std::string& text);
    static std::vector<ProfileType> parseProfiles(const std::string& field,
                                                  const std::string& text);
    static std::vector<std::string> parsePresets(const std::string& field, const std::string& text);
    static std::vector<std::string> splitList(const std::string& text);

    // The preset's name when the options' model shape is exactly the preset's (the maximum
    // sequence length aside), else "custom (hidden 32, 1 layer)".
    static std::string modelName(const TrainOptions& options);

    // A YAML sweep file: keys batch_sizes, seq_lens, presets, dtypes, attention, checkpointing,
    // profile_types (lists or comma-separated strings), steps, capacity ("1GiB"), mode
    // (grid/axes). Fields it sets replace this spec's; unknown keys and bad values throw
    // ConfigError naming the file and the key.
    void mergeYamlFile(const std::string& path);
    void mergeYaml(const std::string& text, const std::string& source);

    // The lists (not the base) as JSON, for the sweep's result file and the GUI.
    nlohmann::json toJson() const;
    static SweepSpec fromJson(const nlohmann::json& json);
};

std::string toString(SweepSpec::Mode mode);

}  // namespace memscope
