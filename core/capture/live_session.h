#pragma once

#include "train/step_metrics.h"
#include "train/train_options.h"

#include <functional>
#include <memory>
#include <string>

namespace memscope {

class RecordingSession;
class Trace;

// A recorded run for a front end that must not include LibTorch's headers (the GUI: Qt's
// `slots` and `emit` macros break them, and its translation tools would parse all of ATen). It
// wraps a RecordingSession behind this light header and hands out complete snapshots.
class LiveSession {
  public:
    struct Options {
        bool record_shapes = false;  // op input shapes: FLOPs and the roofline (a little slower)
        // Streams the run to this journal while it records (io/run_journal.h); "" for none.
        std::string journal_path;
    };
    // How a run ended, with the trace of everything it recorded.
    struct Result {
        std::shared_ptr<Trace> trace;
        bool cancelled = false;
        bool out_of_memory = false;
        std::string error;    // empty unless the run failed
        std::string summary;  // the workshop-style performance summary
        int64_t peak_bytes = 0;
    };

    LiveSession(const TrainOptions& options, Options session_options);
    ~LiveSession();  // cancels and joins a run still going
    LiveSession(const LiveSession&) = delete;
    LiveSession& operator=(const LiveSession&) = delete;

    // Called on the training thread after every step.
    void setStepCallback(std::function<void(const StepMetrics&)> callback);
    // Validates the options (throws ConfigError naming the option) and starts the run.
    void start();
    bool running() const;
    void cancel();

    // Drains what was recorded so far and returns a finalized copy of the whole trace. Not
    // thread-safe with itself or finish(): one caller at a time.
    std::shared_ptr<Trace> snapshot();
    // Waits for the run to end and returns its complete trace. A run that failed keeps what it
    // recorded, with the reason in `error`.
    Result finish();
    // Deletes the journal once the run file is written (after finish()).
    void discardJournal();

  private:
    std::unique_ptr<RecordingSession> m_session;
};

}  // namespace memscope
