#pragma once

#include "trace/trace.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace memscope {

// Growth of a trace's long columns (events, spans and what runs beside them), for the code that
// appends to a trace while a run goes on: the recorder's drain (Recorder::drainInto) and the live
// mirror (LiveTraceBuilder). A run appends to these all the time; grown by the vector's own
// reallocation, its fresh memory is faulted in 4 KiB page by page, and on a virtual machine a
// fault costs tens of microseconds of CPU (docs/DESIGN-LOG.md, "Page faults are the recording's
// main cost on virtual machines").

// Asks the kernel for transparent huge pages in [data, data + bytes) (the whole 2 MiB pages
// inside it), where the process asks for them (HugePagePolicy, trace/huge_page_policy.h:
// MEMSCOPE_HUGE_PAGES=1) and the system allows them on request (THP mode `madvise` or
// `always`); nothing elsewhere.
void adviseHugePages(void* data, size_t bytes);

// The least capacity a column grows to (small traces stay small all the same).
constexpr size_t kColumnGrowthMinimum = size_t(1) << 14;
// The size of a transparent huge page.
constexpr size_t kHugePageBytes = size_t(2) << 20;
// A column that outgrows a huge page gets a buffer of at least this many bytes: at or above
// glibc's largest mmap threshold (32 MiB; the trainer sets it there), so the buffer is a mapping
// of its own that rarely has to move again, and where huge pages are asked for
// (HugePagePolicy), they are all fresh. A buffer on glibc's heap can hold pages of memory freed
// before, where the kernel then faults 4 KiB pages despite the advice (a 20-step recording took
// ~150 such faults per step on its spans). Address space, not memory: only the pages written are
// ever backed.
constexpr size_t kOwnMappingBytes = size_t(32) << 20;

// The elements of `v` that lie before its buffer's last whole huge page ends, for buffers of
// kOwnMappingBytes or more (their capacity otherwise): what lies after that is faulted in 4 KiB
// pages, so a column grows before it writes there.
template <typename T>
size_t hugePageCapacity(const std::vector<T>& v) {
    const size_t bytes = v.capacity() * sizeof(T);
    if (bytes < kOwnMappingBytes) {
        return v.capacity();
    }
    const auto data = reinterpret_cast<uintptr_t>(v.data());
    const uintptr_t end = (data + bytes) & ~uintptr_t(kHugePageBytes - 1);
    return end > data ? size_t(end - data) / sizeof(T) : v.capacity();
}

// The most bytes one column reserves ahead of what it holds (`at_least` below): an eighth of the
// machine's memory. A reservation is address space, not memory (only the pages written are
// backed), but the kernel's default overcommit heuristic refuses a single mapping larger than
// memory and swap together, and a run configured for a million steps would ask for that.
size_t reserveAheadLimitBytes();

// Makes room for `needed` elements in `v`: when it lacks it (within hugePageCapacity), moves the
// elements into a fresh buffer of at least max(needed, twice the capacity, at_least,
// kColumnGrowthMinimum) elements, and at least kOwnMappingBytes plus a huge page once that is
// more than a huge page, advised to use huge pages before anything is copied into it. Nothing
// when it has the room. `at_least` (what the whole run is expected to need, so that the column
// moves once) counts up to reserveAheadLimitBytes(), and only as long as the system grants it:
// refused, the column grows as it would without it.
template <typename T>
void growColumn(std::vector<T>& v, size_t needed, size_t at_least = 0) {
    if (needed <= hugePageCapacity(v)) {
        return;
    }
    const auto capacityFor = [&](size_t ahead) {
        size_t capacity = std::max({needed, v.capacity() * 2, ahead, kColumnGrowthMinimum});
        if (capacity * sizeof(T) > kHugePageBytes) {
            capacity =
                std::max(capacity, kOwnMappingBytes / sizeof(T)) + kHugePageBytes / sizeof(T);
        }
        return capacity;
    };
    std::vector<T> fresh;
    const size_t ahead = std::min(at_least, reserveAheadLimitBytes() / sizeof(T));
    try {
        fresh.reserve(capacityFor(ahead));
    } catch (const std::bad_alloc&) {
        if (capacityFor(0) == capacityFor(ahead)) {
            throw;
        }
        fresh.reserve(capacityFor(0));
    }
    adviseHugePages(fresh.data(), fresh.capacity() * sizeof(T));
    fresh.insert(fresh.end(), std::make_move_iterator(v.begin()), std::make_move_iterator(v.end()));
    v.swap(fresh);
}

// A packed column (trace/packed_column.h) grows by blocks as it is appended to: nothing to do.
template <typename T>
void growColumn(PackedColumn<T>&, size_t, size_t = 0) {}

// growColumn for a trace's spans.
void growSpans(std::vector<Span>& spans, size_t needed, size_t at_least = 0);

}  // namespace memscope
