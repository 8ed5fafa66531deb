#include "train/peak_flops.h"

#include <torch/cuda.h>
#include <torch/torch.h>

#include <chrono>
#include <map>
#include <mutex>
#include <sstream>
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

}  // namespace

PeakFlops PeakFlops::measure(const c10::Device& device, Dtype dtype, int threads) {
    static std::mutex mutex;
    static std::map<std::tuple<std::string, int, int>, PeakFlops> cache;
    const auto key = std::make_tuple(device.str(), static_cast<int>(dtype), threads);
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = cache.find(key); it != cache.end()) {
        return it->second;
    }

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
    cache.emplace(key, peak);
    return peak;
}

double PeakFlops::measureCpu(Dtype dtype, int threads) {
    return measure(c10::Device(c10::kCPU), dtype, threads).flops_per_s;
}

}  // namespace memscope
