#pragma once

// The recorder's clock: nanoseconds since it started, read on every op call (twice) and every
// allocation of a recording, about 40,000 times a workshop-default step.
//
// steady_clock reads the TSC through the vDSO behind a fence (lfence; rdtsc), which waits for
// every load in flight: inside the recorder's callbacks it took 25-55 ns a read here, most of
// it the cache misses before it. Where the TSC is invariant (CPUID) and the kernel keeps its own
// time with it (current clocksource "tsc", which the kernel picks only once it has found the
// cores' counters in step), this clock reads the TSC without a fence and scales it by a factor
// measured against steady_clock when the clock starts (about 2 ms, error about 1e-5). Elsewhere
// (other processors, kvm-clock, hpet, MEMSCOPE_CLOCK=steady) it is steady_clock itself.
//
// The factor is fixed for the clock's life, so every time it gives is on one scale: spans,
// events and phases stay consistent with one another, and differ from steady_clock's
// durations by the calibration error only.

#include <chrono>
#include <cstdint>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace memscope {

class RecorderClock {
  public:
    // Starts the clock (and calibrates it when it reads the TSC).
    RecorderClock();

    int64_t nowNs() const {
#if defined(__x86_64__)
        if (m_tsc) {
            const uint64_t ticks = __rdtsc() - m_tsc0;
            return static_cast<int64_t>((static_cast<unsigned __int128>(ticks) * m_mult) >> 32);
        }
#endif
        return std::chrono::duration_cast<std::chrono::nanoseconds>(
                   std::chrono::steady_clock::now() - m_start)
            .count();
    }

    // Whether it reads the TSC, and its frequency then (ticks per second).
    bool usesTsc() const {
        return m_tsc;
    }
    double tscHz() const;
    // Whether this machine's TSC can be used (invariant, and the kernel's clocksource).
    static bool tscUsable();

  private:
    bool m_tsc = false;
    uint64_t m_tsc0 = 0;
    uint64_t m_mult = 0;  // nanoseconds per tick, 32.32 fixed point
    std::chrono::steady_clock::time_point m_start;
};

}  // namespace memscope
