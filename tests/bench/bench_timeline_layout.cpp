// The active memory timeline at scale: a synthetic training-shaped trace of 1,000,000
// allocations. Prints the full layout's seconds, the milliseconds of changing the detail, and of
// one full paint of a 1920x1080 image (whole run, and zoomed in), at several details.
//   bench_timeline_layout [--allocations N] [--png PREFIX]   (PREFIX-N.png per painted detail)

#include "timeline_view.h"
#include "trace/timeline_layout.h"
#include "trace/trace.h"

#include <QApplication>
#include <QImage>

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

}  // namespace

int main(int argc, char** argv) {
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    int64_t allocations = 1'000'000;
    std::string png;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--allocations") == 0) {
            allocations = std::stoll(argv[++i]);
        } else if (std::strcmp(argv[i], "--png") == 0) {
            png = argv[++i];
        }
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
