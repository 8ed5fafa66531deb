#include "predict/plan_report.h"

#include "model/train_option_table.h"
#include "run/run_summary.h"

#include <nlohmann/json.hpp>

#include <cmath>

#include <cstdio>
#include <sstream>

namespace memscope {

namespace {

std::string duration(double seconds) {
    char text[48];
    if (seconds < 1) {
        std::snprintf(text, sizeof text, "%.1f ms", seconds * 1e3);
    } else if (seconds < 3600) {
        std::snprintf(text, sizeof text, "%.2f s", seconds);
    } else if (seconds < 86400 * 2) {
        std::snprintf(text, sizeof text, "%.1f hours", seconds / 3600);
    } else {
        std::snprintf(text, sizeof text, "%.1f days (%.0f hours)", seconds / 86400, seconds / 3600);
    }
    return text;
}

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) {
        return text;
    }
    std::string quoted = "\"";
    for (char c : text) {
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    return quoted + "\"";
}

}  // namespace

std::string PlanReport::text(const PlanResult& r) {
    std::ostringstream out;
    char line[256];
    const auto& o = r.request.workload;
    out << (r.fits ? "WILL FIT" : "EXCEEDS CAPACITY") << "\n";
    out << "Memory required: " << formatPredictedBytes(double(r.per_gpu_total)) << " per GPU\n";
    std::snprintf(line, sizeof line, "%s capacity: %s (%s usable)\n", r.device.name.c_str(),
                  formatPredictedBytes(double(r.capacity)).c_str(),
                  formatPredictedBytes(double(r.usable)).c_str());
    out << line;
    out << (r.fits ? "Headroom: " : "Overflow: ")
        << formatPredictedBytes(double(std::llabs(r.headroom))) << "\n\n";

    out << "CONFIGURATION\n";
    std::snprintf(line, sizeof line,
                  "Model: hidden %lld, %lld layers, %lld heads (%lld KV), FFN %lld, vocabulary "
                  "%lld, %s parameters\n",
                  (long long)o.model.hidden_dim, (long long)o.model.n_layers,
                  (long long)o.model.n_heads, (long long)o.model.n_kv_heads,
                  (long long)o.model.intermediate_dim, (long long)o.model.vocab_size,
                  std::to_string(r.memory.parameters).c_str());
    out << line;
    std::snprintf(line, sizeof line,
                  "Run: %s, batch %lld (micro-batch %lld per GPU), sequence %lld, %s, %s "
                  "attention, checkpointing %s, %s\n",
                  toString(o.profile).c_str(), (long long)o.batch_size, (long long)r.micro_batch,
                  (long long)o.seq_len, toString(o.dtype).c_str(), toString(o.attention).c_str(),
                  toString(o.checkpointing).c_str(), toString(o.optimizer).c_str());
    out << line;
    out << "Cluster: " << r.parallel.gpus << "x " << r.device.name << ", strategy "
        << r.parallel.describe() << "\n\n";

    out << "MEMORY BREAKDOWN (PER GPU, AT THE PEAK)\n";
    for (int i = 0; i < kMemoryComponentCount; ++i) {
        const auto bytes = r.per_gpu[i];
        if (bytes == 0) {
            continue;
        }
        std::snprintf(line, sizeof line, "  %-24s: %12s (%5.1f%%)\n",
                      displayName(static_cast<MemoryComponent>(i)).c_str(),
                      formatPredictedBytes(double(bytes)).c_str(),
                      100.0 * double(bytes) / double(r.per_gpu_total));
        out << line;
    }
    std::snprintf(line, sizeof line, "  %-24s: %12s\n", "Total per GPU",
                  formatPredictedBytes(double(r.per_gpu_total)).c_str());
    out << line;
    const auto& first = r.memory.first_step;
    const auto& steady = r.memory.steady_step;
    std::snprintf(line, sizeof line,
                  "  One GPU's micro-batch, allocated: step 1 peak %s (%s), steady peak %s (%s); "
                  "%lld bytes\n",
                  formatPredictedBytes(double(first.peak)).c_str(),
                  toString(first.peak_phase).c_str(),
                  formatPredictedBytes(double(steady.peak)).c_str(),
                  toString(steady.peak_phase).c_str(), (long long)r.memory.peak());
    out << line;
    std::snprintf(line, sizeof line,
                  "  Forward only, allocated: inference under torch.no_grad (%s) %s; forward with "
                  "autograd on, every activation kept, no backward %s\n\n",
                  TrainOptionTable::argument("profile_type", "forward").c_str(),
                  formatPredictedBytes(double(r.inference_peak)).c_str(),
                  formatPredictedBytes(double(r.forward_with_autograd_peak)).c_str());
    out << line;

    const auto& t = r.time;
    out << "TRAINING TIME ESTIMATE\n";
    out << "  Step time: " << duration(t.step_s) << " (compute " << duration(t.compute_s)
        << ", communication " << duration(t.communication_s) << ", pipeline bubble "
        << duration(t.bubble_s) << ")\n";
    std::snprintf(line, sizeof line,
                  "  Throughput: %.0f tokens/s; scaling efficiency %.1f%%; MFU %.0f%% (%s)\n",
                  t.tokens_per_s, 100 * t.scaling_efficiency, 100 * t.mfu, t.mfu_source.c_str());
    out << line;
    std::snprintf(line, sizeof line, "  %.3g tokens in %.0f steps: ", t.train_tokens, t.steps);
    out << line << duration(t.total_s) << "\n";
    if (r.max_batch >= 0) {
        out << "  Maximum batch size that fits: " << r.max_batch << "\n";
    }
    out << "\n";

    if (!r.strategies.empty()) {
        out << "STRATEGY COMPARISON (" << r.parallel.gpus << " GPUs)\n";
        for (const auto& s : r.strategies) {
            std::snprintf(line, sizeof line, "  %-52s %12s %-4s step %10s  %6.1f%% efficient\n",
                          s.parallel.describe().c_str(),
                          formatPredictedBytes(double(s.per_gpu_bytes)).c_str(),
                          s.fits ? "fits" : "OOM", duration(s.step_s).c_str(),
                          100 * s.scaling_efficiency);
            out << line;
        }
        out << "\n";
    }
    if (!r.bottlenecks.empty()) {
        out << "BOTTLENECKS\n";
        for (const auto& b : r.bottlenecks) {
            out << "  [" << b.kind << "] " << b.message << "\n";
        }
        out << "\n";
    }
    if (!r.recommendations.empty()) {
        out << "RECOMMENDATIONS (savings recomputed by the model for this configuration)\n";
        int rank = 1;
        for (const auto& rec : r.recommendations) {
            std::snprintf(line, sizeof line, "  %d. [%s] %s (%s): %s -> %s per GPU, saves %s%s\n",
                          rank++, rec.priority.c_str(), rec.title.c_str(), rec.change.c_str(),
                          formatPredictedBytes(double(rec.per_gpu_before)).c_str(),
                          formatPredictedBytes(double(rec.per_gpu_after)).c_str(),
                          formatPredictedBytes(double(rec.saving())).c_str(),
                          rec.makes_fit ? ", fits" : "");
            out << line;
        }
        out << "\n";
    }
    out << "ASSUMPTIONS\n";
    for (const auto& a : r.assumptions) {
        out << "  - " << a << "\n";
    }
    return out.str();
}

std::string PlanReport::csv(const PlanResult& r) {
    std::ostringstream out;
    out << "section,name,value,detail\n";
    auto row = [&](const std::string& section, const std::string& name, const std::string& value,
                   const std::string& detail = {}) {
        out << csvField(section) << ',' << csvField(name) << ',' << csvField(value) << ','
            << csvField(detail) << '\n';
    };
    row("verdict", "fits", r.fits ? "true" : "false", r.device.name);
    row("verdict", "per_gpu_bytes", std::to_string(r.per_gpu_total));
    row("verdict", "usable_bytes", std::to_string(r.usable));
    row("verdict", "headroom_bytes", std::to_string(r.headroom));
    for (int i = 0; i < kMemoryComponentCount; ++i) {
        row("memory", toString(static_cast<MemoryComponent>(i)), std::to_string(r.per_gpu[i]));
    }
    row("memory", "step1_peak_bytes", std::to_string(r.memory.first_step.peak),
        toString(r.memory.first_step.peak_phase));
    row("memory", "steady_peak_bytes", std::to_string(r.memory.steady_step.peak),
        toString(r.memory.steady_step.peak_phase));
    row("time", "step_s", std::to_string(r.time.step_s));
    row("time", "compute_s", std::to_string(r.time.compute_s));
    row("time", "communication_s", std::to_string(r.time.communication_s));
    row("time", "pipeline_bubble_s", std::to_string(r.time.bubble_s));
    row("time", "tokens_per_s", std::to_string(r.time.tokens_per_s));
    row("time", "scaling_efficiency", std::to_string(r.time.scaling_efficiency));
    row("time", "total_s", std::to_string(r.time.total_s));
    row("time", "mfu", std::to_string(r.time.mfu), r.time.mfu_source);
    if (r.max_batch >= 0) {
        row("max_batch", "batch_size", std::to_string(r.max_batch));
    }
    for (const auto& s : r.strategies) {
        row("strategy", s.parallel.describe(), std::to_string(s.per_gpu_bytes),
            std::string(s.fits ? "fits" : "oom") + "; step_s " + std::to_string(s.step_s));
    }
    for (const auto& b : r.bottlenecks) {
        row("bottleneck", b.kind, std::to_string(b.share), b.message);
    }
    for (const auto& rec : r.recommendations) {
        row("recommendation", rec.title, std::to_string(rec.saving()),
            rec.priority + "; " + rec.change);
    }
    for (const auto& a : r.assumptions) {
        row("assumption", "", "", a);
    }
    return out.str();
}

std::string PlanReport::json(const PlanResult& result) {
    return result.toJson().dump(2) + "\n";
}

std::string PlanReport::render(const PlanResult& result, Format format) {
    switch (format) {
        case Format::Json:
            return json(result);
        case Format::Csv:
            return csv(result);
        case Format::Text:
            break;
    }
    return text(result);
}

PlanReport::Format PlanReport::formatForPath(const std::string& path) {
    auto ends = [&](const std::string& suffix) {
        return path.size() >= suffix.size() &&
               path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (ends(".json")) {
        return Format::Json;
    }
    if (ends(".csv")) {
        return Format::Csv;
    }
    return Format::Text;
}

}  // namespace memscope
