#pragma once

#include <cstdint>
#include <string>

namespace memscope {

class Trace;

// A point of a run named on the command line (`--at`): an event index ("5000"), a time since
// the run started with a unit ("1.25s", "300ms"; units ns, us, ms, s, min), "peak" (the allocated
// peak) or "oom" (the first out-of-memory event).
class EventAt {
  public:
    enum class Mark { None, Peak, Oom };
    bool is_time = false;
    Mark mark = Mark::None;
    int64_t value = 0;  // an event index, or ns

    // Throws InputError with a message naming the text when it is neither.
    static EventAt parse(const std::string& text);
    // The event index in `trace`: the index itself, or the last event at or before the time.
    // Throws InputError when the run has no such event ("the run has events 0 to
    // 99 only", "the run ends at 3.200 s", "the run has no out-of-memory event").
    int64_t resolve(const Trace& trace) const;
};

}  // namespace memscope
