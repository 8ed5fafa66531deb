// memscope-cli sweep and compare as a user runs them: a tiny grid with its tables, CSV and
// Markdown, an OOM point, bad options naming the option (exit 2), and the difference table.

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include "cli_run.h"

namespace {

const QStringList kTiny{"--hidden-dim",   "32", "--num-layers",       "1",  "--num-heads",  "4",
                        "--num-kv-heads", "2",  "--intermediate-dim", "64", "--vocab-size", "64",
                        "--threads",      "1"};

QJsonObject readJson(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QJsonDocument::fromJson(f.readAll()).object();
}

}  // namespace

class TestCliSweep : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

  private slots:
    void badOptionsExitWithStatus2AndNameTheOption_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("named");
        QTest::newRow("batch sizes")
            << QStringList{"sweep", "--batch-sizes", "4,x"} << "--batch-sizes";
        QTest::newRow("seq lens") << QStringList{"sweep", "--seq-lens", "0"} << "--seq-lens";
        QTest::newRow("attention")
            << QStringList{"sweep", "--attention", "eager,magic"} << "--attention";
        QTest::newRow("checkpointing")
            << QStringList{"sweep", "--checkpointing", "maybe"} << "--checkpointing";
        QTest::newRow("dtypes") << QStringList{"sweep", "--dtypes", "fp32,fp16"} << "--dtype";
        QTest::newRow("capacity") << QStringList{"sweep", "--capacity", "lots"} << "--capacity";
        QTest::newRow("table") << QStringList{"sweep", "--table", "seed999"} << "--table";
        QTest::newRow("unknown") << QStringList{"sweep", "--batch-size-list", "4"}
                                 << "--batch-size-list";
        QTest::newRow("config missing")
            << QStringList{"sweep", "--config", "/nonexistent.yaml"} << "--config";
        QTest::newRow("compare nothing") << QStringList{"compare"} << "required";
    }

    void badOptionsExitWithStatus2AndNameTheOption() {
        QFETCH(QStringList, args);
        QFETCH(QString, named);
        const auto r = cli(args);
        QCOMPARE(r.exit_code, 2);
        const auto lines = r.err.trimmed().split('\n');
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines[0].contains(named), qPrintable(lines[0]));
    }

    void yamlErrorsNameTheFileAndKey() {
        const QString yaml = m_dir.filePath("bad.yaml");
        QFile f(yaml);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("batch_sizes: [1, 2]\nseqlens: [16]\n");
        f.close();
        const auto r = cli(QStringList{"sweep", "--config", yaml} + kTiny);
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains("bad.yaml: seqlens"), qPrintable(r.err));
    }

    void tinySweepPrintsTablesAndWritesFiles() {
        const QString out = m_dir.filePath("sweep");
        const QString csv = m_dir.filePath("tables.csv");
        const QString md = m_dir.filePath("sweep.md");
        const QString yaml = m_dir.filePath("s.yaml");
        QFile f(yaml);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("batch_sizes: [1, 2]\nseq_lens: [16, 32]\nmode: axes\n");
        f.close();
        const auto r = cli(QStringList{"sweep", "--config", yaml, "--batch-size", "1", "--seq-len",
                                       "16", "--steps", "1", "--out", out, "--table", "points",
                                       "--table", "seed000", "--csv", csv, "--markdown", md} +
                           kTiny);
        QVERIFY2(r.exit_code == 0, qPrintable(r.err + r.out));
        // axes around batch 1, seq 16: (1,16), (2,16), (1,32)
        QVERIFY2(r.out.contains("Sweep: 3 points (axes)"), qPrintable(r.out));
        QVERIFY(r.out.contains("[1/3] custom-h32-l1-bs1-seq16"));
        QVERIFY(r.out.contains("[3/3]"));
        QVERIFY(r.out.contains("| Batch Size | Peak Memory (MB) |"));
        QVERIFY(r.out.contains("| Seq Length | Batch Size |"));
        QVERIFY(r.out.contains("Fitted exponents"));
        QVERIFY(r.out.contains("vs batch size"));
        QVERIFY(r.out.contains("vs sequence length"));
        const auto json = readJson(out + "/sweep.json");
        QCOMPARE(json["format"].toString(), QString("memscope-sweep"));
        const auto points = json["points"].toArray();
        QCOMPARE(points.size(), 3);
        for (const auto& p : points) {
            QVERIFY(QFile::exists(out + "/" + p.toObject()["run_file"].toString()));
            QVERIFY(p.toObject()["peak_bytes"].toDouble() > 0);
        }
        // One CSV per table: points, seed000-step1, seed000-step3.
        for (const char* name : {"points", "seed000-step1", "seed000-step3"}) {
            const QString path = m_dir.filePath(QString("tables-%1.csv").arg(name));
            QVERIFY2(QFile::exists(path), qPrintable(path));
        }
        QFile step1(m_dir.filePath("tables-seed000-step1.csv"));
        QVERIFY(step1.open(QIODevice::ReadOnly));
        const auto lines = QString::fromUtf8(step1.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);  // header + batch 1 and 2
        QVERIFY(lines[0].startsWith("Batch Size,Peak Memory (MB)"));
        QFile mdFile(md);
        QVERIFY(mdFile.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(mdFile.readAll());
        QVERIFY(text.contains("## Workshop exercise 2, step 1"));
        QVERIFY(text.contains("## Fitted exponents"));
    }

    void capacityMarksOomAndExitsZero() {
        const QString out = m_dir.filePath("oom");
        const auto r = cli(QStringList{"sweep", "--batch-sizes", "1,64", "--seq-len", "32",
                                       "--steps", "1", "--capacity", "2MiB", "--out", out} +
                           kTiny);
        QVERIFY2(r.exit_code == 0, qPrintable(r.err + r.out));
        QVERIFY2(r.out.contains("OUT OF MEMORY"), qPrintable(r.out));
        QVERIFY(r.out.contains("| OOM |"));
        const auto points = readJson(out + "/sweep.json")["points"].toArray();
        QCOMPARE(points.size(), 2);
        QCOMPARE(points[1].toObject()["status"].toString(), QString("oom"));
    }

    void compareTwoRuns() {
        const QString out = m_dir.filePath("cmp");
        const auto sweep =
            cli(QStringList{"sweep", "--attention", "eager,memory-efficient", "--seq-len", "32",
                            "--batch-size", "2", "--steps", "1", "--out", out} +
                kTiny);
        QVERIFY2(sweep.exit_code == 0, qPrintable(sweep.err));
        const auto points = readJson(out + "/sweep.json")["points"].toArray();
        QCOMPARE(points.size(), 2);
        const QString a = out + "/" + points[0].toObject()["run_file"].toString();
        const QString b = out + "/" + points[1].toObject()["run_file"].toString();
        const QString csv = m_dir.filePath("cmp.csv");
        const QString md = m_dir.filePath("cmp.md");
        const auto r = cli({"compare", a, b, "--csv", csv, "--markdown", md, "--top", "3"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QVERIFY(r.out.contains("Peak allocated"));
        QVERIFY(r.out.contains("category at peak"));
        QVERIFY(r.out.contains("module allocated"));
        QVERIFY(r.out.contains("memory-efficient"));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QVERIFY(lines[0].startsWith("section,name,unit,"));
        QVERIFY(lines.size() > 10);
        QVERIFY(QFile::exists(md));

        // One aligned moment (issue 53): at each run's peak the difference is the difference of
        // the peaks to the byte, and every section's rows sum to it; so at step 1's forward.
        auto peakOf = [this](const QString& run) {
            const auto info = cli({"info", "--json", run});
            return QJsonDocument::fromJson(info.out.toUtf8())["peak_allocated_bytes_recorded"]
                .toInteger();
        };
        for (const QString at : {QStringLiteral("peak"), QStringLiteral("1:forward")}) {
            const auto d = cli({"compare", a, b, "--at", at, "--json"});
            QVERIFY2(d.exit_code == 0, qPrintable(d.err));
            const QJsonObject j = QJsonDocument::fromJson(d.out.toUtf8()).object();
            const qint64 delta = j["delta"].toInteger();
            QCOMPARE(delta, j["b"].toObject()["bytes"].toInteger() -
                                j["a"].toObject()["bytes"].toInteger());
            if (at == QStringLiteral("peak")) {
                QCOMPARE(delta, peakOf(b) - peakOf(a));
            }
            for (const char* section : {"category", "module", "place"}) {
                qint64 sum = 0;
                for (const auto& row : j["by"].toObject()[section].toArray()) {
                    sum += row.toObject()["delta"].toInteger();
                }
                QCOMPARE(sum, delta);
            }
        }
        const auto text = cli({"compare", a, b, "--at", "1:backward"});
        QVERIFY2(text.exit_code == 0 && text.out.startsWith("At step 1, backward"),
                 qPrintable(text.out + text.err));
        const auto bad = cli({"compare", a, b, "--at", "1:sideways"});
        QCOMPARE(bad.exit_code, 2);
        QVERIFY(bad.err.contains("--at 1:sideways") && bad.err.contains("not a phase"));
        const auto absent = cli({"compare", a, b, "--at", "7:forward"});
        QCOMPARE(absent.exit_code, 2);
        QVERIFY2(absent.err.contains("no forward in step 7"), qPrintable(absent.err));

        const auto missing = cli({"compare", a, m_dir.filePath("nope.memscope")});
        QCOMPARE(missing.exit_code, 1);
        QVERIFY(missing.err.contains("nope.memscope"));
    }
};

QTEST_GUILESS_MAIN(TestCliSweep)
#include "test_cli_sweep.moc"
