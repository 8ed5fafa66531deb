#include "device/peak_flops.h"

#include "device/openmp_runtime.h"

#include <torch/cuda.h>
#include <torch/torch.h>

#include <c10/core/DeviceGuard.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <tuple>

namespace memscope {

namespace {

torch::ScalarType scalarType(Dtype dtype) {
    switch (dtype) {
        case Dtype::BFloat16:
            return torch::kBFloat16;
        case Dtype::Float16:
            return torch::kFloat16;
        case Dtype::Float32:
            break;
    }
    return torch::kFloat32;
}

// The GEMMs themselves, on the calling thread with its thread settings.
PeakFlops measureHere(const c10::Device& device, Dtype dtype, int threads) {
    torch::NoGradGuard no_grad;
    const bool gpu = device.is_cuda();
    const int64_t n = gpu ? 8192 : 1024;
    const auto options = torch::TensorOptions(device).dtype(scalarType(dtype));
    auto a = torch::randn({n, n}, options);
    auto b = torch::randn({n, n}, options);
    auto sync = [gpu] {
        if (gpu) {
            torch::cuda::synchronize();
        }
    };
    auto c = torch::mm(a, b);  // warm up (thread pool, kernels)
    sync();
    double best = 0;
    for (int rep = 0; rep < 5; ++rep) {
        const auto t0 = std::chrono::steady_clock::now();
        c = torch::mm(a, b);
        sync();
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        best = std::max(best, 2.0 * double(n) * double(n) * double(n) / s);
    }
    PeakFlops peak;
    peak.flops_per_s = best;
    std::ostringstream method;
    method << "measured: best of 5 " << toString(dtype) << " " << n << "x" << n << "x" << n
           << " GEMMs on " << device.str();
    if (!gpu) {
        method << " with " << threads << " thread" << (threads == 1 ? "" : "s");
    }
    peak.method = method.str();
    return peak;
}

}  // namespace

PeakFlops PeakFlops::measure(const c10::Device& device, Dtype dtype, int threads) {
    static std::mutex mutex;
    static std::map<std::tuple<std::string, int, int>, PeakFlops> cache;
    const auto key = std::make_tuple(device.str(), static_cast<int>(dtype), threads);
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = cache.find(key); it != cache.end()) {
        return it->second;
    }
    // On a thread of its own that ends with the measurement. A multi-threaded GEMM makes its
    // caller the master of an OpenMP team whose threads live as long as the caller does. Measured
    // on the GUI thread (the Planner page does), that team outlived it and libgomp then managed
    // more threads than there are cores, which makes every team (the trainer's too) spin 100
    // times instead of GOMP_SPINCOUNT before sleeping: a 2-thread live run in the GUI slept and
    // woke at every parallel region and took 0.18-0.22 s a step where the CLI took 0.11-0.15 s.
    // Its own thread also measures with `threads` threads, as the method says, not with the
    // caller's count.
    PeakFlops peak;
    std::exception_ptr failure;
    std::thread worker([&] {
        try {
            std::optional<c10::DeviceGuard> device_guard;
            if (device.is_cuda()) {
                device_guard.emplace(device);
            } else {
                // This thread alone: a measurement from the GUI must not change the trainer's.
                OpenMpRuntime::setThreadsHere(threads);
            }
            peak = measureHere(device, dtype, threads);
        } catch (...) {
            failure = std::current_exception();
        }
    });
    worker.join();
    if (failure) {
        std::rethrow_exception(failure);
    }
    cache.emplace(key, peak);
    return peak;
}

PeakFlops PeakFlops::measureOnCpu(Dtype dtype, int threads) {
    return measure(c10::Device(c10::kCPU), dtype, threads);
}

double PeakFlops::measureCpu(Dtype dtype, int threads) {
    return measureOnCpu(dtype, threads).flops_per_s;
}

}  // namespace memscope
