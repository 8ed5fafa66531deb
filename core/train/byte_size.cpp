#include "train/byte_size.h"

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
    std::string unit;
    for (const char* p = end; *p != '\0'; ++p) {
        if (*p != ' ') {
            unit += static_cast<char>(std::tolower(static_cast<unsigned char>(*p)));
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
