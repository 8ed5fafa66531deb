#include "studies/scaling_series.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include "run/text_format.h"

namespace memscope {

namespace {

// Everything but the axis, as the series' key and label.
std::string fixedSettings(const TrainOptions& o, ScalingSeries::Axis axis, bool for_key) {
    std::string s = SweepSpec::modelName(o);
    if (for_key) {
        const auto& m = o.model;
        s += "/" + std::to_string(m.n_heads) + "/" + std::to_string(m.n_kv_heads) + "/" +
             std::to_string(m.intermediate_dim) + "/" + std::to_string(m.vocab_size);
    }
    if (axis == ScalingSeries::Axis::Seq) {
        s += ", batch " + std::to_string(o.batch_size);
    } else {
        s += ", seq " + std::to_string(o.seq_len);
    }
    s += ", " + toString(o.dtype) + ", " + toString(o.attention);
    if (o.checkpointing != Checkpointing::None) {
        s += ", checkpointing " + toString(o.checkpointing);
    }
    s += ", " + toString(o.profile);
    return s;
}

}  // namespace

std::string ScalingSeries::axisName(Axis axis) {
    return axis == Axis::Batch ? "batch size" : "sequence length";
}

std::string ScalingSeries::axisSymbol(Axis axis) {
    return axis == Axis::Batch ? "B" : "S";
}

std::vector<ScalingSeries> ScalingSeries::build(const SweepResult& result, Axis axis) {
    std::map<std::string, std::vector<size_t>> groups;
    std::vector<std::string> order;
    for (size_t i = 0; i < result.points.size(); ++i) {
        const std::string key = fixedSettings(result.points[i].options, axis, true);
        if (!groups.count(key)) {
            order.push_back(key);
        }
        groups[key].push_back(i);
    }
    std::vector<ScalingSeries> out;
    for (const auto& key : order) {
        std::vector<size_t> idx = groups[key];
        const auto xOf = [&](size_t i) {
            const auto& o = result.points[i].options;
            return double(axis == Axis::Batch ? o.batch_size : o.seq_len);
        };
        std::stable_sort(idx.begin(), idx.end(),
                         [&](size_t a, size_t b) { return xOf(a) < xOf(b); });
        std::set<double> distinct;
        for (const size_t i : idx) {
            distinct.insert(xOf(i));
        }
        if (distinct.size() < 2) {
            continue;
        }
        ScalingSeries s;
        s.axis = axis;
        s.label = fixedSettings(result.points[idx.front()].options, axis, false);
        s.points = idx;
        std::vector<double> fx, peak, avg, input, rate;
        std::map<std::string, std::vector<double>> cat;
        std::set<std::string> names;
        for (const size_t i : idx) {
            s.x.push_back(xOf(i));
            const auto& p = result.points[i];
            if (!p.ok()) {
                continue;
            }
            for (const auto& [name, bytes] : p.bytes_by_category_at_peak) {
                (void)bytes;
                names.insert(name);
            }
        }
        for (const size_t i : idx) {
            const auto& p = result.points[i];
            if (!p.ok()) {
                continue;
            }
            fx.push_back(xOf(i));
            peak.push_back(double(p.peak_bytes));
            avg.push_back(double(p.avg_bytes));
            input.push_back(double(p.inputDependentBytes()));
            rate.push_back(p.samples_per_s);
            for (const auto& name : names) {
                const auto it = p.bytes_by_category_at_peak.find(name);
                cat[name].push_back(it == p.bytes_by_category_at_peak.end() ? 0.0
                                                                            : double(it->second));
            }
        }
        s.peak = ScalingFit::fit(fx, peak);
        s.average = ScalingFit::fit(fx, avg);
        s.input_dependent = ScalingFit::fit(fx, input);
        s.samples_per_s = ScalingFit::fit(fx, rate);
        for (const auto& name : names) {
            const auto& ys = cat[name];
            // A category absent at some point has no exponent over the whole range.
            if (std::any_of(ys.begin(), ys.end(), [](double v) { return v <= 0; })) {
                continue;
            }
            const ScalingFit f = ScalingFit::fit(fx, ys);
            if (!f.valid) {
                continue;
            }
            s.categories.emplace_back(name, f);
            // Only a category holding a real share (5% of the input-dependent memory at the
            // largest size) can be "the component that scales steepest": a few bytes of input
            // tokens growing fast explain nothing.
            if (ys.back() < 0.05 * input.back()) {
                continue;
            }
            if (s.steepest_category.empty() || f.exponent > s.steepest.exponent) {
                s.steepest_category = name;
                s.steepest = f;
            }
        }
        out.push_back(std::move(s));
    }
    return out;
}

std::string ScalingSeries::summaryLine() const {
    const std::string sym = axisSymbol(axis);
    const auto term = [&sym](const ScalingFit& f) {
        return f.valid ? sym + "^" + formatFixed(f.exponent, 2) + " (" + f.verdict() + ")"
                       : ScalingFit::verdictText(ScalingFit::Verdict::NotEnoughPoints);
    };
    std::string line = "peak ~ " + term(peak) + ", input-dependent ~ " + term(input_dependent);
    if (!steepest_category.empty()) {
        line += ", steepest: " + steepest_category + " ~ " + sym + "^" +
                formatFixed(steepest.exponent, 2);
    }
    return line;
}

}  // namespace memscope
