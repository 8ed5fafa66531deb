#include "event_loop_heartbeat.h"

#include <algorithm>
#include <ctime>
#include <numeric>

EventLoopHeartbeat::EventLoopHeartbeat(std::function<void()> onTick) : m_onTick(std::move(onTick)) {
    m_timer.setInterval(1);
    QObject::connect(&m_timer, &QTimer::timeout, [this] {
        const double now = nowMs();
        const double cpu = threadCpuMs();
        if (m_recording) {
            m_gaps.push_back(now - m_last);
            m_gapEnds.push_back(now);
            m_gapCpu.push_back(cpu - m_lastCpu);
        }
        m_last = now;
        m_lastCpu = cpu;
        if (m_onTick) {
            m_onTick();
        }
    });
}

void EventLoopHeartbeat::setIntervalMs(int ms) {
    m_timer.setInterval(std::max(1, ms));
}

void EventLoopHeartbeat::start() {
    m_clock.start();
    m_lastCpu = threadCpuMs();
    m_timer.start();
}

void EventLoopHeartbeat::stopRecording() {
    m_recording = false;
}

double EventLoopHeartbeat::nowMs() const {
    return m_clock.isValid() ? double(m_clock.nsecsElapsed()) / 1e6 : 0.0;
}

double EventLoopHeartbeat::quantile(double q) const {
    if (m_gaps.empty()) {
        return 0;
    }
    std::vector<double> sorted = m_gaps;
    const size_t k = size_t(double(sorted.size() - 1) * std::clamp(q, 0.0, 1.0));
    std::nth_element(sorted.begin(), sorted.begin() + std::ptrdiff_t(k), sorted.end());
    return sorted[k];
}

std::vector<size_t> EventLoopHeartbeat::longest(size_t n) const {
    std::vector<size_t> order(m_gaps.size());
    std::iota(order.begin(), order.end(), size_t(0));
    n = std::min(n, order.size());
    std::partial_sort(order.begin(), order.begin() + std::ptrdiff_t(n), order.end(),
                      [this](size_t a, size_t b) { return m_gaps[a] > m_gaps[b]; });
    order.resize(n);
    return order;
}

double EventLoopHeartbeat::threadCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}
