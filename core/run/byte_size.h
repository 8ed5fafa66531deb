#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace memscope {

// "512MiB", "1.5GiB", "800MB", "1048576" -> bytes (binary units for KiB/MiB/GiB/TiB, decimal
// for KB/MB/GB/TB, case-insensitive, optional space). nullopt when the text is not a size.
std::optional<int64_t> parseByteSize(const std::string& text);

}  // namespace memscope
