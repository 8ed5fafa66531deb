#include "analysis/run_statistics.h"

#include "explain/trace_summary.h"
#include "run/run_summary.h"

#include <algorithm>

namespace memscope {

namespace {

// Reads the figures of a summary (events' and stored, merged).
RunStatistics fromSummary(const nlohmann::json& s) {
    auto bytes = [&s](const char* key, int64_t fallback) {
        const auto it = s.find(key);
        return it != s.end() && it->is_number() && it->get<int64_t>() > 0 ? it->get<int64_t>()
                                                                          : fallback;
    };
    auto number = [&s](const char* key) {
        const auto it = s.find(key);
        return it != s.end() && it->is_number() ? it->get<double>() : 0.0;
    };
    RunStatistics r;
    const int64_t recorded = bytes("peak_allocated_bytes_recorded", 0);
    r.peak_bytes = bytes("peak_allocated_bytes", recorded);
    r.step1_peak_bytes =
        bytes("step1_peak_allocated_bytes", bytes("step1_peak_allocated_bytes_recorded", 0));
    r.steady_peak_bytes =
        bytes("steady_peak_allocated_bytes", bytes("steady_peak_allocated_bytes_recorded", 0));
    r.avg_bytes = bytes("avg_allocated_bytes", 0);
    r.peak_to_avg = r.avg_bytes > 0 ? double(r.peak_bytes) / double(r.avg_bytes) : 0.0;
    const auto phases = s.value("peak_by_phase", nlohmann::json::object());
    r.forward_peak_bytes = phases.value("forward", int64_t(0));
    r.backward_peak_bytes = phases.value("backward", int64_t(0));
    r.optimizer_peak_bytes = phases.value("optimizer", int64_t(0));
    r.bytes_by_category_at_peak.assign(kCategoryCount, 0);
    const auto categories = s.value("bytes_by_category_at_peak", nlohmann::json::object());
    for (int c = 0; c < kCategoryCount; ++c) {
        r.bytes_by_category_at_peak[size_t(c)] =
            categories.value(toString(static_cast<Category>(c)), int64_t(0));
    }
    r.peak_step = s.value("peak_step", int64_t(0));
    r.peak_phase = s.value("peak_phase", std::string());

    r.steps = s.contains("steps") && s["steps"].is_number() ? s["steps"].get<int64_t>() : 0;
    r.has_timing = r.steps > 0 && number("avg_step_s") > 0;
    r.avg_step_s = number("avg_step_s");
    r.samples_per_s = number("samples_per_s");
    r.tokens_per_s = number("tokens_per_s");
    r.model_tflops_per_s = number("model_tflops_per_s");
    r.mfu = number("mfu");
    r.peak_tflops_per_s = number("peak_tflops_per_s");
    r.peak_tflops_method = s.value("peak_tflops_method", std::string());
    r.recorded_peak_bytes = recorded;
    r.communication_bytes = bytes("communication_bytes", 0);
    return r;
}

}  // namespace

RunStatistics RunStatistics::fromTrace(const Trace& trace) {
    nlohmann::json s = TraceSummary::compute(trace, 0);
    if (trace.summary.is_object()) {
        for (const auto& [k, v] : trace.summary.items()) {
            s[k] = v;
        }
    }
    return fromSummary(s);
}

RunStatistics RunStatistics::fromStored(const Trace& trace) {
    RunStatistics r =
        fromSummary(trace.summary.is_object() ? trace.summary : nlohmann::json::object());
    RunSummary steps;
    steps.steps = trace.steps;
    r.step1_peak_bytes = std::max(r.step1_peak_bytes, steps.step1PeakAllocated());
    r.steady_peak_bytes = std::max(r.steady_peak_bytes, steps.steadyPeakAllocated());
    r.peak_bytes = std::max({r.peak_bytes, r.step1_peak_bytes, r.steady_peak_bytes});
    if (r.avg_step_s <= 0) {
        r.avg_step_s = steps.avgStep();
    }
    return r;
}

}  // namespace memscope
