#pragma once

#include "outcome.h"
#include "runs/rank_run_controller.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

namespace memscope {

class RunController;
class RunSession;
class TimelineLayout;
class Trace;

// Records runs for the window (issue 30): the single-process RunController and the
// multi-process RankRunController behind one start and one stop. Their live snapshots go to the
// run session (controller -> session -> document -> views); when a run ends the session shows
// what was kept (the run file, or the run directory of the ranks). Progress, log lines and how
// the run ended are signals for the status bar and the log.
class RunLauncher : public QObject {
    Q_OBJECT

  public:
    RunLauncher(RunSession* session, const QString& keep_directory, QObject* parent = nullptr);

    RunController* controller() const { return m_controller; }
    RankRunController* rankController() const { return m_rank_controller; }
    bool isActive() const;

    // Starts recording `request.options`: on request.processes processes through memscope-cli
    // when more than one, else on a worker thread here. False with the reason in `error`.
    Outcome start(const RankRunController::Request& request);
    // Stops the run going; everything recorded so far is kept (finished() follows).
    void stop();
    // The run going: "PRESET" or "PRESET on N processes (PARALLEL)".
    QString describe() const;

  signals:
    // A run started: steps in all (warm-up included).
    void started(qint64 total);
    // After each step (the slowest rank's, for several processes), estimated seconds left and
    // the peak so far.
    void stepped(qint64 step, qint64 total, double secondsLeft, qint64 peakBytes);
    void logMessage(const QString& line);
    // A multi-process run's rank labels (each step renames them) and the rank shown.
    void rankLabelsChanged(const QStringList& labels, int shown);
    // The run was kept as PATH (a single-process run; a multi-process run's directory opens in
    // the session).
    void kept(const QString& path);
    // The run ended: a line for the status bar ("Finished 3 steps", "Stopped after step 2 of
    // 3", "Out of memory at step 2", "Failed: ..."), and the error when it failed.
    void finished(const QString& status, const QString& error);

  private:
    void onFinished(std::shared_ptr<const Trace> trace, std::shared_ptr<TimelineLayout> layout,
                    bool cancelled, bool out_of_memory, const Outcome& outcome,
                    const QString& saved_path, const Outcome& keeping);
    void onRankRunFinished(const RankRunController::Ending& ending);

    RunSession* m_session = nullptr;
    RunController* m_controller = nullptr;
    RankRunController* m_rank_controller = nullptr;
    qint64 m_step = 0;
    qint64 m_total = 0;
};

}  // namespace memscope
