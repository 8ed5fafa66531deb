#include "studies/sweep_result.h"

#include "io/file_error.h"
#include "model/config_error.h"
#include "model/input_error.h"
#include "studies/sweep_file.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace memscope {

std::string toString(SweepPointResult::Status status) {
    switch (status) {
        case SweepPointResult::Status::Ok:
            return "ok";
        case SweepPointResult::Status::OutOfMemory:
            return "oom";
        case SweepPointResult::Status::Error:
            return "error";
    }
    return "error";
}

double SweepPointResult::bytesPerToken() const {
    return tokens() > 0 ? double(peak_bytes) / double(tokens()) : 0.0;
}

double SweepPointResult::inputBytesPerToken() const {
    return tokens() > 0 ? double(inputDependentBytes()) / double(tokens()) : 0.0;
}

nlohmann::json SweepPointResult::toJson() const {
    return {
        {"label", label},
        {"options", options.toJson()},
        {"run_file", run_file},
        {"status", toString(status)},
        {"error", error},
        {"parameters", parameters},
        {"peak_bytes", peak_bytes},
        {"step1_peak_bytes", step1_peak_bytes},
        {"steady_peak_bytes", steady_peak_bytes},
        {"avg_bytes", avg_bytes},
        {"bytes_by_category_at_peak", bytes_by_category_at_peak},
        {"steps", steps},
        {"avg_step_s", avg_step_s},
        {"samples_per_s", samples_per_s},
        {"tokens_per_s", tokens_per_s},
        {"static_bytes", static_bytes},
        {"oom_requested_bytes", oom_requested_bytes},
        {"capacity_bytes", capacity_bytes},
    };
}

SweepPointResult SweepPointResult::fromJson(const nlohmann::json& j) {
    if (!j.is_object()) {
        throw InputError("expected an object");
    }
    SweepPointResult p;
    const auto get = [&j](const char* key, auto& target) {
        if (!j.contains(key)) {
            return;
        }
        try {
            j.at(key).get_to(target);
        } catch (const nlohmann::json::exception&) {
            throw InputError(std::string("field '") + key + "' has the wrong type");
        }
    };
    get("label", p.label);
    if (j.contains("options")) {
        p.options = TrainOptions::fromJson(j["options"]);
    }
    get("run_file", p.run_file);
    std::string status;
    get("status", status);
    if (status == "ok" || status.empty()) {
        p.status = Status::Ok;
    } else if (status == "oom") {
        p.status = Status::OutOfMemory;
    } else if (status == "error") {
        p.status = Status::Error;
    } else {
        throw InputError("field 'status': unknown value '" + status + "'");
    }
    get("error", p.error);
    get("parameters", p.parameters);
    get("peak_bytes", p.peak_bytes);
    get("step1_peak_bytes", p.step1_peak_bytes);
    get("steady_peak_bytes", p.steady_peak_bytes);
    get("avg_bytes", p.avg_bytes);
    get("bytes_by_category_at_peak", p.bytes_by_category_at_peak);
    get("steps", p.steps);
    get("avg_step_s", p.avg_step_s);
    get("samples_per_s", p.samples_per_s);
    get("tokens_per_s", p.tokens_per_s);
    get("static_bytes", p.static_bytes);
    get("oom_requested_bytes", p.oom_requested_bytes);
    get("capacity_bytes", p.capacity_bytes);
    return p;
}

nlohmann::json SweepResult::toJson() const {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& p : points) {
        list.push_back(p.toJson());
    }
    return {{"format", "memscope-sweep"}, {"version", 1},
            {"spec", spec.toJson()},      {"points", list},
            {"cancelled", cancelled},     {"planned_points", planned_points},
            {"started_at", started_at},   {"device", device}};
}

SweepResult SweepResult::fromJson(const nlohmann::json& j, const std::string& source) {
    if (!j.is_object() || j.value("format", std::string()) != "memscope-sweep") {
        throw FileError(source, "not a Memscope sweep file (no \"format\": \"memscope-sweep\")");
    }
    if (j.value("version", 0) > 1) {
        throw FileError(source, "sweep file version " + std::to_string(j.value("version", 0)) +
                                    " is newer than this Memscope reads (1)");
    }
    SweepResult r;
    try {
        if (j.contains("spec")) {
            r.spec = SweepSpec::fromJson(j["spec"]);
        }
    } catch (const std::exception& e) {
        throw FileError(source, std::string("spec: ") + e.what());
    }
    if (!j.contains("points") || !j["points"].is_array()) {
        throw FileError(source, "field 'points' is missing or not a list");
    }
    for (size_t i = 0; i < j["points"].size(); ++i) {
        try {
            r.points.push_back(SweepPointResult::fromJson(j["points"][i]));
        } catch (const std::exception& e) {
            throw FileError(source, "points[" + std::to_string(i) + "]: " + e.what());
        }
    }
    r.cancelled = j.value("cancelled", false);
    r.planned_points = j.value("planned_points", int64_t(r.points.size()));
    r.started_at = j.value("started_at", std::string());
    r.device = j.value("device", std::string());
    return r;
}

void SweepResult::save(const std::string& dir) const {
    SweepFile::write(dir, kFileName, toJson(), 2);
}

SweepResult SweepResult::load(const std::string& path) {
    nlohmann::json j;
    const std::string file =
        SweepFile::read(path, kFileName, "cannot read (is it a sweep directory?)", j);
    return fromJson(j, file);
}

}  // namespace memscope
