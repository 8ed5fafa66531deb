#pragma once

#include "studies/sweep_spec.h"

#include <nlohmann/json_fwd.hpp>

#include <map>
#include <string>
#include <vector>

namespace memscope {

// The figures of one finished sweep point (from its run summary and its recorded events).
struct SweepPointResult {
    enum class Status { Ok, OutOfMemory, Error };

    std::string label;
    TrainOptions options;
    std::string run_file;  // file name inside the sweep directory; "" when none was written
    Status status = Status::Ok;
    std::string error;  // the out-of-memory or error message

    int64_t parameters = 0;
    int64_t peak_bytes = 0;  // over the run, initialisation included
    int64_t step1_peak_bytes = 0;
    int64_t steady_peak_bytes = 0;  // 0 with a single step
    int64_t avg_bytes = 0;          // time-weighted, initialisation excluded
    std::map<std::string, int64_t> bytes_by_category_at_peak;  // "ACTIVATION" -> bytes
    int64_t steps = 0;                                         // timed steps finished
    double avg_step_s = 0;
    double samples_per_s = 0;
    double tokens_per_s = 0;
    // Bytes the model and optimizer hold whatever the input: parameters, gradients and
    // optimizer state live at the peak.
    int64_t static_bytes = 0;
    // For an out-of-memory point: what was asked for and what the capacity was.
    int64_t oom_requested_bytes = 0;
    int64_t capacity_bytes = 0;

    int64_t tokens() const { return options.batch_size * options.seq_len; }
    // Peak bytes per token of the batch, and the same for the input-dependent part only.
    double bytesPerToken() const;
    double inputBytesPerToken() const;
    int64_t inputDependentBytes() const { return peak_bytes - static_bytes; }
    bool ok() const { return status == Status::Ok; }

    nlohmann::json toJson() const;
    static SweepPointResult fromJson(const nlohmann::json& json);
};

std::string toString(SweepPointResult::Status status);

// A sweep as it stands (finished, or cancelled with the points done so far): saved as
// DIR/sweep.json next to the points' run files, so a finished sweep opens again.
struct SweepResult {
    SweepSpec spec;
    std::vector<SweepPointResult> points;
    bool cancelled = false;
    int64_t planned_points = 0;
    std::string started_at;
    std::string device;

    static constexpr const char* kFileName = "sweep.json";

    nlohmann::json toJson() const;
    // Throws FileError naming the file and the field on bad input.
    static SweepResult fromJson(const nlohmann::json& json, const std::string& source = "sweep");
    // Writes DIR/sweep.json atomically.
    void save(const std::string& dir) const;
    // Reads DIR/sweep.json (or the file itself when `path` is one).
    static SweepResult load(const std::string& path);
};

}  // namespace memscope
