#include "run/run_summary.h"

#include <nlohmann/json.hpp>
#include "run/text_format.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace memscope {

namespace {

template <typename Field>
double averageOver(const std::vector<StepMetrics>& steps, Field field) {
    double sum = 0;
    int64_t n = 0;
    for (const auto& s : steps) {
        if (!s.warmup) {
            sum += field(s);
            ++n;
        }
    }
    return n == 0 ? 0.0 : sum / double(n);
}

}  // namespace

std::string formatBytes(int64_t bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = std::fabs(double(bytes));
    int u = 0;
    while (v >= 1024.0 && u < 4) {
        v /= 1024.0;
        ++u;
    }
    return std::string(bytes < 0 ? "-" : "") + formatFixed(v, u == 0 ? 0 : 1) + " " + units[u];
}

std::string formatPredictedBytes(double bytes) {
    return formatBytes(int64_t(std::llround(bytes)));
}

int64_t RunSummary::timedSteps() const {
    int64_t n = 0;
    for (const auto& s : steps) {
        n += s.warmup ? 0 : 1;
    }
    return n;
}

double RunSummary::avgStep() const {
    return averageOver(steps, [](const StepMetrics& s) { return s.total_s; });
}
double RunSummary::avgForward() const {
    return averageOver(steps, [](const StepMetrics& s) { return s.forward_s; });
}
double RunSummary::avgBackward() const {
    return averageOver(steps, [](const StepMetrics& s) { return s.backward_s; });
}
double RunSummary::avgOptimizer() const {
    return averageOver(steps, [](const StepMetrics& s) { return s.optimizer_s; });
}

double RunSummary::samplesPerSecond() const {
    const double step = avgStep();
    return step > 0 ? double(options.batch_size) / step : 0.0;
}

double RunSummary::tokensPerSecond() const {
    return samplesPerSecond() * double(options.seq_len);
}

double RunSummary::modelFlopsPerSecond() const {
    const double step = avgStep();
    return step > 0 ? flops_per_step.model() / step : 0.0;
}

double RunSummary::mfu() const {
    return peak_flops_per_s > 0 ? modelFlopsPerSecond() / peak_flops_per_s : 0.0;
}

int64_t RunSummary::step1PeakAllocated() const {
    return steps.empty() ? 0 : steps.front().peak_allocated_bytes;
}

int64_t RunSummary::steadyPeakAllocated() const {
    int64_t peak = 0;
    for (size_t i = 1; i < steps.size(); ++i) {
        peak = std::max(peak, steps[i].peak_allocated_bytes);
    }
    return peak;
}

nlohmann::json RunSummary::toJson() const {
    nlohmann::json step_list = nlohmann::json::array();
    for (const auto& s : steps) {
        step_list.push_back(s.toJson());
    }
    nlohmann::json json = {
        {"parameters", parameters},
        {"steps", timedSteps()},
        {"steps_run", static_cast<int64_t>(steps.size())},
        {"threads", threads},
        {"fewest_threads", fewest_threads},
        {"device", device},
        {"device_name", device_name},
        {"torch_version", torch_version},
        {"avg_step_s", avgStep()},
        {"avg_forward_s", avgForward()},
        {"avg_backward_s", avgBackward()},
        {"avg_optimizer_s", avgOptimizer()},
        {"samples_per_s", samplesPerSecond()},
        {"tokens_per_s", tokensPerSecond()},
        {"model_flops_per_step", flops_per_step.model()},
        {"executed_flops_per_step", flops_per_step.executed()},
        {"model_tflops_per_s", modelFlopsPerSecond() / 1e12},
        {"peak_tflops_per_s", peak_flops_per_s / 1e12},
        {"peak_tflops_method", peak_flops_method},
        {"mfu", mfu()},
        {"peak_allocated_bytes", peak_allocated_bytes},
        {"step1_peak_allocated_bytes", step1PeakAllocated()},
        {"steady_peak_allocated_bytes", steadyPeakAllocated()},
        {"init_allocated_bytes", init_allocated_bytes},
        {"wall_s", wall_s},
        {"cancelled", cancelled},
        {"out_of_memory", out_of_memory},
        {"error", error.empty() ? nlohmann::json() : nlohmann::json(error)},
        {"config", options.toJson()},
        {"step_metrics", step_list},
    };
    // The caching allocator's own peaks (GPU runs), for comparing with torch.cuda's figures:
    // recorded + allocated_at_start_bytes is what max_memory_allocated says.
    int64_t peak = -1, steady = -1, reserved = -1, steady_reserved = -1;
    for (size_t i = 0; i < steps.size(); ++i) {
        peak = std::max(peak, steps[i].allocator_peak_allocated_bytes);
        reserved = std::max(reserved, steps[i].allocator_peak_reserved_bytes);
        if (i > 0) {
            steady = std::max(steady, steps[i].allocator_peak_allocated_bytes);
            steady_reserved = std::max(steady_reserved, steps[i].allocator_peak_reserved_bytes);
        }
    }
    if (peak >= 0 || allocator_allocated_at_start_bytes >= 0) {
        json["allocator"] = {
            {"peak_allocated_bytes", peak},
            {"steady_peak_allocated_bytes", steady},
            {"peak_reserved_bytes", reserved},
            {"steady_peak_reserved_bytes", steady_reserved},
            {"allocated_at_start_bytes", allocator_allocated_at_start_bytes},
        };
    }
    if (world_size > 1) {
        json["rank"] = rank;
        json["world_size"] = world_size;
        json["parallel"] = parallel;
        json["global_batch_size"] = options.batch_size * world_size;
        json["communication_bytes"] = communication_bytes;
        json["communication_sent_bytes"] = communication_sent_bytes;
    }
    return json;
}

std::string RunSummary::toText() const {
    std::ostringstream out;
    const std::string rule(58, '=');
    out << rule << "\nPerformance Summary:\n" << rule << "\n";
    if (cancelled) {
        out << "Run cancelled after " << steps.size() << " of "
            << options.num_steps + options.warmup_steps << " steps (partial summary)\n";
    }
    if (!error.empty()) {
        out << "Run stopped by an error after " << steps.size() << " steps: " << error << "\n";
    }
    if (world_size > 1) {
        out << "Parallel: " << parallel << " over " << world_size << " ranks (this is rank " << rank
            << "), global batch " << options.batch_size * world_size << " (" << options.batch_size
            << " per rank)\n";
    }
    out << "Average time per step: " << formatFixed(avgStep(), 4) << " seconds\n";
    out << "Training speed: " << formatFixed(samplesPerSecond(), 1) << " samples/sec ("
        << formatFixed(tokensPerSecond(), 0) << " tokens/sec)\n";
    out << "Peak memory usage: " << formatBytes(peak_allocated_bytes) << " allocated ("
        << peak_allocated_bytes << " bytes)\n";
    out << "  step 1 peak: " << formatBytes(step1PeakAllocated())
        << ", steady-state peak: " << formatBytes(steadyPeakAllocated()) << "\n";
    out << "Avg time per forward: " << formatFixed(avgForward(), 4) << " seconds\n";
    if (options.training()) {
        out << "Avg time per backward: " << formatFixed(avgBackward(), 4) << " seconds\n";
        out << "Avg time per optimizer: " << formatFixed(avgOptimizer(), 4) << " seconds\n";
    }
    if (fewest_threads > 0 && fewest_threads < threads) {
        out << "Threads: " << threads << ", down to " << fewest_threads
            << " while other processes kept cores busy\n";
    }
    out << "Model FLOPs per step: " << formatFixed(flops_per_step.model() / 1e9, 2) << " GFLOP\n";
    out << "Achieved: " << formatFixed(modelFlopsPerSecond() / 1e12, 4) << " TFLOP/s, MFU "
        << formatFixed(100.0 * mfu(), 1) << "% of " << formatFixed(peak_flops_per_s / 1e12, 3)
        << " TFLOP/s (" << peak_flops_method << ")\n";
    out << rule << "\n";
    return out.str();
}

}  // namespace memscope
