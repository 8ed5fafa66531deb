// The live refresh path without the trainer: a recorded run is replayed into a growing trace,
// refresh by refresh, through what a live run in the GUI does on each poll: LiveTraceMirror
// brings its snapshot and layout up to date (the worker's part), TimelineView::updateTrace takes
// them and the chart is painted again at 1920x1080 (the GUI thread's part). Prints the mean and
// largest cost of each part in three segments of the run (5-15%, 45-55%, 90-100% of its events),
// so that a cost that grows with the run shows without training noise (issue 11's target: flat
// within 2x).
//
//   bench_live_refresh RUN.memscope [--refreshes N] [--detail N]
//
// --refreshes: how many refreshes the run is cut into (default 400, about what a 50 ms poll
// makes of a run of a few minutes). --detail N: the user set the detail (the view keeps it).

#include "io/run_file.h"
#include "layout/live_trace_mirror.h"
#include "layout/timeline_layout.h"
#include "replay_source.h"
#include "timeline/timeline_view.h"
#include "trace/trace.h"

#include <QApplication>
#include <QImage>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace memscope;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

struct Costs {
    double trace = 0, layout = 0, update = 0, paint = 0;
};

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr,
                     "usage: bench_live_refresh RUN.memscope [--refreshes N] [--detail N]\n");
        return 2;
    }
    const std::string path = argv[1];
    int refreshes = 400;
    int64_t detail = -1;
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], "--refreshes") == 0 && i + 1 < argc) {
            refreshes = std::max(10, std::atoi(argv[++i]));
        } else if (std::strcmp(argv[i], "--detail") == 0 && i + 1 < argc) {
            detail = std::atoll(argv[++i]);
        } else {
            std::fprintf(stderr, "bench_live_refresh: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    QApplication app(argc, argv);
    std::optional<ReplaySource> source;
    try {
        source.emplace(path);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_live_refresh: %s\n", e.what());
        return 2;
    }
    const size_t total = source->total();

    LiveTraceMirror mirror;
    TimelineView view;
    view.resize(1920, 1080);
    std::vector<Costs> costs;
    std::vector<size_t> counts;
    for (int r = 1; r <= refreshes; ++r) {
        const size_t to = total * size_t(r) / size_t(refreshes);
        source->growTo(to);
        Costs c;
        LiveTraceMirror::Snapshot s = mirror.update(source->growing());
        c.trace = s.traceMs;
        c.layout = s.layoutMs;
        auto start = Clock::now();
        view.updateTrace(s.trace, s.layout);
        if (r == 1 && detail >= 0) {
            view.setDetail(detail);
        }
        c.update = msSince(start);
        s = {};
        start = Clock::now();
        const QImage image = view.renderImage(QSize(1920, 1080));
        c.paint = msSince(start);
        costs.push_back(c);
        counts.push_back(to);
    }

    std::printf("Live refreshes of %s: %zu events in %d refreshes, 1920x1080%s\n", path.c_str(),
                total, refreshes, detail >= 0 ? ", detail set by the user" : "");
    std::printf("  %-6s %9s %17s %17s %17s %17s\n", "seg", "events", "trace ms", "layout ms",
                "updateTrace ms", "paint ms");
    std::printf("  %-6s %9s %8s %8s %8s %8s %8s %8s %8s %8s\n", "", "", "mean", "max", "mean",
                "max", "mean", "max", "mean", "max");
    const struct {
        const char* name;
        double from, to;
    } segments[] = {{"10%", 0.05, 0.15}, {"50%", 0.45, 0.55}, {"100%", 0.90, 1.0}};
    for (const auto& seg : segments) {
        Costs sum, max;
        int n = 0;
        for (size_t k = 0; k < costs.size(); ++k) {
            const double f = double(counts[k]) / double(total);
            if (f <= seg.from || f > seg.to) {
                continue;
            }
            const Costs& c = costs[k];
            sum.trace += c.trace, sum.layout += c.layout, sum.update += c.update,
                sum.paint += c.paint;
            max.trace = std::max(max.trace, c.trace), max.layout = std::max(max.layout, c.layout);
            max.update = std::max(max.update, c.update), max.paint = std::max(max.paint, c.paint);
            ++n;
        }
        const double d = std::max(n, 1);
        std::printf("  %-6s %9zu %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f\n", seg.name,
                    size_t(seg.to * double(total)), sum.trace / d, max.trace, sum.layout / d,
                    max.layout, sum.update / d, max.update, sum.paint / d, max.paint);
    }
    return 0;
}
