#pragma once

// Heap accounting for the fuzzers: heap_meter.cpp replaces the global operator new and delete
// (link it into a test executable to use it) and counts live bytes, their peak and the largest
// single request, so a fuzzer can assert that memory stays proportional to its input. malloc
// itself is left alone, so AddressSanitizer still checks every allocation underneath.

#include <cstdint>

namespace memscope::fuzz {

int64_t heapLive();
// Starts a new measurement: the peak is reset to the bytes live now, the largest request to 0.
void resetHeapPeak();
int64_t heapPeak();
int64_t largestAllocation();

}  // namespace memscope::fuzz
