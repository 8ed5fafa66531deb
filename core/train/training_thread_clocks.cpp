#include "train/training_thread_clocks.h"

#include "device/openmp_runtime.h"

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <mutex>

namespace memscope {

void TrainingThreadClocks::add(clockid_t id) {
    const bool known =
        std::any_of(m_clocks.begin(), m_clocks.end(), [id](const Clock& c) { return c.id == id; });
    if (!known) {
        m_clocks.push_back({id, 0});
    }
}

namespace {

struct Seen {
    std::mutex mutex;
    std::vector<clockid_t> ids;
};

void noteClock(void* data) {
    auto* seen = static_cast<Seen*>(data);
    clockid_t id;
    if (pthread_getcpuclockid(pthread_self(), &id) == 0) {
        std::lock_guard<std::mutex> lock(seen->mutex);
        seen->ids.push_back(id);
    }
}

}  // namespace

bool TrainingThreadClocks::collect(int threads) {
    clockid_t own;
    if (pthread_getcpuclockid(pthread_self(), &own) == 0) {
        add(own);
    }
    if (threads <= 1) {
        return !m_clocks.empty();
    }
    // A parallel region of `threads` on this thread's team: the threads its LibTorch regions
    // run on. Without an OpenMP runtime the team cannot be seen.
    Seen seen;
    if (!OpenMpRuntime::runOnTeam(threads, &noteClock, &seen)) {
        return false;
    }
    for (const clockid_t id : seen.ids) {
        add(id);
    }
    return seen.ids.size() >= size_t(threads);
}

int64_t TrainingThreadClocks::cpuTicks() {
    int64_t total_ns = 0;
    for (auto& clock : m_clocks) {
        timespec t{};
        if (clock_gettime(clock.id, &t) == 0) {
            clock.last_ns = int64_t(t.tv_sec) * 1000000000 + t.tv_nsec;
        }
        total_ns += clock.last_ns;
    }
    static const long ticks_per_second = std::max(1L, sysconf(_SC_CLK_TCK));
    return total_ns / (1000000000 / ticks_per_second);
}

}  // namespace memscope
