#pragma once

#include "trace/trace.h"

#include <cstddef>
#include <string>

// A recorded run handed over part by part, as a live recording grows: the benchmarks that replay
// a run file through the live refresh path (bench_gui_live --replay, bench_live_refresh) feed
// growing() to a LiveTraceMirror. growing() starts with everything but the run's events and
// steps (stacks, spans and phases only grow, so handing them over whole is a valid growth), then
// gains the events in the parts asked for and the finished steps in proportion.
class ReplaySource {
  public:
    explicit ReplaySource(const std::string& path);  // throws RunFileError naming the file

    size_t total() const { return m_run.events.count(); }  // the run's events
    // Appends the run's events up to `to` (at most total()), and its steps in proportion.
    void growTo(size_t to);
    const memscope::Trace& growing() const { return m_growing; }

  private:
    memscope::Trace m_run;
    memscope::Trace m_growing;
};
