#pragma once

#include <string>
#include <vector>

namespace memscope {

// y = coefficient * x^exponent, fitted by least squares on log y against log x. Points with
// x <= 0 or y <= 0 have no logarithm and are left out (`points` says how many were used).
// The verdict reads the exponent the way the exercises ask ("is memory linear or quadratic in
// the sequence length?"):
//   below 0.85 "sub-linear"  (a fixed part dominates, or the quantity saturates)
//   0.85-1.15  "linear"
//   1.15-1.85  "in between"
//   1.85-2.15  "quadratic"
//   above 2.15 "steeper than quadratic"
struct ScalingFit {
    double exponent = 0;
    double coefficient = 0;
    double r_squared = 0;  // of the log-log fit; 1 when it is exact
    size_t points = 0;
    bool valid = false;  // at least two points with different x

    static ScalingFit fit(const std::vector<double>& x, const std::vector<double>& y);
    static std::string verdictFor(double exponent);
    std::string verdict() const { return valid ? verdictFor(exponent) : "not enough points"; }
    // The one scaling pattern between two points (a sweep table's row, a report's run):
    // "VERDICT (S^E)" for the exponent from (x_a, y_a) to (x_b, y_b), "—" when the x are equal
    // or a value is not positive. The exercises' "Scaling Pattern" column in every table.
    static std::string pattern(double x_a, double y_a, double x_b, double y_b);
    double predict(double x) const;
};

}  // namespace memscope
