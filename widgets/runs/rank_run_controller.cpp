#include "runs/rank_run_controller.h"

#include "common/byte_format.h"
#include "error_text.h"
#include "when_finished.h"

#include "io/journal_reader.h"
#include "io/run_directory.h"
#include "journal_recoverer.h"

#include <nlohmann/json.hpp>
#include "layout/timeline_layout.h"
#include "trace/trace.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFuture>
#include <QProcessEnvironment>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <signal.h>

#include <algorithm>
#include <exception>

namespace memscope {
namespace {

// What one poll of the journals found.
struct PollResult {
    QVector<int64_t> steps;
    QVector<double> stepSeconds;
    QVector<int64_t> peaks;
    QVector<bool> started;
    QStringList problems;  // journals that cannot be read, with the reason
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<TimelineLayout> layout;
    int rank = -1;  // whose trace it is
    // The final job's findings.
    int rankFiles = 0;
    QStringList recovered;
    QStringList recoveryProblems;
};

QString rankPath(const QString& dir, int rank) {
    return QDir(dir).filePath(QString::fromStdString(RunDirectory::rankFileName(rank)));
}

}  // namespace

struct RankRunController::Job {
    QFuture<PollResult> future;
    bool inFlight = false;  // until its result was handled on the GUI thread
};

RankRunController::RankRunController(QObject* parent)
    : QObject(parent), m_cliPath(defaultCliPath()) {
    m_timer = new QTimer(this);
    m_timer->setInterval(100);
    connect(m_timer, &QTimer::timeout, this, &RankRunController::poll);
    m_job = std::make_unique<Job>();
}

RankRunController::~RankRunController() {
    m_timer->stop();
    if (m_process && m_process->state() != QProcess::NotRunning) {
        // As Stop: every rank saves what it recorded. A launcher that does not end in time is
        // killed; its ranks got the signal already and finish on their own.
        disconnect(m_process, nullptr, this, nullptr);
        ::kill(pid_t(m_process->processId()), SIGINT);
        if (!m_process->waitForFinished(60000)) {
            m_process->kill();
            m_process->waitForFinished(5000);
        }
    }
    if (m_job->future.isValid()) {
        m_job->future.waitForFinished();
    }
}

QString RankRunController::defaultCliPath() {
    return QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("memscope-cli"));
}

void RankRunController::setPollInterval(int ms) {
    m_timer->setInterval(std::max(1, ms));
}

int RankRunController::pollInterval() const {
    return m_timer->interval();
}

QString RankRunController::optionsFile(const QString& directory) {
    return QDir(directory).filePath(QStringLiteral("options.json"));
}

QByteArray RankRunController::optionsJson(const TrainOptions& options) {
    nlohmann::json json = options.toJson();
    json["threads"] = options.threads;  // 0: the CLI divides the cores among the ranks
    return QByteArray::fromStdString(json.dump(2));
}

QStringList RankRunController::cliArguments(const Request& request, const QString& directory) {
    if (request.isPython()) {
        // Everything after --python is the program's. The run is rank 0's file, so that the
        // journal is followed and recovered like a rank's.
        return QStringList{
                   QStringLiteral("record"),
                   QStringLiteral("--out"),
                   rankPath(directory, 0),
                   QStringLiteral("--python-exe"),
                   request.pythonExe.isEmpty() ? QStringLiteral("python3") : request.pythonExe,
                   QStringLiteral("--python")} +
               request.python;
    }
    // The training options travel whole, as JSON (optionsFile()); only the run's own are flags.
    QStringList args{QStringLiteral("record"), QStringLiteral("--options"), optionsFile(directory)};
    if (request.recordShapes) {
        args << QStringLiteral("--record-shapes");
    }
    args << QStringLiteral("--nproc") << QString::number(request.processes)
         << QStringLiteral("--parallel") << request.parallel << QStringLiteral("--bucket-mib")
         << QString::number(request.bucketMib, 'g', 17) << QStringLiteral("--out") << directory;
    return args;
}

Outcome RankRunController::start(const Request& asked) {
    Request request = asked;
    if (request.isPython()) {
        request.processes = 1;  // the program is one process; its own threads are recorded
    }
    const auto fail = [](const QString& message) { return Outcome::failure(message); };
    if (m_active) {
        return fail(tr("A run is already going."));
    }
    if (!QFileInfo(m_cliPath).isExecutable()) {
        return fail(tr("A run of several processes needs memscope-cli, which is not at %1.")
                        .arg(QDir::toNativeSeparators(m_cliPath)));
    }
    QString dir = request.directory;
    if (dir.isEmpty()) {
        dir = QDir(m_keepDirectory)
                  .filePath(QStringLiteral("run-%1").arg(QDateTime::currentDateTime().toString(
                      QStringLiteral("yyyyMMdd-HHmmss-zzz"))));
    }
    dir = QFileInfo(dir).absoluteFilePath();
    if (!QDir().mkpath(dir)) {
        return fail(tr("Cannot create the folder %1 for the ranks' files.")
                        .arg(QDir::toNativeSeparators(dir)));
    }

    if (!request.isPython()) {
        QFile options(optionsFile(dir));
        if (!options.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
            options.write(optionsJson(request.options)) < 0 || !options.flush()) {
            return fail(tr("Cannot write the run's options to %1.")
                            .arg(QDir::toNativeSeparators(options.fileName())));
        }
        options.close();
    }

    m_request = request;
    m_directory = dir;
    m_readers.clear();
    m_status = QVector<RankStatus>(request.processes);
    for (int r = 0; r < request.processes; ++r) {
        m_readers.push_back(std::make_unique<JournalReader>(
            QFile::encodeName(JournalRecoverer::journalOf(rankPath(dir, r))).toStdString()));
    }
    m_processFiles.clear();
    m_processNames.clear();
    if (request.isPython()) {
        m_processFiles << rankPath(dir, 0);
        m_processNames << tr("first process");
    }
    m_reported.clear();
    m_errors.clear();
    m_stdoutRest.clear();
    m_stderrRest.clear();
    m_shown = 0;
    m_shownChanged = true;
    m_processDone = false;
    m_cancelled = false;
    m_exitCode = 0;
    m_snapshots = 0;

    delete m_process;
    m_process = new QProcess(this);
    // The ranks are the CLI's; a GUI started inside a torchrun or srun job must not make them
    // join that job.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name :
         {"RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT",
          "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", "OMPI_COMM_WORLD_RANK",
          "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"}) {
        env.remove(QLatin1String(name));
    }
    m_process->setProcessEnvironment(env);
    connect(m_process, &QProcess::readyReadStandardOutput, this,
            [this] { readOutput(QProcess::StandardOutput); });
    connect(m_process, &QProcess::readyReadStandardError, this,
            [this] { readOutput(QProcess::StandardError); });
    connect(m_process, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        readOutput(QProcess::StandardOutput);
        readOutput(QProcess::StandardError);
        m_exitCode = status == QProcess::CrashExit ? -1 : code;
        if (status == QProcess::CrashExit) {
            m_errors << tr("memscope-cli crashed.");
        }
        m_processDone = true;
    });
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) {
            m_errors << tr("Cannot start %1: %2")
                            .arg(QDir::toNativeSeparators(m_cliPath), m_process->errorString());
            m_exitCode = -1;
            m_processDone = true;
        }
    });
    const QStringList args = cliArguments(request, dir);
    if (request.isPython() && !request.workingDirectory.isEmpty()) {
        m_process->setWorkingDirectory(request.workingDirectory);
    }
    m_process->start(m_cliPath, args);
    m_active = true;
    m_timer->start();
    emit started();
    emit logMessage(request.isPython()
                        ? tr("Python program started into %1: memscope-cli %2")
                              .arg(QDir::toNativeSeparators(dir), args.join(QLatin1Char(' ')))
                        : tr("Run started on %1 processes (%2) into %3: memscope-cli %4")
                              .arg(request.processes)
                              .arg(request.parallel, QDir::toNativeSeparators(dir),
                                   args.join(QLatin1Char(' '))));
    emit ranksChanged(rankLabels(), m_shown);
    return {};
}

void RankRunController::stop() {
    if (!m_active || m_processDone || !m_process) {
        return;
    }
    const qint64 pid = m_process->processId();
    if (pid > 0 && !m_cancelled) {
        m_cancelled = true;
        // The CLI's Ctrl+C: the launcher passes it on to every rank.
        ::kill(pid_t(pid), SIGINT);
        emit logMessage(tr("Stopping every rank at its next module boundary..."));
    }
}

void RankRunController::showRank(int rank) {
    if (rank < 0 || rank >= m_status.size() || rank == m_shown) {
        return;
    }
    m_shown = rank;
    m_shownChanged = true;
    emit ranksChanged(rankLabels(), m_shown);
}

qint64 RankRunController::stepsDone(int rank) const {
    return rank >= 0 && rank < m_status.size() ? m_status[rank].steps : 0;
}

qint64 RankRunController::totalSteps() const {
    // A Python program's steps are its own: not known before it ends.
    return m_request.isPython() ? 0 : m_request.options.num_steps + m_request.options.warmup_steps;
}

QStringList RankRunController::rankLabels() const {
    const qint64 total = totalSteps();
    QStringList labels;
    for (int r = 0; r < m_status.size(); ++r) {
        const RankStatus& s = m_status[r];
        const QString name = m_processNames.value(r, QString::number(r));
        labels << (!s.started ? tr("%1 (starting)").arg(name)
                   : total > 0
                       ? tr("%1 (step %2/%3, peak %4)")
                             .arg(name)
                             .arg(s.steps)
                             .arg(total)
                             .arg(bytesText(s.peak))
                       : tr("%1 (step %2, peak %3)").arg(name).arg(s.steps).arg(bytesText(s.peak)));
    }
    return labels;
}

void RankRunController::readOutput(QProcess::ProcessChannel channel) {
    if (!m_process) {
        return;
    }
    const bool err = channel == QProcess::StandardError;
    QString& rest = err ? m_stderrRest : m_stdoutRest;
    rest += QString::fromLocal8Bit(err ? m_process->readAllStandardError()
                                       : m_process->readAllStandardOutput());
    if (m_processDone || m_process->state() == QProcess::NotRunning) {
        if (!rest.isEmpty() && !rest.endsWith(QLatin1Char('\n'))) {
            rest += QLatin1Char('\n');
        }
    }
    qsizetype end;
    while ((end = rest.indexOf(QLatin1Char('\n'))) >= 0) {
        const QString line = rest.left(end).trimmed();
        rest.remove(0, end + 1);
        if (line.isEmpty()) {
            continue;
        }
        if (err && line.contains(QLatin1String("error:"))) {
            m_errors << line;
        }
        emit logMessage(line);
    }
}

void RankRunController::poll() {
    if (!m_active || m_job->inFlight) {
        return;
    }
    if (m_processDone) {
        launchFinish();
    } else {
        launchPoll();
    }
}

void RankRunController::followProgramProcesses() {
    const QDir staging(rankPath(m_directory, 0) + QStringLiteral(".procs"));
    if (!staging.exists()) {
        return;
    }
    bool changed = false;
    const QStringList journals =
        staging.entryList({QStringLiteral("proc-*.memscope.journal")}, QDir::Files, QDir::Name);
    for (const QString& journal : journals) {
        const QString run = staging.filePath(journal.chopped(8));  // without ".journal"
        if (m_processFiles.contains(run)) {
            continue;
        }
        m_processFiles << run;
        m_processNames << QString();
        m_readers.push_back(std::make_unique<JournalReader>(
            QFile::encodeName(JournalRecoverer::journalOf(run)).toStdString()));
        m_status.append(RankStatus());
        changed = true;
    }
    // Names from the sidecars: "rank 1 (pid 4242)" once the process joined its group.
    for (int i = 1; i < m_processFiles.size(); ++i) {
        const QString pid = QFileInfo(m_processFiles[i]).completeBaseName().mid(5);  // proc-PID
        // Until its sidecar says more (and after it is gone: the name seen last stays).
        QString name = m_processNames[i].isEmpty() ? tr("process %1").arg(pid) : m_processNames[i];
        QFile sidecar(staging.filePath(QStringLiteral("proc-%1.json").arg(pid)));
        if (sidecar.open(QIODevice::ReadOnly)) {
            const auto info =
                nlohmann::json::parse(sidecar.readAll().toStdString(), nullptr, false);
            if (info.is_object() && info.contains("group_rank") && info["group_rank"].is_number()) {
                name = tr("rank %1 (pid %2)").arg(info["group_rank"].get<int>()).arg(pid);
            } else if (info.is_object() && info.contains("role") && info["role"].is_string()) {
                name =
                    tr("%1 %2").arg(QString::fromStdString(info["role"].get<std::string>()), pid);
            }
        }
        if (name != m_processNames[i]) {
            m_processNames[i] = name;
            changed = true;
        }
    }
    if (changed) {
        emit ranksChanged(rankLabels(), m_shown);
    }
}

void RankRunController::launchPoll() {
    if (m_request.isPython()) {
        followProgramProcesses();
    }
    std::vector<JournalReader*> readers;
    for (auto& r : m_readers) {
        readers.push_back(r.get());
    }
    const int shown = m_shown;
    const bool force = m_shownChanged;
    m_shownChanged = false;
    m_job->inFlight = true;
    m_job->future = QtConcurrent::run([readers, shown, force]() -> PollResult {
        PollResult p;
        for (size_t r = 0; r < readers.size(); ++r) {
            JournalReader* reader = readers[r];
            int64_t taken = 0;
            try {
                taken = reader->poll();
            } catch (const std::exception& e) {
                p.problems << errorText(e);
            }
            if (reader->failed()) {
                p.problems << QStringLiteral("%1: %2").arg(QString::fromStdString(reader->path()),
                                                           errorText(reader->stopReason()));
            }
            double seconds = 0;
            for (const auto& s : reader->steps()) {
                seconds += s.total_s;
            }
            p.steps << int64_t(reader->steps().size());
            p.stepSeconds << seconds;
            p.peaks << reader->peakAllocated();
            p.started << reader->hasRun();
            if (int(r) == shown && reader->hasRun() && (taken > 0 || force)) {
                try {
                    auto trace = std::make_shared<Trace>(reader->trace());
                    p.layout = std::make_shared<TimelineLayout>(*trace);
                    p.trace = std::move(trace);
                    p.rank = shown;
                } catch (const std::exception& e) {
                    p.problems << errorText(e);
                }
            }
        }
        return p;
    });
    whenFinished(this, m_job->future, [this](PollResult p) {
        m_job->inFlight = false;
        QVector<RankStatus> status(p.steps.size());
        for (int r = 0; r < status.size(); ++r) {
            status[r].steps = p.steps[r];
            status[r].stepSeconds = p.stepSeconds[r];
            status[r].peak = p.peaks[r];
            status[r].started = p.started[r];
        }
        applyStatus(status, p.problems);
        if (p.trace && p.rank == m_shown) {
            ++m_snapshots;
            emit snapshotReady(p.trace, p.layout);
        } else if (p.trace) {
            m_shownChanged = true;  // the user chose another rank meanwhile
        }
    });
}

void RankRunController::applyStatus(const QVector<RankStatus>& status,
                                    const QStringList& problems) {
    for (const QString& problem : problems) {
        if (!m_reported.contains(problem)) {
            m_reported << problem;
            emit logMessage(tr("Cannot follow a rank live: %1").arg(problem));
        }
    }
    bool changed = false;
    for (int r = 0; r < status.size() && r < m_status.size(); ++r) {
        const RankStatus& s = status[r];
        RankStatus& mine = m_status[r];
        // A rank's journal is removed once its run file is written: keep what was seen.
        if (s.steps < mine.steps || (!s.started && mine.started)) {
            continue;
        }
        if (s.steps != mine.steps || s.peak != mine.peak || s.started != mine.started) {
            mine = s;
            changed = true;
        }
    }
    if (!changed) {
        return;
    }
    emit ranksChanged(rankLabels(), m_shown);
    const qint64 total = totalSteps();
    qint64 done = -1;  // the slowest rank's steps
    qint64 peak = 0;
    double per_step = 0;
    for (const RankStatus& s : m_status) {
        done = done < 0 ? s.steps : std::min(done, s.steps);
        peak = std::max(peak, s.peak);
        if (s.steps > 0) {
            per_step = std::max(per_step, s.stepSeconds / double(s.steps));
        }
    }
    done = std::max<qint64>(done, 0);
    emit progress(done, total, total > 0 ? per_step * double(total - done) : 0, peak);
}

void RankRunController::launchFinish() {
    m_timer->stop();
    const QString dir = m_directory;
    const int world = m_request.processes;
    m_readers.clear();  // the journals are read once more, whole, where a rank left one
    m_job->inFlight = true;
    m_job->future = QtConcurrent::run([dir, world]() -> PollResult {
        PollResult p;
        for (int r = 0; r < world; ++r) {
            const QString run = rankPath(dir, r);
            const QString journal = JournalRecoverer::journalOf(run);
            if (QFile::exists(run)) {
                ++p.rankFiles;
                continue;
            }
            if (!QFile::exists(journal)) {
                continue;
            }
            // The rank died before it saved: its file is rebuilt from what it journaled.
            try {
                const QString what = JournalRecoverer::recoverRun(journal, run);
                ++p.rankFiles;
                p.recovered << tr("rank %1: %2").arg(r).arg(what);
            } catch (const std::exception& e) {
                p.recoveryProblems << tr("rank %1: %2").arg(r).arg(errorText(e));
            }
        }
        return p;
    });
    whenFinished(this, m_job->future, [this](PollResult p) {
        m_job->inFlight = false;
        Ending ending;
        ending.directory = m_directory;
        if (m_request.isPython()) {
            ending.runFile = rankPath(m_directory, 0);
        }
        ending.exitCode = m_exitCode;
        ending.cancelled = m_cancelled || m_exitCode == 130;
        ending.rankFiles = p.rankFiles;
        ending.recoveredRanks = p.recovered;
        ending.recoveryProblems = p.recoveryProblems;
        if (m_exitCode != 0 && m_exitCode != 130) {
            ending.outcome = Outcome::failure(
                m_errors.isEmpty() ? tr("memscope-cli exited with status %1.").arg(m_exitCode)
                                   : m_errors.join(QLatin1Char('\n')));
        }
        for (const QString& line : p.recovered) {
            emit logMessage(tr("Rebuilt from its journal: %1").arg(line));
        }
        for (const QString& line : p.recoveryProblems) {
            emit logMessage(tr("Could not rebuild from its journal: %1").arg(line));
        }
        m_active = false;
        emit finished(ending);
    });
}

}  // namespace memscope
