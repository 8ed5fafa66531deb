#include "device/openmp_runtime.h"

#include <dlfcn.h>

#include <algorithm>

namespace memscope {

bool OpenMpRuntime::setThreadsHere(int threads) {
    using SetThreads = void (*)(int);
    const auto set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
    if (set == nullptr) {
        return false;
    }
    set(std::max(1, threads));
    return true;
}

bool OpenMpRuntime::runOnTeam(int threads, void (*fn)(void*), void* data) {
    using Parallel = void (*)(void (*)(void*), void*, unsigned, unsigned);
    const auto parallel = reinterpret_cast<Parallel>(dlsym(RTLD_DEFAULT, "GOMP_parallel"));
    if (parallel == nullptr) {
        return false;
    }
    parallel(fn, data, unsigned(std::max(1, threads)), 0);
    return true;
}

}  // namespace memscope
