// Prints Memscope's training step time at a preset (default workshop-default, 2 threads).
// Compare with PyTorch on the same machine: scripts/bench_vs_pytorch.sh.

#include "train/trainer.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace memscope;

int main(int argc, char** argv) {
    std::string preset = "workshop-default";
    int threads = 2, steps = 30, rounds = 3, warmup = 3;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string key = argv[i];
        const char* value = argv[i + 1];
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
        else {
            std::fprintf(stderr, "bench_train: unknown option %s\n", key.c_str());
            return 2;
        }
    }
    auto options = TrainOptions::fromPreset(preset);
    options.threads = threads;
    options.num_steps = steps;
    options.warmup_steps = warmup;
    std::vector<double> step_times;
    std::printf("bench_train: %s, %d threads, %d timed steps (+%d warmup) per round\n",
                preset.c_str(), threads, steps, warmup);
    for (int r = 0; r < rounds; ++r) {
        Trainer trainer(options);
        trainer.setMeasurePeakFlops(r == 0);
        const auto s = trainer.run();
        if (!s.error.empty()) {
            std::fprintf(stderr, "bench_train: %s\n", s.error.c_str());
            return 1;
        }
        step_times.push_back(s.avgStep());
        std::printf(
            "round %d: avg step %.4f s (fwd %.4f, bwd %.4f, opt %.4f), %.1f samples/s, "
            "peak %lld bytes\n",
            r + 1, s.avgStep(), s.avgForward(), s.avgBackward(), s.avgOptimizer(),
            s.samplesPerSecond(), static_cast<long long>(s.peak_allocated_bytes));
    }
    std::sort(step_times.begin(), step_times.end());
    std::printf("median avg step: %.4f s\n", step_times[step_times.size() / 2]);
    return 0;
}
