#pragma once

#include "run/step_metrics.h"
#include "run/train_options.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace memscope {

class TimelineLayout;
class Trace;

// A recorded run as a front end drives it, with no LibTorch behind this header: LiveSession
// (capture/live_session.h, in memscope_core) implements it, and the GUI holds one made by the
// LibTorch part it loads at run time (torchpart/torch_part.h), so that the GUI itself links no
// LibTorch (issue 31).
class LiveRun {
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
    // What was recorded so far, finalized and laid out (the layout at its default detail).
    struct LiveSnapshot {
        std::shared_ptr<const Trace> trace;
        std::shared_ptr<TimelineLayout> layout;
        bool incremental = false;  // extended an earlier copy (false: built from scratch)
        double traceMs = 0;        // of which bringing the trace copy up to date
        double layoutMs = 0;       // and its layout
    };

    LiveRun() = default;
    virtual ~LiveRun() = default;  // cancels and joins a run still going
    LiveRun(const LiveRun&) = delete;
    LiveRun& operator=(const LiveRun&) = delete;

    // Called on the training thread after every step.
    virtual void setStepCallback(std::function<void(const StepMetrics&)> callback) = 0;
    // Validates the options (throws ConfigError naming the option) and starts the run.
    virtual void start() = 0;
    virtual bool running() const = 0;
    virtual void cancel() = 0;

    // Drains what was recorded so far and returns a finalized copy of the whole trace. Not
    // thread-safe with itself, liveSnapshot() or finish(): one caller at a time.
    virtual std::shared_ptr<Trace> snapshot() = 0;
    // Drains what was recorded so far and brings one of two alternating copies of the trace and
    // its layout up to date (layout/live_trace_mirror.h): the cost is what was recorded since the
    // copy's last turn, not the whole run. The caller must have dropped the snapshot before last
    // (else that copy is rebuilt from scratch). Same threading rule as snapshot().
    virtual LiveSnapshot liveSnapshot() = 0;
    // Waits for the run to end and returns its complete trace. A run that failed keeps what it
    // recorded, with the reason in `error`.
    virtual Result finish() = 0;
    // Deletes the journal once the run file is written (after finish()).
    virtual void discardJournal() = 0;
};

}  // namespace memscope
