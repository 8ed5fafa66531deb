#include "runs/run_launcher.h"

#include "run_document.h"
#include "run_session.h"
#include "runs/run_controller.h"

#include <QDir>

#include <utility>

namespace memscope {

RunLauncher::RunLauncher(RunSession* session, const QString& keep_directory, QObject* parent)
    : QObject(parent), m_session(session) {
    m_controller = new RunController(this);
    m_controller->setKeepDirectory(keep_directory);
    connect(m_controller, &RunController::snapshotReady, m_session, &RunSession::takeSnapshot);
    connect(
        m_controller, &RunController::stepFinished, this,
        [this](qint64 step, qint64 total, double, double left, qint64 peak, const QString& line) {
            m_step = step;
            m_total = total;
            emit stepped(step, total, left, peak);
            if (!line.isEmpty()) {
                emit logMessage(line);
            }
        });
    connect(m_controller, &RunController::logMessage, this, &RunLauncher::logMessage);
    connect(m_controller, &RunController::finished, this,
            [this](std::shared_ptr<const Trace> trace, std::shared_ptr<TimelineLayout> layout,
                   const RunController::Ending& ending) {
                onFinished(std::move(trace), std::move(layout), ending.cancelled,
                           ending.outOfMemory, ending.outcome, ending.savedPath, ending.kept);
            });

    m_rank_controller = new RankRunController(this);
    m_rank_controller->setKeepDirectory(keep_directory);
    connect(m_rank_controller, &RankRunController::snapshotReady, m_session,
            &RunSession::takeSnapshot);
    connect(m_rank_controller, &RankRunController::logMessage, this, &RunLauncher::logMessage);
    connect(m_rank_controller, &RankRunController::progress, this,
            [this](qint64 done, qint64 total, double left, qint64 peak) {
                m_step = done;
                m_total = total;
                emit stepped(done, total, left, peak);
            });
    connect(m_rank_controller, &RankRunController::ranksChanged, this,
            [this](const QStringList& labels, int shown) {
                // A Python program gets the selector once it has a second process.
                if (!m_rank_controller->request().isPython() || labels.size() > 1) {
                    emit rankLabelsChanged(labels, shown);
                }
            });
    connect(m_rank_controller, &RankRunController::finished, this, &RunLauncher::onRankRunFinished);
    // Choosing a rank while the ranks record: its snapshot follows at the controller's next
    // poll (a recorded run's ranks are the session's).
    connect(m_session->document(), &RunDocument::rankChanged, this, [this](int rank) {
        if (rank >= 0 && m_rank_controller->isActive() && rank != m_rank_controller->shownRank()) {
            m_session->takeSnapshot(nullptr, nullptr);
            m_rank_controller->showRank(rank);
        }
    });
}

bool RunLauncher::isActive() const {
    return m_controller->isActive() || m_rank_controller->isActive();
}

Outcome RunLauncher::start(const RankRunController::Request& request) {
    if (isActive()) {
        return Outcome::failure(tr("A run is already going."));
    }
    // A Python program is followed like a rank, through memscope-cli and its journal.
    const bool cli = request.processes > 1 || request.isPython();
    const Outcome begun = cli ? m_rank_controller->start(request)
                              : m_controller->start(request.options, request.recordShapes);
    if (!begun) {
        return begun;
    }
    m_step = 0;
    m_total = cli ? m_rank_controller->totalSteps()
                  : request.options.num_steps + request.options.warmup_steps;
    m_session->beginLive();
    emit started(m_total);
    if (request.processes > 1 && !request.isPython()) {
        emit rankLabelsChanged(m_rank_controller->rankLabels(), m_rank_controller->shownRank());
    }
    return {};
}

void RunLauncher::stop() {
    m_controller->stop();
    m_rank_controller->stop();
}

QString RunLauncher::describe() const {
    if (m_rank_controller->isActive() && m_rank_controller->request().isPython()) {
        return tr("the Python program %1")
            .arg(m_rank_controller->request().python.join(QLatin1Char(' ')));
    }
    if (m_rank_controller->isActive()) {
        return tr("%1 on %2 processes (%3)")
            .arg(QString::fromStdString(m_rank_controller->request().options.preset))
            .arg(m_rank_controller->worldSize())
            .arg(m_rank_controller->request().parallel);
    }
    return QString::fromStdString(m_controller->options().preset);
}

void RunLauncher::onFinished(std::shared_ptr<const Trace> trace,
                             std::shared_ptr<TimelineLayout> layout, bool cancelled,
                             bool out_of_memory, const Outcome& outcome, const QString& saved_path,
                             const Outcome& keeping) {
    // Nothing recorded is lost: the controller kept every run as a file on its worker, also
    // when it was stopped or ran out of memory. Save As copies it wherever the user wants.
    m_session->finishLive(std::move(trace), std::move(layout), saved_path);
    if (!saved_path.isEmpty()) {
        emit kept(saved_path);
        emit logMessage(tr("The run was kept as %1 (File > Save Run As to put it elsewhere).")
                            .arg(QDir::toNativeSeparators(saved_path)));
    } else if (!keeping) {
        emit logMessage(keeping.message());
    }
    const QString status = out_of_memory ? tr("Out of memory at step %1").arg(m_step + 1)
                           : !outcome    ? tr("Failed")
                           : cancelled ? tr("Stopped after step %1 of %2").arg(m_step).arg(m_total)
                                       : tr("Finished %1 steps").arg(m_total);
    emit finished(status, QString());  // the controller logged the error
}

void RunLauncher::onRankRunFinished(const RankRunController::Ending& ending) {
    const bool python = !ending.runFile.isEmpty();
    QString status;
    if (python && ending.exitCode != 0 && ending.exitCode != 130 && ending.rankFiles > 0) {
        // The program's own failure: its status, and the recording it left.
        status = tr("The program exited with status %1").arg(ending.exitCode);
        emit logMessage(tr("The program exited with status %1; what it recorded is kept.")
                            .arg(ending.exitCode));
    } else if (!ending.outcome) {
        status = tr("Failed: %1").arg(ending.outcome.message().section(QLatin1Char('\n'), 0, 0));
        emit logMessage(tr("The run failed: %1").arg(ending.outcome.message()));
    } else if (ending.cancelled) {
        status = tr("Stopped after step %1 of %2").arg(m_step).arg(m_total);
        emit logMessage(tr("The run was stopped; every rank kept what it recorded."));
    } else {
        status = m_total > 0 ? tr("Finished %1 steps").arg(m_total)
                             : tr("Finished after %n step(s)", nullptr, int(m_step));
        emit logMessage(tr("The run finished."));
    }
    if (ending.rankFiles == 0) {
        emit rankLabelsChanged({}, -1);
        m_session->finishLive(nullptr, nullptr, QString());
        emit logMessage(tr("No rank recorded anything into %1.")
                            .arg(QDir::toNativeSeparators(ending.directory)));
    } else {
        // What the ranks saved, opened as File > Open opens a run directory (a Python
        // program's run file as any run file).
        m_session->open(python ? ending.runFile : ending.directory, RunRange(),
                        m_rank_controller->shownRank());
    }
    emit finished(status, python && ending.rankFiles > 0 ? QString() : ending.outcome.message());
}

}  // namespace memscope
