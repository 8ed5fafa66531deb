#pragma once

#include "trace/live_trace_builder.h"

#include <memory>

namespace memscope {

class TimelineLayout;

// The snapshots of a live run, without copying, finalizing or laying out the whole run for each:
// two copies of the growing trace, each with its LiveTraceBuilder and its TimelineLayout, brought
// up to date in turn. update() takes the copy not handed out last time (the one before last,
// which the reader has dropped by the time it asks again), appends what the source gained since
// that copy's last turn and extends its layout (TimelineLayout::extend), so a snapshot costs what
// two refreshes recorded, whatever the length of the run. Readers never see a copy while it is
// written: a copy (or its layout) still held elsewhere when its turn comes is left to its holder
// and a new one is built from scratch in its place (the full cost, once).
class LiveTraceMirror {
  public:
    struct Snapshot {
        std::shared_ptr<const Trace> trace;
        std::shared_ptr<TimelineLayout> layout;
        bool incremental = false;  // extended the copy's previous state (false: from scratch)
        double traceMs = 0;        // bringing the trace copy up to date (LiveTraceBuilder)
        double layoutMs = 0;       // extending (or computing) its layout
    };

    // Brings the next copy up to `source` (a trace that only grows between calls, like a
    // RecordingSession's between polls) and returns it with its layout at the default detail (or
    // the detail last set on that layout). One caller at a time.
    Snapshot update(const Trace& source);

  private:
    struct Copy {
        std::shared_ptr<Trace> trace;
        std::shared_ptr<TimelineLayout> layout;
        LiveTraceBuilder builder;
    };
    Copy m_copies[2];
    int m_next = 0;
};

}  // namespace memscope
