// memscope-cli as a user runs it: exit codes, one-line errors naming the option, the JSON summary.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include "cli_run.h"

namespace {

const QStringList kTiny{"--hidden-dim",   "32", "--num-layers",       "1",  "--num-heads", "4",
                        "--num-kv-heads", "2",  "--intermediate-dim", "64", "--seq-len",   "16",
                        "--batch-size",   "2",  "--threads",          "1"};

}  // namespace

class TestCli : public QObject {
    Q_OBJECT

  private slots:
    void badOptionsExitWithStatus2AndNameTheOption_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("named");
        QTest::newRow("heads") << QStringList{"train", "--num-heads", "7"} << "--num-heads";
        QTest::newRow("kv heads") << QStringList{"train", "--num-kv-heads", "3"}
                                  << "--num-kv-heads";
        QTest::newRow("seq too long")
            << QStringList{"train", "--seq-len", "4096", "--max-seq-len", "1024"} << "--seq-len";
        QTest::newRow("attention") << QStringList{"train", "--attention", "magic"} << "--attention";
        QTest::newRow("not a number")
            << QStringList{"train", "--batch-size", "eight"} << "--batch-size";
        QTest::newRow("unknown option") << QStringList{"train", "--frobnicate"} << "--frobnicate";
        QTest::newRow("preset") << QStringList{"train", "--preset", "huge"} << "--preset";
        QTest::newRow("fp16 on cpu") << QStringList{"train", "--dtype", "fp16"} << "--dtype";
        QTest::newRow("no gpu") << QStringList{"train", "--device", "tpu"} << "--device";
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

    void trainPrintsStepsAndWritesTheJsonSummary() {
        QTemporaryDir dir;
        const auto json_path = dir.filePath("summary.json");
        auto args = QStringList{"train",          "--num-steps", "2", "--use-mixed-precision",
                                "--summary-json", json_path} +
                    kTiny;
        const auto r = cli(args);
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QVERIFY(r.out.contains("Step 1/2: Loss = "));
        QVERIFY(r.out.contains("Step 2/2: Loss = "));
        QVERIFY(r.out.contains("Performance Summary"));
        QVERIFY(r.out.contains("Dtype: bf16"));
        QFile f(json_path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto json = QJsonDocument::fromJson(f.readAll()).object();
        for (const char* key :
             {"parameters", "steps", "threads", "device", "torch_version", "avg_step_s",
              "avg_forward_s", "avg_backward_s", "avg_optimizer_s", "samples_per_s", "tokens_per_s",
              "model_tflops_per_s", "mfu", "peak_allocated_bytes", "step1_peak_allocated_bytes",
              "steady_peak_allocated_bytes", "config"}) {
            QVERIFY2(json.contains(key), key);
        }
        QCOMPARE(json["steps"].toInt(), 2);
        QCOMPARE(json["threads"].toInt(), 1);
        QCOMPARE(json["config"].toObject()["dtype"].toString(), QString("bf16"));
        QCOMPARE(json["config"].toObject()["seq_len"].toInt(), 16);
        QVERIFY(json["mfu"].toDouble() > 0);
        QVERIFY(json["peak_allocated_bytes"].toDouble() > 0);
    }

    // --options FILE: a run's config as JSON (what the GUI hands the CLI); flags beside it
    // override it; a bad file names --options and the file.
    void optionsFileGivesEveryOptionAndFlagsOverrideIt() {
        QTemporaryDir dir;
        const auto first = dir.filePath("first.json");
        QVERIFY(
            cli(QStringList{"train", "--num-steps", "1", "--seed", "7", "--summary-json", first} +
                kTiny)
                .exit_code == 0);
        QFile f(first);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto config = QJsonDocument::fromJson(f.readAll()).object()["config"].toObject();
        const auto options = dir.filePath("options.json");
        QFile o(options);
        QVERIFY(o.open(QIODevice::WriteOnly));
        o.write(QJsonDocument(config).toJson());
        o.close();
        const auto second = dir.filePath("second.json");
        const auto r =
            cli({"train", "--options", options, "--num-steps", "2", "--summary-json", second});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QFile g(second);
        QVERIFY(g.open(QIODevice::ReadOnly));
        auto again = QJsonDocument::fromJson(g.readAll()).object()["config"].toObject();
        QCOMPARE(again["num_steps"].toInt(), 2);  // the flag won
        again["num_steps"] = config["num_steps"];
        QCOMPARE(again, config);  // everything else came from the file

        const auto bad = dir.filePath("bad.json");
        QFile b(bad);
        QVERIFY(b.open(QIODevice::WriteOnly));
        b.write("{\"hidden_dim\": \"wide\"}");
        b.close();
        for (const QStringList& args :
             {QStringList{"train", "--options", dir.filePath("missing.json")},
              QStringList{"train", "--options", first + "x"},
              QStringList{"train", "--options", bad}}) {
            const auto e = cli(args);
            QCOMPARE(e.exit_code, 2);
            QVERIFY2(e.err.contains("--options"), qPrintable(e.err));
        }
        const auto wrong = cli({"train", "--options", bad});
        QVERIFY2(wrong.err.contains(bad) && wrong.err.contains("hidden_dim"),
                 qPrintable(wrong.err));
        // A preset and a whole set of options cannot both be the start.
        QCOMPARE(cli({"train", "--options", options, "--preset", "workshop-default"}).exit_code, 2);
    }

    // A value out of range in --options is refused as the flag refuses it (issue 54: the JSON
    // ran): one line, the flag's own reason, naming the field and the file. A memory limit of
    // 0 is no limit on the flag too, as in JSON (it was "not a size").
    void optionsFileValuesHaveTheFlagsRanges() {
        QTemporaryDir dir;
        const auto write = [&dir](const QString& name, const QByteArray& json) {
            QFile f(dir.filePath(name));
            f.open(QIODevice::WriteOnly);
            f.write(json);
            return f.fileName();
        };
        const QString reason = "must be between 1 and 65536, got 100000";
        const auto flag = cli({"train", "--batch-size", "100000"});
        const QString big = write("big.json", R"({"batch_size": 100000})");
        const auto json = cli({"train", "--options", big});
        QCOMPARE(flag.exit_code, 2);
        QCOMPARE(json.exit_code, 2);
        QCOMPARE(flag.err.trimmed().split('\n').size(), 1);
        QCOMPARE(json.err.trimmed().split('\n').size(), 1);
        QVERIFY2(flag.err.trimmed().endsWith("--batch-size: " + reason), qPrintable(flag.err));
        QVERIFY2(json.err.trimmed().endsWith("--options: " + big + ": field batch_size " + reason),
                 qPrintable(json.err));
        const auto vocab = cli({"train", "--options", write("vocab.json", R"({"vocab_size": 1})")});
        QCOMPARE(vocab.exit_code, 2);
        QVERIFY2(vocab.err.contains("field vocab_size must be between 2 and"),
                 qPrintable(vocab.err));

        const auto r =
            cli(QStringList{"train", "--num-steps", "1", "--device-memory-limit", "0"} + kTiny);
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    }

    // memscope-cli loads LibTorch only for the commands that need it (LibTorchPart): without its
    // part those fail with one line naming the library, and the others still work.
    void libTorchIsLoadedOnlyWhereNeeded() {
        QTemporaryDir dir;
        const auto run = dir.filePath("r.memscope");
        QCOMPARE(cli(QStringList{"record", "--num-steps", "1", "--out", run} + kTiny).exit_code, 0);
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("MEMSCOPE_CLI_TORCH_PART", dir.filePath("no-such-part.so"));
        p.setProcessEnvironment(env);
        p.start(MEMSCOPE_CLI_PATH, QStringList{"train", "--num-steps", "1"} + kTiny);
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 1);
        const auto err = QString::fromUtf8(p.readAllStandardError()).trimmed().split('\n');
        QCOMPARE(err.size(), 1);
        QVERIFY2(err[0].contains("no-such-part.so"), qPrintable(err[0]));
        p.start(MEMSCOPE_CLI_PATH, {"info", run});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(QString::fromUtf8(p.readAllStandardOutput()).contains("Run: recorded"));
    }

    void cs336NamesSelectTheModel() {
        // --model-size and --context-length are the CS336 spellings; forward-only keeps it fast
        const auto r = cli({"train", "--model-size", "small", "--context-length", "16",
                            "--batch-size", "1", "--num-steps", "1", "--profile-type", "forward",
                            "--num-layers", "1", "--threads", "1"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QVERIFY(r.out.contains("Hidden Dim: 768"));
        QVERIFY(r.out.contains("Vocab Size: 10000 (untied LM head)"));
        QVERIFY(r.out.contains("Num Heads: 12 (KV heads: 12)"));
    }

    void recordWritesARunFileThatInfoReads() {
        QTemporaryDir dir;
        const auto run = dir.filePath("tiny.memscope");
        const auto json_path = dir.filePath("summary.json");
        const auto r = cli(
            QStringList{"record", "--num-steps", "2", "--out", run, "--summary-json", json_path} +
            kTiny);
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QVERIFY(r.out.contains("Wrote " + run));
        QFile f(json_path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto json = QJsonDocument::fromJson(f.readAll()).object();
        for (const char* key : {"avg_allocated_bytes", "peak_by_phase", "bytes_by_category_at_peak",
                                "largest_allocations", "oom", "events", "dropped_events",
                                "peak_allocated_bytes", "samples_per_s"}) {
            QVERIFY2(json.contains(key), key);
        }
        QVERIFY(json["oom"].isNull());
        QCOMPARE(json["largest_allocations"].toArray().size(), 10);
        QVERIFY(json["bytes_by_category_at_peak"].toObject()["PARAMETER"].toDouble() > 0);

        const auto info = cli({"info", run});
        QVERIFY2(info.exit_code == 0, qPrintable(info.err));
        QVERIFY(info.out.contains("Peak allocated"));
        QVERIFY(info.out.contains("Top operators by memory"));
        QVERIFY(info.out.contains("Top operators by time"));
        QVERIFY(info.out.contains("PARAMETER"));
        QVERIFY(info.out.contains("Reserved: no caching allocator (CPU)"));
    }

    void anOutOfMemoryRunExits3AndKeepsItsFile() {
        QTemporaryDir dir;
        const auto run = dir.filePath("oom.memscope");
        const auto r = cli(QStringList{"record", "--num-steps", "2", "--out", run,
                                       "--device-memory-limit", "300KiB"} +
                           kTiny);
        QCOMPARE(r.exit_code, 3);
        QVERIFY(r.out.contains("OUT OF MEMORY"));
        QVERIFY(QFile::exists(run));
        const auto info = cli({"info", run});
        QCOMPARE(info.exit_code, 0);
        QVERIFY(info.out.contains("OUT OF MEMORY"));
        // Explained, with the single changes the planner predicts to fit (issue 41).
        QVERIFY(info.out.contains("Out of memory explained"));
        QVERIFY2(info.out.contains("Single changes that fit 300.0 KiB") ||
                     info.out.contains("No single change the planner models fits 300.0 KiB"),
                 qPrintable(info.out.right(600)));
    }

    // record --check-advice (issue 41): an out-of-memory run lists the single changes that fit
    // and reruns the top one under the same limit, its measured peak beside the prediction.
    void checkAdviceRerunsTheTopSuggestion() {
        QTemporaryDir dir;
        const auto run = dir.filePath("oom.memscope");
        const auto r =
            cli(QStringList{"record", "--num-steps", "2", "--out", run, "--device-memory-limit",
                            "2MiB", "--check-advice", "--seq-len", "32", "--batch-size", "4"} +
                kTiny.mid(0, 10) + QStringList{"--threads", "1"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.out.right(800) + r.err));
        QVERIFY(r.out.contains("OUT OF MEMORY"));
        QVERIFY(r.out.contains("Single changes that fit 2.0 MiB"));
        QVERIFY(r.out.contains("1. --"));
        QVERIFY(r.out.contains("Measured peak"));
        QVERIFY(QFile::exists(run));
        QVERIFY(QFile::exists(dir.filePath("oom.advice.memscope")));
        // Measured and predicted within the planner's error (exact on the CPU trainer: 0.1%).
        const QRegularExpression figures(
            R"(\((\d+) bytes\) beside the predicted .* \((\d+) bytes\))");
        const auto m = figures.match(r.out);
        QVERIFY2(m.hasMatch(), qPrintable(r.out.right(400)));
        const double measured = m.captured(1).toDouble(), predicted = m.captured(2).toDouble();
        QVERIFY2(std::abs(measured - predicted) <= 0.001 * predicted, qPrintable(m.captured(0)));
        QVERIFY(measured <= 2 * 1024 * 1024);
        // The report explains the OOM and says what fits, as `info` does.
        const auto report = cli({"report", run, "--out", "-"});
        QCOMPARE(report.exit_code, 0);
        QVERIFY2(report.out.contains("ran out of memory**") &&
                     report.out.contains("What fits 2.00 MB, one change each (the planner): `--"),
                 qPrintable(report.out.left(3000)));

        // A limit below what the model holds before its first step says so.
        const auto low =
            cli(QStringList{"record", "--num-steps", "2", "--out", dir.filePath("low.memscope"),
                            "--device-memory-limit", "20KiB"} +
                kTiny);
        QCOMPARE(low.exit_code, 3);
        QVERIFY2(low.out.contains("--device-memory-limit 20.0 KiB is below what this run holds "
                                  "before its first step"),
                 qPrintable(low.out.right(400)));
        QVERIFY(QFile::exists(dir.filePath("low.memscope")));

        const auto no_limit =
            cli({"record", "--check-advice", "--out", dir.filePath("x.memscope")});
        QCOMPARE(no_limit.exit_code, 2);
        QVERIFY(no_limit.err.contains("--check-advice"));
        QVERIFY(no_limit.err.contains("--device-memory-limit"));
        const auto python = cli({"record", "--check-advice", "--python", "x.py"});
        QCOMPARE(python.exit_code, 2);
        // (A build without the Python recorder, such as the sanitizer's, says that first.)
        QVERIFY2(python.err.contains("--check-advice for a Python program needs --fit") ||
                     python.err.contains("built without the Python recorder"),
                 qPrintable(python.err));
        QCOMPARE(python.err.trimmed().count('\n'), 0);
    }

    void infoRejectsBadFilesClearly() {
        QTemporaryDir dir;
        const auto junk = dir.filePath("junk.memscope");
        QFile f(junk);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("this is not a run file at all");
        f.close();
        const auto r = cli({"info", junk});
        QCOMPARE(r.exit_code, 1);
        QVERIFY2(r.err.contains(junk), qPrintable(r.err));
        const auto missing = cli({"info", dir.filePath("missing.memscope")});
        QCOMPARE(missing.exit_code, 1);
        QVERIFY(missing.err.contains("missing.memscope"));
        const auto bad_limit = cli({"record", "--device-memory-limit", "lots"});
        QCOMPARE(bad_limit.exit_code, 2);
        QVERIFY(bad_limit.err.contains("--device-memory-limit"));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
