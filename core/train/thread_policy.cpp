#include "train/thread_policy.h"

#include <algorithm>
#include <cstdlib>
#include <thread>

namespace memscope {

const char* ThreadPolicy::spinCount() {
    return "10000";
}

void ThreadPolicy::applyWaitPolicy() {
    // Either variable set by the user means they chose: leave both alone.
    if (std::getenv("OMP_WAIT_POLICY") != nullptr || std::getenv("GOMP_SPINCOUNT") != nullptr) {
        return;
    }
    setenv("GOMP_SPINCOUNT", spinCount(), 0);
}

int ThreadPolicy::interactiveThreads() {
    const int cores = static_cast<int>(std::thread::hardware_concurrency());
    return std::max(1, cores - 1);
}

}  // namespace memscope
