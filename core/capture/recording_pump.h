#pragma once

#include "capture/recorder.h"
#include "run/step_metrics.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace memscope {

class RunJournal;
class Trace;

// What every recording does while it runs, in one place: the recorder drained into the trace with
// the steps finished since, and the journal appended (the operator table once a second). The
// built-in trainer's RecordingSession and a Python program's ProgramRecording (python/) both pump
// through it. pump() runs on one thread at a time (a poll thread, the GUI's timer), under
// whatever the owner guards its trace with; addStep() on any thread.
class RecordingPump {
  public:
    RecordingPump(Recorder& recorder, Trace& trace);
    ~RecordingPump();
    RecordingPump(const RecordingPump&) = delete;
    RecordingPump& operator=(const RecordingPump&) = delete;

    // Creates the journal at `path` with what the trace holds now (RunFileError when it cannot).
    void openJournal(const std::string& path);
    // A step finished: it reaches the trace at the next pump().
    void addStep(const StepMetrics& step);
    // Drains the recorder and the finished steps into the trace; with `journal`, appends them to
    // the journal too. Returns the events drained. A journal the disk refuses is dropped, and the
    // run goes on (journalError() says why).
    size_t pump(bool journal = true);
    // The last append, operator table included, synced: once the trace is complete.
    void closeJournal();
    // Deletes the journal: once the run file is safely written.
    void discardJournal();

    const RunJournal* journal() const { return m_journal.get(); }
    const std::string& journalError() const { return m_journalError; }

  private:
    void append(bool final);

    Recorder& m_recorder;
    Trace& m_trace;
    std::mutex m_stepsMutex;
    std::vector<StepMetrics> m_pendingSteps;
    std::unique_ptr<RunJournal> m_journal;
    std::string m_journalError;
};

}  // namespace memscope
