#pragma once

#include "predict/phase_peaks.h"
#include "predict/program_memory_fit.h"
#include "studies/program_sweep_spec.h"

#include <nlohmann/json_fwd.hpp>

#include <map>
#include <string>
#include <vector>

namespace memscope {

// A sweep of a Python program as it stands: its spec and, per point, the sizes, the run file
// (in the sweep directory), whether it was recorded and the peaks measured from it. Saved as
// DIR/program_sweep.json after every point, beside the run files, so predict --fit DIR can fit it
// again and a sweep that stopped keeps what it finished.
struct ProgramSweep {
    struct Point {
        std::string label;
        std::map<std::string, int64_t> sizes;
        std::string run_file;  // name inside the directory; "" when none was written
        bool ok = false;
        std::string error;  // why the point failed
        PhasePeaks peaks;   // when ok
    };

    ProgramSweepSpec spec;
    std::vector<Point> points;
    std::string started_at;

    static constexpr const char* kFileName = "program_sweep.json";

    // The successful points as the fit's samples.
    std::vector<ProgramMemoryFit::Sample> samples() const;

    nlohmann::json toJson() const;
    // Throws FileError naming the file and the field.
    static ProgramSweep fromJson(const nlohmann::json& json, const std::string& source);
    void save(const std::string& dir) const;
    // DIR/program_sweep.json, or the file itself; throws FileError.
    static ProgramSweep load(const std::string& path);
};

}  // namespace memscope
