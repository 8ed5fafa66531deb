#include "studies/scaling_fit.h"

#include "run/text_format.h"

#include <algorithm>
#include <cmath>

namespace memscope {

ScalingFit ScalingFit::fit(const std::vector<double>& x, const std::vector<double>& y) {
    ScalingFit f;
    std::vector<double> lx, ly;
    for (size_t i = 0; i < std::min(x.size(), y.size()); ++i) {
        if (x[i] > 0 && y[i] > 0 && std::isfinite(x[i]) && std::isfinite(y[i])) {
            lx.push_back(std::log(x[i]));
            ly.push_back(std::log(y[i]));
        }
    }
    f.points = lx.size();
    if (lx.size() < 2) {
        return f;
    }
    const double n = double(lx.size());
    double mx = 0, my = 0;
    for (size_t i = 0; i < lx.size(); ++i) {
        mx += lx[i];
        my += ly[i];
    }
    mx /= n;
    my /= n;
    double sxx = 0, sxy = 0, syy = 0;
    for (size_t i = 0; i < lx.size(); ++i) {
        sxx += (lx[i] - mx) * (lx[i] - mx);
        sxy += (lx[i] - mx) * (ly[i] - my);
        syy += (ly[i] - my) * (ly[i] - my);
    }
    // All x equal (within rounding): no slope to fit.
    if (sxx <= 1e-12 * n) {
        return f;
    }
    f.exponent = sxy / sxx;
    f.coefficient = std::exp(my - f.exponent * mx);
    f.r_squared = syy > 0 ? (sxy * sxy) / (sxx * syy) : 1.0;
    f.valid = true;
    return f;
}

ScalingFit::Verdict ScalingFit::verdictOf(double exponent) {
    if (exponent < 0.85) {
        return Verdict::SubLinear;
    }
    if (exponent <= 1.15) {
        return Verdict::Linear;
    }
    if (exponent < 1.85) {
        return Verdict::InBetween;
    }
    if (exponent <= 2.15) {
        return Verdict::Quadratic;
    }
    return Verdict::SteeperThanQuadratic;
}

std::string ScalingFit::verdictText(Verdict verdict) {
    switch (verdict) {
        case Verdict::NotEnoughPoints:
            return "not enough points";
        case Verdict::SubLinear:
            return "sub-linear";
        case Verdict::Linear:
            return "linear";
        case Verdict::InBetween:
            return "in between";
        case Verdict::Quadratic:
            return "quadratic";
        case Verdict::SteeperThanQuadratic:
            return "steeper than quadratic";
    }
    return "not enough points";
}

std::string ScalingFit::pattern(double x_a, double y_a, double x_b, double y_b) {
    if (x_a <= 0 || x_b <= 0 || x_a == x_b || y_a <= 0 || y_b <= 0) {
        return "—";
    }
    const double e = std::log(y_b / y_a) / std::log(x_b / x_a);
    return verdictFor(e) + " (S^" + formatFixed(e, 2) + ")";
}

double ScalingFit::predict(double x) const {
    return valid && x > 0 ? coefficient * std::pow(x, exponent) : 0.0;
}

}  // namespace memscope
