#pragma once

#include "trace/trace.h"

#include <cstddef>

namespace memscope {

// How many of something (events, spans) a recorded run will hold once it finishes: `so_far` now,
// scaled by the steps its configuration asks for (num_steps + warmup_steps in meta.config) over
// the steps finished (trace.steps), with a quarter more because later steps may record a little
// more than the first ones, and never beyond meta.max_events for events (`bounded`). 0 when it
// cannot say: an imported trace, fewer than two steps done, or no steps left to run.
size_t expectedRunTotal(const Trace& trace, size_t so_far, bool bounded = false);

}  // namespace memscope
