#pragma once

#include "capture/recorder.h"
#include "capture/recording_pump.h"
#include "train/trainer.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace memscope {

// A training run recorded into a Trace: the trainer runs on its own thread; the owner pulls
// events into the trace with poll() as often as it likes (the GUI every ~50 ms, the CLI too) and
// finish() joins the run and completes the trace (metadata, operators, steps, summary, categories).
// A cancelled or out-of-memory run keeps everything recorded up to its end.
// With a journal (setJournal), every poll also appends what it drained to the journal on disk
// (io/run_journal.h), from the polling thread, so that a run killed before it writes its run
// file can be recovered; the owner deletes the journal with discardJournal() once the run file
// is written.
class RunJournal;

class RecordingSession {
  public:
    RecordingSession(TrainOptions options, Recorder::Options recorder_options = {});
    ~RecordingSession();  // cancels and joins a run still going

    // Called on the training thread after every step.
    void setStepCallback(std::function<void(const StepMetrics&)> callback);
    void setMeasurePeakFlops(bool measure);
    // See Trainer::setYieldToInterface.
    void setYieldToInterface(bool yield);
    // One rank of a multi-process run: see Trainer::setDistributed.
    void setDistributed(std::shared_ptr<DistributedContext> context, ParallelMode mode,
                        int64_t bucket_bytes) {
        m_trainer.setDistributed(std::move(context), mode, bucket_bytes);
    }
    // Streams the run to the journal at PATH (created by start(), which throws RunFileError when
    // it cannot be). Ignored for bounded runs (Recorder::Options::max_events): they keep only the
    // newest events by design, and a journal of all of them would grow without bound.
    void setJournal(std::string path);

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
    // The journal, or null (none asked for, bounded run, or dropped after a write error).
    const RunJournal* journal() const { return m_pump.journal(); }
    // Why the journal was dropped during the run (the disk refused a write), or "".
    const std::string& journalError() const { return m_pump.journalError(); }
    // Deletes the journal: call once the run file is safely written.
    void discardJournal() { m_pump.discardJournal(); }

  private:
    TrainOptions m_options;
    std::unique_ptr<Recorder> m_recorder;
    int64_t m_maxEvents = 0;
    Trainer m_trainer;
    Trace m_trace;
    RunSummary m_summary;
    std::thread m_thread;
    std::atomic<bool> m_done{true};
    std::exception_ptr m_failure;
    bool m_finished = false;
    std::function<void(const StepMetrics&)> m_stepCallback;
    std::string m_journalPath;
    RecordingPump m_pump;  // the recorder and finished steps into m_trace, and the journal
};

}  // namespace memscope
