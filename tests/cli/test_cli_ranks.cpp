// Multi-process training as a user runs it: `--nproc 2 --parallel X` against one process with the
// same global batch (equal losses), the run directory of `record`, bad options and faults.

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cli_run.h"

namespace {

// Two layers, untied head, 64 tokens: every parameter group of ZeRO-3, and fast on 2 cores.
const QStringList kTiny{"--hidden-dim",
                        "32",
                        "--num-layers",
                        "2",
                        "--num-heads",
                        "4",
                        "--num-kv-heads",
                        "2",
                        "--intermediate-dim",
                        "64",
                        "--vocab-size",
                        "64",
                        "--seq-len",
                        "16",
                        "--no-tie-embeddings",
                        "--learning-rate",
                        "0.01",
                        "--threads",
                        "1"};

QJsonObject readJson(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QJsonDocument::fromJson(f.readAll()).object();
}

QVector<double> losses(const QJsonObject& summary) {
    QVector<double> out;
    for (const auto& s : summary["step_metrics"].toArray()) {
        out.push_back(s.toObject()["loss"].toDouble());
    }
    return out;
}

Run cliWithEnv(const QStringList& args, const QStringList& env) {
    QProcess p;
    auto e = QProcessEnvironment::systemEnvironment();
    for (const auto& kv : env) {
        e.insert(kv.section('=', 0, 0), kv.section('=', 1));
    }
    p.setProcessEnvironment(e);
    p.start(MEMSCOPE_CLI_PATH, args);
    p.waitForFinished(120'000);
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

// A listening socket on 127.0.0.1 (a port in use) for the test's lifetime.
class BusyPort {
  public:
    BusyPort() {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        addr.sin_port = 0;
        ::bind(m_fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
        ::listen(m_fd, 1);
        socklen_t len = sizeof addr;
        ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&addr), &len);
        m_port = ntohs(addr.sin_port);
    }
    ~BusyPort() { ::close(m_fd); }
    int port() const { return m_port; }

  private:
    int m_fd = -1;
    int m_port = 0;
};

// The children of a process, in start order.
QList<qint64> childrenOf(qint64 pid) {
    QFile f(QString("/proc/%1/task/%1/children").arg(pid));
    QList<qint64> out;
    if (f.open(QIODevice::ReadOnly)) {
        for (const auto& s : QString::fromUtf8(f.readAll()).split(' ', Qt::SkipEmptyParts)) {
            out.push_back(s.toLongLong());
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

class TestCliRanks : public QObject {
    Q_OBJECT

  private slots:
    void twoRanksLoseWhatOneProcessLoses_data() {
        QTest::addColumn<QString>("parallel");
        QTest::newRow("ddp") << "ddp";
        QTest::newRow("zero1") << "zero1";
        QTest::newRow("zero2") << "zero2";
        QTest::newRow("zero3") << "zero3";
    }

    // Same seed, same global batch (2 ranks x 2 = 1 process x 4): the losses of every step agree
    // to fp32 rounding. Steps after the first only agree when the gradients were averaged and
    // the sharded optimizer updated every parameter exactly once.
    void twoRanksLoseWhatOneProcessLoses() {
        QFETCH(QString, parallel);
        QTemporaryDir dir;
        const auto single_json = dir.filePath("single.json");
        const auto multi_json = dir.filePath("multi.json");
        auto single = cli(QStringList{"train", "--num-steps", "4", "--batch-size", "4",
                                      "--summary-json", single_json} +
                          kTiny);
        QVERIFY2(single.exit_code == 0, qPrintable(single.err));
        auto multi = cli(QStringList{"train", "--num-steps", "4", "--batch-size", "2", "--nproc",
                                     "2", "--parallel", parallel, "--summary-json", multi_json} +
                         kTiny);
        QVERIFY2(multi.exit_code == 0, qPrintable(multi.err + multi.out));
        const auto a = losses(readJson(single_json));
        const auto summary = readJson(multi_json);
        const auto b = losses(summary);
        QCOMPARE(a.size(), 4);
        QCOMPARE(b.size(), 4);
        for (int i = 0; i < a.size(); ++i) {
            QVERIFY2(std::abs(a[i] - b[i]) <= 1e-5 * std::abs(a[i]),
                     qPrintable(QString("step %1: one process %2, two ranks %3")
                                    .arg(i + 1)
                                    .arg(a[i], 0, 'g', 9)
                                    .arg(b[i], 0, 'g', 9)));
        }
        // The loss moved: the test would notice a missing update.
        QVERIFY(std::abs(a[3] - a[0]) > 1e-3);
        QCOMPARE(summary["world_size"].toInt(), 2);
        QCOMPARE(summary["parallel"].toString(), parallel);
        QCOMPARE(summary["global_batch_size"].toInt(), 4);
        const auto ranks = summary["ranks"].toArray();
        QCOMPARE(ranks.size(), 2);
        for (int r = 0; r < 2; ++r) {
            const auto o = ranks[r].toObject();
            QCOMPARE(o["rank"].toInt(), r);
            QVERIFY(o["steady_peak_allocated_bytes"].toDouble() > 0);
            QVERIFY(o["peak_allocated_bytes"].toDouble() >=
                    o["steady_peak_allocated_bytes"].toDouble());
            QVERIFY(o["avg_step_s"].toDouble() > 0);
        }
        QVERIFY(multi.out.contains("global batch 4"));
    }

    void badOptionsExitWithStatus2AndNameTheOption_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("env");
        QTest::addColumn<QString>("named");
        QTest::newRow("nproc 0") << QStringList{"train", "--nproc", "0"} << QStringList{}
                                 << "--nproc";
        QTest::newRow("strategy") << QStringList{"train", "--nproc", "2", "--parallel", "zero9"}
                                  << QStringList{} << "--parallel";
        // CUDA ranks run on NCCL; with no GPU (or no NCCL) the device is what is wrong.
        QTest::newRow("device") << QStringList{"train", "--nproc", "2", "--device", "cuda"}
                                << QStringList{} << "--device";
        QTest::newRow("rank outside world")
            << QStringList{"train"} << QStringList{"RANK=2", "WORLD_SIZE=2"} << "RANK";
        QTest::newRow("rank without world")
            << QStringList{"train"} << QStringList{"RANK=0"} << "WORLD_SIZE";
        QTest::newRow("world size not a number")
            << QStringList{"train"} << QStringList{"RANK=0", "WORLD_SIZE=two"} << "WORLD_SIZE";
        QTest::newRow("nproc against the job")
            << QStringList{"train", "--nproc", "3"} << QStringList{"RANK=0", "WORLD_SIZE=2"}
            << "--nproc";
    }

    void badOptionsExitWithStatus2AndNameTheOption() {
        QFETCH(QStringList, args);
        QFETCH(QStringList, env);
        QFETCH(QString, named);
        const auto r = cliWithEnv(args + kTiny, env);
        QCOMPARE(r.exit_code, 2);
        const auto lines = r.err.trimmed().split('\n');
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines[0].contains(named), qPrintable(lines[0]));
    }

    void portInUseIsNamed() {
        BusyPort busy;
        const auto port = QString::number(busy.port());
        // The launcher checks the port before starting ranks.
        auto r = cli(QStringList{"train", "--nproc", "2", "--master-port", port} + kTiny);
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.trimmed().split('\n').size() == 1 && r.err.contains("--master-port"),
                 qPrintable(r.err));
        // Rank 0 of a torchrun-style job cannot serve the rendezvous there.
        r = cliWithEnv(QStringList{"train", "--comm-timeout", "5"} + kTiny,
                       {"RANK=0", "WORLD_SIZE=2", "MASTER_ADDR=127.0.0.1", "MASTER_PORT=" + port});
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.trimmed().split('\n').size() == 1 && r.err.contains("--master-port"),
                 qPrintable(r.err));
    }

    void unreachableMasterStopsWithinTheTimeout() {
        int free_port = 0;
        {
            BusyPort probe;
            free_port = probe.port();
        }  // closed again: nobody listens there
        QElapsedTimer timer;
        timer.start();
        const auto r = cliWithEnv(QStringList{"train", "--comm-timeout", "3"} + kTiny,
                                  {"RANK=1", "WORLD_SIZE=2", "MASTER_ADDR=127.0.0.1",
                                   "MASTER_PORT=" + QString::number(free_port)});
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.trimmed().split('\n').size() == 1 && r.err.contains("MASTER_ADDR"),
                 qPrintable(r.err));
        QVERIFY2(timer.elapsed() < 60'000, "no hang");
    }

    // kill -9 of rank 1 mid-run: the launcher names it, rank 0 stops within --comm-timeout and
    // saves what it recorded; the run directory opens with rank 0 only.
    void killedRankIsNamedAndTheOthersKeepTheirRecording() {
        QTemporaryDir dir;
        const auto out = dir.filePath("run");
        QProcess p;
        p.start(MEMSCOPE_CLI_PATH,
                QStringList{"record", "--nproc", "2", "--parallel", "ddp", "--num-steps", "100000",
                            "--batch-size", "2", "--comm-timeout", "10", "--out", out} +
                    kTiny);
        QVERIFY(p.waitForStarted());
        QString seen;
        QElapsedTimer timer;
        timer.start();
        while (!seen.contains("Step 3/") && timer.elapsed() < 120'000) {
            p.waitForReadyRead(500);
            seen += QString::fromUtf8(p.readAllStandardOutput());
        }
        QVERIFY2(seen.contains("Step 3/"), qPrintable(seen));
        const auto children = childrenOf(p.processId());
        QCOMPARE(children.size(), 2);
        ::kill(pid_t(children[1]), SIGKILL);
        timer.restart();
        QVERIFY(p.waitForFinished(60'000));
        QVERIFY2(timer.elapsed() < 30'000, "rank 0 stops within the communication timeout");
        const auto err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(err.contains("rank 1") && err.contains("signal 9"), qPrintable(err));
        QVERIFY(QFile::exists(out + "/manifest.json"));
        QVERIFY(QFile::exists(out + "/rank0.memscope"));
        QVERIFY(!QFile::exists(out + "/rank1.memscope"));
        const auto info = cli({"info", out + "/rank0.memscope"});
        QVERIFY2(info.exit_code == 0, qPrintable(info.err));
    }

    // A recorded DDP run: the c10d ops are rows of the operator table whose Sent column holds
    // the payload handed to the collectives, and the buffers of ZeRO-3 are COMMUNICATION.
    void collectivesAreRecordedWithTheirPayload() {
        QTemporaryDir dir;
        const auto out = dir.filePath("run");
        auto r = cli(QStringList{"record", "--nproc", "2", "--parallel", "ddp", "--num-steps", "2",
                                 "--batch-size", "2", "--out", out} +
                     kTiny);
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        const auto csv = dir.filePath("ops.csv");
        r = cli({"export", out + "/rank1.memscope", "--to", csv});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QStringList lines;  // CSV rows end in CRLF (RFC 4180)
        for (const auto& line : QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts)) {
            lines.append(line.trimmed());
        }
        const auto header = lines.value(0).split(',');
        const int sent = int(header.indexOf("bytes_sent"));
        QVERIFY2(sent > 0, qPrintable(lines.value(0)));
        qint64 allreduce = -1;
        for (const auto& line : lines) {
            if (line.startsWith("c10d::allreduce,")) {
                allreduce = line.split(',').value(sent).toLongLong();
            }
        }
        // Every parameter's fp32 gradient is all-reduced once a step (plus 8 bytes of loss).
        QVERIFY2(allreduce > 0, qPrintable(lines.join('\n')));
        auto info = cli({"info", out, "--rank", "1"});
        QVERIFY2(info.exit_code == 0, qPrintable(info.err));
        r = cli(QStringList{"record", "--nproc", "2", "--parallel", "zero3", "--num-steps", "2",
                            "--batch-size", "2", "--out", dir.filePath("z3")} +
                kTiny);
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        info = cli({"info", dir.filePath("z3"), "--rank", "0"});
        QVERIFY2(info.out.contains("COMMUNICATION"), qPrintable(info.out));
        // compare takes two ranks of one run: by default its ranks 0 and 1.
        auto compared = cli({"compare", dir.filePath("z3")});
        QVERIFY2(compared.exit_code == 0, qPrintable(compared.err));
        QVERIFY2(compared.out.contains("A: " + dir.filePath("z3") + " rank 0") &&
                     compared.out.contains("B: " + dir.filePath("z3") + " rank 1"),
                 qPrintable(compared.out));
        compared = cli({"compare", out, dir.filePath("z3"), "--rank-a", "1", "--rank-b", "0"});
        QVERIFY2(compared.exit_code == 0 && compared.out.contains("run rank 1") &&
                     compared.out.contains("z3 rank 0"),
                 qPrintable(compared.out + compared.err));
        compared = cli({"compare", out, "--rank-a", "5"});
        QVERIFY2(compared.exit_code == 2, qPrintable(compared.out + compared.err));
    }

    // Gloo's worker thread holds a reference to each collective's tensors until just after the
    // work is done; a reduce bucket whose last reference went there was freed unseen by the
    // (thread-local) memory hook, so it stayed alive in the recording and raised every later peak
    // by its size (rank 0 of a ZeRO-2 run, about one step in two). Every bucket must be freed in
    // the step that made it, on every rank.
    void reduceBucketsAreFreedInTheirStep() {
        QTemporaryDir dir;
        const auto out = dir.filePath("z2");
        auto r = cli(QStringList{"record", "--nproc", "2", "--parallel", "zero2", "--num-steps",
                                 "8", "--batch-size", "2", "--out", out} +
                     kTiny);
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        for (const char* rank : {"rank0", "rank1"}) {
            const auto csv = dir.filePath(QString(rank) + ".csv");
            r = cli(
                {"export", out + "/" + rank + ".memscope", "--table", "allocations", "--to", csv});
            QVERIFY2(r.exit_code == 0, qPrintable(r.err));
            QFile f(csv);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const auto lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
            const auto header = lines.value(0).trimmed().split(',');
            const int category = int(header.indexOf("category"));
            const int freed = int(header.indexOf("freed_at_ms"));
            QVERIFY2(category >= 0 && freed > category, qPrintable(lines.value(0)));
            int buckets = 0;
            for (const auto& line : lines) {
                const auto cells = line.trimmed().split(',');
                if (cells.value(category) != "COMMUNICATION") {
                    continue;
                }
                ++buckets;
                QVERIFY2(!cells.value(freed).isEmpty(),
                         qPrintable(QString("%1: a bucket never freed: %2").arg(rank, line)));
            }
            QVERIFY2(buckets >= 8, qPrintable(QString("%1: %2 buckets").arg(rank).arg(buckets)));
        }
    }

    // Ctrl+C reaches every rank; each stops and saves its recording.
    void interruptStopsAllRanksAndKeepsRecordings() {
        QTemporaryDir dir;
        const auto out = dir.filePath("run");
        QProcess p;
        p.start(MEMSCOPE_CLI_PATH,
                QStringList{"record", "--nproc", "2", "--parallel", "zero2", "--num-steps",
                            "100000", "--batch-size", "2", "--out", out} +
                    kTiny);
        QVERIFY(p.waitForStarted());
        QString seen;
        QElapsedTimer timer;
        timer.start();
        while (!seen.contains("Step 2/") && timer.elapsed() < 120'000) {
            p.waitForReadyRead(500);
            seen += QString::fromUtf8(p.readAllStandardOutput());
        }
        QVERIFY2(seen.contains("Step 2/"), qPrintable(seen));
        // A terminal's Ctrl+C signals the whole process group; here the launcher passes it on.
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(60'000));
        QCOMPARE(p.exitCode(), 130);
        QVERIFY(QFile::exists(out + "/rank0.memscope"));
        QVERIFY(QFile::exists(out + "/rank1.memscope"));
    }
};

QTEST_GUILESS_MAIN(TestCliRanks)
#include "test_cli_ranks.moc"
