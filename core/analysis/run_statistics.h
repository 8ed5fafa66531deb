#pragma once

#include "trace/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace memscope {

// The summary figures of a run, typed for views: TraceSummary::compute's memory figures from
// the events, overlaid with what the run stored (the trainer's peak, step timings, throughput,
// MFU). Imported snapshots have no steps: their timing figures stay 0 and has_timing is false.
struct RunStatistics {
    int64_t peak_bytes = 0;           // the trainer's (all allocations), else the recorded one
    int64_t recorded_peak_bytes = 0;  // highest live bytes in the recorded events
    int64_t step1_peak_bytes = 0;
    int64_t steady_peak_bytes = 0;  // steps after the first; 0 when there is only one
    int64_t avg_bytes = 0;          // time-weighted over the steps
    double peak_to_avg = 0;
    int64_t forward_peak_bytes = 0;
    int64_t backward_peak_bytes = 0;
    int64_t optimizer_peak_bytes = 0;
    std::vector<int64_t> bytes_by_category_at_peak;  // by Category, kCategoryCount entries
    int64_t peak_step = 0;
    std::string peak_phase;

    bool has_timing = false;
    int64_t steps = 0;  // timed steps
    double avg_step_s = 0;
    double samples_per_s = 0;
    double tokens_per_s = 0;
    double model_tflops_per_s = 0;
    double mfu = 0;  // 0..1
    double peak_tflops_per_s = 0;
    std::string peak_tflops_method;
    int64_t communication_bytes = 0;  // payload handed to collectives (multi-rank runs)

    // Everything: the figures from the events (one pass over them) and what the run stored.
    static RunStatistics fromTrace(const Trace& trace);
    // What the run stored only (its summary and steps), without reading the events: figures the
    // run did not store stay 0 (step peaks and the step time also come from the steps).
    static RunStatistics fromStored(const Trace& trace);
};

}  // namespace memscope
