#include "trace/recorded_options.h"

#include "model/error.h"
#include "model/preset.h"
#include "trace/trace.h"

#include <nlohmann/json.hpp>

namespace memscope {

std::optional<TrainOptions> recordedOptions(const RunMetadata& meta) {
    return recordedOptions(meta.config);
}

std::optional<TrainOptions> recordedOptions(const nlohmann::json& config) {
    if (!config.is_object() || config.empty() || config.contains("program")) {
        return std::nullopt;
    }
    try {
        TrainOptions base;
        base.preset = "custom";  // the model is no preset's unless the configuration says so
        const auto preset = config.find("preset");
        if (preset != config.end() && preset->is_string() &&
            Preset::find(preset->get<std::string>()) != nullptr) {
            base = TrainOptions::fromPreset(preset->get<std::string>());
        }
        return TrainOptions::fromJson(config, base);
    } catch (const Error&) {
        return std::nullopt;  // a key of the wrong type or an unknown name
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;
    }
}

}  // namespace memscope
