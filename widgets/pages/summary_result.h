#pragma once

#include "analysis/operator_table.h"
#include "analysis/roofline.h"
#include "analysis/run_statistics.h"
#include "explain/oom_explanation.h"
#include "explain/reserved_memory.h"
#include "explain/trace_summary.h"
#include "predict/fit_advice.h"
#include "trace/parameter_inference.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace memscope {

// What the summary page computes for a run on a worker (SummaryPage::compute), and what each of
// its boxes shows: the memory and throughput figures, the chart at the peak (PeakCategoryChart),
// the out-of-memory box (OomPanel) and the roofline (RooflinePanel).
struct SummaryResult {
    RunStatistics statistics;
    Roofline roofline;
    std::shared_ptr<const OperatorTable> operators;  // grouped by operator name
    double peak_flops_per_s = 0;
    QString peak_flops_method;
    double peak_bytes_per_s = 0;
    QString peak_bandwidth_method;
    ReservedMemory reserved;  // the caching allocator's figures; none on a CPU
    // The run's own description (the status line), and whether its categories and phases
    // were inferred (an import): the page keeps these, not the run.
    QString source;
    qint64 events = 0;
    qint64 allocations = 0;
    bool categories_inferred = false;
    // Per category at the peak, the rule that put most of its bytes there
    // (TraceSummary::leadingRulesAt), and the bytes allocated before recording started.
    std::vector<TraceSummary::RuleShare> rules_at_peak;
    int64_t before_recording_bytes = 0;
    // Of those bytes, an import's parameters and optimizer state inferred from its gradients.
    ParameterInference::Match parameters;
    std::optional<OomExplanation> oom;  // the first out-of-memory event explained
    // After an out-of-memory: the single changes the planner predicts to fit the capacity,
    // for a run whose configuration it knows (advised); a Python program's command line,
    // for the advice of a sweep of it (adviseFromSweep).
    bool advised = false;
    std::vector<FitAdvice::Suggestion> advice;
    std::vector<std::string> program_command;
    QString error;  // why the run could not be summarized; "" when it was
};

}  // namespace memscope
