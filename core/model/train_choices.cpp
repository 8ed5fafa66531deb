#include "model/train_choices.h"

#include <utility>

namespace memscope {

namespace {

template <typename Enum, typename Names>
std::optional<Enum> parseByName(const std::string& text, const Names& names) {
    for (const auto& [value, name] : names) {
        if (text == name) {
            return value;
        }
    }
    return std::nullopt;
}

const std::vector<std::pair<Dtype, std::string>> kDtypes{
    {Dtype::Float32, "fp32"}, {Dtype::BFloat16, "bf16"}, {Dtype::Float16, "fp16"}};
const std::vector<std::pair<Checkpointing, std::string>> kCheckpointing{
    {Checkpointing::None, "none"}, {Checkpointing::PerBlock, "per-block"}};
const std::vector<std::pair<ProfileType, std::string>> kProfiles{
    {ProfileType::Training, "training"}, {ProfileType::Forward, "forward"}};
const std::vector<std::pair<OptimizerKind, std::string>> kOptimizers{
    {OptimizerKind::AdamW, "adamw"}, {OptimizerKind::Sgd, "sgd"}};

template <typename Enum>
std::string nameOf(Enum v, const std::vector<std::pair<Enum, std::string>>& names) {
    for (const auto& [value, name] : names) {
        if (value == v) {
            return name;
        }
    }
    return names.front().second;
}

template <typename Enum>
std::vector<std::string> namesOf(const std::vector<std::pair<Enum, std::string>>& names) {
    std::vector<std::string> out;
    for (const auto& entry : names) {
        out.push_back(entry.second);
    }
    return out;
}

}  // namespace

std::vector<std::string> dtypeNames() {
    return namesOf(kDtypes);
}
std::vector<std::string> checkpointingNames() {
    return namesOf(kCheckpointing);
}
std::vector<std::string> profileTypeNames() {
    return namesOf(kProfiles);
}
std::vector<std::string> optimizerKindNames() {
    return namesOf(kOptimizers);
}

std::string toString(Dtype v) {
    return nameOf(v, kDtypes);
}
std::string toString(Checkpointing v) {
    return nameOf(v, kCheckpointing);
}
std::string toString(ProfileType v) {
    return nameOf(v, kProfiles);
}
std::string toString(OptimizerKind v) {
    return nameOf(v, kOptimizers);
}

std::optional<Dtype> parseDtype(const std::string& text) {
    if (text == "float32" || text == "fp32")
        return Dtype::Float32;
    if (text == "bfloat16" || text == "bf16")
        return Dtype::BFloat16;
    if (text == "float16" || text == "fp16" || text == "half")
        return Dtype::Float16;
    return std::nullopt;
}
std::optional<Checkpointing> parseCheckpointing(const std::string& text) {
    if (text == "block" || text == "per_block")
        return Checkpointing::PerBlock;
    return parseByName<Checkpointing>(text, kCheckpointing);
}
std::optional<ProfileType> parseProfileType(const std::string& text) {
    // "forward" is inference (torch.no_grad), not a forward with autograd on: accepted by that
    // name too.
    if (text == "inference" || text == "no_grad" || text == "no-grad")
        return ProfileType::Forward;
    return parseByName<ProfileType>(text, kProfiles);
}
std::optional<OptimizerKind> parseOptimizerKind(const std::string& text) {
    return parseByName<OptimizerKind>(text, kOptimizers);
}

}  // namespace memscope
