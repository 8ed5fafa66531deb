#include "studies/program_sweep.h"

#include "io/file_error.h"
#include "studies/sweep_file.h"

#include <nlohmann/json.hpp>

namespace memscope {

std::vector<ProgramMemoryFit::Sample> ProgramSweep::samples() const {
    std::vector<ProgramMemoryFit::Sample> out;
    for (const auto& p : points) {
        if (p.ok) {
            out.push_back({p.label, p.sizes, p.peaks});
        }
    }
    return out;
}

nlohmann::json ProgramSweep::toJson() const {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& p : points) {
        nlohmann::json j = {{"label", p.label},
                            {"sizes", p.sizes},
                            {"run_file", p.run_file},
                            {"status", p.ok ? "ok" : "error"},
                            {"error", p.error}};
        if (p.ok) {
            j["peaks"] = p.peaks.toJson();
        }
        list.push_back(std::move(j));
    }
    return {{"format", "memscope-program-sweep"},
            {"version", 1},
            {"spec", spec.toJson()},
            {"started_at", started_at},
            {"points", list}};
}

ProgramSweep ProgramSweep::fromJson(const nlohmann::json& j, const std::string& source) {
    if (!j.is_object() || j.value("format", std::string()) != "memscope-program-sweep") {
        throw FileError(
            source, "not a sweep of a Python program (no \"format\": \"memscope-program-sweep\")");
    }
    if (j.value("version", 0) > 1) {
        throw FileError(source, "program sweep version " + std::to_string(j.value("version", 0)) +
                                    " is newer than this Memscope reads (1)");
    }
    ProgramSweep s;
    try {
        s.spec = ProgramSweepSpec::fromJson(j.at("spec"));
    } catch (const std::exception& e) {
        throw FileError(source, std::string("spec: ") + e.what());
    }
    s.started_at = j.value("started_at", std::string());
    if (!j.contains("points") || !j["points"].is_array()) {
        throw FileError(source, "field 'points' is missing or not a list");
    }
    for (size_t i = 0; i < j["points"].size(); ++i) {
        const auto& pj = j["points"][i];
        Point p;
        try {
            p.label = pj.at("label").get<std::string>();
            p.sizes = pj.at("sizes").get<std::map<std::string, int64_t>>();
            p.run_file = pj.value("run_file", std::string());
            p.ok = pj.value("status", std::string()) == "ok";
            p.error = pj.value("error", std::string());
            if (p.ok) {
                p.peaks = PhasePeaks::fromJson(pj.at("peaks"));
            }
        } catch (const nlohmann::json::exception&) {
            throw FileError(source, "points[" + std::to_string(i) +
                                        "]: needs 'label', 'sizes' (whole numbers) and, when ok, "
                                        "'peaks'");
        } catch (const std::exception& e) {
            throw FileError(source, "points[" + std::to_string(i) + "]: " + e.what());
        }
        s.points.push_back(std::move(p));
    }
    return s;
}

void ProgramSweep::save(const std::string& dir) const {
    SweepFile::write(dir, kFileName, toJson(), 1);
}

ProgramSweep ProgramSweep::load(const std::string& path) {
    nlohmann::json j;
    const std::string file = SweepFile::read(
        path, kFileName, "cannot read (is it the directory of a memscope-cli sweep --python?)", j);
    return fromJson(j, file);
}

}  // namespace memscope
