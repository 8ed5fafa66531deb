// memscope-cli export and report as a user runs them: every format from one recorded run, the
// report over it, and one-line errors with the exit status the README promises.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include "cli_run.h"

namespace {

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

const QStringList kTiny{"--hidden-dim",   "32", "--num-layers",       "1",  "--num-heads", "4",
                        "--num-kv-heads", "2",  "--intermediate-dim", "64", "--seq-len",   "16",
                        "--batch-size",   "2",  "--threads",          "1",  "--num-steps", "2"};

}  // namespace

class TestCliExports : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_run = m_dir.filePath("tiny.memscope");
        const auto r = cli(QStringList{"record", "--out", m_run} + kTiny);
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    }

    void exportsAMemoryVizPickle() {
        for (const QString protocol : {"2", "4"}) {
            const auto path = m_dir.filePath("tiny" + protocol + ".pickle");
            const auto r = cli({"export", m_run, "--to", path, "--protocol", protocol});
            QVERIFY2(r.exit_code == 0, qPrintable(r.err));
            QVERIFY(r.out.contains("Wrote " + path));
            const auto bytes = readAll(path);
            QVERIFY(bytes.size() > 100);
            QCOMPARE(uchar(bytes[0]), uchar(0x80));  // PROTO
            QCOMPARE(int(bytes[1]), protocol.toInt());
            QCOMPARE(bytes.back(), '.');  // STOP
            const auto python = QStandardPaths::findExecutable("python3");
            if (python.isEmpty()) {
                continue;
            }
            QProcess p;
            p.start(python, {"-c",
                             "import pickle,sys,json; s=pickle.load(open(sys.argv[1],'rb')); "
                             "t=s['device_traces'][0]; print(json.dumps({'n': len(t), "
                             "'alloc': sum(e['action']=='alloc' for e in t), "
                             "'keys': sorted(s.keys())}))",
                             path});
            QVERIFY(p.waitForFinished(60'000));
            QCOMPARE(p.exitCode(), 0);
            const auto d = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
            QVERIFY(d["alloc"].toInt() > 100);
            QVERIFY(d["keys"].toArray().contains("segments"));
            QVERIFY(d["keys"].toArray().contains("external_annotations"));
        }
    }

    void exportsAChromeTrace() {
        const auto path = m_dir.filePath("tiny.json");
        const auto r = cli({"export", m_run, "--to", path});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QJsonParseError error;
        const auto doc = QJsonDocument::fromJson(readAll(path), &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        int complete = 0, counters = 0;
        for (const auto& v : doc.object()["traceEvents"].toArray()) {
            complete += v.toObject()["ph"].toString() == "X";
            counters += v.toObject()["ph"].toString() == "C";
        }
        QVERIFY(complete > 10);
        QVERIFY(counters > 10);
    }

    void exportsTables_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("table");
        QTest::addColumn<QString>("header");
        QTest::newRow("operators csv") << "ops.csv"
                                       << ""
                                       << "name,kind,calls,self_cpu_ms";
        QTest::newRow("operators md") << "ops.md"
                                      << "operators"
                                      << "| Name | Kind | Calls |";
        QTest::newRow("allocations csv") << "alloc.csv"
                                         << "allocations"
                                         << "size_bytes,category";
        QTest::newRow("allocations md") << "alloc.md"
                                        << "allocations"
                                        << "| Size | Category |";
        QTest::newRow("summary csv") << "summary.csv"
                                     << "summary"
                                     << "key,value";
        QTest::newRow("summary md") << "summary.md"
                                    << "summary"
                                    << "| Key | Value |";
        QTest::newRow("modules csv") << "modules.csv"
                                     << "modules"
                                     << "module,depth,held_bytes,parameters_bytes";
        QTest::newRow("modules md") << "modules.md"
                                    << "modules"
                                    << "| Module | Depth | Held |";
    }

    void exportsTables() {
        QFETCH(QString, file);
        QFETCH(QString, table);
        QFETCH(QString, header);
        const auto path = m_dir.filePath(file);
        QStringList args{"export", m_run, "--to", path};
        if (!table.isEmpty()) {
            args << "--table" << table;
        }
        const auto r = cli(args);
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        const auto text = QString::fromUtf8(readAll(path));
        QVERIFY2(text.startsWith(header), qPrintable(text.left(200)));
        QVERIFY(text.count('\n') > 3);
    }

    // info --modules (issue 41): the model's rows own every parameter, gradient and optimizer
    // state byte, and the top rows sum to the bytes alive at the peak.
    void infoShowsModules() {
        const auto text = cli({"info", m_run, "--modules"});
        QVERIFY2(text.exit_code == 0, qPrintable(text.err));
        for (const char* part :
             {"Modules at the peak", "TinyLlama", "embed_tokens", "blocks", "attention",
              "(no module)", "alive at the moment", "Holding the most"}) {
            QVERIFY2(text.out.contains(part), part);
        }
        const auto r = cli({"info", m_run, "--modules", "--json"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        const auto table = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const auto summary =
            QJsonDocument::fromJson(cli({"info", m_run, "--json"}).out.toUtf8()).object();
        const auto at_peak = summary["bytes_by_category_at_peak"].toObject();
        qint64 tops = 0;
        QJsonObject model;
        for (const auto& v : table["rows"].toArray()) {
            const auto row = v.toObject();
            if (row["depth"].toInt() == 0) {
                tops += row["held"].toInteger();
            }
            if (row["path"].toString() == "TinyLlama") {
                model = row["total"].toObject();
            }
        }
        QCOMPARE(tops, table["alive_bytes"].toInteger());
        QCOMPARE(table["alive_bytes"].toInteger(),
                 summary["peak_allocated_bytes_recorded"].toInteger());
        QVERIFY(at_peak["PARAMETER"].toInteger() > 0);
        QCOMPARE(model["parameters"].toInteger(), at_peak["PARAMETER"].toInteger());
        QCOMPARE(model["gradients"].toInteger(), at_peak["GRADIENT"].toInteger());
        QCOMPARE(model["optimizer_state"].toInteger(), at_peak["OPTIMIZER_STATE"].toInteger());
        // A moment of step 1's forward: no gradient yet, activations held.
        const auto early = cli({"info", m_run, "--modules", "--depth", "0", "--at", "40"});
        QVERIFY2(early.exit_code == 0, qPrintable(early.err));
        QVERIFY(early.out.contains("at 40"));
        QVERIFY(!early.out.contains("\n  embed_tokens"));  // rows of depth 0 only
    }

    void reportsOnRuns() {
        const auto path = m_dir.filePath("report.md");
        const auto r = cli({"report", m_run, m_run, "--out", path});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QVERIFY(r.out.contains("(2 runs)"));
        const auto text = QString::fromUtf8(readAll(path));
        QVERIFY(text.startsWith("# Memscope report"));
        QVERIFY(text.contains("| tiny.memscope |"));
        QVERIFY(text.contains("### Step 1: memory by batch size"));
        QVERIFY(text.contains("## Which modules hold the memory"));
        QVERIFY(text.contains("### Questions: where the memory goes and what to change"));
        QVERIFY(text.contains("**What would provide the biggest benefit?**"));
        QVERIFY(text.contains("### (d) Size of a residual-stream activation"));
        QVERIFY(text.contains("## Runs to add"));
        const auto to_stdout = cli({"report", m_run, "--out", "-"});
        QCOMPARE(to_stdout.exit_code, 0);
        QVERIFY(to_stdout.out.startsWith("# Memscope report"));
    }

    void exportsFoldedStacks() {
        const QString path = m_dir.filePath("peak.folded");
        const auto r = cli({"export", m_run, "--flamegraph", path});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        const QStringList lines =
            QString::fromUtf8(readAll(path)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY(lines.size() > 3);
        static const QRegularExpression line_pattern(
            QStringLiteral("^[^ ;][^;]*(;[^;]+)* (\\d+)$"));
        qint64 total = 0;
        bool nested = false;
        for (const QString& line : lines) {
            const auto m = line_pattern.match(line);
            QVERIFY2(m.hasMatch(), qPrintable(line));
            total += m.captured(2).toLongLong();
            nested = nested || line.contains(QLatin1Char(';'));
        }
        QVERIFY(nested);  // module > operator stacks
        // The message names the total and the event; the lines add up to it.
        QVERIFY2(r.out.contains(QStringLiteral("(%1 bytes alive at event").arg(total)),
                 qPrintable(r.out));

        const QString early = m_dir.filePath("early.folded");
        const auto e = cli({"export", m_run, "--flamegraph", early, "--at", "3"});
        QVERIFY2(e.exit_code == 0, qPrintable(e.err));
        QVERIFY2(e.out.contains(QStringLiteral("alive at event 3)")), qPrintable(e.out));
    }

    void badRequestsFailWithOneLine_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("named");
        QTest::newRow("unknown suffix")
            << QStringList{"export", "RUN", "--to", "out.txt"} << 2 << "--to";
        QTest::newRow("no suffix") << QStringList{"export", "RUN", "--to", "out"} << 2 << "--to";
        QTest::newRow("no --to") << QStringList{"export", "RUN"} << 2 << "--to";
        QTest::newRow("protocol") << QStringList{"export",   "RUN",        "--to",
                                                 "a.pickle", "--protocol", "5"}
                                  << 2 << "--protocol";
        QTest::newRow("table") << QStringList{"export", "RUN", "--to", "a.csv", "--table", "x"} << 2
                               << "--table";
        QTest::newRow("missing run")
            << QStringList{"export", "MISSING", "--to", "a.json"} << 1 << "missing.memscope";
        QTest::newRow("report missing run")
            << QStringList{"report", "RUN", "MISSING", "--out", "r.md"} << 1 << "missing.memscope";
        QTest::newRow("report nothing") << QStringList{"report"} << 2 << "runs";
        QTest::newRow("bad range")
            << QStringList{"export", "RUN", "--to", "a.json", "--range", "5:x"} << 2 << "--range";
        QTest::newRow("flamegraph bad --at")
            << QStringList{"export", "RUN", "--flamegraph", "f.txt", "--at", "1.5x"} << 2 << "--at";
        QTest::newRow("flamegraph --at past the end")
            << QStringList{"export", "RUN", "--flamegraph", "f.txt", "--at", "999999999"} << 2
            << "--at";
        QTest::newRow("flamegraph --at after the run")
            << QStringList{"export", "RUN", "--flamegraph", "f.txt", "--at", "100min"} << 2
            << "--at";
        QTest::newRow("--at without --flamegraph")
            << QStringList{"export", "RUN", "--to", "a.json", "--at", "5"} << 2 << "--at";
        QTest::newRow("modules at an OOM the run does not have")
            << QStringList{"info", "RUN", "--modules", "--at", "oom"} << 2 << "--at oom";
        QTest::newRow("--depth without --modules")
            << QStringList{"info", "RUN", "--depth", "1"} << 2 << "--depth";
        QTest::newRow("modules table at a bad moment")
            << QStringList{"export", "RUN", "--to", "m.csv", "--table", "modules", "--at", "soon"}
            << 2 << "--at";
        QTest::newRow("info empty range")
            << QStringList{"info", "RUN", "--range", "2s:1s"} << 2 << "--range";
        QTest::newRow("report bad range")
            << QStringList{"report", "RUN", "--range", "1:2:3", "--out", "r.md"} << 2 << "--range";
    }

    void badRequestsFailWithOneLine() {
        QFETCH(QStringList, args);
        QFETCH(int, status);
        QFETCH(QString, named);
        for (auto& a : args) {
            if (a == "RUN") {
                a = m_run;
            } else if (a == "MISSING") {
                a = m_dir.filePath("missing.memscope");
            } else if (a.contains('.') && !a.startsWith('-')) {
                a = m_dir.filePath(a);
            }
        }
        const auto r = cli(args);
        QCOMPARE(r.exit_code, status);
        const auto lines = r.err.trimmed().split('\n');
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines[0].startsWith("memscope-cli: error: "), qPrintable(lines[0]));
        QVERIFY2(lines[0].contains(named), qPrintable(lines[0]));
    }

    void rangeLoadsPartOfARun() {
        auto rows = [&](const QStringList& extra) {
            const auto path = m_dir.filePath("allocations.csv");
            const auto r =
                cli(QStringList{"export", m_run, "--to", path, "--table", "allocations"} + extra);
            if (r.exit_code != 0)
                return -1;
            return int(readAll(path).count('\n'));
        };
        const int all = rows({});
        const int part = rows({"--range", "100:400"});
        QVERIFY2(all > 200, qPrintable(QString::number(all)));
        QVERIFY2(part > 1 && part < all, qPrintable(QString("%1 of %2").arg(part).arg(all)));
        QCOMPARE(rows({"--range", "0s:"}), all);
        QCOMPARE(rows({"--range", "100:"}), rows({"--range", "100:1000000000"}));
        const auto info = cli({"info", m_run, "--range", "100:400"});
        QVERIFY2(info.exit_code == 0, qPrintable(info.err));
        const auto report = cli({"report", m_run, "--range", ":1min", "--out", "-"});
        QVERIFY2(report.exit_code == 0, qPrintable(report.err));
    }

    // import --range keeps the same part of a snapshot as info --range of the whole import.
    void importTakesARange() {
        const auto pickle = m_dir.filePath("range.pickle");
        auto r = cli({"export", m_run, "--to", pickle});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        const auto whole = m_dir.filePath("whole.memscope");
        r = cli({"import", pickle, "--out", whole});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        const auto part = m_dir.filePath("part.memscope");
        r = cli({"import", pickle, "--out", part, "--range", "100:400"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QVERIFY(r.out.contains("Wrote " + part));
        const auto a = cli({"info", part, "--json"});
        const auto b = cli({"info", whole, "--range", "100:400", "--json"});
        QVERIFY2(a.exit_code == 0 && b.exit_code == 0, qPrintable(a.err + b.err));
        const auto ja = QJsonDocument::fromJson(a.out.toUtf8()).object();
        const auto jb = QJsonDocument::fromJson(b.out.toUtf8()).object();
        for (const char* key : {"events", "peak_allocated_bytes_recorded", "peak_event"}) {
            QVERIFY2(ja.contains(key), key);
            QCOMPARE(ja.value(key), jb.value(key));
        }
        const auto bad = cli({"import", pickle, "--out", part, "--range", "4:x"});
        QCOMPARE(bad.exit_code, 2);
        QVERIFY2(bad.err.startsWith("memscope-cli: error: --range:"), qPrintable(bad.err));
        QCOMPARE(bad.err.count('\n'), 1);
    }

    // import --device host: the pinned host memory of a PyTorch 2.15 snapshot
    // (make_snapshots.py's host shape); info lists the lanes; a bad --device or a lane the file
    // lacks is one line.
    void importTakesTheHostLane() {
        const auto python = QStandardPaths::findExecutable("python3");
        if (python.isEmpty()) {
            QSKIP("python3 is not on PATH: no fixture snapshots");
        }
        const QString dir = m_dir.filePath("snapshots");
        QProcess p;
        p.start(python, {QString(MEMSCOPE_SOURCE_DIR) + "/tests/fixtures/make_snapshots.py", dir});
        QVERIFY(p.waitForFinished(60'000));
        QCOMPARE(p.exitCode(), 0);
        const QString host = dir + "/host_p4.pickle";
        const auto run = m_dir.filePath("host.memscope");
        auto r = cli({"import", host, "--out", run, "--device", "host"});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("(host (pinned))"), qPrintable(r.out));
        QVERIFY2(r.out.contains("devices       0, host\n"), qPrintable(r.out));
        const auto info = cli({"info", host});
        QVERIFY2(info.out.contains("Lanes: cuda:0, host (pinned); shown: cuda:0"),
                 qPrintable(info.out));

        const auto bad = cli({"import", host, "--out", run, "--device", "gpu"});
        QCOMPARE(bad.exit_code, 2);
        QCOMPARE(bad.err, QString("memscope-cli: error: --device: 'gpu' is neither a CUDA device "
                                  "index (0 to 32767) nor host\n"));
        const QString v2 = dir + "/v2_p4.pickle";
        const auto missing = cli({"import", v2, "--out", run, "--device", "host"});
        QCOMPARE(missing.exit_code, 1);
        QVERIFY2(missing.err.contains(v2 + ": the host lane (pinned host memory) is not in the "
                                           "snapshot (devices: 0)"),
                 qPrintable(missing.err));
        QCOMPARE(missing.err.count('\n'), 1);
    }

    // A snapshot carries no configuration: import --config gives the one its job ran with, and
    // report then places the run in the context-length table as it does a recording.
    void importTakesTheConfigurationForTheReport() {
        const auto pickle = m_dir.filePath("config.pickle");
        auto r = cli({"export", m_run, "--to", pickle});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        const auto config = m_dir.filePath("ctx.json");
        QFile f(config);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"preset": "small", "batch_size": 2, "seq_len": 96, "profile_type": "forward",
                    "dtype": "fp32", "num_layers": 1})");
        f.close();
        const auto run = m_dir.filePath("ctx96.memscope");
        r = cli({"import", pickle, "--out", run, "--config", config});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("config        small, batch 2, seq 96, fp32, forward"),
                 qPrintable(r.out));
        const auto info = cli({"info", run});
        QVERIFY2(info.out.contains("Config: small, batch 2, seq 96, fp32"), qPrintable(info.out));
        const auto report = cli({"report", run, "--out", "-"});
        QVERIFY2(report.exit_code == 0, qPrintable(report.err));
        // The preset's shape with the file's keys over it, in the context-length table.
        QVERIFY2(report.out.contains("small with hidden 768, 1 layer"), qPrintable(report.out));
        QVERIFY2(report.out.contains("| 96 |"), qPrintable(report.out));
        // Bad configurations name --config and the file, and write nothing.
        QFile bad(m_dir.filePath("bad.json"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write(R"({"seq_len": "long"})");
        bad.close();
        const auto refused = m_dir.filePath("refused.memscope");
        for (const QString& file : {bad.fileName(), m_dir.filePath("missing.json")}) {
            const auto e = cli({"import", pickle, "--out", refused, "--config", file});
            QCOMPARE(e.exit_code, 2);
            QVERIFY2(e.err.startsWith("memscope-cli: error: --config: ") && e.err.contains(file),
                     qPrintable(e.err));
        }
        QVERIFY(!QFile::exists(refused));
    }

    void aCorruptRunFileIsRefused() {
        const auto junk = m_dir.filePath("junk.memscope");
        QFile f(junk);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("MEMSCOPE not really");
        f.close();
        const auto r = cli({"export", junk, "--to", m_dir.filePath("j.pickle")});
        QCOMPARE(r.exit_code, 1);
        QVERIFY(r.err.contains("junk.memscope"));
        QVERIFY(!QFile::exists(m_dir.filePath("j.pickle")));
    }

  private:
    QTemporaryDir m_dir;
    QString m_run;
};

QTEST_GUILESS_MAIN(TestCliExports)
#include "test_cli_exports.moc"
