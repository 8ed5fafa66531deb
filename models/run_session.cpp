#include "run_session.h"

#include "error_text.h"
#include "run_document.h"
#include "when_finished.h"

#include "io/run_file.h"
#include "io/run_file_cancelled.h"
#include "layout/timeline_layout.h"
#include "source/run_source.h"
#include "trace/trace.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QMetaObject>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <exception>
#include <filesystem>
#include <functional>
#include <optional>
#include <vector>

namespace memscope {

struct RunSession::Loaded {
    QString path;  // as asked for
    bool comparison = false;
    QString rangeText;  // empty: the whole run
    bool cancelled = false;
    QString error;  // the reason it failed (RunSource's "PATH: REASON")
    bool multi = false;
    QString directory;
    QString parallel;
    int world = 1;
    std::vector<RunSource::Rank> ranks;
    QStringList processes;  // per rank, a Python program's process ("spawn, pid 4242"), or ""
    int shown = -1;
    std::shared_ptr<TimelineLayout> layout;
    // A preview kept as the run shown, and why (RunSession::keptPreview).
    QString keptPreview;
};

namespace {

QString nativePath(const QString& path) {
    return QDir::toNativeSeparators(path);
}

QString fromPath(const std::string& path) {
    return QFile::decodeName(QByteArray::fromStdString(path));
}

// The bytes a load reads: the file, or every rank file of a run directory.
qint64 bytesToRead(const RunSource& source) {
    std::error_code ec;
    if (!source.isMultiRank()) {
        const auto size = std::filesystem::file_size(source.path(), ec);
        if (ec) {
            return 0;
        }
        // A run file compresses its columns (a repeated step of 12M events took 214 KB): small
        // ones count by their events' columns as they will be in memory (54 bytes an event),
        // so that a big run is read on the worker, with its preview.
        if (qint64(size) <= RunSession::kInlineBytes && source.kind() == RunSource::Kind::RunFile) {
            try {
                return std::max(qint64(size), qint64(RunFile::eventCount(source.path()) * 54));
            } catch (const std::exception&) {
                return qint64(size);  // the load says what is wrong with it
            }
        }
        return qint64(size);
    }
    qint64 total = 0;
    for (int r = 0; r < source.worldSize(); ++r) {
        const auto size = std::filesystem::file_size(source.rankPath(r), ec);
        total += ec ? 0 : qint64(size);
    }
    return total;
}

// Reads the run (on any thread): a single run, or every rank of a run directory with the one to
// show (`rank`, else the first readable), laid out unless it is for a comparison.
RunSession::Loaded loadRun(RunSession::Loaded loaded, const RunRange& range, int rank,
                           const std::shared_ptr<std::atomic<bool>>& cancel,
                           const std::function<void(double)>& progress,
                           uint64_t preview_entries = 0) {
    RunSource::Options options;
    options.range = range;
    options.preview_entries = preview_entries;
    options.cancel = cancel.get();
    options.progress = progress;
    try {
        const RunSource source(QFile::encodeName(loaded.path).toStdString());
        loaded.multi = source.isMultiRank();
        if (!loaded.multi) {
            RunSource::Rank one;
            one.path = source.path();
            one.trace = std::make_shared<const Trace>(source.open(options));
            loaded.ranks.push_back(std::move(one));
            loaded.shown = 0;
        } else {
            loaded.directory = fromPath(source.directory());
            loaded.parallel = QString::fromStdString(source.manifest().parallel);
            loaded.world = source.worldSize();
            for (const RunDirectory::Process& p : source.manifest().processes) {
                loaded.processes << (p.role.empty() ? QString()
                                                    : RunSession::tr("%1, pid %2")
                                                          .arg(QString::fromStdString(p.role))
                                                          .arg(p.pid));
            }
            if (loaded.comparison) {
                // The rank of the same number as the one shown, rank 0 when there are fewer.
                const int r = rank >= 0 && rank < source.worldSize() ? rank : 0;
                RunSource::Rank one;
                one.rank = r;
                one.path = source.rankPath(r);
                options.rank = r;
                one.trace = std::make_shared<const Trace>(source.open(options));
                loaded.ranks.push_back(std::move(one));
                loaded.shown = 0;
            } else {
                loaded.ranks = source.openRanks(options);
                const auto readable = [](const RunSource::Rank& r) { return r.trace != nullptr; };
                if (rank >= 0 && rank < int(loaded.ranks.size()) && loaded.ranks[rank].trace) {
                    loaded.shown = rank;
                } else {
                    const auto it =
                        std::find_if(loaded.ranks.begin(), loaded.ranks.end(), readable);
                    loaded.shown = it == loaded.ranks.end() ? -1 : int(it - loaded.ranks.begin());
                }
            }
        }
        if (!loaded.comparison && loaded.shown >= 0 && !(cancel && cancel->load())) {
            loaded.layout = std::make_shared<TimelineLayout>(*loaded.ranks[loaded.shown].trace);
        }
        if (cancel && cancel->load()) {
            loaded.cancelled = true;
        }
    } catch (const RunFileCancelled&) {
        loaded.cancelled = true;
    } catch (const std::exception& e) {
        loaded.error = errorText(e);
    } catch (...) {
        loaded.error = RunSession::tr("unknown error");
    }
    return loaded;
}

}  // namespace

RunSession::RunSession(RunDocument* document, QObject* parent)
    : QObject(parent), m_document(document) {
    // Choosing a rank in any view shows it, unless a live run picks its ranks itself.
    connect(m_document, &RunDocument::rankChanged, this, [this](int rank) {
        if (m_live || rank < 0 || rank == m_rank || m_ranks.isEmpty()) {
            return;
        }
        if (!showRank(rank)) {
            m_document->setRank(m_rank);  // no recording of that rank: the selector goes back
        }
    });
}

RunSession::~RunSession() {
    if (m_cancel) {
        m_cancel->store(true);
    }
    m_worker.waitForFinished();
}

bool RunSession::open(const QString& path, const RunRange& range, int rank) {
    return startLoad(path, range, rank, false);
}

bool RunSession::openForComparison(const QString& path) {
    return startLoad(path, RunRange(), m_rank, true);
}

bool RunSession::startLoad(const QString& path, const RunRange& range, int rank, bool comparison) {
    if (m_loading) {
        return false;
    }
    Loaded request;
    request.path = path;
    request.comparison = comparison;
    if (!range.isAll()) {
        request.rangeText = QString::fromStdString(range.describe());
    }
    qint64 bytes = 0;
    RunSource::Kind kind = RunSource::Kind::RunFile;
    try {
        const RunSource source(QFile::encodeName(path).toStdString());
        bytes = bytesToRead(source);
        kind = source.kind();
    } catch (const std::exception& e) {
        request.error = errorText(e);
        finishLoad(request);
        return false;
    }
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    if (bytes <= kInlineBytes) {
        setLoading(true);
        const Loaded loaded = loadRun(request, range, rank, m_cancel, {});
        finishLoad(loaded);
        return !loaded.cancelled && loaded.error.isEmpty() &&
               std::any_of(loaded.ranks.begin(), loaded.ranks.end(),
                           [](const RunSource::Rank& r) { return r.trace != nullptr; });
    }
    m_posted = std::make_shared<std::atomic<int>>(-1);
    auto progress = [this, posted = m_posted](double fraction) {
        const int per_mille = int(std::lround(std::clamp(fraction, 0.0, 1.0) * 1000));
        if (posted->exchange(per_mille) == per_mille) {
            return;
        }
        // Queued to this object's thread; the destructor waits for the worker, so `this` lives.
        QMetaObject::invokeMethod(
            this,
            [this, per_mille] {
                if (m_loading) {
                    emit progressChanged(per_mille / 1000.0);
                }
            },
            Qt::QueuedConnection);
    };
    setLoading(true);
    emit progressChanged(0.0);
    // A big snapshot or run file opened whole: a preview of its first entries or events first
    // (without progress: the bar is the whole file's), shown while the whole file is read. A
    // file with no more entries than the preview's is whole already. A run file compresses (a
    // million events can take a few MB): every one read here, on the worker, tries a preview.
    const bool preview = !comparison && range.isAll() &&
                         ((kind == RunSource::Kind::Snapshot && bytes > m_previewBytes) ||
                          kind == RunSource::Kind::RunFile);
    const qint64 available = !preview                 ? -1
                             : m_availableMemory >= 0 ? m_availableMemory
                                                      : availableMemory();
    QFuture<Loaded> future =
        QtConcurrent::run([this, request, range, rank, cancel = m_cancel, progress, preview,
                           available, bytes, entries = m_previewEntries] {
            if (preview) {
                Loaded first = loadRun(request, range, rank, cancel, {}, entries);
                if (first.cancelled || !first.error.isEmpty() || first.ranks.empty()) {
                    return loadRun(request, range, rank, cancel, progress);  // says why, whole
                }
                const auto& summary = first.ranks.front().trace->summary;
                const auto info = summary.find("preview");
                if (info == summary.end()) {
                    return first;  // the whole file
                }
                // Whether the whole run fits in the memory available; if not, the preview stays.
                const double needed =
                    info->contains("events_total")
                        ? double(info->value("events_total", uint64_t(0))) * kMemoryPerEvent
                        : double(bytes) * kMemoryPerSnapshotByte;
                if (available >= 0 && needed > double(available)) {
                    first.keptPreview =
                        tr("%1 needs about %2 GB of memory to be shown whole, and %3 GB are "
                           "available: its first part is shown, not the rest. memscope-cli info "
                           "summarizes the whole file in less.")
                            .arg(nativePath(request.path), QLocale().toString(needed / 1e9, 'f', 1),
                                 QLocale().toString(double(available) / 1e9, 'f', 1));
                    return first;
                }
                // Queued to this object's thread; the destructor waits for the worker.
                QMetaObject::invokeMethod(
                    this, [this, first] { showPreview(first); }, Qt::QueuedConnection);
            }
            return loadRun(request, range, rank, cancel, progress);
        });
    m_worker = QFuture<void>(future);
    whenFinished(this, future, [this](const Loaded& loaded) { finishLoad(loaded); });
    return true;
}

void RunSession::showPreview(const Loaded& preview) {
    if (!m_loading || (m_cancel && m_cancel->load()) || preview.ranks.empty()) {
        return;  // cancelled meanwhile, or the whole file came first
    }
    const auto& trace = preview.ranks.front().trace;
    clearRanks();
    m_live = false;
    m_path = preview.path;
    m_document->setTrace(trace, false, preview.layout);
    emit runChanged();
    const auto& info = trace->summary.at("preview");
    const qint64 offset = info.value("offset", qint64(0));
    const qint64 size = info.value("file_bytes", qint64(0));
    emit logMessage(tr("%1: showing its first %2 entries (%3 of %4 MB) while the rest loads")
                        .arg(nativePath(preview.path),
                             QLocale().toString(qint64(info.value("entries", qint64(0)))),
                             QLocale().toString(double(offset) / 1e6, 'f', 0),
                             QLocale().toString(double(size) / 1e6, 'f', 0)));
    emit previewShown(preview.path);
}

qint64 RunSession::availableMemory() {
    QFile meminfo(QStringLiteral("/proc/meminfo"));
    if (!meminfo.open(QIODevice::ReadOnly)) {
        return -1;
    }
    // "MemAvailable:   12345678 kB"
    for (const QByteArray& line : meminfo.readAll().split('\n')) {
        if (line.startsWith("MemAvailable:")) {
            const QList<QByteArray> parts = line.simplified().split(' ');
            bool ok = false;
            const qint64 kib = parts.size() >= 2 ? parts[1].toLongLong(&ok) : 0;
            return ok ? kib * 1024 : -1;
        }
    }
    return -1;
}

void RunSession::cancel() {
    if (m_loading && m_cancel) {
        m_cancel->store(true);
    }
}

void RunSession::setLoading(bool loading) {
    if (m_loading == loading) {
        return;
    }
    m_loading = loading;
    emit loadingChanged(loading);
}

void RunSession::finishLoad(const Loaded& loaded) {
    setLoading(false);
    if (loaded.cancelled) {
        emit cancelled(loaded.path);
        emit loadFinished(false);
        return;
    }
    if (!loaded.error.isEmpty()) {
        emit failed(
            tr("Memscope could not open %1.\n\n%2").arg(nativePath(loaded.path), loaded.error));
        emit loadFinished(false);
        return;
    }
    if (loaded.comparison) {
        const RunSource::Rank& other = loaded.ranks.front();
        const QString name =
            loaded.multi
                ? tr("%1 rank %2").arg(QFileInfo(loaded.directory).fileName()).arg(other.rank)
                : QFileInfo(loaded.path).fileName();
        emit compareReady(other.trace, name);
        emit loadFinished(true);
        return;
    }
    if (!loaded.multi) {
        const auto& trace = loaded.ranks.front().trace;
        clearRanks();
        m_live = false;
        m_path = loaded.path;
        m_document->setTrace(trace, false, loaded.layout);
        emit runChanged();
        QString events = tr("%1 events").arg(QLocale().toString(qint64(trace->events.count())));
        // A damaged snapshot opens as what was read before the damage (issue 52): said so.
        if (const auto it = trace->summary.find("partial");
            it != trace->summary.end() && it->is_object()) {
            events = tr("%1; PARTIAL: %2, what was read before the damage is shown")
                         .arg(events, QString::fromStdString(
                                          it->value("error", std::string("the file is damaged"))));
        }
        // A big file's preview kept: the whole file would not fit in memory.
        if (!loaded.keptPreview.isEmpty()) {
            events = tr("%1; PREVIEW: the first %2 entries, the whole file does not fit in memory")
                         .arg(events, QLocale().toString(qint64(
                                          trace->summary.at("preview").value("entries", 0))));
        }
        emit opened(loaded.path, loaded.rangeText.isEmpty()
                                     ? events
                                     : tr("%1, %2").arg(loaded.rangeText, events));
        if (!loaded.keptPreview.isEmpty()) {
            emit logMessage(loaded.keptPreview);
            emit keptPreview(loaded.keptPreview);
        }
        emit loadFinished(true);
        return;
    }
    QStringList problems;
    for (const RunSource::Rank& r : loaded.ranks) {
        if (!r.trace) {
            problems << tr("rank %1: %2").arg(r.rank).arg(errorText(r.problem));
        }
    }
    if (loaded.shown < 0) {
        emit failed(tr("Memscope could not read any rank of %1.\n\n%2")
                        .arg(nativePath(loaded.directory), problems.join(QLatin1Char('\n'))));
        emit loadFinished(false);
        return;
    }
    for (const QString& problem : problems) {
        emit logMessage(problem);
    }
    m_live = false;
    m_ranks.clear();
    m_rankPaths.clear();
    for (const RunSource::Rank& r : loaded.ranks) {
        m_ranks.append(r.trace);
        m_rankPaths.append(fromPath(r.path));
    }
    m_directory = loaded.directory;
    m_rankProcesses = loaded.processes;
    m_rank = loaded.shown;
    m_path = m_rankPaths.value(m_rank);
    m_document->setTrace(m_ranks[m_rank], false, loaded.layout);
    emit ranksChanged();
    m_document->setRank(m_rank);
    emit runChanged();
    // A Python program's run directory names no strategy.
    const QString ranks =
        tr("%1 of %2 ranks").arg(loaded.ranks.size() - problems.size()).arg(loaded.world);
    emit opened(loaded.directory,
                loaded.parallel.isEmpty() ? ranks : tr("%1, %2").arg(ranks, loaded.parallel));
    emit loadFinished(true);
}

std::shared_ptr<const Trace> RunSession::rankTrace(int rank) const {
    return m_ranks.value(rank);
}

QString RunSession::rankPath(int rank) const {
    return m_rankPaths.value(rank);
}

QString RunSession::rankProcess(int rank) const {
    return m_rankProcesses.value(rank);
}

bool RunSession::showRank(int rank) {
    if (rank < 0 || rank >= m_ranks.size() || !m_ranks[rank]) {
        return false;
    }
    if (rank == m_rank) {
        return true;
    }
    m_rank = rank;
    m_path = m_rankPaths.value(rank);
    m_document->setTrace(m_ranks[rank]);  // the timeline lays it out (off the GUI thread when big)
    emit ranksChanged();
    m_document->setRank(rank);
    emit runChanged();
    return true;
}

void RunSession::clearRanks() {
    const bool had = !m_ranks.isEmpty() || m_rank >= 0;
    m_ranks.clear();
    m_rankPaths.clear();
    m_rankProcesses.clear();
    m_directory.clear();
    m_rank = -1;
    if (had) {
        emit ranksChanged();
    }
}

void RunSession::show(std::shared_ptr<const Trace> trace, const QString& path) {
    clearRanks();
    m_live = false;
    m_path = path;
    m_document->setTrace(std::move(trace));
    emit runChanged();
}

Outcome RunSession::writeRunFile(const Trace& trace, const QString& path) {
    try {
        RunFile::save(trace, QFile::encodeName(path).toStdString());
    } catch (const std::exception& e) {
        return Outcome::failure(errorText(e));
    }
    return {};
}

Outcome RunSession::save(const QString& path) {
    const std::shared_ptr<const Trace> trace = m_document->trace();
    if (!trace) {
        return Outcome::failure(QString());
    }
    if (const Outcome written = writeRunFile(*trace, path); !written) {
        return Outcome::failure(
            tr("Memscope could not write %1.\n\n%2").arg(nativePath(path), written.message()));
    }
    m_path = path;
    emit runChanged();
    return {};
}

void RunSession::beginLive() {
    clearRanks();
    m_live = true;
    m_path.clear();
    m_document->setTrace(nullptr);
    emit runChanged();
}

void RunSession::takeSnapshot(std::shared_ptr<const Trace> trace,
                              std::shared_ptr<TimelineLayout> layout) {
    const std::shared_ptr<const Trace> shown = m_document->trace();
    const bool continues = trace && shown && m_document->layout() &&
                           trace->events.count() >= shown->events.count() &&
                           trace->meta.started_at == shown->meta.started_at;
    m_document->setTrace(std::move(trace), continues, std::move(layout));
}

void RunSession::finishLive(std::shared_ptr<const Trace> trace,
                            std::shared_ptr<TimelineLayout> layout, const QString& saved_path) {
    if (trace) {
        takeSnapshot(std::move(trace), std::move(layout));
    }
    m_live = false;
    m_path = saved_path;
    emit runChanged();
}

}  // namespace memscope
