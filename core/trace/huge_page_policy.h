#pragma once

#include <optional>
#include <string>

namespace memscope {

// Whether the columns a run appends to (column_growth.h) ask the kernel for transparent huge
// pages. Every byte a recording appends is fresh memory, faulted in on the consumer thread, and
// on two cores that time is taken from training. Which kind of page is cheaper depends on the
// host and on what its memory did in the last seconds, by more than tenfold either way
// (docs/DESIGN-LOG.md, "Huge pages or small ones"). On this project's virtual machine, in a fresh
// process: 0.7 to 4.5 ms per 2 MiB of 4 KiB faults, and 0.1 to 4 ms per fresh 2 MiB huge page (a
// huge page the guest recently freed is cheap; one it handed back to the host is faulted in
// again there). A small probe cannot tell which a run will get (the first few huge pages were
// cheap while the next ones were not), and over whole recordings 4 KiB pages cost the consumer
// less on average and never spiked: so they are the default, and MEMSCOPE_HUGE_PAGES=1 asks for
// huge pages where they pay (bare metal, or hosts where a 4 KiB fault costs tens of
// microseconds).
struct HugePagePolicy {
    bool use_huge_pages = false;
    std::string source;  // "default" or "MEMSCOPE_HUGE_PAGES=0|1"

    // The process's policy: MEMSCOPE_HUGE_PAGES=1 or 0 when set (another value is reported on
    // stderr and ignored), else the default; decided on the first call, thread-safe.
    static const HugePagePolicy& current();
    // "1" -> true, "0" -> false, anything else (or nullptr) -> nothing.
    static std::optional<bool> parseOverride(const char* value);
    // Decides from the value of MEMSCOPE_HUGE_PAGES (nullptr: unset); `warning` is set for a
    // value that is neither 0 nor 1.
    static HugePagePolicy fromEnvironment(const char* value, std::string* warning);
    // One line for logs and benchmarks: "huge pages: no (default)".
    std::string describe() const;
};

}  // namespace memscope
