// The active memory timeline at scale: a synthetic training-shaped trace of 1,000,000
// allocations. Prints the full layout's seconds, the cost of the per-column envelope queries
// (lowest and highest total over a pixel column's events, against a plain scan), the
// milliseconds of changing the detail, of one
// full paint of a 1920x1080 image (whole run, and zoomed in) at several details, of frames while
// panning, of the other colour, axis and plot modes, and of an on-screen hover repaint.
//   bench_timeline_layout [--allocations N] [--png PREFIX]   (PREFIX-N.png per painted detail)
//   bench_timeline_layout --open RUN --png PREFIX [--detail-percent P]
//     renders a recorded run in every colour, plot and axis mode (PREFIX-MODE.png, 1600x900) to
//     look at, and exits.
//   bench_timeline_layout --frames RUN [--png PREFIX]
//     pan and zoom on any run (a snapshot too, issue 52): opens it through RunSource, lays it
//     out, and prints the median and worst frame time of a zoom and a pan at 1920x1080 (and
//     saves PREFIX-whole.png and PREFIX-zoomed.png).

#include "io/run_file.h"
#include "layout/timeline_layout.h"
#include "source/run_source.h"
#include "timeline/timeline_view.h"
#include "trace/trace.h"

#include <QApplication>
#include <QImage>
#include <QMouseEvent>
#include <QWindow>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

using namespace memscope;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Parameters that live throughout at the bottom; per step, forward activations kept for
// backward and freed there mostly in reverse (one in eight goes before its neighbour);
// short-lived temporaries freed within a few events, not always in order; an optimizer phase.
std::shared_ptr<Trace> makeSyntheticTrace(int64_t allocations) {
    auto t = std::make_shared<Trace>();
    t->events.reserve(size_t(allocations) * 2 + 16);
    std::mt19937_64 rng(7);
    uint64_t next_addr = 0x10000;
    int64_t live = 0;
    int64_t time = 0;
    int64_t made = 0;
    std::unordered_map<uint64_t, int64_t> sizes;
    auto size_between = [&](double lo, double hi) {
        std::uniform_real_distribution<double> u(std::log2(lo), std::log2(hi));
        return int64_t(std::exp2(u(rng))) / 512 * 512 + 512;
    };
    auto alloc = [&](int64_t size, Phase phase, int32_t step) {
        Event e;
        e.time_ns = time += 100;
        e.addr = next_addr += 0x1000;
        e.size = size;
        e.kind = EventKind::Alloc;
        e.phase = phase;
        e.step = step;
        live += size;
        e.allocated = live;
        sizes[e.addr] = size;
        t->events.append(e);
        ++made;
        return e.addr;
    };
    auto release = [&](uint64_t addr, Phase phase, int32_t step) {
        Event e;
        e.time_ns = time += 100;
        e.addr = addr;
        e.size = -sizes[addr];
        e.kind = EventKind::Free;
        e.phase = phase;
        e.step = step;
        live += e.size;
        e.allocated = live;
        sizes.erase(addr);
        t->events.append(e);
    };
    for (int i = 0; i < 2000; ++i) {
        alloc(size_between(4096, 8 << 20), Phase::Init, 0);
    }
    std::vector<uint64_t> temps;
    for (int32_t step = 1; made < allocations; ++step) {
        auto temporary = [&](Phase phase) {
            temps.push_back(alloc(size_between(512, 4 << 20), phase, step));
            if (temps.size() > 3 || rng() % 2) {
                const size_t k = rng() % temps.size();
                release(temps[k], phase, step);
                temps.erase(temps.begin() + std::ptrdiff_t(k));
            }
        };
        const int64_t forward_begin = time;
        std::vector<uint64_t> activations;
        for (int i = 0; i < 4000 && made < allocations; ++i) {
            activations.push_back(alloc(size_between(512, 2 << 20), Phase::Forward, step));
            temporary(Phase::Forward);
        }
        t->phases.push_back({Phase::Forward, step, forward_begin, time});
        const int64_t backward_begin = time;
        for (size_t i = activations.size(); i-- > 0 && made < allocations;) {
            temporary(Phase::Backward);
            const size_t k = (i > 0 && rng() % 8 == 0) ? i - 1 : i;
            release(activations[k], Phase::Backward, step);
            activations.erase(activations.begin() + std::ptrdiff_t(k));
        }
        for (const uint64_t a : activations) {
            release(a, Phase::Backward, step);
        }
        for (const uint64_t a : temps) {
            release(a, Phase::Backward, step);
        }
        temps.clear();
        t->phases.push_back({Phase::Backward, step, backward_begin, time});
        const int64_t optimizer_begin = time;
        for (int i = 0; i < 200 && made < allocations; ++i) {
            temporary(Phase::Optimizer);
        }
        t->phases.push_back({Phase::Optimizer, step, optimizer_begin, time});
    }
    t->finalize();
    return t;
}

// Every colour mode, the category plot and the wall-time axis of a recorded run, as PNGs.
int renderModes(const std::string& path, const std::string& prefix, double detail_percent) {
    std::shared_ptr<const Trace> trace;
    try {
        trace = std::make_shared<const Trace>(RunFile::load(path));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cannot open %s: %s\n", path.c_str(), e.what());
        return 1;
    }
    TimelineView view;
    const QSize size(1600, 900);
    view.resize(size);
    view.setTrace(trace);
    if (detail_percent >= 0) {
        view.setDetailPercent(detail_percent);
    }
    struct Mode {
        const char* name;
        TimelineView::ColorMode color;
        TimelineView::PlotMode plot;
        bool time;
    };
    const Mode modes[] = {
        {"category", TimelineView::ColorMode::Category, TimelineView::PlotMode::Allocations, false},
        {"allocation", TimelineView::ColorMode::Allocation, TimelineView::PlotMode::Allocations,
         false},
        {"module", TimelineView::ColorMode::Module, TimelineView::PlotMode::Allocations, false},
        {"phase", TimelineView::ColorMode::Phase, TimelineView::PlotMode::Allocations, false},
        {"stacked", TimelineView::ColorMode::Category, TimelineView::PlotMode::Categories, false},
        {"time", TimelineView::ColorMode::Category, TimelineView::PlotMode::Allocations, true},
        {"stacked-time", TimelineView::ColorMode::Category, TimelineView::PlotMode::Categories,
         true},
    };
    for (const Mode& mode : modes) {
        view.setColorMode(mode.color);
        view.setPlotMode(mode.plot);
        view.setTimeAxis(mode.time);
        const std::string file = prefix + "-" + mode.name + ".png";
        if (!view.renderImage(size).save(QString::fromStdString(file))) {
            std::fprintf(stderr, "cannot write %s\n", file.c_str());
            return 1;
        }
        std::printf("%s\n", file.c_str());
    }
    return 0;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty()      ? 0.0
           : v.size() % 2 ? v[v.size() / 2]
                          : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

double peakRssGb() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) * 1024 / 1e9;
}

// Pan and zoom on a run of any kind (issue 52: frame time at 17 million entries). A frame is
// what the view does when the window moves: the chart drawn again at 1920x1080. Zoom: the
// wheel's 1.25x a notch at the middle, from the whole run in to a thousandth of it and back
// out; pan: a drag of 40 px a frame, over the whole run zoomed to a tenth and at a thousandth.
int panAndZoom(const std::string& path, const std::string& png) {
    auto start = Clock::now();
    std::shared_ptr<const Trace> trace;
    try {
        trace = std::make_shared<const Trace>(RunSource(path).open({}));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_timeline_layout: %s\n", e.what());
        return 1;
    }
    const double open_s = msSince(start) / 1000;
    start = Clock::now();
    auto layout = std::make_shared<TimelineLayout>(*trace);
    const double layout_s = msSince(start) / 1000;
    std::printf("%s: %lld events, %lld allocations; opened in %.2f s, laid out in %.2f s\n",
                path.c_str(), static_cast<long long>(trace->events.count()),
                static_cast<long long>(layout->allocationCount()), open_s, layout_s);
    TimelineView view;
    view.setTrace(trace, layout);
    const QSize size(1920, 1080);
    const QRectF rect(QPointF(0, 0), QSizeF(size));
    const double lo = 0;
    const double hi = double(layout->xCount());
    auto frame = [&](const TimelineMapping& m) {
        view.setVisibleRange(m.x0, m.x1);
        const auto t = Clock::now();
        view.renderImage(size);
        return msSince(t);
    };
    auto report = [](const char* what, const std::vector<double>& ms) {
        std::printf("%-52s median %7.1f ms, worst %7.1f ms, %zu frames\n", what, median(ms),
                    ms.empty() ? 0.0 : *std::max_element(ms.begin(), ms.end()), ms.size());
    };
    view.resetView();
    std::vector<double> whole;
    for (int i = 0; i < 5; ++i) {
        whole.push_back(frame(view.mapping(rect)));
    }
    report("whole run", whole);
    if (!png.empty()) {
        view.renderImage(size).save(QString::fromStdString(png + "-whole.png"));
        view.setVisibleRange(hi * 0.3, hi * 0.301);
        view.renderImage(size).save(QString::fromStdString(png + "-zoomed.png"));
        view.resetView();
    }
    std::vector<double> zoom;
    for (const double factor : {1.25, 1 / 1.25}) {
        for (int notch = 0; notch < 31; ++notch) {  // 1.25^31 = about 1,000
            const TimelineMapping m = view.mapping(rect).zoomedAt(960, factor, lo, hi, 64);
            zoom.push_back(frame(m));
        }
    }
    report("zoom (31 wheel notches in, 31 out)", zoom);
    for (const double span : {0.1, 0.001}) {
        view.setVisibleRange(hi * 0.3, hi * (0.3 + span));
        std::vector<double> pan;
        for (int i = 0; i < 40; ++i) {
            pan.push_back(frame(view.mapping(rect).pannedBy(-40, lo, hi)));
        }
        report(span > 0.01 ? "pan at a tenth of the run (40 px a frame)"
                           : "pan at a thousandth of the run (40 px a frame)",
               pan);
    }
    std::printf("peak RSS %.2f GB\n", peakRssGb());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    int64_t allocations = 1'000'000;
    std::string png;
    std::string open;
    double detail_percent = -1;
    std::string frames;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--allocations") == 0) {
            allocations = std::stoll(argv[++i]);
        } else if (std::strcmp(argv[i], "--png") == 0) {
            png = argv[++i];
        } else if (std::strcmp(argv[i], "--open") == 0) {
            open = argv[++i];
        } else if (std::strcmp(argv[i], "--frames") == 0) {
            frames = argv[++i];
        } else if (std::strcmp(argv[i], "--detail-percent") == 0) {
            detail_percent = std::stod(argv[++i]);
        }
    }
    if (!frames.empty()) {
        return panAndZoom(frames, png);
    }
    if (!open.empty()) {
        return renderModes(open, png.empty() ? std::string("timeline") : png, detail_percent);
    }

    auto start = Clock::now();
    std::shared_ptr<const Trace> trace = makeSyntheticTrace(allocations);
    std::printf("synthetic trace: %lld allocations, %zu events (%.0f ms to make)\n",
                static_cast<long long>(trace->allocations().size()), trace->events.count(),
                msSince(start));

    start = Clock::now();
    auto layout = std::make_shared<TimelineLayout>(*trace);
    const double layout_ms = msSince(start);
    std::printf("full layout (detail %lld): %.3f s\n", static_cast<long long>(layout->detail()),
                layout_ms / 1000);

    // Envelope queries: the lowest and highest total of each pixel column of a 1920-column view
    // of the whole run (what every full paint asks), best of five, against scanning every x;
    // then single queries over random ranges of up to a column's width, and of any width.
    {
        const int64_t x_count = layout->xCount();
        const int columns = 1920;
        int64_t checksum = 0;
        double tree_ms = 1e300;
        double scan_ms = 1e300;
        for (int round = 0; round < 5; ++round) {
            start = Clock::now();
            for (int c = 0; c < columns; ++c) {
                const int64_t lo = x_count * c / columns;
                const int64_t hi = x_count * (c + 1) / columns;
                checksum += layout->minTotal(lo, hi) + layout->maxTotal(lo, hi);
            }
            tree_ms = std::min(tree_ms, msSince(start));
            start = Clock::now();
            for (int c = 0; c < columns; ++c) {
                const int64_t lo = x_count * c / columns;
                const int64_t hi = x_count * (c + 1) / columns;
                int64_t lowest = layout->totalAt(lo);
                int64_t highest = lowest;
                for (int64_t x = lo; x < hi; ++x) {
                    lowest = std::min(lowest, layout->totalAt(x));
                    highest = std::max(highest, layout->totalAt(x));
                }
                checksum -= lowest + highest;
            }
            scan_ms = std::min(scan_ms, msSince(start));
        }
        std::printf(
            "envelope of %d columns over %lld events (%.0f events a column): %.3f ms by the "
            "block trees, %.3f ms by scanning every event%s\n",
            columns, static_cast<long long>(x_count), double(x_count) / columns, tree_ms, scan_ms,
            checksum == 0 ? "" : " (MISMATCH)");
        std::mt19937_64 rng(3);
        for (const int64_t widest : {x_count / columns, x_count}) {
            const int queries = 200000;
            std::vector<std::pair<int64_t, int64_t>> ranges(queries);
            for (auto& r : ranges) {
                const int64_t w = 1 + int64_t(rng() % uint64_t(std::max<int64_t>(widest, 1)));
                r.first = int64_t(rng() % uint64_t(std::max<int64_t>(x_count - w, 1)));
                r.second = r.first + w;
            }
            start = Clock::now();
            int64_t sum = 0;
            for (const auto& [lo, hi] : ranges) {
                sum += layout->minTotal(lo, hi) + layout->maxTotal(lo, hi);
            }
            const double ns = msSince(start) * 1e6 / queries;
            std::printf("envelope query (min and max), ranges up to %lld events: %.0f ns each%s\n",
                        static_cast<long long>(widest), ns, sum == 42 ? " " : "");
        }
    }

    // Best of three per detail, each after a change away from it, so every round recomputes.
    for (const int64_t n : {int64_t(1000), int64_t(15000), int64_t(100000), allocations}) {
        double best = 1e300;
        for (int round = 0; round < 3; ++round) {
            layout->setDetail(n == 1000 ? 2000 : 1000);
            start = Clock::now();
            layout->setDetail(n);
            best = std::min(best, msSince(start));
        }
        std::printf("detail change to %lld: %.1f ms (%lld points)\n", static_cast<long long>(n),
                    best, static_cast<long long>(layout->pointCount()));
    }
    layout->setDetail(TimelineLayout::kDefaultDetail);

    TimelineView view;
    view.setTrace(trace, layout);
    const QSize size(1920, 1080);
    for (const int64_t n : {TimelineLayout::kDefaultDetail, int64_t(100000), allocations}) {
        view.setDetail(n);
        view.resetView();
        // Best of five: the figure of the code, not of whatever else the machine is doing.
        QImage image;
        double whole_ms = 1e300;
        for (int round = 0; round < 5; ++round) {
            start = Clock::now();
            image = view.renderImage(size);
            whole_ms = std::min(whole_ms, msSince(start));
        }
        const auto stats = view.lastPaintStats();
        std::printf(
            "paint 1920x1080, detail %lld, whole run: %.1f ms (%lld allocations, %lld "
            "polygons, %lld merged runs)\n",
            static_cast<long long>(n), whole_ms, static_cast<long long>(stats.allocations),
            static_cast<long long>(stats.polygons), static_cast<long long>(stats.mergedRuns));
        if (!png.empty()) {
            image.save(QString::fromStdString(png + "-" + std::to_string(n) + ".png"));
        }
        const double x_count = double(layout->xCount());
        view.setVisibleRange(x_count * 0.40, x_count * 0.40 + 20000);
        QImage zoomed;
        double zoomed_ms = 1e300;
        for (int round = 0; round < 5; ++round) {
            start = Clock::now();
            zoomed = view.renderImage(size);
            zoomed_ms = std::min(zoomed_ms, msSince(start));
        }
        std::printf("paint 1920x1080, detail %lld, 20,000 events: %.1f ms (%lld allocations)\n",
                    static_cast<long long>(n), zoomed_ms,
                    static_cast<long long>(view.lastPaintStats().allocations));
        if (!png.empty()) {
            zoomed.save(QString::fromStdString(png + "-" + std::to_string(n) + "-zoomed.png"));
        }
    }

    // Panning: a window of a tenth of the run dragged along by 40 pixels a frame, as a drag
    // does; every frame redraws the chart.
    {
        view.setDetail(TimelineLayout::kDefaultDetail);
        const double x_count = double(layout->xCount());
        double worst = 0;
        double sum = 0;
        const int frames = 30;
        view.setVisibleRange(x_count * 0.30, x_count * 0.40);
        for (int frame = 0; frame < frames; ++frame) {
            const TimelineMapping m = view.mapping(QRectF(QPointF(0, 0), QSizeF(size)));
            const TimelineMapping panned = m.pannedBy(-40, 0, x_count);
            view.setVisibleRange(panned.x0, panned.x1);
            start = Clock::now();
            view.renderImage(size);
            const double ms = msSince(start);
            worst = std::max(worst, ms);
            sum += ms;
        }
        std::printf(
            "paint 1920x1080 while panning (a tenth of the run, 40 px a frame): %.1f ms "
            "mean, %.1f ms worst of %d frames\n",
            sum / frames, worst, frames);
    }

    // The other modes over the whole run, best of five each.
    auto best_paint = [&](const char* what) {
        view.resetView();
        double best = 1e300;
        for (int round = 0; round < 5; ++round) {
            start = Clock::now();
            view.renderImage(size);
            best = std::min(best, msSince(start));
        }
        std::printf("paint 1920x1080, whole run, %s: %.1f ms\n", what, best);
    };
    view.setColorMode(TimelineView::ColorMode::Allocation);
    best_paint("coloured by allocation");
    view.setColorMode(TimelineView::ColorMode::Category);
    view.setTimeAxis(true);
    best_paint("wall-time axis");
    view.setTimeAxis(false);
    view.setPlotMode(TimelineView::PlotMode::Categories);
    best_paint("stacked by category");
    view.setPlotMode(TimelineView::PlotMode::Allocations);
    {
        start = Clock::now();
        view.setColorMode(TimelineView::ColorMode::Module);
        std::printf("colour by module (per-allocation colour index): %.1f ms\n", msSince(start));
        view.setColorMode(TimelineView::ColorMode::Category);
    }

    // On screen: the chart is drawn once into an image, then hovering repaints only the
    // outline over it.
    {
        view.resize(size);
        view.show();
        for (int i = 0; i < 200 && !(view.windowHandle() && view.windowHandle()->isExposed());
             ++i) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        }
        view.resetView();
        view.repaint();  // draws the chart
        double first = view.lastPaintStats().milliseconds;
        double worst = 0;
        const int frames = 30;
        for (int frame = 0; frame < frames; ++frame) {
            const double x = double(layout->xCount()) * (frame + 0.5) / frames;
            const TimelineMapping m = view.mapping();
            const QPointF pos(m.xToPixel(x),
                              m.bytesToPixel(double(layout->drawnTopAt(int64_t(x))) * 0.5));
            QMouseEvent move(QEvent::MouseMove, pos, view.mapToGlobal(pos), Qt::NoButton,
                             Qt::NoButton, Qt::NoModifier);
            QCoreApplication::sendEvent(&view, &move);
            start = Clock::now();
            view.repaint();
            worst = std::max(worst, msSince(start));
            if (!view.lastPaintReusedChart()) {
                std::printf("hover repaint redrew the chart\n");
            }
        }
        std::printf(
            "on screen 1920x1080: chart %.1f ms once, then hover repaints %.2f ms worst "
            "of %d\n",
            first, worst, frames);
        view.hide();
    }

    // Hover: probes just under the top of the stack, where the scan over drawn allocations
    // runs longest.
    for (const int64_t n : {TimelineLayout::kDefaultDetail, allocations}) {
        layout->setDetail(n);
        start = Clock::now();
        int hits = 0;
        for (int i = 0; i < 1000; ++i) {
            const double x = double(layout->xCount()) * (i + 0.5) / 1000;
            const auto top = double(layout->drawnTopAt(int64_t(x)));
            hits += layout->hitTest(x, top * 0.995) >= 0;
        }
        std::printf("hit test near the top, detail %lld: %.1f us each (%d of 1000 hit)\n",
                    static_cast<long long>(n), msSince(start), hits);
    }
    return 0;
}
