#include "studies/program_fit_advice.h"

#include "model/input_error.h"
#include "run/run_summary.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace memscope {

namespace {

// The sizes, as `d=64, s=32`.
std::string adviceSizesText(const ProgramFitAdvice::Sizes& sizes) {
    std::string out;
    for (const auto& [name, value] : sizes) {
        out += (out.empty() ? "" : ", ") + name + "=" + std::to_string(value);
    }
    return out;
}

// The largest relative error the fit made on the points it left out, at least half a percent.
double heldOutMargin(const ProgramMemoryFit& fit) {
    double margin = 0.005;
    for (const auto& r : fit.residuals()) {
        if (r.held_out) {
            margin = std::max(margin, std::abs(r.relative()));
        }
    }
    return margin;
}

// `sizes` with `name` set to `value` and the grid's multiples (d_ff=4*d) made again.
ProgramFitAdvice::Sizes withSize(const ProgramSweepSpec& spec, ProgramFitAdvice::Sizes sizes,
                                 const std::string& name, int64_t value) {
    sizes[name] = value;
    for (const auto& axis : spec.axes) {
        if (axis.factor > 0) {
            sizes.erase(axis.name);
        }
    }
    spec.completeMultiples(sizes);
    return sizes;
}

const char* sizeMeaning(const std::string& name) {
    return name == "b" ? "batch" : "context";
}

}  // namespace

std::vector<std::string> ProgramFitAdvice::commandOf(const nlohmann::json& config) {
    const nlohmann::json* program = nullptr;
    if (config.is_object() && config.contains("program") && config["program"].is_object()) {
        program = &config["program"];
    }
    if (program == nullptr || !program->contains("argv") || !(*program)["argv"].is_array()) {
        throw InputError("the run is not a Python program's recording (no program command line)");
    }
    std::vector<std::string> command;
    if (program->contains("script") && (*program)["script"].is_string()) {
        command.push_back((*program)["script"].get<std::string>());
    } else if (program->contains("module") && (*program)["module"].is_string()) {
        command = {"-m", (*program)["module"].get<std::string>()};
    } else {
        throw InputError("the run's program names neither a script nor a module");
    }
    for (const auto& word : (*program)["argv"]) {
        if (!word.is_string()) {
            throw InputError("the run's program argv holds a word that is not text");
        }
        command.push_back(word.get<std::string>());
    }
    return command;
}

ProgramFitAdvice::Advice ProgramFitAdvice::advise(const ProgramSweep& sweep,
                                                  const ProgramMemoryFit& fit,
                                                  const std::vector<std::string>& command,
                                                  int64_t limit) {
    Advice advice;
    advice.limit = limit;
    advice.margin = heldOutMargin(fit);
    advice.sizes = fit.completed(sweep.spec.sizesIn(command));
    fit.check(advice.sizes);
    advice.predicted_peak = ProgramMemoryFit::highest(fit.predict(advice.sizes));
    const double usable = double(limit) / (1.0 + advice.margin);
    auto peakAt = [&](const ProgramFitAdvice::Sizes& sizes) {
        return ProgramMemoryFit::highest(fit.predict(sizes));
    };
    for (const std::string name : {"b", "s"}) {
        if (limit <= 0) {
            break;  // a run that did not run out: the prediction only
        }
        const auto run_value = advice.sizes.find(name);
        const auto swept = fit.sweptSizes().find(name);
        if (run_value == advice.sizes.end()) {
            continue;  // the program has no such size
        }
        if (swept == fit.sweptSizes().end() || swept->second.size() < 2) {
            advice.notes.push_back(name +
                                   ": the sweep did not vary it, so the fit cannot say "
                                   "what a smaller " +
                                   sizeMeaning(name) + " holds (sweep it too)");
            continue;
        }
        const int64_t from = run_value->second;
        auto fits = [&](int64_t value) {
            const ProgramFitAdvice::Sizes at = withSize(sweep.spec, advice.sizes, name, value);
            fit.check(at);
            return double(peakAt(at)) <= usable;
        };
        if (from <= 1) {
            advice.notes.push_back(name + " is 1 already: there is no smaller " +
                                   sizeMeaning(name));
            continue;
        }
        try {
            if (!fits(1)) {
                const ProgramFitAdvice::Sizes one = withSize(sweep.spec, advice.sizes, name, 1);
                advice.notes.push_back(name + ": even " + name + "=1 is predicted at " +
                                       formatBytes(peakAt(one)) + ", over the limit");
                continue;
            }
            int64_t lo = 1;
            int64_t hi = from;  // fits(lo), and from does not fit or is the run's own
            while (hi - lo > 1) {
                const int64_t mid = lo + (hi - lo) / 2;
                (fits(mid) ? lo : hi) = mid;
            }
            Suggestion s;
            s.size = name;
            s.from = from;
            s.to = lo;
            s.sizes = withSize(sweep.spec, advice.sizes, name, lo);
            // The run's own words (its script's path as it ran), the sizes' words replaced.
            const auto words = sweep.spec.argumentsAt(s.sizes);
            s.command = command;
            for (size_t i = 1; i < words.size() && i < s.command.size(); ++i) {
                if (sweep.spec.program[i].find('{') != std::string::npos) {
                    s.command[i] = words[i];
                }
            }
            s.predicted_peak = peakAt(s.sizes);
            s.headroom = limit - s.predicted_peak;
            advice.suggestions.push_back(std::move(s));
        } catch (const InputError& e) {
            advice.notes.push_back(name + ": " + e.what());
        }
    }
    return advice;
}

std::string ProgramFitAdvice::toText(const Advice& advice) {
    std::ostringstream out;
    out << "The sweep's fit predicts " << formatBytes(advice.predicted_peak) << " at "
        << adviceSizesText(advice.sizes);
    if (advice.limit <= 0) {
        out << ".\n";
        return out.str();
    }
    out << "; the limit is " << formatBytes(advice.limit) << ".\n";
    if (double(advice.predicted_peak) <= double(advice.limit)) {
        out << "  The fit says the run fits, yet it ran out: what filled the device is not what "
               "the sweep measured (another process, or sizes the sweep did not vary).\n";
    }
    char margin[32];
    std::snprintf(margin, sizeof margin, "%.1f%%", advice.margin * 100.0);
    if (advice.suggestions.empty()) {
        out << "No single change of batch or context fits with " << margin << " to spare.\n";
    } else {
        out << "Single changes that fit, with " << margin
            << " to spare for the fit's error on the points it left out:\n";
    }
    int n = 0;
    for (const auto& s : advice.suggestions) {
        out << "  " << ++n << ". " << s.size << "=" << s.to << " (was " << s.from << ", the "
            << sizeMeaning(s.size) << "): predicted peak " << formatBytes(s.predicted_peak)
            << ", headroom " << formatBytes(s.headroom) << "\n";
    }
    for (const auto& note : advice.notes) {
        out << "  (" << note << ")\n";
    }
    return out.str();
}

nlohmann::json ProgramFitAdvice::toJson(const Advice& advice) {
    nlohmann::json suggestions = nlohmann::json::array();
    for (const auto& s : advice.suggestions) {
        suggestions.push_back({{"size", s.size},
                               {"from", s.from},
                               {"to", s.to},
                               {"sizes", s.sizes},
                               {"command", s.command},
                               {"predicted_peak_bytes", s.predicted_peak},
                               {"headroom_bytes", s.headroom}});
    }
    return {{"source", "fit"},
            {"sizes", advice.sizes},
            {"predicted_peak_bytes", advice.predicted_peak},
            {"limit_bytes", advice.limit},
            {"margin", advice.margin},
            {"suggestions", suggestions},
            {"notes", advice.notes}};
}

}  // namespace memscope
