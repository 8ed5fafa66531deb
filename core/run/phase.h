#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace memscope {

// Where in a training step an event happened.
enum class Phase : uint8_t { Init = 0, Forward = 1, Backward = 2, Optimizer = 3, Other = 4 };

inline constexpr int kPhaseCount = 5;

std::string toString(Phase phase);
std::optional<Phase> parsePhase(const std::string& text);

}  // namespace memscope
