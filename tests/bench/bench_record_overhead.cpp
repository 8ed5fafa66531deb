// Recording overhead: average step time with the recorder attached over the same run without
// it, measured side by side in one process (rounds alternate plain / recorded).

#include "capture/recording_session.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

using namespace memscope;

namespace {

// Fastest timed step: less sensitive than the mean to other work on a shared machine.
double fastestStep(const RunSummary& s) {
    double best = 1e30;
    for (const auto& step : s.steps) {
        if (!step.warmup)
            best = std::min(best, step.total_s);
    }
    return best;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    std::string preset = "workshop-default";
    int threads = 2, steps = 20, rounds = 5, warmup = 3;
    bool shapes = false;
    int poll_ms = 50;
    for (int i = 1; i < argc; ++i) {
        const std::string key = argv[i];
        const char* value = i + 1 < argc ? argv[i + 1] : "";
        if (key == "--record-shapes") {
            shapes = true;
            continue;
        }
        ++i;
        if (key == "--preset")
            preset = value;
        else if (key == "--threads")
            threads = std::atoi(value);
        else if (key == "--steps")
            steps = std::atoi(value);
        else if (key == "--rounds")
            rounds = std::atoi(value);
        else if (key == "--warmup")
            warmup = std::atoi(value);
        else if (key == "--poll-ms")
            poll_ms = std::atoi(value);
        else {
            std::fprintf(stderr, "bench_record_overhead: unknown option %s\n", key.c_str());
            return 2;
        }
    }
    auto options = TrainOptions::fromPreset(preset);
    options.threads = threads;
    options.num_steps = steps;
    options.warmup_steps = warmup;
    std::printf("bench_record_overhead: %s, %d threads, %d timed steps (+%d warmup), %d rounds%s\n",
                preset.c_str(), threads, steps, warmup, rounds, shapes ? ", record shapes" : "");
    std::vector<double> plain, recorded, ratios, plain_min, recorded_min;
    for (int r = 0; r < rounds; ++r) {
        Trainer trainer(options);
        trainer.setMeasurePeakFlops(false);
        // Both runs train on a thread of their own, as the GUI does: a second OpenMP team next
        // to the main thread's would otherwise bias whichever run comes second.
        RunSummary plain_summary;
        std::thread plain_thread([&] { plain_summary = trainer.run(); });
        plain_thread.join();
        const double p = plain_summary.avgStep();
        Recorder::Options ro;
        ro.record_shapes = shapes;
        RecordingSession session(options, ro);
        session.setMeasurePeakFlops(false);
        session.start();
        // The consumer polls like the GUI unless --poll-ms 0 (drain once at the end).
        while (poll_ms > 0 && session.running()) {
            session.poll();
            std::this_thread::sleep_for(std::chrono::milliseconds(poll_ms));
        }
        const auto& recorded_summary = session.finish();
        const double q = recorded_summary.avgStep();
        plain_min.push_back(fastestStep(plain_summary));
        recorded_min.push_back(fastestStep(recorded_summary));
        plain.push_back(p);
        recorded.push_back(q);
        ratios.push_back(q / p);
        std::printf(
            "round %d: plain %.4f s/step, recorded %.4f s/step, ratio %.3f; fastest step "
            "%.4f vs %.4f, ratio %.3f (%zu events)\n",
            r + 1, p, q, q / p, plain_min.back(), recorded_min.back(),
            recorded_min.back() / plain_min.back(), session.trace().events.count());
    }
    std::printf(
        "median: plain %.4f s/step, recorded %.4f s/step, ratio of medians %.3f, "
        "median ratio %.3f\n",
        median(plain), median(recorded), median(recorded) / median(plain), median(ratios));
    return 0;
}
