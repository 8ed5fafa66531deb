#include "train_option_set.h"

#include "cli_support.h"
#include "model/config_error.h"
#include "model/preset.h"
#include "model/train_option_table.h"
#include "run/text_format.h"

#include <nlohmann/json.hpp>

#include <CLI/Validators.hpp>
#if __has_include(<CLI/ExtraValidators.hpp>)
#include <CLI/ExtraValidators.hpp>  // CLI11 2.6 moved IsMember here
#endif

#include <fstream>
#include <sstream>
#include <string_view>

namespace memscope::cli {

namespace {

// A row's check at parse time: its value must read (TrainOptions::parseValue), so that a wrong
// value is refused with the flag's own message before anything runs.
CLI::Validator checkOf(const TrainOptionRow& row) {
    std::string description;
    if (row.type == OptionType::Integer) {
        description = "[" + std::to_string(row.min) + " - " + std::to_string(row.max) + "]";
    } else if (row.type == OptionType::Choice && row.choices != nullptr) {
        for (const auto& name : row.choices()) {
            description += (description.empty() ? "{" : ", ") + name;
        }
        description += "}";
    }
    return CLI::Validator(
        [&row](std::string& value) -> std::string {
            try {
                TrainOptions::parseValue(row, value);
                return {};
            } catch (const ConfigError& e) {
                return e.reason();  // CLI11 puts the option's name in front itself
            }
        },
        description);
}

// "--hidden-dim,--d-model"
std::string spellings(const TrainOptionRow& row) {
    std::string names = row.flag;
    for (const auto& alias : row.aliases) {
        names += "," + alias;
    }
    return names;
}

}  // namespace

void TrainOptionSet::addTo(CLI::App& app) {
    const TrainOptionRow& preset_row = TrainOptionTable::row("preset");
    auto* preset = app.add_option(preset_row.flag, m_preset, preset_row.help)
                       ->check(checkOf(preset_row))
                       ->capture_default_str();
    auto* model_size = app.add_option("--model-size", m_modelSize,
                                      "CS336 model size (" + joinedNames(Preset::cs336Names()) +
                                          "); same as " + std::string(preset_row.flag))
                           ->check(CLI::IsMember(Preset::cs336Names()));
    app.add_option("--options", m_optionsFile,
                   "Every option from a JSON file (a run's config, as `info --json` prints it); "
                   "options given beside it override its values")
        ->excludes(preset)
        ->excludes(model_size);
    for (const TrainOptionRow& row : TrainOptionTable::rows()) {
        if (std::string_view(row.key) == "preset") {
            continue;
        }
        if (row.type == OptionType::Flag) {
            auto* on = app.add_flag(spellings(row), m_switchedOn[row.key], row.help);
            if (row.negation != nullptr) {
                auto* off = app.add_flag(row.negation, m_switchedOff[row.key],
                                         std::string("Not ") + row.flag);
                on->excludes(off);
            }
            continue;
        }
        const char* type = row.type == OptionType::Integer ? "INT"
                           : row.type == OptionType::Real  ? "FLOAT"
                           : row.type == OptionType::Bytes ? "SIZE"
                                                           : "TEXT";
        app.add_option(spellings(row), m_given[row.key], row.help)
            ->type_name(type)
            ->check(checkOf(row));
        if (std::string_view(row.key) == "dtype") {
            app.add_flag("--use-amp,--use-mixed-precision", m_mixedPrecision,
                         "Same as " + std::string(row.flag) + " bf16");
        }
    }
}

TrainOptions TrainOptionSet::readOptionsFile() const {
    return optionsFromJson("--options", *m_optionsFile,
                           readJsonObject("--options", *m_optionsFile));
}

TrainOptions TrainOptionSet::resolve() const {
    const TrainOptions base = m_optionsFile
                                  ? readOptionsFile()
                                  : TrainOptions::fromPreset(m_modelSize.value_or(m_preset));
    nlohmann::json changes = nlohmann::json::object();
    for (const auto& [key, text] : m_given) {
        if (text) {
            changes[key] = TrainOptions::parseValue(TrainOptionTable::row(key), *text);
        }
    }
    for (const auto& [key, set] : m_switchedOn) {
        if (set) {
            changes[key] = true;
        }
    }
    for (const auto& [key, set] : m_switchedOff) {
        if (set) {
            changes[key] = false;  // the two exclude each other
        }
    }
    if (m_mixedPrecision) {
        const auto& dtype = TrainOptionTable::row("dtype");
        const auto bf16 = TrainOptions::parseValue(dtype, "bf16");
        if (changes.contains(dtype.key) && changes[dtype.key] != bf16 &&
            changes[dtype.key] != TrainOptions::parseValue(dtype, "fp16")) {
            throw ConfigError("--use-mixed-precision", "contradicts " + std::string(dtype.flag) +
                                                           " " +
                                                           changes[dtype.key].get<std::string>());
        }
        if (!changes.contains(dtype.key)) {
            changes[dtype.key] = bf16;
        }
    }
    TrainOptions o = TrainOptions::withChanges(changes, base);
    o.validate();
    return o;
}

}  // namespace memscope::cli
