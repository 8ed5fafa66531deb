#pragma once

#include "run/run_range.h"
#include "trace/trace.h"

#include <cstddef>
#include <utility>

namespace memscope {

// Part of a trace, as a RunRange selects it: what RunFile::LoadOptions::range and
// SnapshotImporter's ImportOptions::range keep of a run.
class TraceRange {
  public:
    // The event index range [first, last) a RunRange selects in a trace's events.
    static std::pair<size_t, size_t> events(const EventColumns& events, const RunRange& range);
    // Keeps events [first, last) of a trace (the live set at first becomes allocations present
    // from the start). first and last are clamped to the events. Call finalize() afterwards.
    static void keep(Trace& trace, size_t first, size_t last);
};

}  // namespace memscope
