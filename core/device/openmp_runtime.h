#pragma once

namespace memscope {

// The OpenMP runtime LibTorch loaded (Debian's libgomp, or the copy an official LibTorch bundles
// under another name), reached through dlsym: Memscope is compiled without -fopenmp and does not
// link a runtime of its own, so a second one never enters the process. Each call reports whether
// the runtime had the entry point; without one there is no team to size or run on.
class OpenMpRuntime {
  public:
    // Sets the team size of the calling thread alone (omp_set_num_threads). Not
    // at::set_num_threads: that also sets the process-wide count every new thread's first
    // parallel loop adopts (at::init_num_threads) and resizes the global pthreadpool.
    static bool setThreadsHere(int threads);
    // Runs fn(data) on each of the `threads` threads of the calling thread's team, the calling
    // thread included (GOMP_parallel, libgomp's entry point for `#pragma omp parallel`, which
    // LLVM's and Intel's runtimes export too). Not at::parallel_for: its OpenMP body is in
    // ATen's headers, and compiled without -fopenmp it runs serially on the caller.
    static bool runOnTeam(int threads, void (*fn)(void*), void* data);
};

}  // namespace memscope
