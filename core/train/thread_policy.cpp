#include "train/thread_policy.h"

#include <unistd.h>
#include <algorithm>
#include <cstdlib>
#include <thread>

namespace memscope {

const char* ThreadPolicy::spinCount() {
    return "10000";
}

void ThreadPolicy::applyWaitPolicy(char** argv) {
    // Either variable set by the user means they chose: leave both alone. After the re-execution
    // GOMP_SPINCOUNT is set, which is what ends the recursion.
    if (std::getenv("OMP_WAIT_POLICY") != nullptr || std::getenv("GOMP_SPINCOUNT") != nullptr) {
        return;
    }
    if (setenv("GOMP_SPINCOUNT", spinCount(), 0) != 0) {
        return;
    }
    execv("/proc/self/exe", argv);
    // Only reached when exec failed: run on with libgomp's default.
    unsetenv("GOMP_SPINCOUNT");
}

int ThreadPolicy::interactiveThreads() {
    const int cores = static_cast<int>(std::thread::hardware_concurrency());
    return std::max(1, cores - 1);
}

}  // namespace memscope
