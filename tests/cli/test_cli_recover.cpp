// Nothing lost when a recording dies: memscope-cli record is killed with SIGKILL mid-run and
// memscope-cli recover rebuilds its run file from the journal, with every event the recorder had
// synced to the disk before the kill.

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include "cli_run.h"

namespace {

const QStringList kTiny{"--hidden-dim",   "32", "--num-layers",       "1",  "--num-heads", "4",
                        "--num-kv-heads", "2",  "--intermediate-dim", "64", "--seq-len",   "16",
                        "--batch-size",   "2",  "--threads",          "1"};

// The last "journal: N events synced" line, or -1.
qint64 lastSynced(const QString& err) {
    static const QRegularExpression line(QStringLiteral("journal: (\\d+) events synced"));
    qint64 n = -1;
    for (auto it = line.globalMatch(err); it.hasNext();) {
        n = it.next().captured(1).toLongLong();
    }
    return n;
}

qint64 recoveredEvents(const QString& out) {
    static const QRegularExpression line(QStringLiteral("recovered (\\d+) events"));
    const auto m = line.match(out);
    return m.hasMatch() ? m.captured(1).toLongLong() : -1;
}

}  // namespace

class TestCliRecover : public QObject {
    Q_OBJECT

  private slots:
    void finishedRecordLeavesNoJournal() {
        QTemporaryDir dir;
        const QString run = dir.filePath("run.memscope");
        const auto r = cli(QStringList{"record", "--num-steps", "2", "--out", run} + kTiny);
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QVERIFY(QFile::exists(run));
        QVERIFY(!QFile::exists(run + ".journal"));
        const auto again = cli({"recover", run});
        QCOMPARE(again.exit_code, 2);
        QVERIFY2(again.err.contains(run + ".journal"), qPrintable(again.err));
    }

    void killedRecordIsRecoveredUpToTheLastSync() {
        QTemporaryDir dir;
        const QString run = dir.filePath("run.memscope");
        const QString journal = run + ".journal";
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("MEMSCOPE_JOURNAL_LOG", "1");
        p.setProcessEnvironment(env);
        p.start(MEMSCOPE_CLI_PATH,
                QStringList{"record", "--num-steps", "1000000", "--out", run} + kTiny);
        QVERIFY(p.waitForStarted());
        // Wait for two syncs with events in them, so the kill lands mid-run with data on disk.
        QString err;
        int syncs = 0;
        QElapsedTimer clock;
        clock.start();
        while (syncs < 2 && clock.elapsed() < 120'000) {
            p.waitForReadyRead(1000);
            const QString more = QString::fromUtf8(p.readAllStandardError());
            err += more;
            syncs += more.count(QRegularExpression(QStringLiteral("journal: [1-9]\\d* events")));
            QVERIFY2(p.state() == QProcess::Running, qPrintable(err));
        }
        QVERIFY2(syncs >= 2, qPrintable(err));
        p.kill();  // SIGKILL: no handler, no destructor, nothing flushed on the way out
        QVERIFY(p.waitForFinished(30'000));
        QCOMPARE(p.exitStatus(), QProcess::CrashExit);
        err += QString::fromUtf8(p.readAllStandardError());
        const qint64 synced = lastSynced(err);
        QVERIFY2(synced > 0, qPrintable(err));
        QVERIFY(QFile::exists(journal));

        // A copy torn inside its last chunk, as a power loss mid-write leaves it.
        const QString torn = dir.filePath("torn.memscope.journal");
        QVERIFY(QFile::copy(journal, torn));
        {
            QFile f(torn);
            QVERIFY(f.resize(f.size() - 5));
        }

        const auto r = cli({"recover", run});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err + r.out));
        const qint64 recovered = recoveredEvents(r.out);
        QVERIFY2(recovered >= synced, qPrintable(QStringLiteral("synced %1, recovered %2: %3")
                                                     .arg(synced)
                                                     .arg(recovered)
                                                     .arg(r.out)));
        QVERIFY(!QFile::exists(journal));
        const auto info = cli({"info", run});
        QVERIFY2(info.exit_code == 0, qPrintable(info.err));
        QVERIFY2(info.out.contains("Peak allocated"), qPrintable(info.out));

        const auto t = cli({"recover", torn, "--keep-journal"});
        QVERIFY2(t.exit_code == 0, qPrintable(t.err + t.out));
        QVERIFY2(t.out.contains("dropped the last"), qPrintable(t.out));
        const qint64 from_torn = recoveredEvents(t.out);
        QVERIFY2(from_torn > 0 && from_torn <= recovered, qPrintable(t.out));
        QVERIFY(QFile::exists(torn));
        QVERIFY(QFile::exists(dir.filePath("torn.memscope")));
        QCOMPARE(cli({"info", dir.filePath("torn.memscope")}).exit_code, 0);
    }

    void notAJournalIsRefusedNamingTheFile() {
        QTemporaryDir dir;
        const QString bad = dir.filePath("x.memscope.journal");
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("not a journal at all");
        }
        const auto r = cli({"recover", bad});
        QCOMPARE(r.exit_code, 1);
        QVERIFY2(r.err.contains(bad) && r.err.contains("not a Memscope journal"),
                 qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), qsizetype(1));
    }
};

QTEST_GUILESS_MAIN(TestCliRecover)
#include "test_cli_recover.moc"
