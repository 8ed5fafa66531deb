#pragma once

#include <string>
#include <vector>

namespace memscope::cli {

// `memscope-cli sweep [--out DIR] [--python-exe EXE] [--held-out N] --python SCRIPT.py ARGS...
// --grid NAME=VALUES...` (issue 44): runs a Python program once per point of a grid of sizes,
// each point recorded as `memscope-cli record --python` records it (this executable started
// again with `record --out DIR/POINT.memscope --python ...`, its output in DIR/POINT.log), the
// peaks measured from each run file into DIR/program_sweep.json, then fits the program's memory
// per phase (ProgramMemoryFit) and prints the fit's residuals and coefficients. The program's
// arguments hold {NAME} placeholders for the grid's entries: `--d-model {d} ... --grid
// d=64,128 L=1,2 d_ff=4*d`. Everything between --python and the last --grid is the
// program's; the grid's items (NAME=...) follow --grid, and sweep's own options may follow them.
// Routed in main.cpp before CLI11 sees the program's arguments, like record --python.
class ProgramSweepCommand {
  public:
    // True when `args` (the words after "sweep") ask for a Python program.
    static bool requested(const std::vector<std::string>& args);
    // Exit status: 0 every point recorded and fitted, 1 a point failed (the fit made from the
    // rest) or the fit could not be made, 2 bad options, 130 interrupted (finished points kept).
    static int run(const std::vector<std::string>& args);
};

}  // namespace memscope::cli
