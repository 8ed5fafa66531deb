#pragma once

#include <string>
#include <vector>

namespace memscope {

// y = coefficient * x^exponent, fitted by least squares on log y against log x. Points with
// x <= 0 or y <= 0 have no logarithm and are left out (`points` says how many were used).
// The verdict reads the exponent the way the exercises ask ("is memory linear or quadratic in
// the sequence length?"):
//   below 0.85 SubLinear             "sub-linear" (a fixed part dominates, or it saturates)
//   0.85-1.15  Linear                "linear"
//   1.15-1.85  InBetween             "in between"
//   1.85-2.15  Quadratic             "quadratic"
//   above 2.15 SteeperThanQuadratic  "steeper than quadratic"
// A reader that words the verdict its own way (the GUI, translated) switches on the Verdict,
// never on the English words, which are for text output only.
struct ScalingFit {
    enum class Verdict {
        NotEnoughPoints,
        SubLinear,
        Linear,
        InBetween,
        Quadratic,
        SteeperThanQuadratic
    };

    double exponent = 0;
    double coefficient = 0;
    double r_squared = 0;  // of the log-log fit; 1 when it is exact
    size_t points = 0;
    bool valid = false;  // at least two points with different x

    static ScalingFit fit(const std::vector<double>& x, const std::vector<double>& y);
    static Verdict verdictOf(double exponent);
    // The verdict's English words ("linear", "not enough points").
    static std::string verdictText(Verdict verdict);
    static std::string verdictFor(double exponent) { return verdictText(verdictOf(exponent)); }
    Verdict verdictKind() const { return valid ? verdictOf(exponent) : Verdict::NotEnoughPoints; }
    std::string verdict() const { return verdictText(verdictKind()); }
    // The one scaling pattern between two points (a sweep table's row, a report's run):
    // "VERDICT (S^E)" for the exponent from (x_a, y_a) to (x_b, y_b), "—" when the x are equal
    // or a value is not positive. The exercises' "Scaling Pattern" column in every table.
    static std::string pattern(double x_a, double y_a, double x_b, double y_b);
    double predict(double x) const;
};

}  // namespace memscope
