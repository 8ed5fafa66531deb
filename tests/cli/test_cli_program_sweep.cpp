// memscope-cli sweep --python and predict --fit as a user runs them (issue 44): a tiny grid of
// tests/python/student_lm.py with a failing half (its error shown, the fit made from the rest),
// the fit's residuals, a prediction held against a recording at a larger size, the advice to a
// run that ran out of memory (checked by a rerun), and the bad
// inputs: a placeholder missing from the grid, a grid entry no argument uses, a bad grid item,
// too few points, and --at outside what the fit can say. Skipped where the build has no Python
// recorder.

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include "cli_run.h"

namespace {

const QString kScript = QStringLiteral(MEMSCOPE_SOURCE_DIR "/tests/python/student_lm.py");
const QString kPython = QStringLiteral(MEMSCOPE_TEST_PYTHON);

// The program's words with placeholders: d=32, one layer, vocabulary 64.
QStringList program(const QStringList& extra = {}) {
    QStringList args{"--python",     kScript, "--d-model",        "32",  "--num-layers", "1",
                     "--vocab-size", "64",    "--context-length", "{s}", "--batch-size", "{b}",
                     "--steps",      "2"};
    return args + extra;
}

int lastLineCount(const QString& text) {
    return int(text.trimmed().split('\n').size());
}

}  // namespace

class TestCliProgramSweep : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    bool m_recorder = false;

    QString path(const QString& name) const { return m_dir.filePath(name); }

  private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        const auto r = cli({"record", "--python"});
        m_recorder = !r.err.contains("without the Python recorder");
    }

    void badGridsAreOneLineNamingTheName_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("named");
        QTest::newRow("placeholder missing from the grid")
            << (QStringList{"sweep", "--out", "x"} + program() + QStringList{"--grid", "s=16,32"})
            << "{b}";
        QTest::newRow("grid name not used") << (QStringList{"sweep", "--out", "x"} + program() +
                                                QStringList{"--grid", "s=16", "b=1", "L=1,2"})
                                            << "L is in the grid";
        QTest::newRow("bad value")
            << (QStringList{"sweep"} + program() + QStringList{"--grid", "s=16,x", "b=1"}) << "'x'";
        QTest::newRow("no grid") << (QStringList{"sweep"} + program()) << "{s}";
        QTest::newRow("multiple of nothing")
            << (QStringList{"sweep"} + program() + QStringList{"--grid", "s=16", "b=2*q"})
            << "no list named q";
    }

    void badGridsAreOneLineNamingTheName() {
        QFETCH(QStringList, args);
        QFETCH(QString, named);
        const auto r = cli(args);
        QCOMPARE(r.exit_code, 2);
        QCOMPARE(lastLineCount(r.err), 1);
        QVERIFY2(r.err.startsWith("memscope-cli: error: --grid"), qPrintable(r.err));
        QVERIFY2(r.err.contains(named), qPrintable(r.err));
    }

    void sweepFitsWhatRanAndShowsWhatFailed() {
        if (!m_recorder) {
            QSKIP("this build has no Python recorder");
        }
        // Three heads do not divide the width 32: those points fail, the rest are fitted.
        const QString dir = path("sweep");
        const auto r = cli(QStringList{"sweep", "--out", dir, "--python-exe", kPython} +
                           program({"--num-heads", "{h}"}) +
                           QStringList{"--grid", "s=16,24,32", "b=1,2,3", "h=4,3"});
        QCOMPARE(r.exit_code, 1);  // a point failed
        QVERIFY2(r.err.contains("point s16-b1-h3 failed"), qPrintable(r.err));
        QVERIFY2(r.err.contains("exit status"), qPrintable(r.err));
        QVERIFY2(r.out.contains("Fit: 9 points"), qPrintable(r.out));
        QVERIFY2(r.out.contains("left out"), qPrintable(r.out));
        QVERIFY(QFile::exists(dir + "/program_sweep.json"));
        QVERIFY(QFile::exists(dir + "/s32-b3-h4.memscope"));
        // Every phase fitted to the byte on the points kept, and on those left out.
        const QRegularExpression residual(R"((\d+\.\d+)% \()");
        auto it = residual.globalMatch(r.out);
        int seen = 0;
        while (it.hasNext()) {
            const auto m = it.next();
            QVERIFY2(m.captured(1).toDouble() < 0.01, qPrintable(r.out));
            ++seen;
        }
        QVERIFY2(seen >= 6, qPrintable(r.out));
    }

    void predictHoldsAgainstARecording() {
        if (!m_recorder) {
            QSKIP("this build has no Python recorder");
        }
        const QString dir = path("sweep");
        QVERIFY(QFile::exists(dir + "/program_sweep.json"));
        const QString run = path("s64-b4.memscope");
        const auto rec = cli(QStringList{"record", "--out",
                                         run,      "--python-exe",
                                         kPython,  "--python",
                                         kScript,  "--d-model",
                                         "32",     "--num-layers",
                                         "1",      "--vocab-size",
                                         "64",     "--context-length",
                                         "64",     "--batch-size",
                                         "4",      "--steps",
                                         "2",      "--num-heads",
                                         "4"});
        QCOMPARE(rec.exit_code, 0);
        const auto r = cli({"predict", "--fit", dir, "--at", "s=64,b=4", "--check", run});
        QCOMPARE(r.exit_code, 0);
        QVERIFY2(r.out.contains("h=4: as the sweep fixed"), qPrintable(r.out));
        for (const char* phase : {"first/forward", "first/backward", "first/optimizer",
                                  "steady/forward", "steady/backward", "steady/optimizer"}) {
            const QRegularExpression line(QString(phase) + R"(: recorded .*\(([-+]\d+\.\d+)%\))");
            const auto m = line.match(r.out);
            QVERIFY2(m.hasMatch(), qPrintable(r.out));
            QVERIFY2(std::abs(m.captured(1).toDouble()) < 2.0, qPrintable(r.out));
        }
        // The recording as a snapshot opens as every command opens runs (RunSource; issue 54:
        // --check read run files only).
        const QString snapshot = path("s64-b4.pickle");
        QCOMPARE(cli({"export", run, "--to", snapshot}).exit_code, 0);
        const auto s = cli({"predict", "--fit", dir, "--at", "s=64,b=4", "--check", snapshot});
        QVERIFY2(s.exit_code == 0, qPrintable(s.err));
        QVERIFY2(s.out.contains("Against " + snapshot), qPrintable(s.out));
        // JSON, with a device: fits, and a largest batch.
        const auto j = cli({"predict", "--fit", dir, "--at", "s=64,b=4", "--format", "json",
                            "--gpu-type", "H100"});
        QCOMPARE(j.exit_code, 0);
        const auto doc = QJsonDocument::fromJson(j.out.toUtf8()).object();
        QCOMPARE(doc["phases"].toArray().size(), 6);
        QVERIFY(doc["device"].toObject()["fits"].toBool());
        QVERIFY(doc["device"].toObject()["largest_batch"].toInt() > 1000);
    }

    // A program that runs out of memory under --device-memory-limit gets the fit's advice
    // (issue 44 item 5): the largest batch and context that fit; --check-advice reruns the first
    // and measures it; info --fit gives the same advice from the run file.
    void adviceFromTheFitIsCheckedUnderTheLimit() {
        if (!m_recorder) {
            QSKIP("this build has no Python recorder");
        }
        const QString dir = path("sweep");
        const auto j = cli({"predict", "--fit", dir, "--at", "s=64,b=8", "--format", "json"});
        QCOMPARE(j.exit_code, 0);
        const auto needs =
            int64_t(QJsonDocument::fromJson(j.out.toUtf8())["peak_bytes"].toDouble());
        QVERIFY2(needs > 0, qPrintable(j.out));
        const QString limit = QString::number(needs * 3 / 4);
        QStringList command = program({"--num-heads", "4"});
        command.replaceInStrings("{s}", "64").replaceInStrings("{b}", "8");
        const QString run = path("oom.memscope");
        const auto r =
            cli(QStringList{"record", "--out", run, "--python-exe", kPython,
                            "--device-memory-limit", limit, "--fit", dir, "--check-advice"} +
                command);
        QVERIFY2(r.out.contains("Checking b="), qPrintable(r.out + r.err));
        QCOMPARE(r.exit_code, 0);  // the suggestion ran to its end
        const QRegularExpression measured(
            R"(Measured peak .* beside the predicted .*: ([-+]\d+\.\d+)%)");
        const auto m = measured.match(r.out);
        QVERIFY2(m.hasMatch(), qPrintable(r.out));
        QVERIFY2(std::abs(m.captured(1).toDouble()) < 2.0, qPrintable(r.out));
        QVERIFY(QFile::exists(path("oom.advice.memscope")));

        const auto info = cli({"info", run, "--fit", dir});
        QCOMPARE(info.exit_code, 0);
        QVERIFY2(info.out.contains("The sweep's fit predicts") && info.out.contains("1. b="),
                 qPrintable(info.out));
        const auto json = cli({"info", run, "--fit", dir, "--json"});
        const auto advice = QJsonDocument::fromJson(json.out.toUtf8())["fit_advice"].toObject();
        QCOMPARE(advice["source"].toString(), QString("fit"));
        QVERIFY(!advice["suggestions"].toArray().isEmpty());

        // Bad input, each one line before anything runs: no --fit, a command that is no point
        // of the sweep's program.
        const auto no_fit = cli(QStringList{"record", "--out", path("x.memscope"),
                                            "--device-memory-limit", limit, "--check-advice"} +
                                command);
        QCOMPARE(no_fit.exit_code, 2);
        QVERIFY2(no_fit.err.contains("needs --fit SWEEPDIR"), qPrintable(no_fit.err));
        QCOMPARE(lastLineCount(no_fit.err), 1);
        QStringList other = command;
        other.replaceInStrings(QRegularExpression("^32$"), "48");  // --d-model 48
        const auto mismatch =
            cli(QStringList{"record", "--out", path("y.memscope"), "--python-exe", kPython,
                            "--device-memory-limit", limit, "--fit", dir, "--check-advice"} +
                other);
        QCOMPARE(mismatch.exit_code, 2);
        QVERIFY2(mismatch.err.contains("--fit") && mismatch.err.contains("'48'"),
                 qPrintable(mismatch.err));
        QCOMPARE(lastLineCount(mismatch.err), 1);
        QVERIFY(!QFile::exists(path("y.memscope")));
    }

    void predictRefusesWhatTheFitCannotSay_data() {
        QTest::addColumn<QString>("at");
        QTest::addColumn<QString>("named");
        QTest::newRow("size the sweep did not name") << "s=64,b=4,d=64"
                                                     << "did not name d";
        QTest::newRow("size the sweep fixed") << "s=64,b=4,h=8"
                                              << "did not vary h";
        QTest::newRow("size missing") << "b=4"
                                      << "needs s";
        QTest::newRow("not a number") << "s=64,b=four"
                                      << "--at";
    }

    void predictRefusesWhatTheFitCannotSay() {
        if (!m_recorder) {
            QSKIP("this build has no Python recorder");
        }
        QFETCH(QString, at);
        QFETCH(QString, named);
        const auto r = cli({"predict", "--fit", path("sweep"), "--at", at});
        QCOMPARE(r.exit_code, 2);
        QCOMPARE(lastLineCount(r.err), 1);
        QVERIFY2(r.err.contains(named), qPrintable(r.err));
    }

    void tooFewPointsIsAClearError() {
        if (!m_recorder) {
            QSKIP("this build has no Python recorder");
        }
        const QString dir = path("few");
        const auto r = cli(QStringList{"sweep", "--out", dir, "--python-exe", kPython} + program() +
                           QStringList{"--grid", "s=16,32", "b=1"});
        QCOMPARE(r.exit_code, 1);
        QVERIFY2(r.err.contains("cannot fit the sweep") && r.err.contains("needs at least"),
                 qPrintable(r.err));
        const auto p = cli({"predict", "--fit", dir, "--at", "s=64,b=1"});
        QCOMPARE(p.exit_code, 1);
        QVERIFY2(p.err.contains("needs at least"), qPrintable(p.err));
    }
};

QTEST_GUILESS_MAIN(TestCliProgramSweep)
#include "test_cli_program_sweep.moc"
