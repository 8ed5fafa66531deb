#pragma once

#include "capture/recorder.h"
#include "train/trainer.h"

#include <atomic>
#include <memory>
#include <thread>

namespace memscope {

// A training run recorded into a Trace: the trainer runs on its own thread; the owner pulls
// events into the trace with poll() as often as it likes (the GUI every ~50 ms, the CLI too) and
// finish() joins the run and completes the trace (metadata, operators, steps, summary, categories).
// A cancelled or out-of-memory run keeps everything recorded up to its end.
class RecordingSession {
  public:
    RecordingSession(TrainOptions options, Recorder::Options recorder_options = {});
    ~RecordingSession();  // cancels and joins a run still going

    // Called on the training thread after every step.
    void setStepCallback(std::function<void(const StepMetrics&)> callback);
    void setMeasurePeakFlops(bool measure);

    // Validates the options (throws ConfigError) and starts the run.
    void start();
    // Moves newly recorded events into trace(); returns how many. Not thread-safe with itself.
    size_t poll();
    bool running() const { return !m_done.load(); }
    void cancel() { m_trainer.cancel(); }
    // Waits for the run to end and completes the trace. Returns the run summary.
    const RunSummary& finish();

    Trace& trace() { return m_trace; }
    const Trace& trace() const { return m_trace; }
    const Recorder& recorder() const { return *m_recorder; }

  private:
    TrainOptions m_options;
    std::unique_ptr<Recorder> m_recorder;
    Trainer m_trainer;
    Trace m_trace;
    RunSummary m_summary;
    std::thread m_thread;
    std::atomic<bool> m_done{true};
    std::exception_ptr m_failure;
    bool m_finished = false;
};

}  // namespace memscope
