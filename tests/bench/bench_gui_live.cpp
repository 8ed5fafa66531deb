// The GUI while a run records: the main window (offscreen, 1920x1080) records workshop-default
// through Run, exactly as a user would, and a 1 ms timer on the GUI thread measures how long the
// event loop goes without turning. Prints the longest stall, the 99th percentile, how many live
// snapshots were shown and the longest timeline paint. Target (issue 5): no stall over 50 ms.
//
//   bench_gui_live [--steps N] [--poll-ms N] [--preset NAME] [--screenshot FILE.png]
//                  [--batch-size N] [--seq-len N] [--full-refresh] [--annotations] [--no-cli]
//                  [--heartbeat-ms N] [--interface-load PERCENT] [--no-yield]
//
// --heartbeat-ms sets that timer's interval (default 1): a 1 ms timer wakes the GUI thread a
// thousand times a second, which itself slows a trainer that uses every core; with 20 the step
// times are the ones a user gets, and gaps are measured to within 20 ms.
//
// --interface-load keeps the GUI thread busy for PERCENT of every 50 ms while the run goes, as a
// user dragging and zooming the timeline would; --no-yield makes training count the GUI's
// threads as its own (RunController::setYieldToInterface(false)), as it did before session 15,
// instead of giving the interface a core back while it needs more than half of one.
//
// The run starts once the window is on screen and painted (as a user presses Start); that first
// paint is printed apart and not counted as a stall. The longest gaps are printed with when they
// ended and the GUI thread's CPU time in them, and the slowest event handlers by name.
// --annotations turns the timeline's annotations on (a pass over every span for each snapshot,
// which the background render makes).
//
// --batch-size and --seq-len shrink the preset's batch (events per step stay: they follow the
// model's modules and ops, not its sizes), so a run reaches millions of events sooner.
//
// --screenshot grabs the whole window half way through the run (after step N/2), to see the live
// view as a user does.
//
// Refresh cost (issue 11): every live refresh's time on the worker (draining the new events and
// bringing the snapshot and its layout up to date) and on the GUI thread (everything connected
// to snapshotReady), with the longest event-loop stall, in three segments of the run: 5-15%,
// 45-55% and 90-100% of its steps ("10%", "50%", "100%"). Target: refresh cost flat within 2x
// from 10% to 100% of a run of at least 2M events, no stall over 50 ms. --full-refresh makes
// every refresh copy, finalize and lay out the whole trace (the way before issue 11).
//
// Then the same run (same options, threads and record-shapes setting) is recorded by
// memscope-cli record, and the average step times are compared: GUI / CLI, target <= 1.10
// (--no-cli skips it). --threads N sets both (default: the GUI's default,
// ThreadPolicy::interactiveThreads()).
//
//   bench_gui_live --replay RUN.memscope [--refreshes N] [--poll-ms N] [--annotations]
//
// Replay (issue 11): no trainer; a recorded run is replayed into the shown main window in N
// refreshes (default 400), as a live run delivers it: a worker thread appends the next part of
// the run's events to a growing trace, brings a LiveTraceMirror's snapshot up to date and hands
// it to the window (RunController::snapshotReady, so MainWindow shows it as a live snapshot),
// waits until the GUI took it and poll-ms (default 50) have passed since its last poll, and goes
// on; while the snapshot shown before last (the one the next refresh writes) is still held by
// the GUI (a background render), it waits as RunController does. The 1 ms heartbeat measures
// the event loop as above; the refresh cost, the chart's render time (on a worker thread when
// the view renders in the background), the longest paintEvent and the longest stall are printed
// for 5-15%, 45-55% and 90-100% of the run's events, without the trainer's noise.

#include "event_loop_heartbeat.h"
#include "io/run_file.h"
#include "layout/live_trace_mirror.h"
#include "layout/timeline_layout.h"
#include "load_average.h"
#include "replay_source.h"
#include "run/train_options.h"
#include "runs/run_controller.h"
#include "shell/main_window.h"
#include "shell/run_panel.h"
#include "timed_application.h"
#include "timeline/timeline_page.h"
#include "timeline/timeline_view.h"
#include "trace/trace.h"
#include "train/thread_policy.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace memscope;

// The n longest event-loop gaps: how long, when they ended and the GUI thread's CPU time in them.
void printLongestGaps(const EventLoopHeartbeat& heartbeat, size_t n) {
    std::printf("Longest event-loop gaps (ms / ended at s / GUI-thread CPU ms in the gap)\n");
    for (size_t i : heartbeat.longest(n)) {
        std::printf("  %8.2f %8.2f %8.2f\n", heartbeat.gaps()[i], heartbeat.gapEnds()[i] / 1e3,
                    heartbeat.gapCpu()[i]);
    }
}

// Replays RUN into the main window in `refreshes` refreshes (see the header); the exit status.
int replay(int argc, char** argv, const std::string& path, int refreshes, int poll_ms,
           bool annotations) {
    TimedApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    std::optional<ReplaySource> source;
    try {
        source.emplace(path);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_gui_live: %s\n", e.what());
        return 2;
    }
    const size_t total = source->total();

    MainWindow window;
    window.resize(1920, 1080);
    window.show();
    // As when a run starts: the timeline tab shows the timeline page (not the placeholder).
    window.selectView(QStringLiteral("timeline"));
    if (auto* stack = qobject_cast<QStackedWidget*>(window.timelinePage()->parentWidget())) {
        stack->setCurrentWidget(window.timelinePage());
    }
    window.annotationsAction()->setChecked(annotations);
    // The window's first expose and paint, before the replay starts (not counted).
    const double startup_ms = app.settle(300);

    struct Refresh {
        size_t events = 0;
        double workerMs = 0, traceMs = 0, layoutMs = 0;  // on the worker
        double guiMs = 0;                                // the window taking the snapshot
        double at = 0;                                   // when it was shown, ms since start
    };
    std::vector<Refresh> done;
    done.reserve(size_t(refreshes));
    std::vector<double> paints, paint_events;  // the view's last paint times, at each tick
    EventLoopHeartbeat heartbeat([&] {
        const TimelineView* view = window.timelinePage()->view();
        paints.push_back(view->lastPaintStats().milliseconds);
        paint_events.push_back(view->lastPaintEventMs());
    });
    const std::vector<double>& gaps = heartbeat.gaps();
    const std::vector<double>& gap_ends = heartbeat.gapEnds();

    std::atomic<int> taken{0};  // snapshots the GUI has shown
    std::atomic<bool> quit{false};
    std::thread worker([&] {
        using Clock = std::chrono::steady_clock;
        LiveTraceMirror mirror;
        // As RunController: the snapshot shown before last is written next; while the GUI still
        // holds it (a background render), polls wait (up to a second) instead of rebuilding it.
        std::weak_ptr<const Trace> newest, before_last;
        for (int r = 1; r <= refreshes && !quit; ++r) {
            const auto held_since = Clock::now();
            while (before_last.use_count() > 1 && !quit &&
                   Clock::now() - held_since < std::chrono::seconds(1)) {
                std::this_thread::sleep_for(std::chrono::milliseconds(poll_ms));
            }
            const auto poll = Clock::now();
            const size_t to = total * size_t(r) / size_t(refreshes);
            const auto start = Clock::now();
            source->growTo(to);
            LiveTraceMirror::Snapshot s = mirror.update(source->growing());
            Refresh refresh;
            refresh.events = to;
            refresh.workerMs =
                std::chrono::duration<double, std::milli>(Clock::now() - start).count();
            refresh.traceMs = s.traceMs;
            refresh.layoutMs = s.layoutMs;
            before_last = newest;
            newest = s.trace;
            QMetaObject::invokeMethod(
                &window,
                [&, refresh, trace = std::move(s.trace), layout = std::move(s.layout)]() mutable {
                    QElapsedTimer gui;
                    gui.start();
                    emit window.runController()->snapshotReady(std::move(trace), std::move(layout));
                    refresh.guiMs = double(gui.nsecsElapsed()) / 1e6;
                    refresh.at = heartbeat.nowMs();
                    done.push_back(refresh);
                    taken.fetch_add(1);
                },
                Qt::QueuedConnection);
            // As RunController: one refresh in flight, the next poll poll_ms after this one.
            while (taken.load() < r && !quit) {
                std::this_thread::sleep_for(std::chrono::microseconds(200));
            }
            std::this_thread::sleep_until(poll + std::chrono::milliseconds(poll_ms));
        }
        QMetaObject::invokeMethod(
            &app, [&] { QTimer::singleShot(500, &app, &QCoreApplication::quit); },
            Qt::QueuedConnection);
    });
    QTimer::singleShot(0, [&] {
        heartbeat.start();
        app.restartClock();
    });
    app.exec();
    quit = true;
    worker.join();

    if (gaps.empty() || done.empty()) {
        std::fprintf(stderr, "bench_gui_live: nothing was replayed\n");
        return 1;
    }
    const double longest = heartbeat.quantile(1.0);
    std::printf(
        "GUI during a replay of %s: %zu events in %d refreshes (poll every %d ms, window "
        "1920x1080)\n",
        path.c_str(), total, refreshes, poll_ms);
    std::printf("  window's first paint     %8.2f ms   (before the replay; not counted)\n",
                startup_ms);
    std::printf("  snapshots shown          %8zu\n", done.size());
    std::printf("  event-loop gaps          %8zu measured\n", gaps.size());
    std::printf("  gap median               %8.2f ms\n", heartbeat.quantile(0.5));
    std::printf("  gap 99th percentile      %8.2f ms\n", heartbeat.quantile(0.99));
    std::printf("  longest stall            %8.2f ms   (target < 50 ms: %s)\n", longest,
                longest < 50 ? "met" : "MISSED");
    std::printf("Live refresh cost (replayed), by segment of the run's events\n");
    std::printf("  %-6s %8s %4s %8s %8s %8s %8s %8s %8s %8s %8s %8s\n", "seg", "events", "n",
                "worker", "worker", "trace", "layout", "GUI", "GUI", "chart", "paintEv", "longest");
    std::printf("  %-6s %8s %4s %8s %8s %8s %8s %8s %8s %8s %8s %8s\n", "", "", "", "mean ms",
                "max ms", "mean ms", "mean ms", "mean ms", "max ms", "max ms", "max ms",
                "stall ms");
    const struct {
        const char* name;
        double from, to;
    } segments[] = {{"10%", 0.05, 0.15}, {"50%", 0.45, 0.55}, {"100%", 0.90, 1.0}};
    for (const auto& seg : segments) {
        double worker_sum = 0, worker_max = 0, trace_sum = 0, layout_sum = 0, gui_sum = 0,
               gui_max = 0, stall = 0, paint = 0, paint_event = 0;
        double t0 = -1, t1 = -1;  // when the segment's first and last refresh were shown
        int n = 0;
        for (size_t k = 0; k < done.size(); ++k) {
            const Refresh& r = done[k];
            const double f = double(r.events) / double(total);
            if (f <= seg.from || f > seg.to) {
                continue;
            }
            // Its stalls: from the refresh before the segment's first to the next one after.
            t0 = t0 < 0 ? (k > 0 ? done[k - 1].at : 0) : t0;
            t1 = k + 1 < done.size() ? done[k + 1].at : 1e300;
            worker_sum += r.workerMs, trace_sum += r.traceMs, layout_sum += r.layoutMs;
            gui_sum += r.guiMs;
            worker_max = std::max(worker_max, r.workerMs);
            gui_max = std::max(gui_max, r.guiMs);
            ++n;
        }
        for (size_t i = 0; i < gaps.size(); ++i) {
            if (gap_ends[i] > t0 && gap_ends[i] <= t1) {
                stall = std::max(stall, gaps[i]);
                paint = std::max(paint, paints[i]);
                paint_event = std::max(paint_event, paint_events[i]);
            }
        }
        const double d = std::max(n, 1);
        std::printf("  %-6s %8zu %4d %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f\n",
                    seg.name, size_t(seg.to * double(total)), n, worker_sum / d, worker_max,
                    trace_sum / d, layout_sum / d, gui_sum / d, gui_max, paint, paint_event, stall);
    }
    LoadAverage::print();
    printLongestGaps(heartbeat, 5);
    app.printSlowest(8);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    memscope::ThreadPolicy::applyWaitPolicy(argv);  // as the executables do
    int64_t steps = 10;
    int poll_ms = 50;
    std::string preset = "workshop-default";
    QString screenshot;
    int threads = memscope::ThreadPolicy::interactiveThreads();
    bool full_refresh = false;
    bool run_cli = true;
    int64_t batch_size = 0;  // 0: the preset's
    int64_t seq_len = 0;
    std::string replay_path;
    int replay_refreshes = 400;
    bool annotations = false;
    int heartbeat_ms = 1;
    int interface_load = 0;  // percent of the GUI thread kept busy
    bool yield = true;
    for (int i = 1; i < argc; ++i) {
        const bool has_value = i + 1 < argc;
        if (std::strcmp(argv[i], "--steps") == 0 && has_value) {
            steps = std::atoll(argv[++i]);
        } else if (std::strcmp(argv[i], "--poll-ms") == 0 && has_value) {
            poll_ms = std::atoi(argv[++i]);
        } else if (std::strcmp(argv[i], "--preset") == 0 && has_value) {
            preset = argv[++i];
        } else if (std::strcmp(argv[i], "--threads") == 0 && has_value) {
            threads = std::atoi(argv[++i]);
        } else if (std::strcmp(argv[i], "--screenshot") == 0 && has_value) {
            screenshot = QString::fromLocal8Bit(argv[++i]);
        } else if (std::strcmp(argv[i], "--full-refresh") == 0) {
            full_refresh = true;
        } else if (std::strcmp(argv[i], "--batch-size") == 0 && has_value) {
            batch_size = std::atoll(argv[++i]);
        } else if (std::strcmp(argv[i], "--seq-len") == 0 && has_value) {
            seq_len = std::atoll(argv[++i]);
        } else if (std::strcmp(argv[i], "--annotations") == 0) {
            annotations = true;
        } else if (std::strcmp(argv[i], "--heartbeat-ms") == 0 && has_value) {
            heartbeat_ms = std::max(1, std::atoi(argv[++i]));
        } else if (std::strcmp(argv[i], "--interface-load") == 0 && has_value) {
            interface_load = std::clamp(std::atoi(argv[++i]), 0, 100);
        } else if (std::strcmp(argv[i], "--no-yield") == 0) {
            yield = false;
        } else if (std::strcmp(argv[i], "--no-cli") == 0) {
            run_cli = false;
        } else if (std::strcmp(argv[i], "--replay") == 0 && has_value) {
            replay_path = argv[++i];
        } else if (std::strcmp(argv[i], "--refreshes") == 0 && has_value) {
            replay_refreshes = std::max(10, std::atoi(argv[++i]));
        } else {
            std::fprintf(stderr,
                         "usage: bench_gui_live [--steps N] [--poll-ms N] [--preset NAME] "
                         "[--threads N] [--batch-size N] [--seq-len N] [--screenshot FILE.png] "
                         "[--full-refresh] [--annotations] [--no-cli] [--heartbeat-ms N]\n"
                         "                      [--interface-load PERCENT] [--no-yield]\n"
                         "       bench_gui_live --replay RUN.memscope [--refreshes N] "
                         "[--poll-ms N] [--annotations]\n");
            return 2;
        }
    }
    if (!replay_path.empty()) {
        return replay(argc, argv, replay_path, replay_refreshes, poll_ms, annotations);
    }
    TimedApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);

    memscope::MainWindow window;
    window.resize(1920, 1080);
    window.show();
    memscope::TrainOptions options = memscope::TrainOptions::fromPreset(preset);
    options.num_steps = steps;
    options.threads = threads;
    if (batch_size > 0) {
        options.batch_size = batch_size;
    }
    if (seq_len > 0) {
        options.seq_len = seq_len;
    }
    window.runPanel()->setOptions(options);
    window.runController()->setPollInterval(poll_ms);
    window.runController()->setIncrementalRefresh(!full_refresh);
    window.annotationsAction()->setChecked(annotations);
    // As a user: the window is on screen and painted before Start is pressed. Its first expose
    // (styles, fonts, every widget) is start-up, reported apart from the run's stalls.
    const double startup_ms = app.settle(300);

    // The event loop's heartbeat, and the timeline's last paint time at each of its ticks.
    double finished_at = -1;  // when finished() arrived
    double max_paint = 0;
    std::vector<double> paints;
    EventLoopHeartbeat heartbeat([&] {
        const double paint = window.timelinePage()->view()->lastPaintStats().milliseconds;
        max_paint = std::max(max_paint, paint);
        paints.push_back(paint);
    });
    const std::vector<double>& gaps = heartbeat.gaps();
    const std::vector<double>& gap_ends = heartbeat.gapEnds();
    if (!screenshot.isEmpty()) {
        QObject::connect(
            window.runController(), &memscope::RunController::stepFinished, &window,
            [&, steps](qint64 step) {
                if (step == std::max<int64_t>(1, steps / 2)) {
                    // Let the next snapshot arrive, then grab what a user sees.
                    QTimer::singleShot(
                        2 * window.runController()->pollInterval() + 100, &window, [&] {
                            if (!window.grab().save(screenshot)) {
                                std::fprintf(stderr, "cannot write %s\n", qPrintable(screenshot));
                            }
                        });
                }
            });
    }
    // Every live refresh: when it arrived, and what it cost (read once snapshotReady's slots
    // have returned: a queued connection runs after them).
    struct Refresh {
        double at_ms;
        memscope::RunController::RefreshStats stats;
    };
    std::vector<Refresh> refreshes;
    QObject::connect(
        window.runController(), &memscope::RunController::snapshotReady, &window,
        [&] {
            refreshes.push_back({heartbeat.nowMs(), window.runController()->lastRefresh()});
        },
        Qt::QueuedConnection);
    // When each step finished, ms since the start (steps counted with the warmup ones).
    std::vector<double> step_done_ms;
    int64_t total_steps = 0;
    QObject::connect(window.runController(), &memscope::RunController::stepFinished, &window,
                     [&](qint64 step, qint64 total) {
                         total_steps = total;
                         step_done_ms.resize(size_t(std::max<qint64>(step, 0)), heartbeat.nowMs());
                     });
    // Step times as the GUI run reports them (warmup steps left out, as the CLI's average does).
    std::vector<double> gui_steps;
    QObject::connect(window.runController(), &memscope::RunController::stepFinished, &window,
                     [&](qint64 step, qint64, double seconds) {
                         if (step > options.warmup_steps) {
                             gui_steps.push_back(seconds);
                         }
                     });
    QObject::connect(window.runController(), &memscope::RunController::finished, &app, [&] {
        finished_at = heartbeat.nowMs();
        QTimer::singleShot(1000, &app, &QCoreApplication::quit);
    });
    heartbeat.setIntervalMs(heartbeat_ms);
    window.runController()->setYieldToInterface(yield);
    // A busy interface: PERCENT of every 50 ms spent on the GUI thread.
    QTimer interface_work;
    interface_work.setInterval(50);
    QObject::connect(&interface_work, &QTimer::timeout, [interface_load] {
        const auto until =
            std::chrono::steady_clock::now() + std::chrono::microseconds(interface_load * 500);
        while (std::chrono::steady_clock::now() < until) {
        }
    });
    QObject::connect(window.runController(), &memscope::RunController::finished, &interface_work,
                     &QTimer::stop);
    QTimer::singleShot(0, [&] {
        heartbeat.start();
        app.restartClock();
        window.startRun();
        if (interface_load > 0) {
            interface_work.start();
        }
    });
    QElapsedTimer wall;
    wall.start();
    app.exec();
    const double seconds = double(wall.nsecsElapsed()) / 1e9;

    if (gaps.empty()) {
        std::fprintf(stderr, "bench_gui_live: the run did not start\n");
        return 1;
    }
    const double worst = heartbeat.quantile(1.0);
    const double p99 = heartbeat.quantile(0.99);
    const double median = heartbeat.quantile(0.5);
    const memscope::TimelineView* view = window.timelinePage()->view();
    std::printf(
        "GUI during a live %s run of %lld steps, batch %lld, sequence %lld (poll every %d "
        "ms, window 1920x1080)\n",
        preset.c_str(), static_cast<long long>(steps), static_cast<long long>(options.batch_size),
        static_cast<long long>(options.seq_len), poll_ms);
    std::printf("  window's first paint     %8.2f ms   (before Start; not counted)\n", startup_ms);
    std::printf("  run wall time            %8.2f s\n", seconds);
    std::printf("  live snapshots shown     %8lld\n",
                static_cast<long long>(window.runController()->snapshotCount()));
    std::printf("  allocations at the end   %8lld\n",
                static_cast<long long>(view->allocationCount()));
    std::printf("  event-loop gaps          %8zu measured\n", gaps.size());
    std::printf("  gap median               %8.2f ms\n", median);
    std::printf("  gap 99th percentile      %8.2f ms\n", p99);
    std::printf("  longest stall            %8.2f ms   (target < 50 ms: %s)\n", worst,
                worst < 50 ? "met" : "MISSED");
    // Where it happened: while recording, or when the finished run filled the other views.
    double worst_live = 0;
    double worst_after = 0;
    for (size_t i = 0; i < gaps.size(); ++i) {
        // finished() reaches this benchmark after the window has handled it, so the gap that
        // holds the window's own end-of-run work ends after finished_at.
        const bool live = finished_at < 0 || gap_ends[i] <= finished_at;
        (live ? worst_live : worst_after) = std::max(live ? worst_live : worst_after, gaps[i]);
    }
    std::printf("    while recording        %8.2f ms\n", worst_live);
    std::printf("    once the run finished  %8.2f ms   (final trace shown, run kept)\n",
                worst_after);
    std::printf("  longest timeline paint   %8.2f ms\n", max_paint);
    const auto last_trace = window.currentTrace();  // the final trace, shown
    std::printf("  events recorded          %8lld\n",
                static_cast<long long>(last_trace ? last_trace->events.count() : 0));

    // Refresh cost and stalls in three segments of the run, by steps done.
    std::printf("Live refresh cost (%s), by segment of the run\n",
                full_refresh ? "full: copy, finalize, lay out everything"
                             : "incremental: extend the snapshot and its layout");
    std::printf("  %-6s %8s %4s %4s %7s %8s %8s %8s %8s %8s %8s %8s %8s\n", "seg", "events", "n",
                "incr", "new ev", "worker", "worker", "trace", "layout", "GUI", "GUI", "paint",
                "longest");
    std::printf("  %-6s %8s %4s %4s %7s %8s %8s %8s %8s %8s %8s %8s %8s\n", "", "", "", "", "/refr",
                "mean ms", "max ms", "mean ms", "mean ms", "mean ms", "max ms", "max ms",
                "stall ms");
    auto time_at_fraction = [&](double f) {
        if (f <= 0 || step_done_ms.empty()) {
            return 0.0;
        }
        const auto step = size_t(std::ceil(f * double(total_steps)));
        if (f >= 1 || step > step_done_ms.size()) {
            return finished_at >= 0 ? finished_at : 1e300;
        }
        return step_done_ms[std::max<size_t>(step, 1) - 1];
    };
    const struct {
        const char* name;
        double from;
        double to;
    } segments[] = {{"10%", 0.05, 0.15}, {"50%", 0.45, 0.55}, {"100%", 0.90, 1.0}};
    for (const auto& seg : segments) {
        const double t0 = time_at_fraction(seg.from);
        const double t1 = time_at_fraction(seg.to);
        double worker_sum = 0, worker_max = 0, gui_sum = 0, gui_max = 0, stall = 0, paint = 0;
        double trace_sum = 0, layout_sum = 0;
        int64_t n = 0, incremental = 0, events = 0, added = 0;
        for (size_t k = 0; k < refreshes.size(); ++k) {
            const Refresh& r = refreshes[k];
            if (r.at_ms < t0 || r.at_ms >= t1) {
                continue;
            }
            added += k > 0 ? r.stats.events - refreshes[k - 1].stats.events : r.stats.events;
            ++n;
            incremental += r.stats.incremental;
            worker_sum += r.stats.workerMs;
            trace_sum += r.stats.traceMs;
            layout_sum += r.stats.layoutMs;
            worker_max = std::max(worker_max, r.stats.workerMs);
            gui_sum += r.stats.guiMs;
            gui_max = std::max(gui_max, r.stats.guiMs);
            events = std::max(events, r.stats.events);
        }
        for (size_t i = 0; i < gaps.size(); ++i) {
            if (gap_ends[i] >= t0 && gap_ends[i] < t1) {
                stall = std::max(stall, gaps[i]);
                paint = std::max(paint, paints[i]);
            }
        }
        const double div = n > 0 ? double(n) : 1.0;
        std::printf(
            "  %-6s %8lld %4lld %4lld %7.0f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f "
            "%8.2f\n",
            seg.name, static_cast<long long>(events), static_cast<long long>(n),
            static_cast<long long>(incremental), double(added) / div, worker_sum / div, worker_max,
            trace_sum / div, layout_sum / div, gui_sum / div, gui_max, paint, stall);
    }
    // Stalls on a busy machine are the scheduler's, not the GUI's: say how busy it was.
    LoadAverage::print();
    printLongestGaps(heartbeat, 5);
    app.printSlowest(8);

    double gui_step = 0;
    for (double s : gui_steps) {
        gui_step += s / double(gui_steps.size());
    }
    // How many timed steps trained on each thread count (the governor's choices).
    std::map<int, int> steps_on;
    if (last_trace) {
        for (const auto& step : last_trace->steps) {
            if (!step.warmup) {
                ++steps_on[step.threads];
            }
        }
    }
    std::printf("  timed steps by threads  ");
    for (const auto& [n, count] : steps_on) {
        std::printf(" %d thread%s: %d", n, n == 1 ? "" : "s", count);
    }
    std::printf("\n");
    if (!run_cli) {
        std::printf(
            "Step time in the GUI (%d threads%s)\n  GUI live run             %8.4f s/step\n",
            threads, interface_load > 0 ? ", interface kept busy" : "", gui_step);
        return 0;
    }
    // The same run recorded by the CLI, after the GUI's, so that they never share the cores.
    const bool shapes = window.runPanel()->recordShapes();
    QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("summary.json"));
    QStringList args{QStringLiteral("record"),
                     QStringLiteral("--preset"),
                     QString::fromStdString(preset),
                     QStringLiteral("--num-steps"),
                     QString::number(steps),
                     QStringLiteral("--warmup-steps"),
                     QString::number(options.warmup_steps),
                     QStringLiteral("--threads"),
                     QString::number(threads),
                     QStringLiteral("--batch-size"),
                     QString::number(options.batch_size),
                     QStringLiteral("--seq-len"),
                     QString::number(options.seq_len),
                     QStringLiteral("--out"),
                     dir.filePath(QStringLiteral("run.memscope")),
                     QStringLiteral("--summary-json"),
                     json};
    if (shapes) {
        args << QStringLiteral("--record-shapes");
    }
    QProcess cli;
    cli.start(QStringLiteral(MEMSCOPE_CLI_PATH), args);
    cli.waitForFinished(-1);
    QFile summary(json);
    if (cli.exitCode() != 0 || !summary.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "bench_gui_live: memscope-cli record failed: %s\n",
                     cli.readAllStandardError().constData());
        return 1;
    }
    const double cli_step = QJsonDocument::fromJson(summary.readAll())
                                .object()
                                .value(QStringLiteral("avg_step_s"))
                                .toDouble();
    std::printf("Step time, the same run (%d threads%s) in the GUI and in memscope-cli record\n",
                threads, shapes ? ", record shapes" : "");
    std::printf("  GUI live run             %8.4f s/step\n", gui_step);
    std::printf("  CLI record               %8.4f s/step\n", cli_step);
    std::printf("  GUI / CLI                %8.3f     (target <= 1.10: %s)\n",
                cli_step > 0 ? gui_step / cli_step : 0.0,
                cli_step > 0 && gui_step / cli_step <= 1.10 ? "met" : "MISSED");
    return 0;
}
