#pragma once

#include "model/cancellation.h"
#include "studies/sweep_result.h"
#include "studies/sweep_spec.h"

#include <functional>
#include <string>

namespace memscope {

// Runs the points of a sweep one after another in this thread, each as a RecordingSession
// (the trainer on its own thread, the recorder drained here), writes each point's .memscope run
// file and DIR/sweep.json after every point, so a cancelled or crashed sweep keeps the points it
// finished. An out-of-memory point (a capacity is set) is recorded as such, with its run file, and
// the sweep goes on. A point that fails otherwise is recorded with its error.
class SweepRunner {
  public:
    struct Progress {
        enum class Stage { PointStarted, Step, PointFinished, Done };
        Stage stage = Stage::PointStarted;
        size_t index = 0;  // 0-based point
        size_t total = 0;
        std::string label;
        int64_t step = 0;  // Stage::Step: steps done in this point
        int64_t steps = 0;
        const SweepPointResult* result = nullptr;  // Stage::PointFinished
    };
    using ProgressCallback = std::function<void(const Progress&)>;

    SweepRunner(SweepSpec spec, std::string out_dir);

    // Called on the calling thread (point start / finish) and on the training thread (steps).
    void setProgressCallback(ProgressCallback callback) { m_progress = std::move(callback); }
    // Skip the GEMM calibration per point (MFU is not part of sweep figures); default false.
    void setMeasurePeakFlops(bool measure) { m_measurePeak = measure; }
    // How often the recorder is drained while a point runs.
    void setPollIntervalMs(int ms) { m_pollMs = ms; }

    // Validates every point first (throws ConfigError), creates the directory (throws
    // FileError), then runs. `cancel` may be requested from any thread: the running
    // point stops at the next module boundary and is dropped; finished points are kept.
    SweepResult run(const CancellationToken* cancel = nullptr);

    const std::string& outDir() const { return m_outDir; }

  private:
    SweepSpec m_spec;
    std::string m_outDir;
    ProgressCallback m_progress;
    bool m_measurePeak = false;
    int m_pollMs = 20;
};

}  // namespace memscope
