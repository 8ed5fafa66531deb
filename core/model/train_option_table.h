#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace memscope {

// What kind of value a training option takes.
enum class OptionType {
    Integer,  // a whole number in [min, max]
    Real,     // a number above real_min (learning rate, ...)
    Flag,     // on or off
    Choice,   // one of choices() (aliases the option's parser knows are accepted too)
    Text,     // free text (the device: cpu, cuda, cuda:N)
    Bytes,    // a size with a unit (512MiB); 0: none
};

// Where a form shows an option (its group box), or not at all.
enum class FormGroup { None, Model, Run, Numerics, Device };

// One training option, described once (issue 42). Everything that names an option takes it
// from here: memscope-cli's flags, their help and checks (app/cli/train_option_set.cpp), the run
// configuration's JSON (TrainOptions::toJson and fromJson, keyed by `key`), the planner's YAML
// (`planner_name`), sweep axes (`sweep`), error messages (flag()) and the options form the Run
// panel and the Planner page share (widgets/common/train_option_fields.h): its fields, labels,
// tooltips, choice texts and which field waits on which.
struct TrainOptionRow {
    const char* key = "";              // JSON key of TrainOptions; the form field's object name
    const char* flag = "";             // memscope-cli's spelling: "--hidden-dim"
    std::vector<std::string> aliases;  // other spellings of the flag (the CS336 script's)
    const char* negation = nullptr;    // Flag: the spelling that turns it off
    OptionType type = OptionType::Integer;
    int64_t min = 0;  // Integer, Bytes
    int64_t max = 0;
    double real_min = 0;     // Real: values must be above it
    double real_max = 0;     // ... and at most this
    const char* label = "";  // the form's label, with its mnemonic ("&Hidden size:")
    const char* help = "";   // the CLI's help line
    // A form's tooltip (translated; the option's flags follow it, or stand where it says %1);
    // empty: the help line.
    const char* tip = "";
    const char* planner_name = nullptr;  // the planner's YAML name (model section), or none
    bool sweep = false;  // memscope-cli sweep (SweepSpec) takes it: an axis, or steps per point
    FormGroup run_panel = FormGroup::None;
    FormGroup planner_page = FormGroup::None;
    std::vector<std::string> (*choices)() = nullptr;  // Choice: its names, in order
    // Choice: how a form shows some of its names ("bf16" as "bf16 (autocast)"; translated); a
    // name without one shows as itself.
    std::vector<std::pair<const char*, const char*>> choice_texts;
    // What no value (0) means, as a form says it ("no limit"; translated), or none.
    const char* zero_text = nullptr;
    // A form enables the field only while option `needs_key` has the value `needs_value` (the
    // optimizer only for training), or always.
    const char* needs_key = nullptr;
    const char* needs_value = nullptr;

    // The one check of a value's range, wherever the value comes from: a flag, a form field,
    // the JSON of --options or a run's configuration, the planner's YAML, a sweep list. Throws
    // ConfigError naming the flag, the range and the value ("--batch-size: must be between 1
    // and 65536, got 100000"); a caller that names the value another way (a JSON field, a YAML
    // key) keeps its reason(). Integer and Bytes rows check whole numbers, Real rows numbers
    // (a whole number checks as one); a row of another type has no range.
    void checkRange(int64_t value) const;
    void checkRange(double value) const;
};

class TrainOptionTable {
  public:
    // Every option, in the order the forms and the CLI's help list them.
    static const std::vector<TrainOptionRow>& rows();
    // The row of `key`; throws std::logic_error naming it when there is none (the keys are the
    // code's own, never a user's).
    static const TrainOptionRow& row(std::string_view key);
    // The row a user's word names: its key, flag (with or without the dashes), an alias, its
    // negation or its planner name; nullptr when none does.
    static const TrainOptionRow* find(std::string_view name);
    // The flag of `key`, for messages and command lines ("--batch-size").
    static std::string flag(std::string_view key);
    // "--batch-size 4": the flag of `key` with a value, for command lines.
    static std::string argument(std::string_view key, const std::string& value);
};

}  // namespace memscope
