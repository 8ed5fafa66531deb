#pragma once

#include "predict/program_memory_fit.h"

#include <iosfwd>
#include <map>
#include <string>

namespace memscope::cli {

// The text memscope-cli prints about a ProgramMemoryFit (sweep --python, predict --fit): the
// residuals per phase on the points fitted and on the points left out, and the coefficients of
// each phase's peak region at a point.
class FitReport {
  public:
    static void printResiduals(const ProgramMemoryFit& fit, std::ostream& out);
    // The terms whose coefficient is not ~0 for each phase's peak region at `at`.
    static void printCoefficients(const ProgramMemoryFit& fit,
                                  const std::map<std::string, int64_t>& at, std::ostream& out);
    // One line: how closely the fit reproduces the sweep's points (fitted and left out), and a
    // warning when a phase misses by more than 1%.
    static std::string checkLine(const ProgramMemoryFit& fit);
    // "d=64 L=2 s=32 b=1"
    static std::string sizesText(const std::map<std::string, int64_t>& sizes);
};

}  // namespace memscope::cli
