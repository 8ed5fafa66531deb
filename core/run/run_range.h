#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace memscope {

// The part of a run to load: events [first, last) by index, or the events whose time lies in
// [begin_ns, end_ns). Written "A:B" on the command line and in the open dialog: plain integers
// are event indices ("1000000:2000000"), numbers with a unit are times since the run started
// ("2.5s:4s", "300ms:", ":1.5min"; units ns, us, ms, s, min). Either end may be left out.
class RunRange {
  public:
    enum class Kind { All, Events, Time };

    static constexpr int64_t kOpen = std::numeric_limits<int64_t>::max();

    Kind kind = Kind::All;
    int64_t first = 0;     // Events: first event index, Time: begin in ns
    int64_t last = kOpen;  // exclusive; kOpen: to the end

    bool isAll() const { return kind == Kind::All; }
    static RunRange events(int64_t first, int64_t last);
    static RunRange time(int64_t begin_ns, int64_t end_ns);

    // Parses "A:B" as above; "" gives the whole run. Throws InputError with a message
    // naming what is wrong ("range '5:x': 'x' is not an event index or a time like 2.5s").
    static RunRange parse(const std::string& text);
    // "events 10..20", "time 2.5 s..4 s", "the whole run": for messages and titles.
    std::string describe() const;
};

}  // namespace memscope
