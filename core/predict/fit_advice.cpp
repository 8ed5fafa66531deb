#include "predict/fit_advice.h"

#include "model/train_option_table.h"
#include "predict/memory_model.h"
#include "run/run_summary.h"

#include <cstdio>
#include <sstream>

namespace memscope {

namespace {

int64_t peakOf(const TrainOptions& options, int ranks = 1, int zero_stage = 0) {
    MemoryModel::DataParallel parallel;
    parallel.ranks = ranks;
    parallel.zero_stage = zero_stage;
    return MemoryModel::predict(options, MemoryModel::Semantics(), parallel).peak();
}

// The largest value in [1, current) whose options fit, by bisection (peaks grow with it).
template <typename Set>
int64_t largestFitting(int64_t current, int64_t limit, const TrainOptions& options, Set set) {
    int64_t lo = 0, hi = current;  // lo fits (0 = none found), hi does not
    while (hi - lo > 1) {
        const int64_t mid = lo + (hi - lo) / 2;
        TrainOptions o = options;
        set(o, mid);
        if (peakOf(o) <= limit) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

}  // namespace

int64_t FitAdvice::predictedPeak(const TrainOptions& options) {
    return peakOf(options);
}

std::vector<FitAdvice::Suggestion> FitAdvice::suggest(const TrainOptions& options, int64_t limit) {
    std::vector<Suggestion> out;
    auto add = [&](const char* kind, std::string change, std::string summary, TrainOptions o,
                   int ranks = 1, int stage = 0) {
        const int64_t peak = peakOf(o, ranks, stage);
        if (peak > limit) {
            return false;
        }
        Suggestion s;
        s.kind = kind;
        s.change = std::move(change);
        s.summary = std::move(summary);
        s.options = std::move(o);
        s.ranks = ranks;
        s.zero_stage = stage;
        s.predicted_peak = peak;
        s.headroom = limit - peak;
        out.push_back(std::move(s));
        return true;
    };
    if (options.training() && options.checkpointing == Checkpointing::None) {
        TrainOptions o = options;
        o.checkpointing = Checkpointing::PerBlock;
        add("checkpointing", TrainOptionTable::argument("checkpointing", "per-block"),
            "activation checkpointing per block", o);
    }
    if (options.attention != AttentionKind::MemoryEfficient) {
        TrainOptions o = options;
        o.attention = AttentionKind::MemoryEfficient;
        add("attention", TrainOptionTable::argument("attention", "memory-efficient"),
            "memory-efficient (chunked) attention instead of " + toString(options.attention), o);
    }
    if (options.dtype == Dtype::Float32) {
        TrainOptions o = options;
        o.dtype = Dtype::BFloat16;
        add("dtype", TrainOptionTable::argument("dtype", "bf16"), "bf16 instead of fp32", o);
    }
    // The largest smaller value of a size that fits, where one does.
    auto smaller = [&](const char* kind, const char* what, int64_t current,
                       void (*set)(TrainOptions&, int64_t)) {
        if (current <= 1) {
            return;
        }
        const int64_t v = largestFitting(current, limit, options, set);
        if (v > 0) {
            TrainOptions o = options;
            set(o, v);
            add(kind, TrainOptionTable::argument(kind, std::to_string(v)),
                std::string(what) + " " + std::to_string(v) + " instead of " +
                    std::to_string(current),
                o);
        }
    };
    smaller("batch_size", "batch size", options.batch_size,
            [](TrainOptions& o, int64_t v) { o.batch_size = v; });
    smaller("seq_len", "sequence length", options.seq_len,
            [](TrainOptions& o, int64_t v) { o.seq_len = v; });
    if (options.training()) {
        bool found = false;
        for (int ranks : {2, 4, 8}) {
            for (int stage = 1; stage <= 3 && !found; ++stage) {
                found = add(
                    "zero",
                    "--nproc " + std::to_string(ranks) + " --parallel zero" + std::to_string(stage),
                    "ZeRO stage " + std::to_string(stage) + " over " + std::to_string(ranks) +
                        " ranks, each with a micro batch of " + std::to_string(options.batch_size),
                    options, ranks, stage);
            }
            if (found) {
                break;
            }
        }
    }
    return out;
}

const FitAdvice::Suggestion* FitAdvice::topSingleProcess(
    const std::vector<Suggestion>& suggestions) {
    for (const auto& s : suggestions) {
        if (s.single_process()) {
            return &s;
        }
    }
    return nullptr;
}

std::string FitAdvice::toText(const std::vector<Suggestion>& suggestions, int64_t limit) {
    std::ostringstream out;
    if (suggestions.empty()) {
        out << "No single change the planner models fits " << formatBytes(limit)
            << ": combine them (memscope-cli predict shows any configuration).\n";
        return out.str();
    }
    out << "Single changes that fit " << formatBytes(limit) << " (the planner's prediction):\n";
    int i = 0;
    for (const auto& s : suggestions) {
        char line[512];
        std::snprintf(line, sizeof line, "  %d. %-34s predicted peak %10s, headroom %10s  (%s)\n",
                      ++i, s.change.c_str(), formatBytes(s.predicted_peak).c_str(),
                      formatBytes(s.headroom).c_str(), s.summary.c_str());
        out << line;
    }
    return out.str();
}

nlohmann::json FitAdvice::toJson(const std::vector<Suggestion>& suggestions, int64_t limit) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& s : suggestions) {
        list.push_back({{"kind", s.kind},
                        {"change", s.change},
                        {"summary", s.summary},
                        {"ranks", s.ranks},
                        {"zero_stage", s.zero_stage},
                        {"predicted_peak_bytes", s.predicted_peak},
                        {"headroom_bytes", s.headroom}});
    }
    return {{"limit_bytes", limit}, {"suggestions", list}};
}

}  // namespace memscope
