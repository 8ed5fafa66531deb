// `memscope-cli predict` as a user runs it: memprof-training's form, a YAML configuration,
// Memscope's own options, output by suffix, and bad input (exit 2, the field named).

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include "cli_run.h"

namespace {

QJsonObject jsonOf(const QString& text) {
    QJsonParseError error;
    const auto doc = QJsonDocument::fromJson(text.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError) {
        qWarning() << error.errorString();
    }
    return doc.object();
}

}  // namespace

class TestCliPredict : public QObject {
    Q_OBJECT

  private slots:
    void memprofForm() {
        const auto r = cli({"predict", "transformer", "13", "32", "--sequence-length", "4096",
                            "--gpu-type", "NVIDIA H100", "--gpus", "4", "--strategy",
                            "tensor_parallel", "--bottlenecks", "--max-batch-size"});
        QCOMPARE(r.exit_code, 0);
        QVERIFY2(r.out.contains("EXCEEDS CAPACITY") || r.out.contains("WILL FIT"),
                 qPrintable(r.out));
        QVERIFY(r.out.contains("MEMORY BREAKDOWN"));
        QVERIFY(r.out.contains("tensor_parallel (DP=1, TP=4, PP=1)"));
        QVERIFY(r.out.contains("STRATEGY COMPARISON (4 GPUs)"));
        QVERIFY(r.out.contains("RECOMMENDATIONS"));
        QVERIFY(r.out.contains("Maximum batch size that fits"));
        QVERIFY(r.out.contains("ASSUMPTIONS"));
    }

    void jsonAndCsvBySuffix() {
        QTemporaryDir dir;
        const auto json_path = dir.filePath("plan.json");
        const auto csv_path = dir.filePath("plan.csv");
        const QStringList base{
            "predict",       "transformer",  "7", "16", "--gpus", "8", "--strategy",
            "data_parallel", "--zero-stage", "2"};
        auto r = cli(base + QStringList{"--output", json_path});
        QCOMPARE(r.exit_code, 0);
        QFile json_file(json_path);
        QVERIFY(json_file.open(QIODevice::ReadOnly));
        const auto j = jsonOf(QString::fromUtf8(json_file.readAll()));
        QVERIFY(j.contains("fits"));
        QVERIFY(j["per_gpu_total_bytes"].toDouble() > 0);
        QCOMPARE(j["parallel"].toObject()["zero_stage"].toInt(), 2);
        QCOMPARE(j["parallel"].toObject()["data_parallel"].toInt(), 8);
        QVERIFY(j["time"].toObject()["step_s"].toDouble() > 0);
        QVERIFY(!j["assumptions"].toArray().isEmpty());
        r = cli(base + QStringList{"--output", csv_path});
        QCOMPARE(r.exit_code, 0);
        QFile csv_file(csv_path);
        QVERIFY(csv_file.open(QIODevice::ReadOnly));
        const auto csv = QString::fromUtf8(csv_file.readAll());
        QVERIFY(csv.startsWith("section,name,value,detail\n"));
        QVERIFY(csv.contains("\nmemory,optimizer_state,"));
        // standard output in JSON on request
        r = cli(base + QStringList{"--format", "json"});
        QCOMPARE(r.exit_code, 0);
        QVERIFY(jsonOf(r.out).contains("memory"));
    }

    void yamlConfiguration() {
        QTemporaryDir dir;
        const auto path = dir.filePath("13b.yaml");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            "model:\n  type: transformer_decoder\n  size_billions: 13.0\n  batch_size: 32\n"
            "  sequence_length: 4096\n  framework: pytorch\n  attention: flash\n"
            "hardware:\n  gpu_type: \"NVIDIA H100\"\n"
            "cluster:\n  num_gpus: 4\n  interconnect: nvlink_4\n  nodes: 1\n"
            "  gpus_per_node: 4\n"
            "distribution:\n  strategy: data_parallel\n  data_parallel: 4\n"
            "analysis:\n  enable_bottlenecks: true\n  basic_mode: false\n");
        f.close();
        const auto r = cli({"predict", "--config", path, "--format", "json"});
        QCOMPARE(r.exit_code, 0);
        const auto j = jsonOf(r.out);
        QCOMPARE(j["micro_batch"].toInt(), 8);
        QCOMPARE(j["parallel"].toObject()["gpus"].toInt(), 4);
        QCOMPARE(j["request"].toObject()["sdpa_is_flash"].toBool(), true);
        QVERIFY(j["strategies"].toArray().size() >= 3);
    }

    void fp16PlansForAGpu() {
        const auto r = cli({"predict", "transformer", "7", "8", "--dtype", "fp16", "--gpu-type",
                            "A100", "--format", "json"});
        QCOMPARE(r.exit_code, 0);
        QCOMPARE(jsonOf(r.out)["request"].toObject()["workload"].toObject()["dtype"].toString(),
                 QString("fp16"));
    }

    void memscopeOptionsOnTheCpu() {
        const auto r = cli({"predict", "--preset", "workshop-default", "--format", "json",
                            "--gpu-type", "CPU", "--mfu", "0.3"});
        QCOMPARE(r.exit_code, 0);
        const auto j = jsonOf(r.out);
        QCOMPARE(j["device"].toObject()["kind"].toString(), QString("cpu"));
        // workshop default: 2,617,600 parameters
        QCOMPARE(qint64(j["memory"].toObject()["parameters"].toDouble()), qint64(2617600));
        QCOMPARE(j["time"].toObject()["mfu"].toDouble(), 0.3);
        QCOMPARE(j["per_gpu_bytes"].toObject()["workspace"].toDouble(), 0.0);
    }

    void bothKindsOfForwardOnly() {
        // Inference (torch.no_grad) keeps no activation; a forward with autograd on keeps all:
        // both are reported, named apart, whatever the profile; "inference" is the forward
        // profile's other name (issue 44).
        const QStringList tiny{
            "predict", "--hidden-dim",   "64", "--num-layers", "2",   "--num-heads",
            "4",       "--num-kv-heads", "4",  "--vocab-size", "256", "--batch-size",
            "4",       "--seq-len",      "64", "--format",     "json"};
        const auto training = cli(tiny);
        QCOMPARE(training.exit_code, 0);
        const auto forward = jsonOf(training.out)["forward_only"].toObject();
        const auto inference = forward["inference_no_grad_bytes"].toDouble();
        const auto autograd = forward["forward_with_autograd_bytes"].toDouble();
        QVERIFY(inference > 0);
        QVERIFY(autograd > 1.5 * inference);
        const auto asInference = cli(tiny + QStringList{"--profile-type", "inference"});
        QCOMPARE(asInference.exit_code, 0);
        const auto j = jsonOf(asInference.out);
        QCOMPARE(j["forward_only"].toObject()["inference_no_grad_bytes"].toDouble(), inference);
        QCOMPARE(j["forward_only"].toObject()["forward_with_autograd_bytes"].toDouble(), autograd);
        const auto text = cli(tiny.mid(0, tiny.size() - 2));
        QVERIFY2(text.out.contains("inference under torch.no_grad") &&
                     text.out.contains("forward with autograd on"),
                 qPrintable(text.out));
    }

    void badInputExitsWith2AndNamesTheField_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("named");
        QTest::newRow("model type") << QStringList{"predict", "cnn", "7", "32"} << "model_type";
        QTest::newRow("no batch") << QStringList{"predict", "transformer", "7"} << "batch";
        QTest::newRow("device") << QStringList{"predict", "transformer", "7",
                                               "32",      "--gpu-type",  "Abacus"}
                                << "--gpu-type";
        QTest::newRow("strategy") << QStringList{"predict", "transformer", "7",          "32",
                                                 "--gpus",  "4",           "--strategy", "sideways"}
                                  << "--strategy";
        QTest::newRow("batch not divisible")
            << QStringList{"predict", "transformer", "7", "30", "--gpus", "4"} << "--batch-size";
        QTest::newRow("fp16 on the cpu")
            << QStringList{"predict", "--preset", "study-tiny", "--dtype", "fp16"} << "--dtype";
        QTest::newRow("missing config")
            << QStringList{"predict", "--config", "/nonexistent.yaml"} << "--config";
        QTest::newRow("device db")
            << QStringList{"predict", "--device-db", "/nonexistent.yaml"} << "--device-db";
    }
    void badInputExitsWith2AndNamesTheField() {
        QFETCH(QStringList, args);
        QFETCH(QString, named);
        const auto r = cli(args);
        QCOMPARE(r.exit_code, 2);
        const auto lines = r.err.trimmed().split('\n');
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines[0].contains(named), qPrintable(lines[0]));
    }

    void badYamlNamesFileAndField() {
        QTemporaryDir dir;
        const auto path = dir.filePath("bad.yaml");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("model:\n  size_billions: 7\n  batch_size: lots\n");
        f.close();
        const auto r = cli({"predict", "--config", path});
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains("model.batch_size") && r.err.contains("bad.yaml"),
                 qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCliPredict)
#include "test_cli_predict.moc"
