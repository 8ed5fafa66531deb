#pragma once

#include "studies/scaling_fit.h"
#include "studies/sweep_result.h"

#include <string>
#include <utility>
#include <vector>

namespace memscope {

// The points of a sweep that differ only along one axis (batch size or sequence length), with
// log-log fits of their memory against it. A sweep over sequence lengths with two attention
// variants gives two series. Out-of-memory points belong to the series (charts mark them) but
// are left out of the fits; series with fewer than two sizes are not made.
struct ScalingSeries {
    enum class Axis { Batch, Seq };

    Axis axis = Axis::Seq;
    std::string label;           // what is fixed: "workshop-default, batch 8, fp32, eager, ..."
    std::vector<size_t> points;  // indices into SweepResult::points, by increasing x
    std::vector<double> x;       // batch sizes or sequence lengths, as `points`
    ScalingFit peak;             // peak bytes
    ScalingFit average;          // average bytes
    ScalingFit input_dependent;  // peak minus parameters, gradients and optimizer state
    ScalingFit samples_per_s;
    std::vector<std::pair<std::string, ScalingFit>> categories;  // live at the peak, per category
    std::string steepest_category;  // the category with the largest exponent ("" if none)
    ScalingFit steepest;

    static std::vector<ScalingSeries> build(const SweepResult& result, Axis axis);
    static std::string axisName(Axis axis);    // "batch size" / "sequence length"
    static std::string axisSymbol(Axis axis);  // "B" / "S"
    // One line: "peak ~ S^0.62 (sub-linear), input-dependent ~ S^1.41 (in between), steepest:
    // ACTIVATION ~ S^1.52".
    std::string summaryLine() const;
};

}  // namespace memscope
