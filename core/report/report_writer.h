#pragma once

#include "trace/trace.h"

#include <map>
#include <string>
#include <vector>

namespace memscope {

// A Markdown report from one or more recorded runs that fills in the tables the exercises ask
// for, from the runs' stored summaries and their events:
//   - the runs, where and when each one peaks and what is live at the peak
//   - workshop exercise 2 (seeds 000 and 002 section 5): peak, average memory and samples/s
//     per batch size; peak and memory per token per sequence length, with the scaling
//     factor and pattern; the top memory-consuming operations; the largest allocations
//   - CS336 assignment 2 memory questions (b) to (e): peak per context length for a forward
//     pass and a full training step, fp32 against mixed precision, the size of a residual-
//     stream activation worked out from the configuration, the largest allocations with the
//     module, op and stack that made them and the tensor shape their size matches
// A table appears only where the runs provide its data; otherwise the report names the runs to
// add, with the memscope-cli command line that records them.
//
// names label the runs (file names, say); missing names become "run N". sizes, per run, are the
// sizes the user gave or a sweep's point names (report/size_table_chapter.h): runs without a
// recorded configuration (snapshots, Python programs) fill the tables by size with them, and a
// Python program's run without them is read for its own --context-length and --batch-size.
class ReportWriter {
  public:
    static std::string markdown(const std::vector<Trace>& runs,
                                const std::vector<std::string>& names = {},
                                const std::vector<std::map<std::string, std::string>>& sizes = {});
};

}  // namespace memscope
