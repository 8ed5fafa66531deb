#pragma once

#include <ctime>

#include <cstdint>
#include <vector>

namespace memscope {

// The CPU time of the threads that train: the training thread and the threads of its OpenMP
// team (LibTorch's parallel loops, OpenBLAS and oneDNN run on that team). The thread governor
// counts what the process's other threads use (a GUI's thread painting, its render pool) as load
// from elsewhere when the front end asks it to, so that training gives the interface a core back
// when the interface needs more than half of one, as it does for another process.
class TrainingThreadClocks {
  public:
    // On the training thread: adds the CPU clocks of this thread and of its OpenMP team of
    // `threads` (the threads LibTorch's parallel regions on this thread run on). Call again
    // after the count changes; clocks already known are kept, so the sum only grows. False when
    // the team could not be seen (no OpenMP runtime in the process): then only the process's
    // CPU as a whole tells what the run uses.
    bool collect(int threads);
    // The training threads' CPU time, in clock ticks (what /proc/stat counts in). A thread that
    // ended counts with what it had used when last read.
    int64_t cpuTicks();
    // How many threads' clocks it reads.
    size_t threads() const { return m_clocks.size(); }

  private:
    struct Clock {
        clockid_t id;
        int64_t last_ns = 0;
    };
    void add(clockid_t id);
    std::vector<Clock> m_clocks;
};

}  // namespace memscope
