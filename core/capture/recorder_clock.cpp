#include "capture/recorder_clock.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace memscope {

namespace {

using SteadyClock = std::chrono::steady_clock;

#if defined(__x86_64__)
// steady_clock's time with the TSC at that moment: the TSC read before and after it, the pair
// kept only when they are close (no interrupt or preemption between them), its midpoint taken.
bool pairedReading(SteadyClock::time_point& time, uint64_t& tsc) {
    for (int attempt = 0; attempt < 100; ++attempt) {
        const uint64_t before = __rdtsc();
        const SteadyClock::time_point now = SteadyClock::now();
        const uint64_t after = __rdtsc();
        if (after - before < 20000) {  // well under 10 us at any TSC frequency in use
            time = now;
            tsc = before + (after - before) / 2;
            return true;
        }
    }
    return false;
}
#endif

}  // namespace

bool RecorderClock::tscUsable() {
#if defined(__x86_64__)
    if (const char* choice = std::getenv("MEMSCOPE_CLOCK")) {
        if (std::strcmp(choice, "steady") == 0) {
            return false;
        }
    }
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (__get_cpuid_max(0x80000000u, nullptr) < 0x80000007u) {
        return false;
    }
    __cpuid(0x80000007u, eax, ebx, ecx, edx);
    if ((edx & (1u << 8)) == 0) {  // invariant TSC: constant rate in every power state
        return false;
    }
    std::ifstream in("/sys/devices/system/clocksource/clocksource0/current_clocksource");
    std::string source;
    return static_cast<bool>(in >> source) && source == "tsc";
#else
    return false;
#endif
}

RecorderClock::RecorderClock() : m_start(SteadyClock::now()) {
#if defined(__x86_64__)
    if (!tscUsable()) {
        return;
    }
    SteadyClock::time_point t0, t1;
    uint64_t c0 = 0, c1 = 0;
    if (!pairedReading(t0, c0)) {
        return;
    }
    // About 2 ms: each reading is good to tens of nanoseconds, so the factor to about 1e-5.
    do {
        if (!pairedReading(t1, c1)) {
            return;
        }
    } while (t1 - t0 < std::chrono::milliseconds(2));
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count();
    if (ns <= 0 || c1 <= c0) {
        return;
    }
    m_mult = static_cast<uint64_t>((static_cast<unsigned __int128>(ns) << 32) / (c1 - c0));
    // Zero where steady_clock's zero is: the first paired reading.
    m_tsc0 =
        c0 - static_cast<uint64_t>(
                 (static_cast<unsigned __int128>(
                      std::chrono::duration_cast<std::chrono::nanoseconds>(t0 - m_start).count())
                  << 32) /
                 m_mult);
    m_tsc = m_mult > 0;
#endif
}

double RecorderClock::tscHz() const {
    return m_tsc ? 1e9 * 4294967296.0 / double(m_mult) : 0.0;
}

}  // namespace memscope
