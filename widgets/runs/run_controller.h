#pragma once

#include "outcome.h"
#include "run/train_options.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <cstdint>
#include <memory>

class QTimer;

namespace memscope {

class TimelineLayout;
class Trace;

// Runs a recorded training run for the GUI. The trainer works on its own thread (a LiveRun: a
// LiveSession made by the LibTorch part, which the first run loads, TorchPartLoader); every
// pollInterval the controller hands the
// new events to a worker job that appends them to the snapshot of the refresh before last and
// extends its layout (LiveRun::liveSnapshot: the cost is what was recorded since, not the
// run), and emits snapshotReady() with the result on the GUI thread; each snapshot extends the one
// shown before it (events only appended). At most one job is in flight, so a slow refresh lowers
// the refresh rate instead of queueing work; the GUI thread itself never touches the events, which
// keeps its event loop free while training runs. A stopped, failed or out-of-memory run ends like
// a finished one: finished() carries the complete trace of everything recorded, finalized and laid
// out from scratch.
class RunController : public QObject {
    Q_OBJECT

  public:
    // How a run ended.
    struct Ending {
        bool cancelled = false;
        bool outOfMemory = false;
        Outcome outcome;  // failed with why when the run failed or ran out of memory
        QString summary;  // the workshop-style performance summary
        int64_t peakBytes = 0;
        QString savedPath;  // where the run was kept (see setKeepDirectory), or empty
        Outcome kept;       // failed with why when it could not be kept
    };

    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;  // stops a run still going and waits for it

    // Starts a run; `record_shapes` also records op input shapes (FLOPs, roofline). Returns
    // false and sets `error` (naming the option) when the options cannot run or a run is
    // already going.
    Outcome start(const TrainOptions& options, bool record_shapes = false);
    // Asks the run to stop at the next module boundary; finished() follows.
    void stop();
    bool isRunning() const;
    // True from start() until finished() was emitted (the last snapshot and the final trace are
    // still being built for a moment after the trainer stopped).
    bool isActive() const { return m_active; }

    // Every run that recorded something is written to DIR/run-<time>.memscope on the worker
    // when it ends (empty: not kept). While it runs it is journaled to
    // DIR/run-<time>.memscope.journal, which a later start can recover if the app dies.
    void setKeepDirectory(const QString& dir) { m_keepDirectory = dir; }
    // With the default threads, whether training gives the interface a core back while the
    // interface needs more than half of one (LiveRun::Options::yield_to_interface). On by
    // default; benchmarks turn it off to compare.
    void setYieldToInterface(bool yield) { m_yieldToInterface = yield; }
    // Milliseconds between polls (default 50).
    void setPollInterval(int ms);
    int pollInterval() const;
    const TrainOptions& options() const { return m_options; }
    // Snapshots emitted so far in this run (tests and the stall benchmark read it).
    int64_t snapshotCount() const { return m_snapshots; }

    // What a live refresh cost: milliseconds on the worker (draining the new events and bringing
    // the snapshot and its layout up to date) and on the GUI thread (everything connected to
    // snapshotReady), and the events it showed.
    struct RefreshStats {
        double workerMs = 0;
        double guiMs = 0;
        int64_t events = 0;
        bool incremental = false;  // extended the previous state (false: built from scratch)
        // Of workerMs, incremental refreshes only: appending the new events to the trace copy
        // and pairing them, and extending the layout (the rest drains the recorder).
        double traceMs = 0;
        double layoutMs = 0;
    };
    // The last live refresh (updated after snapshotReady's slots have returned).
    const RefreshStats& lastRefresh() const { return m_lastRefresh; }
    // Live refreshes extend the snapshot and layout of the one before last (the default), or
    // copy, finalize and lay out the whole trace every time (false: the way before issue 11,
    // kept for comparison, bench_gui_live --full-refresh). Takes effect at the next start().
    void setIncrementalRefresh(bool on) { m_incremental = on; }
    bool incrementalRefresh() const { return m_incremental; }

  signals:
    void started();
    // A newer state of the run, laid out. Emitted on the GUI thread.
    void snapshotReady(std::shared_ptr<const memscope::Trace> trace,
                       std::shared_ptr<memscope::TimelineLayout> layout);
    // After each step: its number, of how many, seconds it took, estimated seconds left, the
    // peak so far, and the line the CLI prints for it.
    void stepFinished(qint64 step, qint64 total, double stepSeconds, double secondsLeft,
                      qint64 peakBytes, const QString& line);
    void logMessage(const QString& line);
    void finished(std::shared_ptr<const memscope::Trace> trace,
                  std::shared_ptr<memscope::TimelineLayout> layout,
                  const memscope::RunController::Ending& ending);

  private:
    struct Session;
    void poll();
    // Whether the snapshot shown before last, which the next incremental refresh writes, is
    // still held by a reader (the timeline rendering it), for at most kMaxWaitForReadersMs.
    bool snapshotBeforeLastHeld();
    void launchSnapshot(bool final);
    // A snapshot job threw: a live refresh stops the live view (the run goes on); the run's end
    // ends the run with the failure as its error.
    void onSnapshotFailed(bool final, const QString& failure);
    void onStep(int64_t step, bool warmup, double loss, double seconds, int64_t peak);

    std::unique_ptr<Session> m_session;
    QTimer* m_timer = nullptr;
    TrainOptions m_options;
    QString m_keepDirectory;
    bool m_yieldToInterface = true;
    QString m_runPath;  // where this run will be kept (its journal is PATH.journal), or empty
    std::weak_ptr<const Trace> m_trace;       // the latest snapshot (the document holds it)
    std::weak_ptr<const Trace> m_newest;      // m_trace at the last poll
    std::weak_ptr<const Trace> m_beforeLast;  // the snapshot shown before it
    QElapsedTimer m_heldSince;                // since when a poll waits for its readers
    static constexpr qint64 kMaxWaitForReadersMs = 1000;
    bool m_active = false;
    bool m_jobInFlight = false;
    bool m_finishing = false;
    bool m_liveFailed = false;  // a live refresh threw: only the run's end is fetched now
    int64_t m_snapshots = 0;
    RefreshStats m_lastRefresh;
    bool m_incremental = true;
    int64_t m_stepsDone = 0;
    int64_t m_peak = 0;
    double m_stepSeconds = 0;  // sum over finished steps
};

}  // namespace memscope
