#include "report/size_table_chapter.h"

#include "explain/trace_summary.h"
#include "model/input_error.h"
#include "run/text_format.h"

#include <cmath>
#include <map>
#include <sstream>
#include <tuple>

namespace memscope {

namespace {

int64_t sizeNumber(const SizeTableChapter::Sizes& sizes, const char* key) {
    const auto it = sizes.find(key);
    if (it == sizes.end()) {
        return -1;
    }
    return parseWholeNumber(it->second).value_or(-1);
}

std::string exactPeakCell(int64_t bytes) {
    if (bytes < 0) {
        return "-";
    }
    return formatMegabytes(bytes) + " MB (" + withThousands(bytes) + " B)";
}

// One sized run: its setting without the dtype, its dtype ("" for fp32, the default).
struct Point {
    std::string setting;
    std::string dtype;
    int64_t b = -1;
    int64_t s = -1;
    bool full = false;
    int64_t peak = 0;
};

std::string passName(bool full) {
    return full ? "full step" : "forward pass";
}

bool isFp32(const std::string& dtype) {
    return dtype.empty() || dtype == "fp32" || dtype == "float32";
}

// Per setting, dtype and pass, with one size fixed: the peak from the smallest to the largest
// value of the other, its factor and the exponent log(peak ratio) / log(size ratio) (1: linear,
// 2: quadratic), as the workshop's sequence-scaling exercise asks.
std::string scalingTable(const std::vector<Point>& points) {
    std::map<std::tuple<std::string, std::string, bool, char, int64_t>, std::map<int64_t, int64_t>>
        series;  // (setting, dtype, full, varied size, fixed value) -> value -> peak
    for (const auto& p : points) {
        if (p.s > 0) {
            series[{p.setting, p.dtype, p.full, 's', p.b}][p.s] = p.peak;
        }
        if (p.b > 0) {
            series[{p.setting, p.dtype, p.full, 'b', p.s}][p.b] = p.peak;
        }
    }
    std::ostringstream rows;
    for (const auto& [key, by_size] : series) {
        if (by_size.size() < 2 || by_size.begin()->second <= 0) {
            continue;
        }
        const auto& [setting, dtype, full, varied, fixed] = key;
        const auto& [x0, y0] = *by_size.begin();
        const auto& [x1, y1] = *by_size.rbegin();
        const double size_factor = double(x1) / double(x0);
        const double peak_factor = double(y1) / double(y0);
        const double exponent = std::log(peak_factor) / std::log(size_factor);
        std::string label = setting;
        if (!dtype.empty()) {
            label += (label.empty() ? "" : ", ") + std::string("dtype=") + dtype;
        }
        label = label.empty() ? "-" : label;
        rows << "| " << label << " | " << passName(full) << " | " << varied << " " << x0 << " to "
             << x1 << " (" << (varied == 's' ? "b " : "s ")
             << (fixed < 0 ? std::string("-") : std::to_string(fixed)) << ") | "
             << formatMegabytes(y0) << " to " << formatMegabytes(y1) << " MB | x"
             << formatFixed(peak_factor, 2) << " for x" << formatFixed(size_factor, 2) << " | "
             << formatFixed(exponent, 2) << " |\n";
    }
    if (rows.str().empty()) {
        return {};
    }
    return "#### How your runs' peaks scale\n\nWith the other size fixed, from the smallest to "
           "the largest value: the exponent is log(peak factor) / log(size factor), 1 for "
           "linear growth, 2 for quadratic (attention scores grow with s²).\n\n"
           "| Setting | Pass | Size | Peak | Factor | Exponent |\n"
           "|---|---|---|---:|---:|---:|\n" +
           rows.str() + "\n";
}

// Runs that differ only by their dtype, against fp32: the course's mixed-precision question.
std::string precisionTable(const std::vector<Point>& points) {
    std::ostringstream rows;
    for (const auto& p : points) {
        if (isFp32(p.dtype)) {
            continue;
        }
        for (const auto& q : points) {
            if (isFp32(q.dtype) && q.setting == p.setting && q.b == p.b && q.s == p.s &&
                q.full == p.full) {
                rows << "| " << (p.setting.empty() ? "-" : p.setting) << " | "
                     << (p.b < 0 ? std::string("-") : std::to_string(p.b)) << " | "
                     << (p.s < 0 ? std::string("-") : std::to_string(p.s)) << " | "
                     << passName(p.full) << " | " << exactPeakCell(q.peak) << " | " << p.dtype
                     << " " << exactPeakCell(p.peak) << " | "
                     << formatFixed(
                            100.0 * double(q.peak - p.peak) / double(std::max<int64_t>(1, q.peak)),
                            1)
                     << "% |\n";
                break;
            }
        }
    }
    if (rows.str().empty()) {
        return {};
    }
    return "#### Your runs: mixed precision\n\nRuns whose sizes differ only by `dtype`, against "
           "the fp32 run of the same sizes and pass.\n\n"
           "| Setting | b | s | Pass | fp32 peak | Mixed precision peak | Saved |\n"
           "|---|---:|---:|---|---:|---:|---:|\n" +
           rows.str() + "\n";
}

}  // namespace

SizeTableChapter::Sizes SizeTableChapter::parseSizes(const std::string& text,
                                                     const std::string& option) {
    Sizes sizes;
    std::stringstream in(text);
    std::string part;
    while (std::getline(in, part, ',')) {
        const auto eq = part.find('=');
        const std::string key =
            eq == std::string::npos ? std::string() : trimmedText(part.substr(0, eq));
        const std::string value =
            eq == std::string::npos ? std::string() : trimmedText(part.substr(eq + 1));
        if (key.empty() || value.empty()) {
            throw InputError(option + ": '" + part + "' is not NAME=VALUE (s=128,b=4)");
        }
        if ((key == "s" || key == "b") &&
            (value.find_first_not_of("0123456789") != std::string::npos || value.size() > 12 ||
             std::stoll(value) < 1)) {
            throw InputError(option + ": " + key + "=" + value + " is not a positive whole number");
        }
        sizes[key] = value;
    }
    if (sizes.empty()) {
        throw InputError(option + ": no sizes (s=128,b=4)");
    }
    return sizes;
}

SizeTableChapter::Sizes SizeTableChapter::sizesFromCommand(const nlohmann::json& config) {
    Sizes sizes;
    if (!config.is_object() || !config.contains("program") || !config["program"].is_object()) {
        return sizes;
    }
    const auto& argv = config["program"].value("argv", nlohmann::json::array());
    if (!argv.is_array()) {
        return sizes;
    }
    static const std::map<std::string, std::string> kFlags = {
        {"--context-length", "s"}, {"--context_length", "s"},  {"--seq-len", "s"},
        {"--seq_len", "s"},        {"--sequence-length", "s"}, {"--block-size", "s"},
        {"--batch-size", "b"},     {"--batch_size", "b"}};
    for (size_t i = 0; i < argv.size(); ++i) {
        if (!argv[i].is_string()) {
            continue;
        }
        std::string word = argv[i].get<std::string>();
        std::string value;
        if (const auto eq = word.find('='); eq != std::string::npos) {
            value = word.substr(eq + 1);
            word.erase(eq);
        } else if (i + 1 < argv.size() && argv[i + 1].is_string()) {
            value = argv[i + 1].get<std::string>();
        }
        const auto flag = kFlags.find(word);
        if (flag != kFlags.end() && !value.empty() &&
            value.find_first_not_of("0123456789") == std::string::npos && value.size() <= 12) {
            sizes[flag->second] = value;
        }
    }
    return sizes;
}

bool SizeTableChapter::hasBackward(const Trace& trace) {
    for (const uint8_t phase : trace.events.phase) {
        if (phase == uint8_t(Phase::Backward)) {
            return true;
        }
    }
    return false;
}

std::string SizeTableChapter::markdown(const std::vector<SizedRun>& runs) {
    // setting -> (b, s) -> forward peak, full step peak, the runs' names
    struct Cell {
        int64_t forward = -1;
        int64_t full = -1;
        std::vector<std::string> names;
    };
    std::map<std::string, std::map<std::pair<int64_t, int64_t>, Cell>> settings;
    std::vector<Point> points;
    for (const auto& run : runs) {
        if (run.trace == nullptr) {
            continue;
        }
        const int64_t s = sizeNumber(run.sizes, "s");
        const int64_t b = sizeNumber(run.sizes, "b");
        if (s < 0 && b < 0) {
            continue;
        }
        std::string setting;
        for (const auto& [key, value] : run.sizes) {
            if (key != "s" && key != "b") {
                setting += (setting.empty() ? "" : ", ") + key + "=" + value;
            }
        }
        const auto summary = TraceSummary::compute(*run.trace, 0);
        const int64_t peak = summary.value("peak_allocated_bytes_recorded", int64_t(0));
        Cell& cell = settings[setting.empty() ? "-" : setting][{b, s}];
        const bool full = hasBackward(*run.trace);
        (full ? cell.full : cell.forward) = peak;
        cell.names.push_back(run.name);
        Point point;
        point.b = b;
        point.s = s;
        point.full = full;
        point.peak = peak;
        for (const auto& [key, value] : run.sizes) {
            if (key == "dtype") {
                point.dtype = value;
            } else if (key != "s" && key != "b") {
                point.setting += (point.setting.empty() ? "" : ", ") + key + "=" + value;
            }
        }
        points.push_back(std::move(point));
    }
    if (settings.empty()) {
        return {};
    }
    std::ostringstream out;
    out << "#### Your runs by size\n\n"
        << "Your runs with their sizes (`--sizes`, a `sweep --python` directory's points, or the "
           "program's own --context-length and --batch-size): s is the context length, b the "
           "batch size. A run without a backward phase is a forward pass; one with it, a full "
           "training step. Peaks are the bytes of live tensors the runs recorded (MB = 1024² "
           "bytes), to the byte in parentheses.\n\n"
        << "| Setting | b | s | Forward pass peak | Full step peak | Runs |\n"
        << "|---|---:|---:|---:|---:|---|\n";
    for (const auto& [setting, cells] : settings) {
        for (const auto& [bs, cell] : cells) {
            std::string names;
            for (const auto& n : cell.names) {
                names += (names.empty() ? "" : ", ") + n;
            }
            out << "| " << setting << " | " << (bs.first < 0 ? "-" : std::to_string(bs.first))
                << " | " << (bs.second < 0 ? "-" : std::to_string(bs.second)) << " | "
                << exactPeakCell(cell.forward) << " | " << exactPeakCell(cell.full) << " | "
                << names << " |\n";
        }
    }
    out << "\n" << scalingTable(points) << precisionTable(points);
    return out.str();
}

}  // namespace memscope
