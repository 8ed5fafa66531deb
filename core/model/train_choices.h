#pragma once

#include <optional>
#include <string>
#include <vector>

namespace memscope {

// The named choices of a run's options (TrainOptions): their values, the names toString spells
// and parse accepts (with a few aliases), and the names in declaration order (the CLI's choices,
// the forms' items, TrainOptionTable's rows).
enum class Dtype { Float32, BFloat16, Float16 };
enum class Checkpointing { None, PerBlock };
enum class ProfileType { Training, Forward };
enum class OptimizerKind { AdamW, Sgd };

std::string toString(Dtype v);
std::string toString(Checkpointing v);
std::string toString(ProfileType v);
std::string toString(OptimizerKind v);
std::optional<Dtype> parseDtype(const std::string& text);
std::optional<Checkpointing> parseCheckpointing(const std::string& text);
std::optional<ProfileType> parseProfileType(const std::string& text);
std::optional<OptimizerKind> parseOptimizerKind(const std::string& text);
// Each enum's names, as toString spells them, in declaration order: the CLI's choices and the
// GUI's items.
std::vector<std::string> dtypeNames();
std::vector<std::string> checkpointingNames();
std::vector<std::string> profileTypeNames();
std::vector<std::string> optimizerKindNames();

}  // namespace memscope
