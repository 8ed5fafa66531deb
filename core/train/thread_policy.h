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
    // Sets GOMP_SPINCOUNT (and OMP_WAIT_POLICY when `passive`) in the environment, unless the
    // user set either: call it first thing in main(), before anything starts the OpenMP runtime
    // (libgomp reads them once, when it is loaded and initialised).
    static void applyWaitPolicy();
    // The spin count applyWaitPolicy() sets.
    static const char* spinCount();

    // Threads for a run started from the GUI: every core but one, which stays with the interface
    // (at least 1).
    static int interactiveThreads();
};

}  // namespace memscope

// Applies ThreadPolicy::applyWaitPolicy() before any shared library's initialiser runs: libgomp
// reads its environment in its own constructor, before main(), so setenv() in main() would be
// too late. Use once, at namespace scope, in the file holding an executable's main() (only an
// executable's .preinit_array runs that early).
#define MEMSCOPE_THREAD_POLICY_BEFORE_LIBRARIES()                                             \
    namespace {                                                                               \
    void memscopeApplyThreadPolicy(int, char**, char**) {                                     \
        memscope::ThreadPolicy::applyWaitPolicy();                                            \
    }                                                                                         \
    __attribute__((section(".preinit_array"),                                                 \
                   used)) void (*const memscopePreinit)(int, char**,                          \
                                                        char**) = &memscopeApplyThreadPolicy; \
    }
