// Prints Memscope's training step time at a preset (default workshop-default with the CLI's
// default threads: all cores, fewer while other processes keep cores busy; --threads N fixes N).
// Compare with PyTorch on the same machine: scripts/bench_vs_pytorch.sh.
//
// --busy measures, in one run, the quiet step time and then the step time while a child process
// keeps one core busy (`sh -c 'while :; do :; done'`, killed afterwards), round after round, and
// prints both and the ratio busy / quiet (target <= 1.5 on the 2-core development machine). With
// the default threads each round also times a quiet run on one core fewer, what the trainer has
// once it leaves the busy core to the other process: busy / that says how close the thread
// governor comes to it, and quiet (one core fewer) / quiet how much the host gains from its last
// core, the floor of busy / quiet for any trainer that gives the busy core up. The
// OpenMP wait policy is the executables' (ThreadPolicy) unless GOMP_SPINCOUNT or OMP_WAIT_POLICY
// is set: `GOMP_SPINCOUNT=300000 bench_train --busy` times libgomp's own default.
//
// --other-session starts the busy process in a session of its own, as one started from another
// terminal is. With the kernel's autogroup scheduling (on by default on Debian) each session's
// processes then share a core's worth of weight: the busy process keeps its whole core and all
// of this process's threads together get the other one, whatever their number. Without it the
// busy process is this one's child, in its session, and the scheduler shares fairly per thread.
// Each round prints the cores this process used (its CPU time over the wall time of the run).

#include "train/thread_policy.h"
#include "train/trainer.h"

#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

using namespace memscope;

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

// A process that keeps one core busy until killed (and dies with this one); in a session of its
// own if `own_session`.
pid_t startBusyLoop(bool own_session) {
    const pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (own_session) {
            setsid();
        }
        execl("/bin/sh", "sh", "-c", "while :; do :; done", static_cast<char*>(nullptr));
        _exit(127);
    }
    return pid;
}

void stopBusyLoop(pid_t pid) {
    if (pid > 0) {
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
    }
}

// This process's CPU time (every thread, kernel included), in seconds.
double processCpuSeconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// The kernel's autogroup scheduling: "on", "off" or "unknown".
std::string autogroup() {
    std::ifstream in("/proc/sys/kernel/sched_autogroup_enabled");
    int on = -1;
    in >> on;
    return on == 1 ? "on" : on == 0 ? "off" : "unknown";
}

const char* envOr(const char* name, const char* fallback) {
    const char* v = std::getenv(name);
    return v ? v : fallback;
}

}  // namespace

int main(int argc, char** argv) {
    memscope::ThreadPolicy::applyWaitPolicy(argv);  // as the executables do
    std::string preset = "workshop-default";
    int threads = 0, steps = 30, rounds = 3, warmup = 3;
    bool busy = false;
    bool other_session = false;
    for (int i = 1; i < argc; ++i) {
        const std::string key = argv[i];
        if (key == "--busy") {
            busy = true;
            continue;
        }
        if (key == "--other-session") {
            other_session = true;
            continue;
        }
        if (i + 1 >= argc) {
            std::fprintf(stderr, "bench_train: %s needs a value\n", key.c_str());
            return 2;
        }
        const char* value = argv[++i];
        if (key == "--preset")
            preset = value;
        else if (key == "--threads")
            threads = std::atoi(value);
        else if (key == "--steps")
            steps = std::atoi(value);
        else if (key == "--rounds")
            rounds = std::atoi(value);
        else if (key == "--warmup")
            warmup = std::atoi(value);
        else {
            std::fprintf(stderr, "bench_train: unknown option %s\n", key.c_str());
            return 2;
        }
    }
    auto options = TrainOptions::fromPreset(preset);
    options.threads = threads;
    options.num_steps = steps;
    options.warmup_steps = warmup;
    const std::string thread_text =
        threads > 0 ? std::to_string(threads)
                    : "default (up to " + std::to_string(options.resolvedThreads()) + ", adaptive)";
    std::printf(
        "bench_train: %s, %s threads, %d timed steps (+%d warmup) per round%s; "
        "OMP_WAIT_POLICY=%s GOMP_SPINCOUNT=%s\n",
        preset.c_str(), thread_text.c_str(), steps, warmup, busy ? ", quiet then busy" : "",
        envOr("OMP_WAIT_POLICY", "(unset)"), envOr("GOMP_SPINCOUNT", "(unset)"));
    if (busy) {
        std::printf("the busy process runs in %s; autogroup scheduling %s\n",
                    other_session ? "a session of its own (as from another terminal)"
                                  : "this process's session",
                    autogroup().c_str());
    }
    auto run = [&](int round, const char* label, bool measure_peak,
                   const TrainOptions& o) -> double {
        Trainer trainer(o);
        trainer.setMeasurePeakFlops(measure_peak);
        const double cpu_before = processCpuSeconds();
        const auto wall_before = std::chrono::steady_clock::now();
        const auto s = trainer.run();
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_before).count();
        const double cores = wall > 0 ? (processCpuSeconds() - cpu_before) / wall : 0.0;
        if (!s.error.empty()) {
            std::fprintf(stderr, "bench_train: %s\n", s.error.c_str());
            std::exit(1);
        }
        std::printf(
            "round %d%s: avg step %.4f s (fwd %.4f, bwd %.4f, opt %.4f), %.1f samples/s, "
            "peak %lld bytes, threads %d (fewest %d), cores used %.2f\n",
            round, label, s.avgStep(), s.avgForward(), s.avgBackward(), s.avgOptimizer(),
            s.samplesPerSecond(), static_cast<long long>(s.peak_allocated_bytes), s.threads,
            s.fewest_threads > 0 ? s.fewest_threads : s.threads, cores);
        std::fflush(stdout);
        return s.avgStep();
    };
    // One core fewer, fixed: only with the default (adaptive) threads on more than one core.
    TrainOptions fewer = options;
    fewer.threads = options.resolvedThreads() - 1;
    const bool time_fewer = busy && threads == 0 && fewer.threads >= 1;
    const std::string fewer_label =
        " quiet, " + std::to_string(fewer.threads) + " thread" + (fewer.threads == 1 ? "" : "s");
    std::vector<double> quiet, loaded, ratios, quiet_fewer;
    for (int r = 0; r < rounds; ++r) {
        quiet.push_back(run(r + 1, busy ? " quiet" : "", r == 0, options));
        if (time_fewer) {
            quiet_fewer.push_back(run(r + 1, fewer_label.c_str(), false, fewer));
        }
        if (busy) {
            const pid_t loop = startBusyLoop(other_session);
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            loaded.push_back(run(r + 1, " busy ", false, options));
            stopBusyLoop(loop);
            ratios.push_back(loaded.back() / quiet.back());
        }
    }
    std::printf("median avg step: %.4f s\n", median(quiet));
    if (busy) {
        std::printf("busy machine (one core kept busy by another process):\n");
        std::printf("  quiet   %.4f s/step (median of %d rounds)\n", median(quiet), rounds);
        std::printf("  busy    %.4f s/step\n", median(loaded));
        std::printf("  busy / quiet %.3f (median of per-round ratios %.3f; target <= 1.5: %s)\n",
                    median(loaded) / median(quiet), median(ratios),
                    median(ratios) <= 1.5 ? "met" : "MISSED");
        if (time_fewer) {
            const double q1 = median(quiet_fewer);
            std::printf("  quiet, one core fewer (%d thread%s): %.4f s/step\n", fewer.threads,
                        fewer.threads == 1 ? "" : "s", q1);
            std::printf(
                "  busy / quiet on one core fewer %.3f (how close the governor comes to "
                "what the cores left to it can do)\n",
                median(loaded) / q1);
            std::printf(
                "  quiet on one core fewer / quiet %.3f (what the host gains from its "
                "last core: busy / quiet stays above it once that core is given up)\n",
                q1 / median(quiet));
        }
    }
    return 0;
}
