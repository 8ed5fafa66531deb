// `memscope-cli devices` as a user runs it: the text list, --output FILE.json with the
// documented schema, a missing HIP runtime reported as a status (not an error), bad --output.

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include "cli_run.h"

namespace {

Run cliWithEnv(const QStringList& args, const QString& name, const QString& value) {
    QProcess p;
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert(name, value);
    p.setProcessEnvironment(env);
    p.start(MEMSCOPE_CLI_PATH, args);
    p.waitForFinished(300'000);
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

QJsonObject readJson(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QJsonDocument::fromJson(file.readAll()).object();
}

}  // namespace

class TestCliDevices : public QObject {
    Q_OBJECT

  private slots:
    void listsAndWritesJson() {
        QTemporaryDir dir;
        const QString path = dir.filePath("devices.json");
        const auto r = cli({"devices", "--output", path});
        QCOMPARE(r.exit_code, 0);
        QVERIFY2(r.out.startsWith("cpu  "), qPrintable(r.out));
        QVERIFY(r.out.contains("cores"));
        QVERIFY(r.out.contains("GFLOP/s fp32 GEMM"));
        QVERIFY(r.out.contains("[database: CPU]"));
        QVERIFY(r.out.contains("\nCUDA: "));
        QVERIFY(r.out.contains("\nHIP: HIP runtime"));

        const auto json = readJson(path);
        QVERIFY(json.value("devices").isArray());
        QVERIFY(json.value("hip").isString());
        QVERIFY(json.value("cuda").isString());
        // The status lines are the ones printed.
        QVERIFY(r.out.contains("\nHIP: " + json.value("hip").toString() + "\n"));
        QVERIFY(r.out.contains("\nCUDA: " + json.value("cuda").toString() + "\n"));
        const auto devices = json.value("devices").toArray();
        QVERIFY(!devices.isEmpty());
        const auto cpu = devices.first().toObject();
        QCOMPARE(cpu.value("kind").toString(), QStringLiteral("cpu"));
        QVERIFY(!cpu.value("name").toString().isEmpty());
        QVERIFY(cpu.value("total_memory_bytes").toDouble() > 0);
        QVERIFY(cpu.value("cores").toInt() > 0);
        QVERIFY(cpu.value("peak_flops_per_s").toDouble() > 0);
        QVERIFY(cpu.value("peak_bandwidth_bytes_per_s").toDouble() > 0);
        QCOMPARE(cpu.value("database").toObject().value("name").toString(), QStringLiteral("CPU"));
        for (const auto& value : devices) {
            const auto kind = value.toObject().value("kind").toString();
            QVERIFY(kind == "cpu" || kind == "cuda" || kind == "hip");
            QVERIFY(value.toObject().contains("total_memory_bytes"));
        }
    }

    void missingHipRuntimeIsAStatus() {
        QTemporaryDir dir;
        const QString path = dir.filePath("devices.json");
        const auto r = cliWithEnv({"devices", "--no-measure", "--output", path},
                                  "MEMSCOPE_HIP_LIBRARY", "/nonexistent/libamdhip64.so");
        QCOMPARE(r.exit_code, 0);
        QVERIFY2(r.out.contains("\nHIP: HIP runtime not found\n"), qPrintable(r.out));
        QVERIFY(!r.out.contains("GFLOP/s"));
        const auto json = readJson(path);
        QCOMPARE(json.value("hip").toString(), QStringLiteral("HIP runtime not found"));
        for (const auto& value : json.value("devices").toArray()) {
            QVERIFY(value.toObject().value("kind").toString() != "hip");
        }
    }

    void jsonOnStdout() {
        const auto r = cli({"devices", "--no-measure", "--json"});
        QCOMPARE(r.exit_code, 0);
        const auto json = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY(json.value("devices").isArray());
        QCOMPARE(json.value("devices").toArray().first().toObject().value("kind").toString(),
                 QStringLiteral("cpu"));
    }

    void badOutputIsAUsageError() {
        const auto r = cli({"devices", "--no-measure", "--output", "devices.txt"});
        QCOMPARE(r.exit_code, 2);
        QVERIFY(r.err.contains("--output"));
        QVERIFY(!r.err.trimmed().contains(QLatin1Char('\n')));
    }
};

QTEST_GUILESS_MAIN(TestCliDevices)
#include "test_cli_devices.moc"
