#pragma once

// One event for the categorizer's tests: a kind, address, size, phase and step (and stack),
// the columns the rules read; time, totals and device left at their defaults.

#include "trace/trace.h"

#include <cstdint>

namespace memscope::test {

inline Event phaseEvent(EventKind kind, uint64_t addr, int64_t size, Phase phase, int32_t step,
                        uint32_t stack = 0) {
    Event e;
    e.kind = kind;
    e.addr = addr;
    e.size = size;
    e.phase = phase;
    e.step = step;
    e.stack = stack;
    return e;
}

}  // namespace memscope::test
