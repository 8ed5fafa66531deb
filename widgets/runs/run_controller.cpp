#include "runs/run_controller.h"

#include "common/byte_format.h"
#include "error_text.h"
#include "run_session.h"
#include "runs/torch_part_loader.h"
#include "when_finished.h"

#include "capture/live_run.h"
#include "layout/timeline_layout.h"
#include "torchpart/torch_part.h"
#include "trace/trace.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFuture>
#include <QLocale>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <exception>

namespace memscope {
namespace {

struct Snapshot {
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<TimelineLayout> layout;
    RunController::Ending ending;
    double workerMs = 0;
    bool incremental = false;
    double traceMs = 0;
    double layoutMs = 0;
    // What went wrong when the job threw (a failed drain, memory the system refused); the
    // snapshot carries nothing else then. Before, such a job's future held no result, its
    // handler never ran, and the run was not polled again: the window waited for good.
    QString failure;
};

// The job of a poll, on the pool's thread: a live snapshot, or the run's end (final: its
// result, kept as a file at `path`).
Snapshot takeSnapshot(LiveRun* recording, bool final, const QString& path, bool incremental) {
    QElapsedTimer clock;
    clock.start();
    Snapshot s;
    std::shared_ptr<Trace> trace;
    if (final) {
        LiveRun::Result result = recording->finish();
        s.ending.cancelled = result.cancelled;
        s.ending.outOfMemory = result.out_of_memory;
        s.ending.outcome = Outcome::ofMessage(errorText(result.error));
        s.ending.summary = QString::fromStdString(result.summary);
        s.ending.peakBytes = result.peak_bytes;
        trace = std::move(result.trace);
        if (path.isEmpty() || !trace || trace->events.count() == 0) {
            recording->discardJournal();  // nothing to keep
        } else {
            if (const Outcome written = RunSession::writeRunFile(*trace, path); written) {
                s.ending.savedPath = path;
                recording->discardJournal();
            } else {
                s.ending.kept =
                    Outcome::failure(RunController::tr("Could not keep the run as %1: %2")
                                         .arg(QDir::toNativeSeparators(path), written.message()));
            }
        }
    } else if (incremental) {
        // The snapshot and layout of the refresh before last, extended by what was
        // recorded since (core/layout/live_trace_mirror.h).
        LiveRun::LiveSnapshot live = recording->liveSnapshot();
        s.layout = std::move(live.layout);
        s.trace = std::move(live.trace);
        s.incremental = live.incremental;
        s.traceMs = live.traceMs;
        s.layoutMs = live.layoutMs;
        s.workerMs = double(clock.nsecsElapsed()) / 1e6;
        return s;
    } else {
        trace = recording->snapshot();
    }
    s.layout = std::make_shared<TimelineLayout>(*trace);
    s.trace = std::move(trace);
    s.workerMs = double(clock.nsecsElapsed()) / 1e6;
    return s;
}

}  // namespace

struct RunController::Session {
    std::unique_ptr<LiveRun> recording;  // a LiveSession of the LibTorch part
    QFuture<Snapshot> job;               // the snapshot or final job in flight
};

RunController::RunController(QObject* parent) : QObject(parent) {
    m_timer = new QTimer(this);
    m_timer->setInterval(50);
    connect(m_timer, &QTimer::timeout, this, &RunController::poll);
}

RunController::~RunController() {
    m_timer->stop();
    if (m_session) {
        if (m_session->recording) {
            m_session->recording->cancel();
        }
        if (m_session->job.isValid()) {
            m_session->job.waitForFinished();
        }
    }
}

void RunController::setPollInterval(int ms) {
    m_timer->setInterval(std::max(1, ms));
}

int RunController::pollInterval() const {
    return m_timer->interval();
}

bool RunController::isRunning() const {
    return m_session && m_session->recording && m_session->recording->running();
}

Outcome RunController::start(const TrainOptions& options, bool record_shapes) {
    if (m_active) {
        return Outcome::failure(tr("A run is already going."));
    }
    auto session = std::make_unique<Session>();
    try {
        options.validate();
        // The first run loads the LibTorch part (unless the window loaded it meanwhile); without
        // it the run cannot start, and the message names the library.
        TorchPart* part = TorchPartLoader::part();
        if (!part) {
            return TorchPartLoader::outcome();
        }
        LiveRun::Options live;
        live.record_shapes = record_shapes;
        live.yield_to_interface = m_yieldToInterface;
        m_runPath.clear();
        if (!m_keepDirectory.isEmpty()) {
            // Named now, so that the journal beside it is found again if the app dies.
            QDir().mkpath(m_keepDirectory);
            m_runPath = QDir(m_keepDirectory)
                            .filePath(QStringLiteral("run-%1.memscope")
                                          .arg(QDateTime::currentDateTime().toString(
                                              QStringLiteral("yyyyMMdd-HHmmss-zzz"))));
            live.journal_path =
                QFile::encodeName(m_runPath + QStringLiteral(".journal")).toStdString();
        }
        session->recording = part->createLiveRun(options, live);
        session->recording->setStepCallback([this](const StepMetrics& s) {
            // Training thread: hand the figures to the GUI thread. Dropped with the controller.
            QMetaObject::invokeMethod(
                this,
                [this, step = s.step, warmup = s.warmup, loss = s.loss, seconds = s.total_s,
                 peak = s.peak_allocated_bytes] { onStep(step, warmup, loss, seconds, peak); },
                Qt::QueuedConnection);
        });
        session->recording->start();
    } catch (const std::exception& e) {
        return Outcome::failure(errorText(e));
    }
    m_session = std::move(session);
    m_options = options;
    m_trace.reset();
    m_newest.reset();
    m_beforeLast.reset();
    m_active = true;
    m_finishing = false;
    m_jobInFlight = false;
    m_liveFailed = false;
    m_snapshots = 0;
    m_stepsDone = 0;
    m_peak = 0;
    m_stepSeconds = 0;
    m_timer->start();
    emit started();
    emit logMessage(tr("Run started: %1, batch %2, sequence %3, %4 steps, %5, attention %6, "
                       "checkpointing %7, %8")
                        .arg(QString::fromStdString(options.preset))
                        .arg(options.batch_size)
                        .arg(options.seq_len)
                        .arg(options.num_steps + options.warmup_steps)
                        .arg(QString::fromStdString(toString(options.dtype)),
                             QString::fromStdString(toString(options.attention)),
                             QString::fromStdString(toString(options.checkpointing)),
                             QString::fromStdString(toString(options.profile))));
    return {};
}

void RunController::stop() {
    if (m_session && m_session->recording && m_active) {
        m_session->recording->cancel();
        emit logMessage(tr("Stopping at the next module boundary..."));
    }
}

void RunController::onStep(int64_t step, bool warmup, double loss, double seconds, int64_t peak) {
    if (!m_active) {
        return;
    }
    const int64_t total = m_options.num_steps + m_options.warmup_steps;
    m_stepsDone = step;
    m_stepSeconds += seconds;
    m_peak = std::max(m_peak, peak);
    const double left = step > 0 ? m_stepSeconds / double(step) * double(total - step) : 0.0;
    const QString line = tr("Step %1/%2%3: Loss = %4, Time = %5 seconds, Peak = %6")
                             .arg(step)
                             .arg(total)
                             .arg(warmup ? tr(" (warmup)") : QString())
                             .arg(loss, 0, 'f', 4)
                             .arg(seconds, 0, 'f', 3)
                             .arg(bytesText(peak));
    emit stepFinished(step, total, seconds, left, m_peak, line);
}

void RunController::poll() {
    if (!m_session || m_jobInFlight) {
        return;
    }
    const bool final = !m_session->recording->running();
    if (!final && (m_liveFailed || snapshotBeforeLastHeld())) {
        return;  // the next poll tries again (after a failed refresh, only the run's end)
    }
    launchSnapshot(final);
}

bool RunController::snapshotBeforeLastHeld() {
    const std::shared_ptr<const Trace> latest = m_trace.lock();
    if (latest != m_newest.lock()) {  // a snapshot was shown since the last poll
        m_beforeLast = m_newest;
        m_newest = latest;
        m_heldSince.invalidate();
    }
    // The mirror (not the full path) writes the snapshot shown before last next; the mirror's
    // own reference is one. Others hold it while the timeline renders it in the background:
    // waiting a poll or two for that keeps the refresh incremental (else it is rebuilt from
    // scratch), so that a slow render lowers the refresh rate. Bounded, in case a reader keeps
    // it for good.
    if (!m_incremental || m_beforeLast.use_count() <= 1) {
        m_heldSince.invalidate();
        return false;
    }
    if (!m_heldSince.isValid()) {
        m_heldSince.start();
    }
    return m_heldSince.elapsed() < kMaxWaitForReadersMs;
}

void RunController::onSnapshotFailed(bool final, const QString& failure) {
    if (!final) {
        // The run and its journal go on; the window shows the run again when it ends.
        m_liveFailed = true;
        emit logMessage(tr("The live view stopped updating: %1. The run goes on and is shown "
                           "when it ends.")
                            .arg(failure));
        return;
    }
    m_active = false;
    Ending ending;
    ending.outcome = Outcome::ofMessage(failure);
    emit logMessage(m_runPath.isEmpty()
                        ? tr("The run failed: %1").arg(failure)
                        : tr("The run failed: %1. Its journal is kept: Memscope offers to recover "
                             "it when it starts next.")
                              .arg(failure));
    emit finished(nullptr, nullptr, ending);
}

void RunController::launchSnapshot(bool final) {
    m_jobInFlight = true;
    if (final) {
        m_finishing = true;
        m_timer->stop();
    }
    LiveRun* recording = m_session->recording.get();
    const QString path = final ? m_runPath : QString();
    const bool incremental = m_incremental;
    m_session->job = QtConcurrent::run([recording, final, path, incremental]() -> Snapshot {
        try {
            return takeSnapshot(recording, final, path, incremental);
        } catch (const std::exception& e) {
            Snapshot s;
            s.failure = errorText(e);
            return s;
        }
    });
    whenFinished(this, m_session->job, [this, final](Snapshot s) {
        m_jobInFlight = false;
        if (!s.failure.isEmpty()) {
            onSnapshotFailed(final, s.failure);
            return;
        }
        m_trace = s.trace;
        ++m_snapshots;
        if (!final) {
            QElapsedTimer clock;
            clock.start();
            emit snapshotReady(s.trace, s.layout);
            m_lastRefresh.workerMs = s.workerMs;
            m_lastRefresh.guiMs = double(clock.nsecsElapsed()) / 1e6;
            m_lastRefresh.events = s.trace ? int64_t(s.trace->events.count()) : 0;
            m_lastRefresh.incremental = s.incremental;
            m_lastRefresh.traceMs = s.traceMs;
            m_lastRefresh.layoutMs = s.layoutMs;
            return;
        }
        m_active = false;
        if (s.ending.peakBytes == 0 && s.layout) {
            s.ending.peakBytes = s.layout->peakBytes();
        }
        if (!s.ending.summary.isEmpty()) {
            emit logMessage(s.ending.summary.trimmed());
        }
        if (s.ending.outOfMemory) {
            emit logMessage(
                tr("The run stopped: out of memory. %1").arg(s.ending.outcome.message()));
        } else if (!s.ending.outcome) {
            emit logMessage(tr("The run failed: %1").arg(s.ending.outcome.message()));
        } else if (s.ending.cancelled) {
            emit logMessage(tr("The run was stopped; everything recorded so far is kept."));
        } else {
            emit logMessage(tr("The run finished."));
        }
        emit finished(s.trace, s.layout, s.ending);
    });
}

}  // namespace memscope
