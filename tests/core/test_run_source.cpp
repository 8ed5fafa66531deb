// RunSource: the one door through which the CLI and the GUI open runs of every kind.

#include "interchange/snapshot_exporter.h"
#include "io/run_directory.h"
#include "io/run_file.h"
#include "io/run_file_cancelled.h"
#include "io/run_file_error.h"
#include "io/run_journal.h"
#include "source/run_source.h"

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <atomic>
#include <fstream>
#include <string>

using namespace memscope;

namespace {

// A small finalized trace: n allocations of `size` bytes, then their frees.
Trace smallTrace(int n, int64_t size) {
    Trace t;
    t.meta.device = "cpu";
    int64_t live = 0;
    for (int i = 0; i < 2 * n; ++i) {
        Event e;
        e.time_ns = int64_t(i) * 1000;
        const bool alloc = i < n;
        e.addr = 0x10000 + uint64_t(alloc ? i : i - n) * 0x1000;
        e.kind = alloc ? EventKind::Alloc : EventKind::Free;
        e.size = alloc ? size : -size;
        live += e.size;
        e.allocated = live;
        t.events.append(e);
    }
    t.finalize();
    return t;
}

std::string path(const QTemporaryDir& dir, const char* name) {
    return dir.filePath(QString::fromLatin1(name)).toStdString();
}

template <typename F>
std::string errorOf(F&& f) {
    try {
        f();
    } catch (const RunFileError& e) {
        return e.what();
    }
    return {};
}

}  // namespace

class TestRunSource : public QObject {
    Q_OBJECT

  private slots:
    void kindsFromNamesAndFirstBytes() {
        QTemporaryDir dir;
        const Trace t = smallTrace(3, 100);
        RunFile::save(t, path(dir, "a.memscope"));
        RunFile::save(t, path(dir, "a-run-without-suffix"));
        SnapshotExporter::write(t, path(dir, "a.pickle"));
        SnapshotExporter::write(t, path(dir, "snapshot-without-suffix"));
        QCOMPARE(int(RunSource::kindOfFile(path(dir, "a.memscope"))),
                 int(RunSource::Kind::RunFile));
        QCOMPARE(int(RunSource::kindOfFile(path(dir, "a-run-without-suffix"))),
                 int(RunSource::Kind::RunFile));
        QCOMPARE(int(RunSource::kindOfFile(path(dir, "a.pickle"))), int(RunSource::Kind::Snapshot));
        QCOMPARE(int(RunSource::kindOfFile(path(dir, "snapshot-without-suffix"))),
                 int(RunSource::Kind::Snapshot));
        {
            std::ofstream journal(path(dir, "left-behind"), std::ios::binary);
            journal.write(RunJournal::kMagic, 8);
        }
        QCOMPARE(int(RunSource::kindOfFile(path(dir, "left-behind"))),
                 int(RunSource::Kind::Journal));
    }

    void opensARunFileAndASnapshotAlike() {
        QTemporaryDir dir;
        const Trace t = smallTrace(4, 256);
        RunFile::save(t, path(dir, "run.memscope"));
        SnapshotExporter::write(t, path(dir, "run.pickle"));
        double last = -1;
        RunSource::Options options;
        options.progress = [&last](double f) {
            QVERIFY(f >= last);
            last = f;
        };
        const Trace run = RunSource(path(dir, "run.memscope")).open(options);
        QCOMPARE(run.events.count(), t.events.count());
        last = -1;
        const RunSource snapshot(path(dir, "run.pickle"));
        QCOMPARE(int(snapshot.kind()), int(RunSource::Kind::Snapshot));
        const Trace imported = snapshot.open(options);
        QCOMPARE(last, 1.0);
        int64_t peak = 0;
        for (size_t i = 0; i < imported.events.count(); ++i) {
            peak = std::max(peak, imported.events.allocated[i]);
        }
        QCOMPARE(peak, int64_t(4 * 256));
    }

    void aRangeOfARun() {
        QTemporaryDir dir;
        RunFile::save(smallTrace(10, 64), path(dir, "run.memscope"));
        RunSource::Options options;
        options.range = RunRange::parse("2:6");
        const Trace part = RunSource(path(dir, "run.memscope")).open(options);
        QVERIFY(part.events.count() < 20);
    }

    void runDirectoriesOpenByRankAndSayWhatIsMissing() {
        QTemporaryDir dir;
        RunDirectory manifest;
        manifest.world_size = 3;
        manifest.parallel = "ddp";
        for (int r = 0; r < 3; ++r) {
            manifest.rank_files.push_back(RunDirectory::rankFileName(r));
        }
        manifest.save(dir.path().toStdString());
        RunFile::save(smallTrace(2, 100), path(dir, "rank0.memscope"));
        RunFile::save(smallTrace(5, 100), path(dir, "rank2.memscope"));
        {
            std::ofstream broken(path(dir, "rank1.memscope"));
            broken << "not a run";
        }
        const RunSource source(dir.path().toStdString());
        QVERIFY(source.isMultiRank());
        QCOMPARE(source.worldSize(), 3);
        QCOMPARE(int(source.kind()), int(RunSource::Kind::RunDirectory));
        RunSource::Options options;
        options.rank = 2;
        QCOMPARE(source.open(options).events.count(), size_t(10));
        options.rank = -1;  // the first rank whose file exists
        QCOMPARE(source.open(options).events.count(), size_t(4));
        const auto ranks = source.openRanks({});
        QCOMPARE(ranks.size(), size_t(3));
        QVERIFY(ranks[0].trace && ranks[2].trace);
        QVERIFY(!ranks[1].trace);
        QVERIFY2(ranks[1].problem.find("rank1.memscope") != std::string::npos,
                 ranks[1].problem.c_str());
        options.rank = 3;
        QVERIFY(errorOf([&] { source.open(options); }).find("--rank: 3") != std::string::npos);
        // The manifest itself opens the same run.
        QCOMPARE(RunSource(path(dir, "manifest.json")).worldSize(), 3);
    }

    void badPathsAreOneErrorFamilyNamingTheFile() {
        QTemporaryDir dir;
        const std::string missing = path(dir, "missing.memscope");
        const std::string e1 = errorOf([&] { RunSource source(missing); });
        QVERIFY2(e1.rfind(missing + ":", 0) == 0, e1.c_str());
        const std::string e2 = errorOf([&] { RunSource source(dir.path().toStdString()); });
        QVERIFY2(e2.find("manifest.json") != std::string::npos, e2.c_str());
        {
            std::ofstream garbage(path(dir, "garbage.pickle"), std::ios::binary);
            garbage << "\x80\x04garbage";
        }
        const std::string e3 = errorOf([&] { RunSource(path(dir, "garbage.pickle")).open({}); });
        QVERIFY2(e3.rfind(path(dir, "garbage.pickle") + ":", 0) == 0, e3.c_str());
        QVERIFY2(e3.find(path(dir, "garbage.pickle") + ": " + path(dir, "garbage.pickle")) ==
                     std::string::npos,
                 e3.c_str());
        {
            std::ofstream journal(path(dir, "torn.journal"), std::ios::binary);
            journal.write(RunJournal::kMagic, 8);
        }
        QVERIFY(!errorOf([&] { RunSource(path(dir, "torn.journal")).open({}); }).empty());
        RunFile::save(smallTrace(2, 8), path(dir, "single.memscope"));
        RunSource::Options options;
        options.rank = 1;
        QVERIFY(errorOf([&] {
                    RunSource(path(dir, "single.memscope")).open(options);
                }).find("--rank") != std::string::npos);
    }

    void cancellingStops() {
        QTemporaryDir dir;
        RunFile::save(smallTrace(100, 8), path(dir, "run.memscope"));
        std::atomic<bool> cancel{true};
        RunSource::Options options;
        options.cancel = &cancel;
        bool cancelled = false;
        try {
            RunSource(path(dir, "run.memscope")).open(options);
        } catch (const RunFileCancelled&) {
            cancelled = true;
        }
        QVERIFY(cancelled);
    }
};

QTEST_GUILESS_MAIN(TestRunSource)
#include "test_run_source.moc"
