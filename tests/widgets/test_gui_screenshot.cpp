// The real executables end to end: memscope-cli records a tiny run, then
// `memscope --open RUN --screenshot timeline=FILE` renders it headless (and a run directory's
// ranks with ranks=FILE). Bad options exit 2 and name the option; a file that is not a run exits
// 1 and names the file.

#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Result {
    int exit_code;
    QString output;  // stdout and stderr
};

Result run(const QString& program, const QStringList& args, int timeout_ms = 300'000) {
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("1"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));  // memscope must pick offscreen itself
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForFinished(timeout_ms)) {
        p.kill();
        p.waitForFinished();
        return {-1, QStringLiteral("timed out")};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAll())};
}

Result gui(const QStringList& args) {
    return run(QStringLiteral(MEMSCOPE_GUI_PATH), args);
}

}  // namespace

class TestGuiScreenshot : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_run;

  private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_run = m_dir.filePath(QStringLiteral("tiny.memscope"));
        // A one-layer model with 16-token sequences: two steps record in a second or two.
        const QStringList tiny =
            QStringLiteral(
                "record --hidden-dim 32 --num-layers 1 --num-heads 4 --num-kv-heads 2 "
                "--intermediate-dim 64 --seq-len 16 --batch-size 2 --threads 1 "
                "--num-steps 2")
                .split(QLatin1Char(' '));
        const Result r = run(QStringLiteral(MEMSCOPE_CLI_PATH), tiny + QStringList{"--out", m_run});
        QVERIFY2(r.exit_code == 0, qPrintable(r.output));
        QVERIFY(QFile::exists(m_run));
    }

    void screenshot_of_the_timeline() {
        const QString png = m_dir.filePath(QStringLiteral("timeline.png"));
        const Result r = gui({"--open", m_run, "--screenshot", "timeline=" + png});
        QVERIFY2(r.exit_code == 0, qPrintable(r.output));
        QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QSize(1600, 900));
        // Not blank: the chart put colour on the page.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7) {
            for (int x = 0; x < image.width(); x += 7) {
                colours.insert(image.pixel(x, y));
            }
        }
        QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
    }

    void screenshot_with_detail_and_size() {
        const QString png = m_dir.filePath(QStringLiteral("small.png"));
        for (const QString& detail : {QStringLiteral("10%"), QStringLiteral("25")}) {
            const Result r = gui({"--open", m_run, "--screenshot", "timeline=" + png, "--detail",
                                  detail, "--size", "800x450"});
            QVERIFY2(r.exit_code == 0, qPrintable(r.output));
            QCOMPARE(QImage(png).size(), QSize(800, 450));
        }
    }

    void screenshot_of_the_flame_graph() {
        const QString png = m_dir.filePath(QStringLiteral("flame.png"));
        for (const QStringList& extra :
             {QStringList(), QStringList{"--at", "5"}, QStringList{"--at", "1ms"}}) {
            QFile::remove(png);
            const Result r =
                gui(QStringList{"--open", m_run, "--screenshot", "flamegraph=" + png} + extra);
            QVERIFY2(r.exit_code == 0, qPrintable(r.output));
            QImage image(png);
            QVERIFY(!image.isNull());
            QSet<QRgb> colours;
            for (int y = 0; y < image.height(); y += 5) {
                for (int x = 0; x < image.width(); x += 5) {
                    colours.insert(image.pixel(x, y));
                }
            }
            QVERIFY2(colours.size() > 8, qPrintable(QString::number(colours.size())));
        }
        // A time after the run's end or an event it does not have: exit 2 naming --at.
        for (const QString& at : {QStringLiteral("100min"), QStringLiteral("999999999")}) {
            const Result r =
                gui({"--open", m_run, "--screenshot", "flamegraph=" + png, "--at", at});
            QCOMPARE(r.exit_code, 2);
            QVERIFY2(r.output.contains(QLatin1String("--at")), qPrintable(r.output));
        }
    }

    void screenshot_of_a_comparison() {
        const QString png = m_dir.filePath(QStringLiteral("compare.png"));
        const Result r =
            gui({"--open", m_run, "--compare", m_run, "--screenshot", "compare=" + png});
        QVERIFY2(r.exit_code == 0, qPrintable(r.output));
        QVERIFY(!QImage(png).isNull());
    }

    // Every rank of a run directory (issue 40): `--screenshot ranks=FILE` draws the timeline's
    // lanes; a single run has no ranks to draw (exit 2 naming the view).
    void screenshot_of_all_ranks() {
        const QString dir = m_dir.filePath(QStringLiteral("ranks"));
        const QStringList tiny =
            QStringLiteral(
                "record --nproc 2 --parallel ddp --hidden-dim 32 --num-layers 1 --num-heads 4 "
                "--num-kv-heads 2 --intermediate-dim 64 --seq-len 16 --batch-size 2 "
                "--threads 1 --num-steps 2")
                .split(QLatin1Char(' '));
        const Result recorded =
            run(QStringLiteral(MEMSCOPE_CLI_PATH), tiny + QStringList{"--out", dir});
        QVERIFY2(recorded.exit_code == 0, qPrintable(recorded.output));
        const QString png = m_dir.filePath(QStringLiteral("ranks.png"));
        const Result r = gui({"--open", dir, "--screenshot", "ranks=" + png});
        QVERIFY2(r.exit_code == 0, qPrintable(r.output));
        QImage image(png);
        QCOMPARE(image.size(), QSize(1600, 900));
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7) {
            for (int x = 0; x < image.width(); x += 7) {
                colours.insert(image.pixel(x, y));
            }
        }
        QVERIFY2(colours.size() > 10, qPrintable(QString::number(colours.size())));
        const Result single = gui({"--open", m_run, "--screenshot", "ranks=" + png});
        QCOMPARE(single.exit_code, 2);
        QVERIFY2(single.output.contains(QLatin1String("ranks")), qPrintable(single.output));
    }

    void bad_options_exit_2_naming_the_option_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("named");
        QTest::newRow("unknown view")
            << QStringList{"--screenshot", "minimap=x.png", "--open", "r"} << "--screenshot";
        QTest::newRow("no file") << QStringList{"--screenshot", "timeline", "--open", "r"}
                                 << "--screenshot";
        QTest::newRow("no run") << QStringList{"--screenshot", "timeline=x.png"} << "--open";
        QTest::newRow("bad detail")
            << QStringList{"--screenshot", "timeline=x.png", "--open", "r", "--detail", "lots"}
            << "--detail";
        QTest::newRow("detail over 100%")
            << QStringList{"--screenshot", "timeline=x.png", "--open", "r", "--detail", "150%"}
            << "--detail";
        QTest::newRow("bad size") << QStringList{"--screenshot", "timeline=x.png",
                                                 "--open",       "r",
                                                 "--size",       "big"}
                                  << "--size";
        QTest::newRow("bad at") << QStringList{"--screenshot", "flamegraph=x.png",
                                               "--open",       "r",
                                               "--at",         "soon"}
                                << "--at";
        QTest::newRow("compare without a run")
            << QStringList{"--screenshot", "compare=x.png", "--compare", "r"} << "--compare";
        QTest::newRow("at without a flame graph")
            << QStringList{"--screenshot", "timeline=x.png", "--open", "r", "--at", "5"} << "--at";
    }

    void bad_options_exit_2_naming_the_option() {
        QFETCH(QStringList, args);
        QFETCH(QString, named);
        const Result r = gui(args);
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.output.contains(named), qPrintable(r.output));
    }

    void a_file_that_is_not_a_run_exits_1_naming_it() {
        const QString bogus = m_dir.filePath(QStringLiteral("bogus.memscope"));
        QFile file(bogus);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a run");
        file.close();
        const Result r = gui({"--open", bogus, "--screenshot",
                              "timeline=" + m_dir.filePath(QStringLiteral("never.png"))});
        QCOMPARE(r.exit_code, 1);
        QVERIFY2(r.output.contains(QLatin1String("bogus.memscope")), qPrintable(r.output));
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("never.png"))));
    }
};

QTEST_GUILESS_MAIN(TestGuiScreenshot)
#include "test_gui_screenshot.moc"
