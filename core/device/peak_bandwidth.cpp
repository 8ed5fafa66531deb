#include "device/peak_bandwidth.h"

#include <torch/cuda.h>
#include <torch/torch.h>

#include <chrono>
#include <map>
#include <mutex>
#include <sstream>
#include <utility>

namespace memscope {

PeakBandwidth PeakBandwidth::measure(const c10::Device& device, int threads) {
    static std::mutex mutex;
    static std::map<std::pair<std::string, int>, PeakBandwidth> cache;
    const bool gpu = device.is_cuda();
    const int previous_threads = at::get_num_threads();
    const int used_threads = gpu ? 0 : (threads > 0 ? threads : previous_threads);
    const auto key = std::make_pair(device.str(), used_threads);
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = cache.find(key); it != cache.end()) {
        return it->second;
    }
    if (!gpu && used_threads != previous_threads) {
        at::set_num_threads(used_threads);
    }

    torch::NoGradGuard no_grad;
    // 3 x 64 MiB on a CPU (caches are a few MiB), 3 x 1 GiB on a GPU.
    const int64_t n = gpu ? (int64_t(1) << 28) : (int64_t(1) << 24);
    const auto options = torch::TensorOptions(device).dtype(torch::kFloat32);
    auto a = torch::empty({n}, options);
    auto b = torch::ones({n}, options);
    auto c = torch::ones({n}, options);
    auto sync = [gpu] {
        if (gpu) {
            torch::cuda::synchronize();
        }
    };
    at::add_out(a, b, c, 3.0);  // warm up: pages touched, thread pool started
    sync();
    double best = 0;
    for (int rep = 0; rep < 5; ++rep) {
        const auto t0 = std::chrono::steady_clock::now();
        at::add_out(a, b, c, 3.0);
        sync();
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        best = std::max(best, 3.0 * 4.0 * double(n) / s);
    }
    if (!gpu && used_threads != previous_threads) {
        at::set_num_threads(previous_threads);
    }
    PeakBandwidth peak;
    peak.bytes_per_s = best;
    std::ostringstream method;
    method << "measured: best of 5 triads a = b + s*c over 3 x " << (4 * n >> 20)
           << " MiB fp32 arrays on " << device.str();
    if (!gpu) {
        method << " with " << used_threads << " thread" << (used_threads == 1 ? "" : "s");
    }
    peak.method = method.str();
    cache.emplace(key, peak);
    return peak;
}

PeakBandwidth PeakBandwidth::measureOnCpu(int threads) {
    return measure(c10::Device(c10::kCPU), threads);
}

}  // namespace memscope
