// The memory model against Memscope's own measurements: trains and records a grid of small CPU
// configurations (batch 1-16, sequence 32-512, hidden 64-512, 1-8 layers, fp32 and bf16, eager
// and memory-efficient attention, checkpointing on and off, training and forward-only), predicts
// each with MemoryModel, and prints predicted, measured and the error of the run's peak, of step
// 1 and of the steady state. Exits 1 when any peak error exceeds the limit (3% by default).
//
//   bench_predict_accuracy [--limit PERCENT] [--threads N] [--only INDEX]

#include "capture/recording_session.h"
#include "explain/trace_summary.h"
#include "predict/memory_model.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace memscope;

namespace {

struct GridPoint {
    int64_t hidden, layers, heads, kv_heads, intermediate, batch, seq;
    Dtype dtype;
    AttentionKind attention;
    Checkpointing checkpointing;
    ProfileType profile;
    bool tied = true;
    OptimizerKind optimizer = OptimizerKind::AdamW;
};

std::vector<GridPoint> grid() {
    const auto fp32 = Dtype::Float32, bf16 = Dtype::BFloat16;
    const auto eager = AttentionKind::Eager, efficient = AttentionKind::MemoryEfficient;
    const auto none = Checkpointing::None, block = Checkpointing::PerBlock;
    const auto train = ProfileType::Training, fwd = ProfileType::Forward;
    return {
        {64, 1, 4, 2, 128, 2, 32, fp32, eager, none, train},
        {64, 2, 4, 2, 192, 4, 64, fp32, eager, none, train},
        {128, 2, 4, 2, 256, 8, 128, fp32, eager, none, train},
        {128, 4, 8, 4, 384, 1, 512, fp32, eager, none, train},
        {256, 2, 8, 4, 512, 4, 256, fp32, eager, none, train},
        {512, 1, 8, 4, 1024, 2, 128, fp32, eager, none, train},
        {64, 8, 4, 2, 128, 16, 32, fp32, eager, none, train},
        {64, 1, 4, 4, 128, 1, 32, fp32, eager, none, train},
        {256, 8, 8, 8, 512, 2, 64, fp32, eager, none, train},
        {128, 2, 4, 2, 256, 8, 128, fp32, efficient, none, train},
        {128, 4, 8, 4, 384, 1, 512, fp32, efficient, none, train},
        {256, 2, 8, 4, 512, 16, 64, fp32, efficient, none, train},
        {128, 2, 4, 2, 256, 8, 128, fp32, eager, block, train},
        {256, 4, 8, 4, 512, 2, 256, fp32, eager, block, train},
        {128, 4, 8, 4, 384, 1, 512, fp32, efficient, block, train},
        {128, 2, 4, 2, 256, 8, 128, bf16, eager, none, train},
        {256, 2, 8, 4, 512, 4, 256, bf16, eager, none, train},
        {128, 2, 4, 2, 256, 8, 128, bf16, efficient, none, train},
        {128, 2, 4, 2, 256, 8, 128, bf16, eager, block, train},
        {512, 2, 8, 4, 1024, 2, 128, bf16, efficient, block, train},
        {128, 2, 4, 2, 256, 8, 128, fp32, eager, none, fwd},
        {256, 4, 8, 4, 512, 4, 256, fp32, eager, none, fwd},
        {128, 4, 8, 4, 384, 1, 512, fp32, efficient, none, fwd},
        {128, 2, 4, 2, 256, 8, 128, bf16, eager, none, fwd},
        {256, 2, 8, 4, 512, 16, 64, bf16, efficient, none, fwd},
        {128, 2, 4, 2, 256, 8, 128, fp32, eager, block, fwd},
        {128, 2, 4, 2, 256, 4, 64, fp32, eager, none, train, false},
        {128, 2, 4, 2, 256, 4, 64, fp32, eager, none, train, true, OptimizerKind::Sgd},
    };
}

TrainOptions optionsFor(const GridPoint& g, int threads) {
    TrainOptions o;
    o.preset = "custom";
    o.model.vocab_size = 1000;
    o.model.hidden_dim = g.hidden;
    o.model.n_layers = g.layers;
    o.model.n_heads = g.heads;
    o.model.n_kv_heads = g.kv_heads;
    o.model.intermediate_dim = g.intermediate;
    o.model.tie_embeddings = g.tied;
    o.batch_size = g.batch;
    o.seq_len = g.seq;
    o.num_steps = 3;  // step 1 and two steady steps
    o.dtype = g.dtype;
    o.attention = g.attention;
    o.checkpointing = g.checkpointing;
    o.profile = g.profile;
    o.optimizer = g.optimizer;
    o.threads = threads;
    return o;
}

std::string describe(const TrainOptions& o) {
    char text[160];
    std::snprintf(
        text, sizeof text, "h%-3lld L%lld H%lld/%lld b%-2lld s%-3lld %-4s %-9s %-5s %-8s%s%s",
        (long long)o.model.hidden_dim, (long long)o.model.n_layers, (long long)o.model.n_heads,
        (long long)o.model.n_kv_heads, (long long)o.batch_size, (long long)o.seq_len,
        toString(o.dtype).c_str(), o.attention == AttentionKind::Eager ? "eager" : "mem-eff",
        o.checkpointing == Checkpointing::PerBlock ? "ckpt" : "-", toString(o.profile).c_str(),
        o.model.tie_embeddings ? "" : " untied", o.optimizer == OptimizerKind::Sgd ? " sgd" : "");
    return text;
}

double errorPercent(int64_t predicted, int64_t measured) {
    return measured == 0 ? 0.0 : 100.0 * double(predicted - measured) / double(measured);
}

}  // namespace

int main(int argc, char** argv) {
    double limit = 3.0;
    int threads = 2;
    int only = -1;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--limit" && i + 1 < argc) {
            limit = std::atof(argv[++i]);
        } else if (arg == "--threads" && i + 1 < argc) {
            threads = std::atoi(argv[++i]);
        } else if (arg == "--only" && i + 1 < argc) {
            only = std::atoi(argv[++i]);
        } else {
            std::fprintf(stderr, "usage: %s [--limit PERCENT] [--threads N] [--only INDEX]\n",
                         argv[0]);
            return 2;
        }
    }

    const auto points = grid();
    std::printf("%-3s %-56s %13s %13s %8s %8s %8s\n", "#", "configuration", "predicted", "measured",
                "error", "step 1", "steady");
    double worst = 0;
    std::string worst_config;
    int failures = 0;
    const auto start = std::chrono::steady_clock::now();
    for (size_t i = 0; i < points.size(); ++i) {
        if (only >= 0 && int(i) != only) {
            continue;
        }
        const auto options = optionsFor(points[i], threads);
        const auto prediction = MemoryModel::predict(options);

        RecordingSession session(options);
        session.setMeasurePeakFlops(false);
        session.start();
        while (session.running()) {
            session.poll();
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        const auto& summary = session.finish();
        if (!summary.error.empty()) {
            std::fprintf(stderr, "run %zu failed: %s\n", i, summary.error.c_str());
            return 1;
        }
        const auto measured = summary.peak_allocated_bytes;
        const auto recorded = TraceSummary::compute(session.trace());
        const auto recorded_peak = recorded.value("peak_allocated_bytes_recorded", measured);
        if (recorded_peak != measured) {
            std::fprintf(stderr, "run %zu: recorder peak %lld != allocator peak %lld\n", i,
                         (long long)recorded_peak, (long long)measured);
        }
        const double error = errorPercent(prediction.peak(), measured);
        const double step1 = errorPercent(prediction.first_step.peak, summary.step1PeakAllocated());
        const double steady = options.training() ? errorPercent(prediction.steady_step.peak,
                                                                summary.steadyPeakAllocated())
                                                 : step1;
        std::printf("%-3zu %-56s %13lld %13lld %+7.2f%% %+7.2f%% %+7.2f%%\n", i,
                    describe(options).c_str(), (long long)prediction.peak(), (long long)measured,
                    error, step1, steady);
        std::fflush(stdout);
        const double worst_here = std::max({std::fabs(error), std::fabs(step1), std::fabs(steady)});
        if (worst_here > worst) {
            worst = worst_here;
            worst_config = describe(options);
        }
        if (worst_here > limit) {
            ++failures;
        }
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("\nworst error: %.2f%% (%s); limit %.1f%%; %d over the limit; %.0f s\n", worst,
                worst_config.c_str(), limit, failures, seconds);
    return failures == 0 ? 0 : 1;
}
