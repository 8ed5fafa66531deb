#include "run/run_range.h"
#include "run/text_format.h"

#include "model/input_error.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace memscope {

namespace {

struct Bound {
    bool present = false;
    bool is_time = false;
    int64_t value = 0;
};

// Throws InputError naming the range and the bad end.
Bound parseBound(const std::string& raw, const std::string& whole) {
    const std::string text = trimmedText(raw);
    Bound b;
    if (text.empty())
        return b;
    b.present = true;
    auto bad = [&]() {
        return InputError("range '" + whole + "': '" + text +
                          "' is not an event index or a time like 2.5s");
    };
    size_t digits = 0;
    while (digits < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[digits])) || text[digits] == '.')) {
        ++digits;
    }
    if (digits == 0)
        throw bad();
    const std::string number = text.substr(0, digits);
    const std::string unit = trimmedText(text.substr(digits));
    if (unit.empty()) {
        if (number.find('.') != std::string::npos) {
            throw InputError("range '" + whole + "': '" + text +
                             "' is not a whole event index (times need a unit: "
                             "ns, us, ms, s, min)");
        }
        errno = 0;
        char* end = nullptr;
        const unsigned long long v = std::strtoull(number.c_str(), &end, 10);
        if (errno != 0 || *end != '\0' || v > uint64_t(RunRange::kOpen - 1))
            throw bad();
        b.value = static_cast<int64_t>(v);
        return b;
    }
    double scale = 0;
    if (unit == "ns")
        scale = 1;
    else if (unit == "us")
        scale = 1e3;
    else if (unit == "ms")
        scale = 1e6;
    else if (unit == "s")
        scale = 1e9;
    else if (unit == "min")
        scale = 60e9;
    else {
        throw InputError("range '" + whole + "': unknown unit '" + unit +
                         "' (use ns, us, ms, s or min)");
    }
    char* end = nullptr;
    const double v = std::strtod(number.c_str(), &end);
    if (*end != '\0' || !std::isfinite(v))
        throw bad();
    const double ns = std::round(v * scale);
    if (ns >= 9.2e18)
        throw bad();
    b.is_time = true;
    b.value = static_cast<int64_t>(ns);
    return b;
}

std::string seconds(int64_t ns) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g s", double(ns) / 1e9);
    return buf;
}

}  // namespace

RunRange RunRange::events(int64_t first, int64_t last) {
    RunRange r;
    r.kind = Kind::Events;
    r.first = first;
    r.last = last;
    return r;
}

RunRange RunRange::time(int64_t begin_ns, int64_t end_ns) {
    RunRange r;
    r.kind = Kind::Time;
    r.first = begin_ns;
    r.last = end_ns;
    return r;
}

RunRange RunRange::parse(const std::string& input) {
    const std::string text = trimmedText(input);
    if (text.empty())
        return {};
    const auto colon = text.find(':');
    if (colon == std::string::npos || text.find(':', colon + 1) != std::string::npos) {
        throw InputError("range '" + text +
                         "' is not A:B (event indices like 1000:5000, or times like "
                         "2.5s:4s; either end may be left out)");
    }
    const Bound a = parseBound(text.substr(0, colon), text);
    const Bound b = parseBound(text.substr(colon + 1), text);
    if (!a.present && !b.present)
        return {};
    if (a.present && b.present && a.is_time != b.is_time) {
        throw InputError("range '" + text +
                         "' mixes an event index with a time; give both ends the "
                         "same way");
    }
    const bool is_time = a.present ? a.is_time : b.is_time;
    RunRange r = is_time ? time(a.present ? a.value : 0, b.present ? b.value : kOpen)
                         : events(a.present ? a.value : 0, b.present ? b.value : kOpen);
    if (r.last <= r.first) {
        throw InputError("range '" + text + "' is empty (its end is not after its start)");
    }
    return r;
}

std::string RunRange::describe() const {
    switch (kind) {
        case Kind::All:
            return "the whole run";
        case Kind::Events:
            return "events " + std::to_string(first) + ".." +
                   (last == kOpen ? std::string("end") : std::to_string(last));
        case Kind::Time:
            return "time " + seconds(first) + ".." +
                   (last == kOpen ? std::string("end") : seconds(last));
    }
    return {};
}

}  // namespace memscope
