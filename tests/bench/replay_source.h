#pragma once

#include "trace/trace.h"

#include <cstddef>
#include <string>

// A recorded run handed over part by part, as a live recording grows: the benchmarks that replay
// a run file through the live refresh path (bench_gui_live --replay, bench_live_refresh) feed
// growing() to a LiveTraceMirror, and bench_journal feeds it to a RunJournal.
//
// Growth::Events starts with everything but the run's events and steps (stacks, spans and phases
// only grow, so handing them over whole is a valid growth), then gains the events in the parts
// asked for and the finished steps in proportion. Growth::Everything also hands the spans and
// phases over as they ended by the time of the last event handed over, as a recording session
// drains them: what a writer that sends only what is new (the journal) then sees.
class ReplaySource {
  public:
    enum class Growth { Events, Everything };

    // Throws RunFileError naming the file.
    explicit ReplaySource(const std::string& path, Growth growth = Growth::Events);

    size_t total() const { return m_run.events.count(); }  // the run's events
    // Appends the run's events up to `to` (at most total()), and its steps in proportion.
    void growTo(size_t to);
    const memscope::Trace& growing() const { return m_growing; }
    const memscope::Trace& run() const { return m_run; }

  private:
    memscope::Trace m_run;
    memscope::Trace m_growing;
    Growth m_growth;
};
