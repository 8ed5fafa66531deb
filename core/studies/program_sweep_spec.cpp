#include "studies/program_sweep_spec.h"

#include "model/config_error.h"
#include "model/input_error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <set>

namespace memscope {

namespace {

bool isName(const std::string& s) {
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) {
        return false;
    }
    return std::all_of(s.begin(), s.end(),
                       [](unsigned char c) { return std::isalnum(c) != 0 || c == '_'; });
}

// A positive whole number, or nullopt-like -1.
int64_t positiveNumber(const std::string& s) {
    if (s.empty() ||
        !std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; })) {
        return -1;
    }
    errno = 0;
    const long long v = std::strtoll(s.c_str(), nullptr, 10);
    return errno != 0 || v <= 0 ? -1 : int64_t(v);
}

// Calls `each(name, begin, end)` for every {name} in `arg`.
template <typename F>
void forEachPlaceholder(const std::string& arg, F each) {
    size_t pos = 0;
    while ((pos = arg.find('{', pos)) != std::string::npos) {
        const size_t close = arg.find('}', pos + 1);
        if (close == std::string::npos) {
            return;
        }
        const std::string name = arg.substr(pos + 1, close - pos - 1);
        if (isName(name)) {
            each(name, pos, close + 1);
            pos = close + 1;
        } else {
            pos = pos + 1;
        }
    }
}

}  // namespace

ProgramSweepSpec::Axis ProgramSweepSpec::parseAxis(const std::string& item) {
    const size_t eq = item.find('=');
    Axis axis;
    axis.name = item.substr(0, eq);
    if (eq == std::string::npos || !isName(axis.name)) {
        throw ConfigError("--grid",
                          "'" + item + "' is not NAME=VALUES (e.g. d=64,128 or d_ff=4*d)");
    }
    const std::string rest = item.substr(eq + 1);
    if (const size_t star = rest.find('*'); star != std::string::npos) {
        axis.factor = positiveNumber(rest.substr(0, star));
        axis.of = rest.substr(star + 1);
        if (axis.factor <= 0 || !isName(axis.of)) {
            throw ConfigError("--grid",
                              "'" + item + "': a multiple is NAME=K*OTHER (e.g. d_ff=4*d)");
        }
        return axis;
    }
    size_t start = 0;
    while (start <= rest.size()) {
        const size_t comma = rest.find(',', start);
        const std::string v =
            rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        const int64_t n = positiveNumber(v);
        if (n <= 0) {
            throw ConfigError("--grid",
                              "'" + item + "': '" + v + "' is not a positive whole number");
        }
        if (std::find(axis.values.begin(), axis.values.end(), n) == axis.values.end()) {
            axis.values.push_back(n);
        }
        if (comma == std::string::npos) {
            break;
        }
        start = comma + 1;
    }
    return axis;
}

std::vector<std::string> ProgramSweepSpec::placeholders() const {
    std::vector<std::string> out;
    for (const auto& arg : program) {
        forEachPlaceholder(arg, [&out](const std::string& name, size_t, size_t) {
            if (std::find(out.begin(), out.end(), name) == out.end()) {
                out.push_back(name);
            }
        });
    }
    return out;
}

void ProgramSweepSpec::check() const {
    if (program.empty()) {
        throw ConfigError("--python", "needs a program: --python SCRIPT.py ARGS...");
    }
    std::set<std::string> names;
    for (const auto& a : axes) {
        if (!names.insert(a.name).second) {
            throw ConfigError("--grid", a.name + " is given twice");
        }
    }
    for (const auto& a : axes) {
        if (a.factor > 0 && (names.count(a.of) == 0 || a.of == a.name)) {
            throw ConfigError("--grid", a.name + "=" + std::to_string(a.factor) + "*" + a.of +
                                            ": the grid has no list named " + a.of);
        }
        if (a.factor > 0) {
            const auto of = std::find_if(axes.begin(), axes.end(),
                                         [&a](const Axis& x) { return x.name == a.of; });
            if (of->factor > 0) {
                throw ConfigError("--grid", a.name + ": a multiple of " + a.of +
                                                ", itself a multiple: give a list");
            }
        }
    }
    const auto used = placeholders();
    for (const auto& name : used) {
        if (names.count(name) == 0) {
            throw ConfigError("--grid", "the program's arguments use {" + name +
                                            "} but the grid gives no " + name + " (add " + name +
                                            "=VALUES)");
        }
    }
    for (const auto& a : axes) {
        if (std::find(used.begin(), used.end(), a.name) == used.end()) {
            throw ConfigError(
                "--grid",
                a.name + " is in the grid but no argument of the program uses {" + a.name + "}");
        }
    }
    if (axes.empty()) {
        throw ConfigError("--grid", "needs at least one NAME=VALUES (e.g. --grid d=64,128)");
    }
}

std::vector<std::map<std::string, int64_t>> ProgramSweepSpec::points() const {
    std::vector<std::map<std::string, int64_t>> out{{}};
    for (const auto& a : axes) {
        if (a.factor > 0) {
            continue;
        }
        std::vector<std::map<std::string, int64_t>> next;
        for (const auto& p : out) {
            for (const auto v : a.values) {
                auto q = p;
                q[a.name] = v;
                next.push_back(std::move(q));
            }
        }
        out = std::move(next);
    }
    for (auto& p : out) {
        completeMultiples(p);
    }
    return out;
}

void ProgramSweepSpec::completeMultiples(std::map<std::string, int64_t>& point) const {
    for (const auto& a : axes) {
        if (a.factor > 0 && point.count(a.name) == 0) {
            const auto of = point.find(a.of);
            if (of != point.end()) {
                point[a.name] = a.factor * of->second;
            }
        }
    }
}

std::vector<std::string> ProgramSweepSpec::argumentsAt(
    const std::map<std::string, int64_t>& point) const {
    std::vector<std::string> out;
    for (const auto& arg : program) {
        std::string text;
        size_t last = 0;
        forEachPlaceholder(arg, [&](const std::string& name, size_t begin, size_t end) {
            text += arg.substr(last, begin - last);
            const auto it = point.find(name);
            text += it != point.end() ? std::to_string(it->second) : arg.substr(begin, end - begin);
            last = end;
        });
        text += arg.substr(last);
        out.push_back(text);
    }
    return out;
}

std::map<std::string, int64_t> ProgramSweepSpec::sizesIn(
    const std::vector<std::string>& command) const {
    auto fileName = [](const std::string& path) {
        const size_t slash = path.find_last_of('/');
        return slash == std::string::npos ? path : path.substr(slash + 1);
    };
    if (command.size() != program.size()) {
        throw InputError("the run's command line has " + std::to_string(command.size()) +
                         " words and the sweep's program " + std::to_string(program.size()) +
                         ": the run is not a point of this sweep's program");
    }
    std::map<std::string, int64_t> sizes;
    for (size_t i = 0; i < program.size(); ++i) {
        const std::string& pattern = program[i];
        const std::string& word = command[i];
        auto differs = [&]() {
            return InputError("the run's word " + std::to_string(i + 1) + " '" + word +
                              "' is not the sweep's '" + pattern + "'");
        };
        if (i == 0 && pattern != "-m") {
            if (fileName(pattern) != fileName(word)) {
                throw InputError("the run's program " + word + " is not the sweep's " + pattern);
            }
            continue;
        }
        // The literal text between placeholders must match; each placeholder takes digits.
        size_t at = 0;
        size_t last = 0;
        bool ok = true;
        forEachPlaceholder(pattern, [&](const std::string& name, size_t begin, size_t end) {
            if (!ok) {
                return;
            }
            const std::string literal = pattern.substr(last, begin - last);
            if (word.compare(at, literal.size(), literal) != 0) {
                ok = false;
                return;
            }
            at += literal.size();
            size_t digits = at;
            while (digits < word.size() && std::isdigit(static_cast<unsigned char>(word[digits]))) {
                ++digits;
            }
            const int64_t value = positiveNumber(word.substr(at, digits - at));
            if (value <= 0) {
                ok = false;
                return;
            }
            const auto [it, inserted] = sizes.emplace(name, value);
            if (!inserted && it->second != value) {
                throw InputError("the run gives " + name + " two values, " +
                                 std::to_string(it->second) + " and " + std::to_string(value));
            }
            at = digits;
            last = end;
        });
        if (!ok || word.substr(at) != pattern.substr(last)) {
            throw differs();
        }
    }
    return sizes;
}

std::string ProgramSweepSpec::labelOf(const std::map<std::string, int64_t>& point) const {
    std::string out;
    for (const auto& a : axes) {
        const auto it = point.find(a.name);
        if (it != point.end()) {
            out += (out.empty() ? "" : "-") + a.name + std::to_string(it->second);
        }
    }
    return out.empty() ? "point" : out;
}

nlohmann::json ProgramSweepSpec::toJson() const {
    nlohmann::json grid = nlohmann::json::array();
    for (const auto& a : axes) {
        nlohmann::json j = {{"name", a.name}};
        if (a.factor > 0) {
            j["factor"] = a.factor;
            j["of"] = a.of;
        } else {
            j["values"] = a.values;
        }
        grid.push_back(j);
    }
    return {{"program", program}, {"grid", grid}, {"python", python}};
}

ProgramSweepSpec ProgramSweepSpec::fromJson(const nlohmann::json& j) {
    ProgramSweepSpec s;
    try {
        s.program = j.at("program").get<std::vector<std::string>>();
        s.python = j.value("python", std::string("python3"));
        for (const auto& g : j.at("grid")) {
            Axis a;
            a.name = g.at("name").get<std::string>();
            if (g.contains("factor")) {
                a.factor = g.at("factor").get<int64_t>();
                a.of = g.at("of").get<std::string>();
            } else {
                a.values = g.at("values").get<std::vector<int64_t>>();
            }
            s.axes.push_back(std::move(a));
        }
    } catch (const nlohmann::json::exception&) {
        throw InputError(
            "spec: needs 'program' (a list of words) and 'grid' (entries with "
            "'name' and 'values', or 'factor' and 'of')");
    }
    return s;
}

}  // namespace memscope
