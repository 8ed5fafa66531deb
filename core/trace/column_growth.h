#pragma once

#include "trace/trace.h"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace memscope {

// Growth of a trace's long columns (events, spans and what runs beside them), for the code that
// appends to a trace while a run goes on: the recorder's drain (Recorder::drainInto) and the live
// mirror (LiveTraceBuilder). A run appends to these all the time; grown by the vector's own
// reallocation, its fresh memory is faulted in 4 KiB page by page, and on a virtual machine a
// fault costs tens of microseconds of CPU (docs/DESIGN.md, "Page faults are the recording's main
// cost on virtual machines").

// Asks the kernel for transparent huge pages in [data, data + bytes) (the whole 2 MiB pages
// inside it), where the system allows them on request (THP mode `madvise` or `always`); nothing
// elsewhere.
void adviseHugePages(void* data, size_t bytes);

// The least capacity a column grows to (small traces stay small all the same).
constexpr size_t kColumnGrowthMinimum = size_t(1) << 14;

// Makes room for `needed` elements in `v`: when it lacks it, moves the elements into a fresh
// buffer of at least max(needed, twice the capacity, at_least, kColumnGrowthMinimum) elements,
// advised to use huge pages before anything is copied into it. Nothing when it has the room.
template <typename T>
void growColumn(std::vector<T>& v, size_t needed, size_t at_least = 0) {
    if (needed <= v.capacity()) {
        return;
    }
    std::vector<T> fresh;
    fresh.reserve(std::max({needed, v.capacity() * 2, at_least, kColumnGrowthMinimum}));
    adviseHugePages(fresh.data(), fresh.capacity() * sizeof(T));
    fresh.insert(fresh.end(), std::make_move_iterator(v.begin()), std::make_move_iterator(v.end()));
    v.swap(fresh);
}

// growColumn for each of the event columns.
void growColumns(EventColumns& events, size_t needed, size_t at_least = 0);
// growColumn for a trace's spans.
void growSpans(std::vector<Span>& spans, size_t needed, size_t at_least = 0);

}  // namespace memscope
