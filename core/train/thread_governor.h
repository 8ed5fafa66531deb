#pragma once

#include <cstdint>

namespace memscope {

// Adapts the number of training threads to the cores other processes leave free, step by step.
//
// With libgomp, a parallel region ends only when every thread of its team has finished its
// share; when another process keeps a core busy, the thread that shares that core runs only
// every other time slice and each of the thousands of regions in a step waits for it (on the
// 2-core development machine: 0.19 s per step quiet, 1.25 s busy with 2 threads, 0.28 s with 1).
// The governor measures, between steps, how many cores the rest of the machine kept busy (from
// /proc/stat minus this process's own CPU time) and gives training the cores that are left,
// between 1 and the maximum. On a quiet machine it never changes anything.
class ThreadGovernor {
  public:
    // CPU time counters at one moment, in clock ticks: the machine's busy and total time summed
    // over all cores, and this process's own (all its threads).
    struct CpuSample {
        bool valid = false;
        int64_t machine_busy = 0;
        int64_t machine_total = 0;
        int64_t self = 0;
    };

    // max_threads: what the run may use (>= 1); cores: the machine's.
    ThreadGovernor(int max_threads, int cores);

    // Takes a sample at a step boundary and returns the threads for the next step. Decides only
    // once at least min_interval_ticks per core have passed since the last decision, so that
    // the tick resolution of /proc (10 ms) does not decide on its own; until then, and with an
    // invalid sample, it keeps the current count.
    int update(const CpuSample& sample);
    int threads() const { return m_threads; }
    int maxThreads() const { return m_maxThreads; }
    // The smallest count it chose so far (its maximum when it never reduced).
    int fewestThreads() const { return m_fewest; }
    // Cores the other processes kept busy over the last decided interval.
    double othersBusyCores() const { return m_othersBusy; }

    // Reads /proc/stat and /proc/self/stat; invalid where they cannot be read.
    static CpuSample readCpuSample();
    // Cores kept busy by other processes between two samples (0 when the interval is empty).
    static double othersBusyCores(const CpuSample& from, const CpuSample& to, int cores);
    // The thread count that leaves others_busy cores (rounded) to the other processes.
    static int threadsFor(double others_busy, int cores, int max_threads);

    static constexpr int64_t min_interval_ticks = 20;

  private:
    int m_maxThreads;
    int m_cores;
    int m_threads;
    int m_fewest;
    double m_othersBusy = 0;
    CpuSample m_last;
};

}  // namespace memscope
