#include "run/text_format.h"

#include <cmath>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <stdexcept>

namespace memscope {

std::string formatMegabytes(int64_t bytes) {
    const double v = double(bytes) / kBytesPerMiB;
    const double a = std::fabs(v);
    return formatFixed(v, a >= 10 ? 1 : a >= 0.1 || a == 0 ? 2 : 4);
}

std::string withThousands(int64_t value) {
    const std::string digits = std::to_string(value < 0 ? -value : value);
    std::string out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) {
            out += ',';
        }
        out += digits[i];
    }
    return (value < 0 ? "-" : "") + out;
}

std::string formatFixed(double value, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, value);
    return buf;
}

std::string utcTimestampNow() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string trimmedText(const std::string& text, bool all_space) {
    auto space = [all_space](char c) {
        return all_space ? std::isspace(static_cast<unsigned char>(c)) != 0 : c == ' ' || c == '\t';
    };
    size_t b = 0, e = text.size();
    while (b < e && space(text[b])) {
        ++b;
    }
    while (e > b && space(text[e - 1])) {
        --e;
    }
    return text.substr(b, e - b);
}

std::string joinedNames(const std::vector<std::string>& names) {
    std::string text;
    for (const auto& name : names) {
        text += (text.empty() ? "" : ", ") + name;
    }
    return text;
}

std::optional<int64_t> parseWholeNumber(const std::string& text) {
    size_t used = 0;
    long long value = 0;
    try {
        value = std::stoll(text, &used, 10);
    } catch (const std::exception&) {
        return std::nullopt;  // no digits, or out of range
    }
    if (used != text.size()) {
        return std::nullopt;
    }
    return int64_t(value);
}

}  // namespace memscope
