#include "fit_report.h"

#include "run/run_summary.h"
#include "run/text_format.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>

namespace memscope::cli {

namespace {

std::string phaseTitle(const std::string& key) {
    const size_t slash = key.find('/');
    const std::string step = key.substr(0, slash);
    const std::string phase = key.substr(slash + 1);
    return phase + (step == "first" ? " (step 1)" : " (steady)");
}

std::string percent(double fraction) {
    return (fraction >= 0 ? "+" : "") + formatFixed(100.0 * fraction, 2) + "%";
}

}  // namespace

std::string FitReport::sizesText(const std::map<std::string, int64_t>& sizes) {
    std::string out;
    for (const auto& name : ProgramMemoryFit::sizeNames()) {
        const auto it = sizes.find(name);
        if (it != sizes.end()) {
            out += (out.empty() ? "" : " ") + name + "=" + std::to_string(it->second);
        }
    }
    return out;
}

std::string FitReport::checkLine(const ProgramMemoryFit& fit) {
    double fitted = 0, held = 0;
    std::string worst;
    for (const auto& r : fit.residuals()) {
        const double rel = std::fabs(r.relative());
        double& into = r.held_out ? held : fitted;
        if (rel > into) {
            into = rel;
        }
        if (rel > 0.01 && worst.empty()) {
            worst = phaseTitle(r.phase) + " at " + r.label;
        }
    }
    std::string out = "Check: the fit reproduces its " +
                      std::to_string(fit.points() - fit.heldOutPoints()) +
                      " fitted points within " + formatFixed(100.0 * fitted, 3) + "% and the " +
                      std::to_string(fit.heldOutPoints()) + " it left out within " +
                      formatFixed(100.0 * held, 3) + "%";
    if (!worst.empty()) {
        out += "\nwarning: the fit misses the sweep by more than 1% (" + worst +
               "): a place of the program the terms do not follow; do not trust that phase";
    }
    return out;
}

void FitReport::printResiduals(const ProgramMemoryFit& fit, std::ostream& out) {
    out << "Fit: " << fit.points() << " points, " << fit.heldOutPoints()
        << " of them left out to check it, " << fit.rank() << " independent terms of "
        << ProgramMemoryFit::terms().size() << "\n";
    out << "Residuals of each phase's peak (predicted - recorded):\n";
    out << "  " << std::left << std::setw(22) << "phase" << std::setw(26)
        << "fitted points: max |r|"
        << "left out: max |r|\n";
    for (const auto& phase : fit.phases()) {
        double fitted = 0, held = 0;
        std::string worst_fitted, worst_held;
        bool any_held = false;
        for (const auto& r : fit.residuals()) {
            if (r.phase != phase) {
                continue;
            }
            const double rel = std::fabs(r.relative());
            if (r.held_out) {
                any_held = true;
                if (rel >= held) {
                    held = rel;
                    worst_held = r.label;
                }
            } else if (rel >= fitted) {
                fitted = rel;
                worst_fitted = r.label;
            }
        }
        out << "  " << std::setw(22) << phaseTitle(phase) << std::setw(36)
            << (formatFixed(100.0 * fitted, 3) + "% (" + worst_fitted + ")")
            << (any_held ? formatFixed(100.0 * held, 3) + "% (" + worst_held + ")" : "-") << "\n";
    }
    out << std::right;
    bool header = false;
    for (const auto& r : fit.residuals()) {
        if (!r.held_out) {
            continue;
        }
        if (!header) {
            out << "Points left out:\n";
            header = true;
        }
        out << "  " << r.label << "  " << phaseTitle(r.phase) << ": recorded "
            << formatBytes(r.measured) << ", predicted " << formatBytes(r.predicted) << " ("
            << percent(r.relative()) << ")\n";
    }
}

void FitReport::printCoefficients(const ProgramMemoryFit& fit,
                                  const std::map<std::string, int64_t>& at, std::ostream& out) {
    const auto& terms = ProgramMemoryFit::terms();
    const auto values = ProgramMemoryFit::termValues(at);
    const auto predictions = fit.predict(at);
    out << "Coefficients (bytes per unit of each term) of each phase's peak at " << sizesText(at)
        << "; terms the sweep never varied apart share one coefficient:\n";
    for (const auto& p : predictions) {
        const auto c = fit.coefficients(p.phase, p.region);
        out << "  " << phaseTitle(p.phase) << ", at " << p.region << ":";
        // The terms that carry at least 0.1% of the peak at this point.
        for (size_t i = 0; i < c.size() && i < terms.size(); ++i) {
            const double part = c[i] * values[i];
            if (p.bytes > 0 && std::fabs(part) >= 0.001 * double(p.bytes)) {
                out << " " << formatFixed(c[i], std::fabs(c[i]) < 10 ? 3 : 1) << "*"
                    << terms[i].name;
            }
        }
        out << "\n";
    }
}

}  // namespace memscope::cli
