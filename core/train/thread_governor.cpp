#include "train/thread_governor.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace memscope {

ThreadGovernor::ThreadGovernor(int max_threads, int cores)
    : m_maxThreads(std::max(1, max_threads)),
      m_cores(std::max(1, cores)),
      m_threads(m_maxThreads),
      m_fewest(m_maxThreads) {}

int ThreadGovernor::update(const CpuSample& sample) {
    if (!sample.valid) {
        return m_threads;
    }
    if (!m_last.valid) {
        m_last = sample;
        return m_threads;
    }
    const int64_t elapsed = sample.machine_total - m_last.machine_total;
    if (elapsed < min_interval_ticks * m_cores) {
        return m_threads;
    }
    m_othersBusy = othersBusyCores(m_last, sample, m_cores);
    m_last = sample;
    m_threads = threadsFor(m_othersBusy, m_cores, m_maxThreads);
    m_fewest = std::min(m_fewest, m_threads);
    return m_threads;
}

double ThreadGovernor::othersBusyCores(const CpuSample& from, const CpuSample& to, int cores) {
    const int64_t total = to.machine_total - from.machine_total;
    if (!from.valid || !to.valid || total <= 0 || cores < 1) {
        return 0;
    }
    const int64_t busy = to.machine_busy - from.machine_busy;
    const int64_t self = to.self - from.self;
    const double wall_per_core = static_cast<double>(total) / cores;
    return std::max(0.0, static_cast<double>(busy - self) / wall_per_core);
}

int ThreadGovernor::threadsFor(double others_busy, int cores, int max_threads) {
    const int taken = static_cast<int>(std::lround(std::max(0.0, others_busy)));
    return std::clamp(cores - taken, 1, std::max(1, max_threads));
}

ThreadGovernor::CpuSample ThreadGovernor::readCpuSample() {
    CpuSample sample;
    std::ifstream stat("/proc/stat");
    std::string label;
    if (!(stat >> label) || label != "cpu") {
        return sample;
    }
    // user nice system idle iowait irq softirq steal (guest time is counted in user already)
    int64_t field[8] = {};
    for (auto& value : field) {
        if (!(stat >> value)) {
            return sample;
        }
    }
    const int64_t idle = field[3] + field[4];
    int64_t total = 0;
    for (const auto value : field) {
        total += value;
    }
    std::ifstream self_stat("/proc/self/stat");
    std::string line;
    if (!std::getline(self_stat, line)) {
        return sample;
    }
    // The command name (field 2) may hold spaces: fields are counted after its closing ')'.
    const auto close = line.rfind(')');
    if (close == std::string::npos) {
        return sample;
    }
    std::istringstream rest(line.substr(close + 1));
    std::string value;
    int64_t utime = -1, stime = -1;
    for (int index = 3; rest >> value; ++index) {
        if (index == 14) {
            utime = std::strtoll(value.c_str(), nullptr, 10);
        } else if (index == 15) {
            stime = std::strtoll(value.c_str(), nullptr, 10);
            break;
        }
    }
    if (utime < 0 || stime < 0) {
        return sample;
    }
    sample.valid = true;
    sample.machine_total = total;
    sample.machine_busy = total - idle;
    sample.self = utime + stime;
    return sample;
}

}  // namespace memscope
