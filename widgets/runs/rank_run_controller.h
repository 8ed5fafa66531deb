#pragma once

#include "outcome.h"
#include "run/train_options.h"

#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QVector>

#include <cstdint>
#include <memory>
#include <vector>

class QTimer;

namespace memscope {

class JournalReader;
class TimelineLayout;
class Trace;

// A multi-process run started from the GUI, or a Python program's (Request::python), recorded the
// same way on one process. The ranks are memscope-cli's own: the controller
// starts `memscope-cli record --nproc N --parallel S --out DIR ...` (found next to the GUI's
// executable) with the run panel's options, and follows every rank live by reading the journal
// each rank streams beside its run file (DIR/rankR.memscope.journal, io/run_journal.h) with a
// JournalReader per rank, which reads only what was appended since the last poll. Every poll
// interval a worker job polls the readers and, when the rank shown grew (or another rank was
// chosen), copies its trace and lays it out; at most one job is in flight. stop() sends the
// launcher SIGINT, the CLI's Ctrl+C path: every rank stops and saves its file. When the CLI has
// exited, a rank that left only a journal (killed, crashed) gets its run file rebuilt from it,
// and finished() hands over the run directory to open.
//
// A Python program that starts processes of its own (torch.multiprocessing.spawn, torchrun,
// subprocess) is followed the same way, process by process: every poll looks in the staging
// folder the recorder's processes write to (RUN.procs, io/program_processes.h) for journals not
// followed yet, and each becomes one more entry of the selector, named from its sidecar
// (proc-PID.json: its rank once init_process_group ran, else its role, and its pid); the first
// entry is the program's first process.
class RankRunController : public QObject {
    Q_OBJECT

  public:
    struct Request {
        TrainOptions options;
        bool recordShapes = false;
        int processes = 2;
        QString parallel = QStringLiteral("ddp");
        double bucketMib = 25;
        QString directory;  // empty: a new run-<time> folder in the keep directory
        // A Python program instead of the built-in trainer (issue 32): its script and arguments
        // (or -m MODULE and arguments), run by `memscope-cli record --python` with pythonExe
        // in workingDirectory, on one process; `options` and the multi-process fields are
        // unused then.
        QStringList python;
        QString pythonExe = QStringLiteral("python3");
        QString workingDirectory;
        bool isPython() const { return !python.isEmpty(); }
    };

    // How a run ended.
    struct Ending {
        QString directory;  // the run directory
        QString runFile;    // a Python program's run file (DIR/rank0.memscope), else empty
        int exitCode = 0;   // memscope-cli's: 0 finished, 130 stopped, 2 bad options, else failed
        bool cancelled = false;
        Outcome outcome;    // failed with the CLI's error lines when a rank or the CLI failed
        int rankFiles = 0;  // ranks with a run file in the directory
        QStringList recoveredRanks;    // "rank N: recovered ..." for files rebuilt from journals
        QStringList recoveryProblems;  // journals that could not be rebuilt, and why
    };

    explicit RankRunController(QObject* parent = nullptr);
    // A run still going is stopped (SIGINT, as Stop) and waited for.
    ~RankRunController() override;

    // memscope-cli beside the running executable (the two are built and installed together).
    static QString defaultCliPath();
    void setCliPath(const QString& path) { m_cliPath = path; }
    QString cliPath() const { return m_cliPath; }
    // Where a run without its own directory records: DIR/run-<time>/.
    void setKeepDirectory(const QString& dir) { m_keepDirectory = dir; }
    // Milliseconds between polls of the journals (default 100).
    void setPollInterval(int ms);
    int pollInterval() const;

    // The memscope-cli arguments for `request` recording into `directory`: the training
    // options as a JSON file (optionsFile(), written by start()), the run's own as flags.
    static QStringList cliArguments(const Request& request, const QString& directory);
    // Steps of the run in all (0: not known, a Python program's).
    qint64 totalSteps() const;
    // DIRECTORY/options.json, and what start() writes there: TrainOptions::toJson, the
    // threads as asked (0: the CLI's share of the cores per rank).
    static QString optionsFile(const QString& directory);
    static QByteArray optionsJson(const TrainOptions& options);
    // Starts the ranks. False with the reason in `error` when a run is going, memscope-cli is
    // not there, or the directory cannot be made.
    Outcome start(const Request& request);
    // Stops every rank; each keeps what it recorded. finished() follows.
    void stop();
    bool isActive() const { return m_active; }
    const Request& request() const { return m_request; }
    QString directory() const { return m_directory; }
    int worldSize() const { return m_request.processes; }

    // The rank whose live trace snapshotReady() carries; the next poll shows it.
    void showRank(int rank);
    int shownRank() const { return m_shown; }
    // Steps finished by `rank` as its journal says so far.
    qint64 stepsDone(int rank) const;
    // One label per rank for the rank selector ("1 (step 3/10, peak 2.1 MiB)").
    QStringList rankLabels() const;
    int64_t snapshotCount() const { return m_snapshots; }

  signals:
    void started();
    // A newer state of the shown rank, laid out off the GUI thread.
    void snapshotReady(std::shared_ptr<const memscope::Trace> trace,
                       std::shared_ptr<memscope::TimelineLayout> layout);
    // Steps every rank has finished (the slowest rank's count), of how many, estimated seconds
    // left and the largest peak of any rank so far.
    void progress(qint64 stepsDone, qint64 total, double secondsLeft, qint64 peakBytes);
    // The labels of rankLabels() changed.
    void ranksChanged(const QStringList& labels, int shown);
    // A line of the CLI's output, or the controller's own.
    void logMessage(const QString& line);
    void finished(const memscope::RankRunController::Ending& ending);

  private:
    struct RankStatus {
        qint64 steps = 0;
        double stepSeconds = 0;  // sum over the finished steps
        qint64 peak = 0;
        bool started = false;  // the journal holds the run's metadata
    };
    struct Job;
    void poll();
    void launchPoll();
    void launchFinish();
    void readOutput(QProcess::ProcessChannel channel);
    void applyStatus(const QVector<RankStatus>& status, const QStringList& problems);
    // A Python program's processes: new journals in the staging folder get readers, and the
    // names of those followed are read again from their sidecars (a rank is known late).
    void followProgramProcesses();

    QProcess* m_process = nullptr;
    QTimer* m_timer = nullptr;
    QString m_cliPath;
    QString m_keepDirectory;
    Request m_request;
    QString m_directory;
    std::vector<std::unique_ptr<JournalReader>> m_readers;
    QStringList m_processFiles;  // a Python program's: the staged run file each reader follows
    QStringList m_processNames;  // a Python program's: the selector's name of each reader
    std::unique_ptr<Job> m_job;
    QVector<RankStatus> m_status;
    QStringList m_reported;  // journal problems already logged
    QStringList m_errors;    // the CLI's error lines
    QString m_stdoutRest;
    QString m_stderrRest;
    int m_shown = 0;
    bool m_shownChanged = false;
    bool m_active = false;
    bool m_processDone = false;
    bool m_cancelled = false;
    int m_exitCode = 0;
    int64_t m_snapshots = 0;
};

}  // namespace memscope
