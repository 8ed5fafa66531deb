#pragma once

#include "run/step_metrics.h"
#include "run/train_options.h"

#include <functional>
#include <memory>
#include <string>

namespace memscope {

class LiveTraceMirror;
class RecordingSession;
class TimelineLayout;
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
        // With the default threads, training gives the front end (its thread painting, its
        // render pool) a core back while it uses more than half of one:
        // Trainer::setYieldToInterface.
        bool yield_to_interface = false;
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
    // thread-safe with itself, liveSnapshot() or finish(): one caller at a time.
    std::shared_ptr<Trace> snapshot();
    // What was recorded so far, finalized and laid out (the layout at its default detail).
    struct LiveSnapshot {
        std::shared_ptr<const Trace> trace;
        std::shared_ptr<TimelineLayout> layout;
        bool incremental = false;  // extended an earlier copy (false: built from scratch)
        double traceMs = 0;        // of which bringing the trace copy up to date
        double layoutMs = 0;       // and its layout
    };
    // Drains what was recorded so far and brings one of two alternating copies of the trace and
    // its layout up to date (trace/live_trace_mirror.h): the cost is what was recorded since the
    // copy's last turn, not the whole run. The caller must have dropped the snapshot before last
    // (else that copy is rebuilt from scratch). Same threading rule as snapshot().
    LiveSnapshot liveSnapshot();
    // Waits for the run to end and returns its complete trace. A run that failed keeps what it
    // recorded, with the reason in `error`.
    Result finish();
    // Deletes the journal once the run file is written (after finish()).
    void discardJournal();

  private:
    std::unique_ptr<RecordingSession> m_session;
    std::unique_ptr<LiveTraceMirror> m_mirror;
};

}  // namespace memscope
