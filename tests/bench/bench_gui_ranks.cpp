// The GUI while a multi-process run records: the main window (offscreen, 1600x1000) starts a
// run of several ranks through its run panel, exactly as a user would (memscope-cli's ranks,
// followed live through their journals), and a 1 ms timer on the GUI thread measures how long
// the event loop goes without turning. Prints the longest stall (target, as for the in-process
// live run: under 50 ms while recording) and how many live snapshots were shown.
//
//   bench_gui_ranks [--nproc N] [--parallel S] [--preset NAME] [--steps N] [--threads N]
//                   [--poll-ms N] [--show-rank R] [--screenshot PREFIX]
//
// --screenshot writes PREFIX-live.png (the window half way through the run, showing rank
// --show-rank) and PREFIX-end.png (the run directory opened at the end).

#include "event_loop_heartbeat.h"
#include "load_average.h"
#include "run/train_options.h"
#include "runs/rank_run_controller.h"
#include "shell/main_window.h"
#include "shell/run_panel.h"
#include "timeline/timeline_page.h"

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QScrollArea>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    int nproc = 2;
    std::string parallel = "zero3";
    std::string preset = "workshop-default";
    int64_t steps = 10;
    int threads = 1;
    int poll_ms = 100;
    int show_rank = 1;
    QString screenshot;
    for (int i = 1; i < argc; ++i) {
        const bool has_value = i + 1 < argc;
        if (std::strcmp(argv[i], "--nproc") == 0 && has_value) {
            nproc = std::atoi(argv[++i]);
        } else if (std::strcmp(argv[i], "--parallel") == 0 && has_value) {
            parallel = argv[++i];
        } else if (std::strcmp(argv[i], "--preset") == 0 && has_value) {
            preset = argv[++i];
        } else if (std::strcmp(argv[i], "--steps") == 0 && has_value) {
            steps = std::atoll(argv[++i]);
        } else if (std::strcmp(argv[i], "--threads") == 0 && has_value) {
            threads = std::atoi(argv[++i]);
        } else if (std::strcmp(argv[i], "--poll-ms") == 0 && has_value) {
            poll_ms = std::atoi(argv[++i]);
        } else if (std::strcmp(argv[i], "--show-rank") == 0 && has_value) {
            show_rank = std::atoi(argv[++i]);
        } else if (std::strcmp(argv[i], "--screenshot") == 0 && has_value) {
            screenshot = QString::fromLocal8Bit(argv[++i]);
        } else {
            std::fprintf(stderr,
                         "usage: bench_gui_ranks [--nproc N] [--parallel S] [--preset NAME] "
                         "[--steps N] [--threads N] [--poll-ms N] [--show-rank R] "
                         "[--screenshot PREFIX]\n");
            return 2;
        }
    }
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QTemporaryDir dir;

    memscope::MainWindow window;
    window.resize(1600, 1000);
    window.show();
    memscope::TrainOptions options = memscope::TrainOptions::fromPreset(preset);
    options.num_steps = steps;
    options.threads = threads;
    window.runPanel()->setOptions(options);
    window.runPanel()->setProcesses(nproc);
    window.runPanel()->setParallel(QString::fromStdString(parallel));
    window.runPanel()->setOutputDirectory(dir.filePath(QStringLiteral("run")));
    memscope::RankRunController* controller = window.rankRunController();
    controller->setCliPath(QStringLiteral(MEMSCOPE_CLI_PATH));
    controller->setPollInterval(poll_ms);

    double switched_at = -1;  // when the timeline was switched to --show-rank
    double finished_at = -1;
    EventLoopHeartbeat heartbeat;
    bool grabbed = false;
    QObject::connect(controller, &memscope::RankRunController::progress, &window, [&](qint64 done) {
        if (grabbed || done < std::max<int64_t>(1, steps / 2)) {
            return;
        }
        grabbed = true;
        if (show_rank != controller->shownRank()) {
            // As a user picking the rank in the selector.
            auto* combo = window.timelinePage()->rankCombo();
            combo->setCurrentIndex(show_rank);
            emit combo->activated(show_rank);
            switched_at = heartbeat.nowMs();
        }
        if (screenshot.isEmpty()) {
            return;
        }
        // The run panel's Processes group in view.
        if (auto* scroll = window.findChild<QScrollArea*>(QStringLiteral("run_form_scroll"))) {
            scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
        }
        QTimer::singleShot(3 * poll_ms + 300, &window, [&] {
            const QString path = screenshot + QStringLiteral("-live.png");
            if (!window.grab().save(path)) {
                std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
            }
        });
    });
    memscope::RankRunController::Ending ending;
    QObject::connect(controller, &memscope::RankRunController::finished, &app,
                     [&](const memscope::RankRunController::Ending& o) {
                         // The window handled finished() first: the run directory is open.
                         ending = o;
                         finished_at = heartbeat.nowMs();
                         heartbeat.stopRecording();
                         QTimer::singleShot(500, &app, [&] {
                             if (!screenshot.isEmpty()) {
                                 const QString path = screenshot + QStringLiteral("-end.png");
                                 if (!window.grab().save(path)) {
                                     std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
                                 }
                             }
                             app.quit();
                         });
                     });
    QTimer::singleShot(0, [&] {
        heartbeat.start();
        window.startRun();
    });
    QElapsedTimer wall;
    wall.start();
    app.exec();
    std::vector<double> gaps = heartbeat.gaps();
    const std::vector<double>& gap_ends = heartbeat.gapEnds();
    const std::vector<double>& gap_cpu = heartbeat.gapCpu();
    if (gaps.empty() || finished_at < 0) {
        std::fprintf(stderr, "bench_gui_ranks: the run did not start or end\n");
        return 1;
    }
    if (!ending.outcome) {
        std::fprintf(stderr, "bench_gui_ranks: the run failed: %s\n",
                     qPrintable(ending.outcome.message()));
        return 1;
    }
    const size_t worst_at = size_t(std::max_element(gaps.begin(), gaps.end()) - gaps.begin());
    const double worst_end = gap_ends[worst_at];
    const double worst_cpu = gap_cpu[worst_at];
    const double most_cpu = *std::max_element(gap_cpu.begin() + 1, gap_cpu.end());
    // Following the ranks: after the start (first second) and outside the two seconds after
    // the switch (the chosen rank's first snapshot is shown like a newly opened run).
    double following = 0;
    double following_cpu = 0;
    for (size_t i = 0; i < gaps.size(); ++i) {
        const bool after_switch =
            switched_at >= 0 && gap_ends[i] >= switched_at && gap_ends[i] < switched_at + 2000;
        if (gap_ends[i] > 1000 && !after_switch && gaps[i] > following) {
            following = gaps[i];
            following_cpu = gap_cpu[i];
        }
    }
    std::sort(gaps.begin(), gaps.end());
    std::printf(
        "GUI during a live %d-rank %s run of %s, %lld steps, %d thread(s) per rank "
        "(poll every %d ms)\n",
        nproc, parallel.c_str(), preset.c_str(), static_cast<long long>(steps), threads, poll_ms);
    std::printf("  run wall time            %8.2f s\n", double(wall.nsecsElapsed()) / 1e9);
    std::printf("  live snapshots shown     %8lld\n",
                static_cast<long long>(controller->snapshotCount()));
    std::printf("  ranks in the selector    %8d\n", window.rankCount());
    std::printf("  gap median               %8.2f ms\n", gaps[gaps.size() / 2]);
    std::printf("  gap 99th percentile      %8.2f ms\n",
                gaps[size_t(double(gaps.size() - 1) * 0.99)]);
    std::printf("  longest stall (live)     %8.2f ms   (target < 50 ms: %s)\n", gaps.back(),
                gaps.back() < 50 ? "met" : "MISSED");
    std::printf(
        "    it ended at            %8.0f ms   (rank switched at %.0f ms, run ended at "
        "%.0f ms)\n",
        worst_end, switched_at, finished_at);
    std::printf("    GUI thread CPU in it   %8.2f ms\n", worst_cpu);
    std::printf("  most GUI-thread CPU between two turns %.2f ms\n", most_cpu);
    std::printf(
        "  longest stall following the ranks %.2f ms (GUI thread CPU %.2f ms; without "
        "the start and the rank switch)\n",
        following, following_cpu);
    LoadAverage::print();
    return 0;
}
