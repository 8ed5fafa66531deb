#pragma once

#include <QElapsedTimer>
#include <QTimer>

#include <functional>
#include <utility>
#include <vector>

// The GUI benchmarks' view of the event loop: a 1 ms timer on the GUI thread records every gap
// between two of its ticks (how long the loop went without turning), when each gap ended (ms
// since start()) and the GUI thread's CPU time inside it, so that a long gap can be told apart:
// work on the thread (CPU close to the gap) or the thread waiting for a core (CPU far below it).
class EventLoopHeartbeat {
  public:
    // onTick runs on every tick after the gap is recorded (e.g. to sample the last paint time).
    explicit EventLoopHeartbeat(std::function<void()> onTick = {});

    // The tick's interval (default 1 ms). A 1 ms timer wakes the GUI thread a thousand times a
    // second, which itself takes time from a trainer on every core; gaps are then measured to
    // within the interval.
    void setIntervalMs(int ms);
    void start();          // starts the clock and the timer
    void stopRecording();  // the timer keeps ticking; no more gaps are recorded
    double nowMs() const;  // ms since start()

    const std::vector<double>& gaps() const { return m_gaps; }
    const std::vector<double>& gapEnds() const { return m_gapEnds; }
    const std::vector<double>& gapCpu() const { return m_gapCpu; }

    // Quantile q (0..1) of the gaps, 0 when there are none.
    double quantile(double q) const;
    // The indexes of the n longest gaps, longest first.
    std::vector<size_t> longest(size_t n) const;

    static double threadCpuMs();  // CPU time of the calling thread

  private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    std::function<void()> m_onTick;
    bool m_recording = true;
    double m_last = 0, m_lastCpu = 0;
    std::vector<double> m_gaps, m_gapEnds, m_gapCpu;
};
