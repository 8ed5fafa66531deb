#pragma once

#include "run/train_options.h"

#include <string>

// Declared only: views that show the CPU's measured peak include this header without LibTorch's.
namespace c10 {
struct Device;
}

namespace memscope {

// The FLOP/s that MFU divides by. On a CPU there is no datasheet figure for "this machine with
// this many threads", so Memscope measures one: a short square GEMM in the run's dtype, best of
// a few repetitions. The method is reported with the figure.
struct PeakFlops {
    double flops_per_s = 0;
    std::string method;

    // Cached per (device, dtype, threads) for the life of the process (about 0.3 s the first time).
    static PeakFlops measure(const c10::Device& device, Dtype dtype, int threads);
    // measure() on the CPU, and its FLOP/s alone (what Planner asks for).
    static PeakFlops measureOnCpu(Dtype dtype, int threads);
    static double measureCpu(Dtype dtype, int threads);
};

}  // namespace memscope
