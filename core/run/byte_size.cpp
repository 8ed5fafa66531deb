#include "run/byte_size.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

namespace memscope {

std::optional<int64_t> parseByteSize(const std::string& text) {
    const char* begin = text.c_str();
    char* end = nullptr;
    const double value = std::strtod(begin, &end);
    if (end == begin || !std::isfinite(value) || value < 0) {
        return std::nullopt;
    }
    // To the string's end, not the first NUL: "1\0GiB" is not a size (found by fuzzing).
    std::string unit;
    for (size_t i = static_cast<size_t>(end - begin); i < text.size(); ++i) {
        if (text[i] != ' ') {
            unit += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
        }
    }
    double scale = 0;
    if (unit.empty() || unit == "b")
        scale = 1;
    else if (unit == "kib" || unit == "k")
        scale = 1024.0;
    else if (unit == "mib" || unit == "m")
        scale = 1024.0 * 1024;
    else if (unit == "gib" || unit == "g")
        scale = 1024.0 * 1024 * 1024;
    else if (unit == "tib" || unit == "t")
        scale = 1024.0 * 1024 * 1024 * 1024;
    else if (unit == "kb")
        scale = 1e3;
    else if (unit == "mb")
        scale = 1e6;
    else if (unit == "gb")
        scale = 1e9;
    else if (unit == "tb")
        scale = 1e12;
    else
        return std::nullopt;
    const double bytes = value * scale;
    if (bytes > 9.0e18) {
        return std::nullopt;
    }
    return static_cast<int64_t>(std::llround(bytes));
}

}  // namespace memscope
