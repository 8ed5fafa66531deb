#pragma once

namespace memscope {

// How Memscope's executables use the CPU's cores, chosen so that a busy machine slows training
// down gracefully instead of tenfold.
//
// LibTorch (Debian's build) and OpenBLAS run their parallel regions on libgomp, whose idle
// threads spin for about 300,000 iterations before they sleep. When a team's threads do not each
// have a core (another process, or the GUI's own thread, is using one), a spinning thread burns
// the time slice that the thread it waits for needs, and every parallel region ends late: on the
// 2-core development machine with one other busy process a step took 10x as long. Spinning only
// briefly keeps the quiet speed (a short spin still catches the next region of a busy step) and
// sleeps soon enough when the waited-for thread is descheduled.
class ThreadPolicy {
  public:
    // Makes GOMP_SPINCOUNT (spinCount()) part of this process's environment unless the user set
    // it or OMP_WAIT_POLICY. libgomp reads both once, in its own constructor, which runs before
    // main() (setenv() in main() is too late, and so is one in the executable's .preinit_array:
    // libc's own initialisation then resets the environment to the one the process got), so
    // this re-executes the program (/proc/self/exe, the same argv) with the variable set. Call
    // it first thing in main(); it returns when the variable is already in force or the
    // re-execution failed (then libgomp's default stays).
    static void applyWaitPolicy(char** argv);
    // The spin count applyWaitPolicy() sets.
    static const char* spinCount();

    // Threads for a run started from the GUI: every core but one, which stays with the interface
    // (at least 1).
    static int interactiveThreads();
};

}  // namespace memscope
