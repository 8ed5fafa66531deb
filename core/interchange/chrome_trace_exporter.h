#pragma once

#include "trace/trace.h"

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

namespace memscope {

// Writes a Trace as Chrome trace event JSON, which Perfetto (ui.perfetto.dev) and
// chrome://tracing open:
//   - one "X" (complete) event per operator / module / autograd-node call (Trace::spans) on its
//     thread's track: name = the call's frame, cat = module | op | backward, args = the module
//     it ran in and the bytes allocated on that thread while it ran (children included)
//   - the trainer's phases ("forward step 2") and whole steps on a "phases" track of their own
//   - counter tracks: "allocated" (live bytes) and "allocated by category" (one series per
//     category, stacked in chrome://tracing), plus "reserved" where the allocator reports it
//   - an instant event for an out-of-memory error
// Times are microseconds since the run started (ts and dur keep nanosecond digits).
//
// The JSON is streamed, never built in memory. Counters get a point only where the value
// changes; when that would pass max_counter_points (all counter tracks together) the changes
// are merged into equal-count buckets that keep each bucket's highest point and its last one,
// so peaks survive the thinning.
class ChromeTraceExporter {
  public:
    struct Options {
        size_t max_counter_points = 200'000;
    };

    // Throws FileError ("PATH: reason") when the file cannot be written.
    static void write(const Trace& trace, const std::string& path, const Options& options);
    static void write(const Trace& trace, const std::string& path) {
        write(trace, path, Options());
    }
    static void write(const Trace& trace, std::ostream& out, const Options& options);
    // A multi-rank run in one file: rank r on process track r + 1 ("rank r: Memscope ...");
    // null entries (ranks without a file) are left out. Traces must be finalized.
    static void writeRanks(const std::vector<const Trace*>& ranks, const std::string& path,
                           const Options& options);
};

}  // namespace memscope
