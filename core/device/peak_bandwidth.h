#pragma once

#include <string>

// Declared only: views that show the CPU's measured bandwidth include this header without
// LibTorch's.
namespace c10 {
struct Device;
}

namespace memscope {

// The memory bandwidth a roofline compares against. A CPU has no datasheet figure for "this
// machine with this many threads", so it is measured, like PeakFlops: a STREAM-style triad
// (a = b + s * c) over float arrays far larger than the caches, best of a few repetitions,
// counting the bytes the kernel reads and writes (3 arrays; write-allocate traffic not counted).
struct PeakBandwidth {
    double bytes_per_s = 0;
    std::string method;

    // Cached per (device, threads) for the life of the process (about 0.2 s the first time).
    // threads <= 0: the calling thread's current LibTorch thread count.
    static PeakBandwidth measure(const c10::Device& device, int threads);
    // measure() on the CPU.
    static PeakBandwidth measureOnCpu(int threads);
};

}  // namespace memscope
