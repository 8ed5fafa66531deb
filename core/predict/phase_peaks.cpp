#include "predict/phase_peaks.h"

#include "model/input_error.h"

#include <nlohmann/json.hpp>

namespace memscope {

namespace {

// A peak as [bytes, bytes of each category in Category's order]: a sweep keeps thousands.
nlohmann::json peakToJson(const PhasePeaks::Peak& p) {
    nlohmann::json out = nlohmann::json::array({p.bytes});
    for (const auto b : p.by_category) {
        out.push_back(b);
    }
    return out;
}

PhasePeaks::Peak peakFromJson(const nlohmann::json& j, const std::string& where) {
    PhasePeaks::Peak p;
    if (!j.is_array() || j.empty() || j.size() > size_t(kCategoryCount) + 1) {
        throw InputError(where + ": a peak is [bytes, bytes per category...]");
    }
    try {
        p.bytes = j[0].get<int64_t>();
        for (size_t c = 1; c < j.size(); ++c) {
            p.by_category[c - 1] = j[c].get<int64_t>();
        }
    } catch (const nlohmann::json::exception&) {
        throw InputError(where + ": a peak's sizes must be whole numbers");
    }
    return p;
}

}  // namespace

nlohmann::json PhasePeaks::toJson() const {
    nlohmann::json out = {{"layers", layers}, {"steps", steps}};
    nlohmann::json ph = nlohmann::json::object();
    for (const auto& [key, peak] : phases) {
        ph[key] = peakToJson(peak);
    }
    out["phases"] = ph;
    nlohmann::json rg = nlohmann::json::object();
    for (const auto& [key, regs] : regions) {
        nlohmann::json r = nlohmann::json::object();
        for (const auto& [name, peak] : regs) {
            r[name] = peakToJson(peak);
        }
        rg[key] = r;
    }
    out["regions"] = rg;
    return out;
}

PhasePeaks PhasePeaks::fromJson(const nlohmann::json& j) {
    if (!j.is_object()) {
        throw InputError("peaks: expected an object");
    }
    PhasePeaks p;
    try {
        p.layers = j.value("layers", int64_t(0));
        p.steps = j.value("steps", int64_t(0));
    } catch (const nlohmann::json::exception&) {
        throw InputError("peaks: 'layers' and 'steps' must be whole numbers");
    }
    if (j.contains("phases") && j["phases"].is_object()) {
        for (const auto& [key, peak] : j["phases"].items()) {
            p.phases[key] = peakFromJson(peak, "peaks.phases." + key);
        }
    }
    if (j.contains("regions") && j["regions"].is_object()) {
        for (const auto& [key, regs] : j["regions"].items()) {
            if (!regs.is_object()) {
                throw InputError("peaks.regions." + key + ": expected an object");
            }
            auto& out = p.regions[key];
            for (const auto& [name, peak] : regs.items()) {
                out[name] = peakFromJson(peak, "peaks.regions." + key + "." + name);
            }
        }
    }
    return p;
}

}  // namespace memscope
