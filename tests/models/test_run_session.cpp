// RunSession (issue 30): the one loader of the GUI. Small runs open here and now, big ones on a
// worker with progress and cancel while the caller's event loop keeps going (no nested loop:
// open() returns first); every failure is one failed() naming the file and keeps the run shown;
// run directories keep their ranks and follow the document's rank; a comparison run comes back
// by compareReady(); live snapshots go session -> document, continuations in place.

#include "run_session.h"

#include "interchange/snapshot_exporter.h"
#include "interchange/snapshot_importer.h"
#include "io/run_directory.h"
#include "io/run_file.h"
#include "layout/timeline_layout.h"
#include "run_document.h"
#include "trace/trace.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <random>
#include <sstream>

using namespace memscope;

namespace {

// N events of alloc/free pairs at reused addresses (version 1, uncompressed: a few hundred
// thousand events pass the 4 MiB at which the session reads on a worker).
Trace pairs(size_t n, int64_t started_at = 1) {
    Trace t;
    int64_t live = 0;
    for (size_t i = 0; i < n; ++i) {
        Event e;
        e.time_ns = int64_t(i) * 1000;
        e.addr = 0x10000 + (i / 2 % 64) * 0x1000;
        e.kind = i % 2 == 0 ? EventKind::Alloc : EventKind::Free;
        e.size = i % 2 == 0 ? 4096 : -4096;
        live += e.size;
        e.allocated = live;
        t.events.append(e);
    }
    t.meta.started_at = started_at;
    t.finalize();
    return t;
}

QString saveRun(const QTemporaryDir& dir, const QString& name, size_t n) {
    const QString path = dir.filePath(name);
    RunFile::SaveOptions o;
    o.format_version = 1;
    RunFile::save(pairs(n), QFile::encodeName(path).toStdString(), o);
    return path;
}

}  // namespace

class TestRunSession : public QObject {
    Q_OBJECT

  private slots:
    void a_small_run_opens_here_and_now_with_its_layout() {
        QTemporaryDir dir;
        const QString path = saveRun(dir, QStringLiteral("small.memscope"), 1000);
        RunDocument doc;
        RunSession session(&doc);
        QSignalSpy opened(&session, &RunSession::opened);
        QSignalSpy finished(&session, &RunSession::loadFinished);
        QSignalSpy layouts(&doc, &RunDocument::layoutChanged);
        QVERIFY(session.open(path));
        QVERIFY(!session.isLoading());
        QCOMPARE(opened.count(), 1);
        QCOMPARE(opened.first().at(0).toString(), path);
        QVERIFY(opened.first().at(1).toString().contains(QStringLiteral("1,000 events")) ||
                opened.first().at(1).toString().contains(QStringLiteral("1000 events")));
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.first().first().toBool(), true);
        QVERIFY(doc.trace());
        QCOMPARE(doc.trace()->events.count(), size_t(1000));
        QVERIFY(doc.layout());  // laid out with the load, handed over with the trace
        QCOMPARE(layouts.count(), 1);
        QCOMPARE(session.path(), path);
        QVERIFY(!session.hasRanks());
    }

    void a_damaged_snapshot_opens_as_what_was_read_and_says_so() {
        QTemporaryDir dir;
        std::ostringstream whole;
        SnapshotExporter::write(pairs(2000), whole);
        const std::string bytes = whole.str();
        auto write = [&dir, &bytes](const QString& name, size_t size) {
            QFile f(dir.filePath(name));
            f.open(QIODevice::WriteOnly);
            f.write(bytes.data(), qint64(size));
            return f.fileName();
        };
        RunDocument doc;
        RunSession session(&doc);
        QSignalSpy opened(&session, &RunSession::opened);
        QVERIFY(session.open(write(QStringLiteral("whole.pickle"), bytes.size())));
        const size_t all = doc.trace()->events.count();
        QVERIFY(!opened.last().at(1).toString().contains(QStringLiteral("PARTIAL")));
        // Cut in its trace: what was read opens, and the log line says so.
        QVERIFY(session.open(write(QStringLiteral("cut.pickle"), bytes.size() * 2 / 3)));
        QCOMPARE(opened.count(), 2);
        const QString what = opened.last().at(1).toString();
        QVERIFY2(what.contains(QStringLiteral("PARTIAL")) &&
                     what.contains(QStringLiteral("what was read before the damage")),
                 qPrintable(what));
        // What was read is shown (its count is not comparable to the whole's: the metadata at
        // the file's end, device and annotations, is cut away with the rest).
        QVERIFY(doc.trace()->events.count() > 0 && all > 0);
        QCOMPARE(session.path(), dir.filePath(QStringLiteral("cut.pickle")));
    }

    void a_failure_names_the_file_and_keeps_the_run_shown() {
        QTemporaryDir dir;
        const QString good = saveRun(dir, QStringLiteral("good.memscope"), 100);
        const QString bad = dir.filePath(QStringLiteral("bad.memscope"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a run at all");
        f.close();
        RunDocument doc;
        RunSession session(&doc);
        QVERIFY(session.open(good));
        const auto shown = doc.trace();
        QSignalSpy failed(&session, &RunSession::failed);
        QSignalSpy finished(&session, &RunSession::loadFinished);
        QVERIFY(!session.open(bad));
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.first().first().toString().contains(QDir::toNativeSeparators(bad)));
        QCOMPARE(finished.first().first().toBool(), false);
        QCOMPARE(doc.trace(), shown);
        QCOMPARE(session.path(), good);

        // A file that is not there: the same one signal.
        QVERIFY(!session.open(dir.filePath(QStringLiteral("missing.memscope"))));
        QCOMPARE(failed.count(), 2);
        QVERIFY(failed.last().first().toString().contains(QStringLiteral("missing.memscope")));
    }

    void a_big_run_opens_on_a_worker_while_the_loop_goes_on() {
        QTemporaryDir dir;
        const QString path = saveRun(dir, QStringLiteral("big.memscope"), 200000);
        QVERIFY(QFileInfo(path).size() > RunSession::kInlineBytes);
        RunDocument doc;
        RunSession session(&doc);
        QSignalSpy progress(&session, &RunSession::progressChanged);
        QSignalSpy loading(&session, &RunSession::loadingChanged);
        QSignalSpy finished(&session, &RunSession::loadFinished);
        QVERIFY(session.open(path, RunRange::events(1000, 3000)));
        // open() returned before the run was read: the caller's event loop delivers the end.
        QVERIFY(session.isLoading());
        QVERIFY(!doc.trace());
        QVERIFY(!session.open(path));  // one load at a time
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.first().first().toBool(), true);
        QVERIFY(!session.isLoading());
        QCOMPARE(loading.count(), 2);
        QVERIFY(progress.count() >= 2);
        double last = -1;
        for (const auto& p : progress) {
            QVERIFY(p.first().toDouble() >= last);  // never goes back
            last = p.first().toDouble();
        }
        QCOMPARE(doc.trace()->events.count(), size_t(2000));
        QVERIFY(doc.layout());
    }

    // A big snapshot shows a preview of its first entries while the rest loads (issue 52), then
    // the whole run replaces it; the load ends once, with the whole.
    void a_big_snapshot_shows_a_preview_first() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.pickle"));
        {
            std::ofstream out(QFile::encodeName(path).toStdString(), std::ios::binary);
            SnapshotExporter::write(pairs(60000), out);
        }
        QVERIFY(QFileInfo(path).size() > RunSession::kInlineBytes);
        const size_t whole =
            SnapshotImporter::import(QFile::encodeName(path).toStdString()).events.count();
        RunDocument doc;
        RunSession session(&doc);
        session.setPreview(0, 5000);
        QSignalSpy preview(&session, &RunSession::previewShown);
        QSignalSpy log(&session, &RunSession::logMessage);
        QSignalSpy finished(&session, &RunSession::loadFinished);
        QSignalSpy opened(&session, &RunSession::opened);
        size_t previewed = 0;
        connect(&session, &RunSession::previewShown, this, [&doc, &session, &previewed] {
            QVERIFY(session.isLoading());
            QVERIFY(doc.trace()->summary.contains("preview"));
            QCOMPARE(doc.trace()->summary.at("preview").value("entries", 0), 5000);
            QVERIFY(doc.layout());
            previewed = doc.trace()->events.count();
        });
        QVERIFY(session.open(path));
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.first().first().toBool(), true);
        QCOMPARE(preview.count(), 1);
        QCOMPARE(opened.count(), 1);  // the whole run's
        QVERIFY(log.count() >= 1);
        QVERIFY2(log.first().first().toString().contains(QStringLiteral("while the rest loads")),
                 qPrintable(log.first().first().toString()));
        QVERIFY(!doc.trace()->summary.contains("preview"));
        QCOMPARE(doc.trace()->events.count(), whole);
        QVERIFY(previewed > 0 && previewed < doc.trace()->events.count());

        // A file with no more entries than the preview's is read once, whole.
        RunSession once(&doc);
        once.setPreview(0, 1000000);
        QSignalSpy none(&once, &RunSession::previewShown);
        QSignalSpy done(&once, &RunSession::loadFinished);
        QVERIFY(once.open(path));
        QVERIFY(done.wait(60000));
        QCOMPARE(none.count(), 0);
        QCOMPARE(doc.trace()->events.count(), whole);
    }

    // A big snapshot whose whole run would not fit in the memory available keeps its preview
    // as the run shown, and says so with both figures (issue 52: never swapped or killed).
    void a_snapshot_too_big_for_memory_keeps_its_preview() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.pickle"));
        {
            std::ofstream out(QFile::encodeName(path).toStdString(), std::ios::binary);
            SnapshotExporter::write(pairs(60000), out);
        }
        const qint64 bytes = QFileInfo(path).size();
        RunDocument doc;
        RunSession session(&doc);
        session.setPreview(0, 5000);
        session.setAvailableMemory(qint64(double(bytes) * RunSession::kMemoryPerSnapshotByte) - 1);
        QSignalSpy preview(&session, &RunSession::previewShown);
        QSignalSpy kept(&session, &RunSession::keptPreview);
        QSignalSpy opened(&session, &RunSession::opened);
        QSignalSpy finished(&session, &RunSession::loadFinished);
        QVERIFY(session.open(path));
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.first().first().toBool(), true);
        QCOMPARE(preview.count(), 0);  // not a preview while the rest loads: the run shown
        QCOMPARE(kept.count(), 1);
        const QString message = kept.first().first().toString();
        QVERIFY2(message.contains(QStringLiteral("GB of memory")) &&
                     message.contains(QStringLiteral("are available")),
                 qPrintable(message));
        QVERIFY2(opened.first().at(1).toString().contains(QStringLiteral("PREVIEW")),
                 qPrintable(opened.first().at(1).toString()));
        QVERIFY(!session.isLoading());
        QCOMPARE(doc.trace()->summary.at("preview").value("entries", 0), 5000);

        // With the memory it needs, the whole file replaces the preview.
        RunSession enough(&doc);
        enough.setPreview(0, 5000);
        enough.setAvailableMemory(qint64(double(bytes) * RunSession::kMemoryPerSnapshotByte) + 1);
        QSignalSpy none(&enough, &RunSession::keptPreview);
        QSignalSpy done(&enough, &RunSession::loadFinished);
        QVERIFY(enough.open(path));
        QVERIFY(done.wait(60000));
        QCOMPARE(none.count(), 0);
        QVERIFY(!doc.trace()->summary.contains("preview"));
        QVERIFY(RunSession::availableMemory() != 0);  // the machine's figure, or -1
    }

    // A big run file shows its first events (whole chunks) while the rest loads, then the
    // whole run; one whose whole would not fit in memory keeps the preview (issue 52).
    void a_big_run_file_shows_a_preview_first() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.memscope"));
        Trace t;
        std::mt19937_64 rng(3);
        const size_t n = 600000;  // random addresses and times: about 9 MB compressed
        int64_t time = 0;
        for (size_t i = 0; i < n; ++i) {
            Event e;
            e.kind = EventKind::Alloc;
            e.addr = rng();
            e.size = int64_t(rng() % 4096) + 1;
            time += int64_t(rng() % 100000);
            e.time_ns = time;
            t.events.append(e);
        }
        RunFile::SaveOptions o;
        o.chunk_events = 65536;
        RunFile::save(t, QFile::encodeName(path).toStdString(), o);
        QVERIFY2(QFileInfo(path).size() > RunSession::kInlineBytes,
                 qPrintable(QString::number(QFileInfo(path).size())));
        RunDocument doc;
        RunSession session(&doc);
        session.setPreview(RunSession::kPreviewBytes, 100000);
        QSignalSpy preview(&session, &RunSession::previewShown);
        QSignalSpy finished(&session, &RunSession::loadFinished);
        size_t previewed = 0;
        connect(&session, &RunSession::previewShown, this, [&doc, &previewed] {
            QCOMPARE(doc.trace()->summary.at("preview").value("events_total", 0), 600000);
            previewed = doc.trace()->events.count();
        });
        QVERIFY(session.open(path));
        QVERIFY(finished.wait(60000));
        QCOMPARE(preview.count(), 1);
        QCOMPARE(previewed, size_t(131072));  // two chunks of 65,536
        QCOMPARE(doc.trace()->events.count(), n);
        QVERIFY(!doc.trace()->summary.contains("preview"));

        // Not enough memory for 600,000 events: the preview stays.
        RunSession small(&doc);
        small.setPreview(RunSession::kPreviewBytes, 100000);
        small.setAvailableMemory(qint64(600000 * RunSession::kMemoryPerEvent) - 1);
        QSignalSpy kept(&small, &RunSession::keptPreview);
        QSignalSpy done(&small, &RunSession::loadFinished);
        QVERIFY(small.open(path));
        QVERIFY(done.wait(60000));
        QCOMPARE(kept.count(), 1);
        QCOMPARE(doc.trace()->events.count(), size_t(131072));
    }

    void cancel_ends_a_load_and_keeps_the_run_shown() {
        QTemporaryDir dir;
        const QString small = saveRun(dir, QStringLiteral("small.memscope"), 100);
        const QString big = saveRun(dir, QStringLiteral("big.memscope"), 1000000);
        RunDocument doc;
        RunSession session(&doc);
        QVERIFY(session.open(small));
        const auto shown = doc.trace();
        QSignalSpy cancelled(&session, &RunSession::cancelled);
        QSignalSpy failed(&session, &RunSession::failed);
        QSignalSpy finished(&session, &RunSession::loadFinished);
        QVERIFY(session.open(big));
        session.cancel();
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.first().first().toBool(), false);
        QCOMPARE(cancelled.count(), 1);
        QCOMPARE(cancelled.first().first().toString(), big);
        QCOMPARE(failed.count(), 0);  // cancelling is not a failure
        QCOMPARE(doc.trace(), shown);
        QCOMPARE(session.path(), small);
    }

    void destroying_the_session_stops_its_worker() {
        QTemporaryDir dir;
        const QString big = saveRun(dir, QStringLiteral("big.memscope"), 1000000);
        RunDocument doc;
        {
            RunSession session(&doc);
            QVERIFY(session.open(big));
        }  // cancels and waits: no result reaches a destroyed session
        QCoreApplication::processEvents();
        QVERIFY(!doc.trace());
    }

    void a_run_directory_keeps_its_ranks_and_follows_the_document() {
        QTemporaryDir dir;
        RunDirectory manifest;
        manifest.world_size = 3;
        manifest.parallel = "ddp";
        for (int r = 0; r < 3; ++r) {
            manifest.rank_files.push_back(RunDirectory::rankFileName(r));
        }
        const std::string where = QFile::encodeName(dir.path()).toStdString();
        manifest.save(where);
        RunFile::save(pairs(10), manifest.rankPath(where, 0));
        RunFile::save(pairs(30), manifest.rankPath(where, 2));  // rank 1 died unsaved
        RunDocument doc;
        RunSession session(&doc);
        QSignalSpy log(&session, &RunSession::logMessage);
        QSignalSpy ranks(&session, &RunSession::ranksChanged);
        QSignalSpy opened(&session, &RunSession::opened);
        QVERIFY(session.open(dir.path(), RunRange(), 1));  // rank 1 unreadable: the first one
        QCOMPARE(session.rankCount(), 3);
        QCOMPARE(session.rank(), 0);
        QCOMPARE(doc.rank(), 0);
        QVERIFY(!session.rankTrace(1));
        QCOMPARE(doc.trace()->events.count(), size_t(10));
        QVERIFY(ranks.count() >= 1);
        QCOMPARE(log.count(), 1);
        QVERIFY(log.first().first().toString().startsWith(QStringLiteral("rank 1: ")));
        QVERIFY(opened.first().at(1).toString().contains(QStringLiteral("2 of 3 ranks, ddp")));

        // The document's rank (a selector) shows that rank; an unreadable one goes back.
        doc.setRank(2);
        QCOMPARE(session.rank(), 2);
        QCOMPARE(doc.trace()->events.count(), size_t(30));
        QCOMPARE(session.path(), QFile::decodeName(manifest.rankPath(where, 2).c_str()));
        doc.setRank(1);
        QCOMPARE(session.rank(), 2);
        QCOMPARE(doc.rank(), 2);

        // A comparison with a run directory takes the rank of the same number.
        QSignalSpy compare(&session, &RunSession::compareReady);
        QVERIFY(session.openForComparison(dir.path()));
        QCOMPARE(compare.count(), 1);
        QCOMPARE(compare.first().at(0).value<std::shared_ptr<const Trace>>()->events.count(),
                 size_t(30));
        QVERIFY(compare.first().at(1).toString().endsWith(QStringLiteral("rank 2")));
        QCOMPARE(session.rank(), 2);  // the run shown stays

        // A single run after it forgets the ranks.
        QVERIFY(session.open(saveRun(dir, QStringLiteral("one.memscope"), 5)));
        QVERIFY(!session.hasRanks());
        QCOMPARE(session.rank(), -1);
    }

    void no_readable_rank_is_a_failure() {
        QTemporaryDir dir;
        RunDirectory manifest;
        manifest.world_size = 2;
        manifest.parallel = "ddp";
        manifest.rank_files = {RunDirectory::rankFileName(0), RunDirectory::rankFileName(1)};
        manifest.save(QFile::encodeName(dir.path()).toStdString());
        RunDocument doc;
        RunSession session(&doc);
        QSignalSpy failed(&session, &RunSession::failed);
        QVERIFY(!session.open(dir.path()));
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.first().first().toString().contains(QStringLiteral("any rank")));
        QVERIFY(!doc.trace());
    }

    void live_snapshots_reach_the_document_and_continue_in_place() {
        RunDocument doc;
        RunSession session(&doc);
        QSignalSpy changed(&session, &RunSession::runChanged);
        session.beginLive();
        QVERIFY(session.isLive());
        QVERIFY(!doc.trace());
        auto first = std::make_shared<const Trace>(pairs(100, 42));
        session.takeSnapshot(first, std::make_shared<TimelineLayout>(*first));
        QCOMPARE(doc.trace(), first);
        QVERIFY(!doc.isContinuation());
        doc.setSelectedAllocation(3);
        auto next = std::make_shared<const Trace>(pairs(200, 42));
        session.takeSnapshot(next, std::make_shared<TimelineLayout>(*next));
        QCOMPARE(doc.trace(), next);
        QVERIFY(doc.isContinuation());
        QCOMPARE(doc.selectedAllocation(), qint64(3));  // kept across a continuation
        // Another run's snapshot (another start) starts over.
        auto other = std::make_shared<const Trace>(pairs(300, 43));
        session.takeSnapshot(other, std::make_shared<TimelineLayout>(*other));
        QVERIFY(!doc.isContinuation());
        QCOMPARE(doc.selectedAllocation(), qint64(-1));
        session.finishLive(other, nullptr, QStringLiteral("/kept/run.memscope"));
        QVERIFY(!session.isLive());
        QCOMPARE(session.path(), QStringLiteral("/kept/run.memscope"));
        QVERIFY(changed.count() >= 2);
    }

    void save_writes_the_run_and_names_a_file_it_cannot_write() {
        QTemporaryDir dir;
        RunDocument doc;
        RunSession session(&doc);
        const Outcome without_run = session.save(dir.filePath(QStringLiteral("x.memscope")));
        QVERIFY(!without_run);
        QVERIFY(without_run.message().isEmpty());  // nothing to say: there is no run
        session.show(std::make_shared<const Trace>(pairs(50)));
        QVERIFY(session.path().isEmpty());
        const QString out = dir.filePath(QStringLiteral("saved.memscope"));
        QVERIFY(session.save(out));
        QCOMPARE(session.path(), out);
        QVERIFY(session.open(out));
        QCOMPARE(doc.trace()->events.count(), size_t(50));
        const QString nowhere = dir.filePath(QStringLiteral("no/such/dir/run.memscope"));
        const Outcome failed = session.save(nowhere);
        QVERIFY(!failed);
        QVERIFY(failed.message().contains(QDir::toNativeSeparators(nowhere)));
        QCOMPARE(session.path(), out);
    }
};

QTEST_GUILESS_MAIN(TestRunSession)
#include "test_run_session.moc"
