// Multi-process runs from the run panel: the Processes and Strategy fields and their checks,
// the memscope-cli command line they make, and real 2-rank runs of a tiny model (memscope-cli
// built beside this test) followed live, stopped, failed, and opened as a run directory.

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <nlohmann/json.hpp>

#include "../core/tiny_options.h"
#include "io/run_directory.h"
#include "io/run_file.h"
#include "runs/rank_run_controller.h"
#include "runs/run_controller.h"
#include "shell/main_window.h"
#include "shell/run_panel.h"
#include "timeline/timeline_page.h"
#include "trace/trace.h"

using memscope::MainWindow;
using memscope::RankRunController;
using memscope::RunPanel;

namespace {

memscope::TrainOptions tiny(int64_t steps) {
    memscope::TrainOptions o = tinyTrainOptions();
    o.num_steps = steps;
    return o;
}

bool waitForEnd(MainWindow& window, int timeout_ms) {
    QElapsedTimer timer;
    timer.start();
    while (window.rankRunController()->isActive() && timer.elapsed() < timeout_ms) {
        QTest::qWait(20);
    }
    return !window.rankRunController()->isActive();
}

// A window set up for a 2-rank run of the tiny model into `dir`.
void prepare(MainWindow& window, const memscope::TrainOptions& options, const QString& strategy,
             const QString& dir) {
    window.rankRunController()->setCliPath(QStringLiteral(MEMSCOPE_CLI_PATH));
    window.rankRunController()->setPollInterval(20);
    window.runPanel()->setTrainerSource();
    window.runPanel()->setOptions(options);
    window.runPanel()->setRecordShapes(false);
    window.runPanel()->setProcesses(2);
    window.runPanel()->setParallel(strategy);
    window.runPanel()->setOutputDirectory(dir);
}

QStringList journalsIn(const QString& dir) {
    return QDir(dir).entryList({QStringLiteral("*.journal")}, QDir::Files);
}

}  // namespace

class TestRankRun : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void strategy_follows_the_process_count() {
        RunPanel panel;
        QCOMPARE(panel.processes(), 1);  // as today: a run in the application
        auto* strategy = panel.findChild<QComboBox*>(QStringLiteral("parallel"));
        auto* bucket = panel.findChild<QDoubleSpinBox*>(QStringLiteral("bucket_mib"));
        QVERIFY(strategy && bucket);
        QVERIFY(!strategy->isEnabled());
        QCOMPARE(strategy->count(), 4);
        QVERIFY(panel.findChild<QSpinBox*>(QStringLiteral("nproc"))->maximum() >= 1);
        panel.setProcesses(2);
        QVERIFY(strategy->isEnabled());
        QVERIFY(bucket->isEnabled());
        panel.setParallel(QStringLiteral("zero3"));
        QCOMPARE(panel.parallel(), QStringLiteral("zero3"));
        panel.setBucketMib(4);
        QCOMPARE(panel.bucketMib(), 4.0);
    }

    void invalid_combinations_are_refused_naming_the_option() {
        RunPanel panel;
        memscope::TrainOptions o = tiny(3);
        o.profile = memscope::ProfileType::Forward;
        panel.setOptions(o);
        panel.setParallel(QStringLiteral("zero2"));
        // One process: the strategy does not apply, the forward run goes as today.
        QVERIFY(panel.validatedOptions());
        panel.setProcesses(2);
        QVERIFY(!panel.validatedOptions());
        QVERIFY(!panel.errorLabel()->isHidden());
        // The CLI's rule and words (ParallelRules): the option and the strategy named.
        QVERIFY2(panel.errorLabel()->text().startsWith(QLatin1String("--parallel: zero2 shards")),
                 qPrintable(panel.errorLabel()->text()));
        QVERIFY(
            panel.findChild<QComboBox*>(QStringLiteral("parallel"))->property("invalid").toBool());
        panel.setParallel(QStringLiteral("ddp"));  // DDP runs forward passes
        QVERIFY(panel.validatedOptions());

        panel.setOptions(tiny(3));
        QFile file(m_dir.filePath(QStringLiteral("a-file")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        panel.setOutputDirectory(file.fileName());
        QVERIFY(!panel.validatedOptions());
        QVERIFY2(panel.errorLabel()->text().contains(QLatin1String("--out")),
                 qPrintable(panel.errorLabel()->text()));
        panel.setOutputDirectory(m_dir.path());  // holds a-file
        QVERIFY(!panel.validatedOptions());
        QVERIFY(panel.errorLabel()->text().contains(QLatin1String("not empty")));
        panel.setOutputDirectory(m_dir.filePath(QStringLiteral("new-run")));
        QVERIFY(panel.validatedOptions());
    }

    void cli_arguments_carry_the_panel() {
        RankRunController::Request request;
        request.options = tiny(5);
        request.options.warmup_steps = 1;
        request.options.dtype = memscope::Dtype::BFloat16;
        request.options.device_memory_limit = 64 << 20;
        request.processes = 3;
        request.parallel = QStringLiteral("zero3");
        request.bucketMib = 2.5;
        request.recordShapes = true;
        const QStringList args = RankRunController::cliArguments(request, QStringLiteral("/d"));
        const auto value = [&args](const char* option) {
            const int i = args.indexOf(QLatin1String(option));
            return i >= 0 ? args.value(i + 1) : QString();
        };
        QCOMPARE(args.first(), QStringLiteral("record"));
        QCOMPARE(value("--nproc"), QStringLiteral("3"));
        QCOMPARE(value("--parallel"), QStringLiteral("zero3"));
        QCOMPARE(value("--bucket-mib"), QStringLiteral("2.5"));
        QCOMPARE(value("--out"), QStringLiteral("/d"));
        QVERIFY(args.contains(QStringLiteral("--record-shapes")));
        // The training options travel whole as JSON, not as flags the CLI parses back.
        QCOMPARE(value("--options"), RankRunController::optionsFile(QStringLiteral("/d")));
        QVERIFY(!args.contains(QStringLiteral("--hidden-dim")));
        QVERIFY(!args.contains(QStringLiteral("--preset")));
        const auto json =
            nlohmann::json::parse(RankRunController::optionsJson(request.options).toStdString());
        const memscope::TrainOptions back = memscope::TrainOptions::fromJson(json);
        QCOMPARE(back.model.hidden_dim, request.options.model.hidden_dim);
        QCOMPARE(back.model.n_kv_heads, request.options.model.n_kv_heads);
        QCOMPARE(back.num_steps, int64_t(5));
        QCOMPARE(back.warmup_steps, int64_t(1));
        QVERIFY(back.dtype == memscope::Dtype::BFloat16);
        QCOMPARE(back.threads, request.options.threads);
        QCOMPARE(back.device_memory_limit, int64_t(64 << 20));
        QCOMPARE(back.toJson(), request.options.toJson());  // nothing lost on the way
    }

    // A Python program from the Run panel (issue 32): recorded live through memscope-cli record
    // --python like a rank, shown while it runs, and its run file opened at the end.
    void a_python_program_records_live_from_the_panel() {
#ifndef MEMSCOPE_PYTHON_EXE
        QSKIP("this build has no Python recorder (MEMSCOPE_BUILD_PYTHON)");
#else
        MainWindow window;
        QStringList errors;
        window.setErrorReporter([&errors](const QString& e) { errors << e; });
        window.rankRunController()->setCliPath(QStringLiteral(MEMSCOPE_CLI_PATH));
        window.rankRunController()->setPollInterval(20);
        window.rankRunController()->setKeepDirectory(m_dir.filePath(QStringLiteral("kept")));
        RunPanel* panel = window.runPanel();
        // The panel keeps its source in the settings every window shares: back to the trainer
        // at the end, whatever happens, so that no other test starts a Python program.
        const auto restore = qScopeGuard([panel] {
            panel->setTrainerSource();
            panel->saveSettings();
        });
        // Bad input first: no script, a script that is not there.
        panel->setPythonProgram(QString(), QString(), QString(),
                                QStringLiteral(MEMSCOPE_PYTHON_EXE));
        QVERIFY(!panel->validatedRequest());
        QVERIFY(panel->errorLabel()->text().contains(QLatin1String("--python")));
        panel->setPythonProgram(m_dir.filePath(QStringLiteral("nowhere.py")), QString(), QString(),
                                QStringLiteral(MEMSCOPE_PYTHON_EXE));
        QVERIFY(!panel->validatedRequest());
        QVERIFY(panel->errorLabel()->text().contains(QLatin1String("does not exist")));

        panel->setPythonProgram(QStringLiteral(MEMSCOPE_PYTHON_PROGRAM), QString(), QString(),
                                QStringLiteral(MEMSCOPE_PYTHON_EXE));
        const auto request = panel->validatedRequest();
        QVERIFY(request && request->isPython());
        QCOMPARE(
            RankRunController::cliArguments(*request, QStringLiteral("/d")).mid(5, 2),
            (QStringList{QStringLiteral("--python"), QStringLiteral(MEMSCOPE_PYTHON_PROGRAM)}));
        // MEMSCOPE_LIVE_SCREENSHOT=FILE: the window at the program's fifth live snapshot, as a
        // user sees it (issue 32's picture); PROGRAM and ARGS may be given in
        // MEMSCOPE_LIVE_PROGRAM (tests/python/tiny_llama_v1.py for a fuller picture).
        const QString shot = qEnvironmentVariable("MEMSCOPE_LIVE_SCREENSHOT");
        if (qEnvironmentVariableIsSet("MEMSCOPE_LIVE_PROGRAM")) {
            const QStringList program =
                QProcess::splitCommand(qEnvironmentVariable("MEMSCOPE_LIVE_PROGRAM"));
            panel->setPythonProgram(program.value(0), program.mid(1).join(QLatin1Char(' ')),
                                    QString(), QStringLiteral(MEMSCOPE_PYTHON_EXE));
        }
        if (!shot.isEmpty()) {
            window.resize(1500, 950);
            window.show();
        }
        int live = 0;
        connect(window.rankRunController(), &RankRunController::snapshotReady, &window,
                [&live, &window, shot] {
                    if (++live == 5 && !shot.isEmpty()) {
                        QTimer::singleShot(200, &window,
                                           [&window, shot] { window.grab().save(shot); });
                    }
                });
        window.startRun();
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QVERIFY2(window.rankRunController()->isActive(), qPrintable(panel->errorLabel()->text()));
        QVERIFY(!window.timelinePage()->rankCombo()->isVisibleTo(&window));  // one process
        QVERIFY(waitForEnd(window, 180000));
        QTRY_VERIFY_WITH_TIMEOUT(window.currentTrace() != nullptr, 30000);
        QVERIFY(window.currentRunPath().endsWith(QLatin1String("rank0.memscope")));
        QVERIFY(live > 0 || window.currentTrace()->events.count() > 0);
        // The program's module tree and three optimizer steps are in the run.
        bool module_frame = false;
        const auto& stacks = window.currentTrace()->stacks;
        for (uint32_t f = 0; f < stacks.frameCount(); ++f) {
            module_frame |= stacks.frame(f).name.find("Net") != std::string::npos;
        }
        const bool own_program = !qEnvironmentVariableIsSet("MEMSCOPE_LIVE_PROGRAM");
        QVERIFY(module_frame || !own_program);
        QVERIFY(window.findChild<QLabel*>(QStringLiteral("status_step"))
                    ->text()
                    .startsWith(QLatin1String("Finished")));
        QVERIFY(!own_program ||
                window.logView()->toPlainText().contains(QLatin1String("step 3: loss")));
#endif
    }

    // A Python program of several processes (torch.multiprocessing.spawn, Gloo, a hand-written
    // all-reduce): each process joins the selector while the program runs, named by its rank
    // once it joined its group, beside the program's first process (issue 40).
    void a_multi_process_python_program_shows_each_process_live() {
#ifndef MEMSCOPE_PYTHON_EXE
        QSKIP("this build has no Python recorder (MEMSCOPE_BUILD_PYTHON)");
#else
        MainWindow window;
        QStringList errors;
        window.setErrorReporter([&errors](const QString& e) { errors << e; });
        RankRunController* controller = window.rankRunController();
        controller->setCliPath(QStringLiteral(MEMSCOPE_CLI_PATH));
        controller->setPollInterval(20);
        controller->setKeepDirectory(m_dir.filePath(QStringLiteral("kept-ddp")));
        RunPanel* panel = window.runPanel();
        const auto restore = qScopeGuard([panel] {
            panel->setTrainerSource();
            panel->saveSettings();
        });
        panel->setPythonProgram(QStringLiteral(MEMSCOPE_DDP_PROGRAM),
                                QStringLiteral("--port 29647 --steps 2"), QString(),
                                QStringLiteral(MEMSCOPE_PYTHON_EXE));
        QStringList seen;  // the longest list of processes, with their latest names
        int combo_entries = 0;
        connect(controller, &RankRunController::ranksChanged, &window,
                [&seen, &combo_entries, &window](const QStringList& labels, int) {
                    if (labels.size() >= seen.size()) {
                        seen = labels;
                    }
                    combo_entries =
                        std::max(combo_entries, window.timelinePage()->rankCombo()->count());
                });
        window.startRun();
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QVERIFY(waitForEnd(window, 240000));
        QVERIFY2(seen.size() == 3, qPrintable(seen.join(QLatin1String(" | "))));
        QVERIFY2(seen[0].startsWith(QLatin1String("first process")), qPrintable(seen[0]));
        const QString all = seen.join(QLatin1String(" | "));
        QVERIFY2(all.contains(QLatin1String("rank 0 (pid")) &&
                     all.contains(QLatin1String("rank 1 (pid")),
                 qPrintable(all));
        QCOMPARE(combo_entries, 3);  // the selector offered every process while it ran
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
#endif
    }

    void missing_cli_is_said() {
        MainWindow window;
        QStringList errors;
        window.setErrorReporter([&errors](const QString& e) { errors << e; });
        prepare(window, tiny(2), QStringLiteral("ddp"), m_dir.filePath(QStringLiteral("none")));
        window.rankRunController()->setCliPath(m_dir.filePath(QStringLiteral("no-such-cli")));
        window.startRun();
        QVERIFY(!window.rankRunController()->isActive());
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.first().contains(QLatin1String("memscope-cli")),
                 qPrintable(errors.first()));
        QVERIFY(window.runPanel()->errorLabel()->text().contains(QLatin1String("memscope-cli")));
    }

    // Run (F5) with 2 processes: every rank live in the selector, then the run directory opened.
    void two_rank_ddp_run_opens_its_run_directory() {
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        const QString dir = m_dir.filePath(QStringLiteral("ddp"));
        prepare(window, tiny(40), QStringLiteral("ddp"), dir);
        RankRunController* controller = window.rankRunController();
        QSignalSpy finished(controller, &RankRunController::finished);
        int most_ranks_live = 0;
        int64_t snapshots = 0;
        connect(controller, &RankRunController::snapshotReady, this, [&] {
            ++snapshots;
            most_ranks_live =
                std::max(most_ranks_live, window.timelinePage()->rankCombo()->count());
        });
        window.findChild<QAction*>(QStringLiteral("action_run"))->trigger();
        QVERIFY(controller->isActive());
        QVERIFY(!window.runController()->isActive());  // not the in-process run
        QVERIFY(!window.runPanel()->runButton()->isEnabled());
        QVERIFY(window.timelinePage()->rankCombo()->isVisibleTo(&window));
        QCOMPARE(window.timelinePage()->rankCombo()->count(), 2);
        QVERIFY(waitForEnd(window, 180000));
        QCOMPARE(finished.count(), 1);
        const auto ending = finished.first().first().value<RankRunController::Ending>();
        QVERIFY2(ending.outcome.ok(), qPrintable(ending.outcome.message()));
        QCOMPARE(ending.exitCode, 0);
        QVERIFY2(snapshots > 0, "no rank was shown live");
        QCOMPARE(most_ranks_live, 2);

        // The finished run directory, opened as --open DIR opens it.
        QVERIFY(memscope::RunDirectory::isRunDirectory(dir.toStdString()));
        QVERIFY(QFile::exists(dir + QStringLiteral("/rank0.memscope")));
        QVERIFY(QFile::exists(dir + QStringLiteral("/rank1.memscope")));
        QVERIFY(journalsIn(dir).isEmpty());
        QCOMPARE(window.rankCount(), 2);
        QCOMPARE(window.timelinePage()->rankCombo()->count(), 2);
        QVERIFY(window.currentTrace());
        QCOMPARE(int64_t(window.currentTrace()->steps.size()), int64_t(40));
        QCOMPARE(window.recentFiles().value(0), QFileInfo(dir).absoluteFilePath());
        QVERIFY(window.showRank(1));
        QCOMPARE(window.currentRank(), 1);
        QCOMPARE(window.findChild<QLabel*>(QStringLiteral("status_step"))->text(),
                 QStringLiteral("Finished 40 steps"));
        const QString log = window.logView()->toPlainText();
        QVERIFY2(log.contains(QLatin1String("Step 40/40")), qPrintable(log));  // the CLI's lines
        QVERIFY(window.runPanel()->runButton()->isEnabled());
    }

    // Stop (Esc) reaches every rank through the CLI's Ctrl+C path; each keeps its recording.
    void stop_keeps_every_rank_recording() {
        MainWindow window;
        window.show();
        const QString dir = m_dir.filePath(QStringLiteral("stopped"));
        prepare(window, tiny(100000), QStringLiteral("zero2"), dir);
        RankRunController* controller = window.rankRunController();
        window.startRun();
        QVERIFY(controller->isActive());
        QTRY_VERIFY_WITH_TIMEOUT(controller->stepsDone(0) >= 2 && controller->stepsDone(1) >= 2,
                                 120000);
        // The rank selector counts each rank's steps as its journal says.
        QVERIFY2(window.timelinePage()->rankCombo()->itemText(1).contains(QLatin1String("step")),
                 qPrintable(window.timelinePage()->rankCombo()->itemText(1)));
        auto* stop = window.findChild<QAction*>(QStringLiteral("action_stop"));
        QVERIFY(stop->isEnabled());
        stop->trigger();
        QVERIFY(waitForEnd(window, 120000));
        QVERIFY(QFile::exists(dir + QStringLiteral("/rank0.memscope")));
        QVERIFY(QFile::exists(dir + QStringLiteral("/rank1.memscope")));
        QCOMPARE(window.rankCount(), 2);
        for (int r = 0; r < 2; ++r) {
            QVERIFY(window.showRank(r));
            QVERIFY(window.currentTrace()->steps.size() >= 2);
        }
        QVERIFY2(window.findChild<QLabel*>(QStringLiteral("status_step"))
                     ->text()
                     .startsWith(QLatin1String("Stopped after step")),
                 qPrintable(window.findChild<QLabel*>(QStringLiteral("status_step"))->text()));
        QVERIFY(window.logView()->toPlainText().contains(QLatin1String("every rank kept")));
    }

    // Ranks that fail (here: out of memory under an emulated capacity) are named with the
    // CLI's message, and what they recorded is opened.
    void failed_ranks_show_the_cli_message_and_keep_their_recordings() {
        MainWindow window;
        window.show();
        const QString dir = m_dir.filePath(QStringLiteral("failed"));
        memscope::TrainOptions o = tiny(5);
        o.device_memory_limit = 300 * 1024;  // less than the first step needs
        prepare(window, o, QStringLiteral("ddp"), dir);
        QSignalSpy finished(window.rankRunController(), &RankRunController::finished);
        window.startRun();
        QVERIFY(waitForEnd(window, 120000));
        QCOMPARE(finished.count(), 1);
        const auto ending = finished.first().first().value<RankRunController::Ending>();
        QVERIFY(ending.exitCode != 0);
        QVERIFY2(ending.outcome.message().contains(QLatin1String("rank")),
                 qPrintable(ending.outcome.message()));
        QVERIFY2(window.runPanel()->errorLabel()->text().contains(QLatin1String("memscope-cli")),
                 qPrintable(window.runPanel()->errorLabel()->text()));
        QVERIFY(window.findChild<QLabel*>(QStringLiteral("status_step"))
                    ->text()
                    .startsWith(QLatin1String("Failed: ")));
        QVERIFY(ending.rankFiles > 0);
        QVERIFY(window.rankCount() == 2);
        QVERIFY(window.currentTrace());
        QVERIFY(window.currentTrace()->events.count() > 0);
    }
};

QTEST_MAIN(TestRankRun)
#include "test_rank_run.moc"
