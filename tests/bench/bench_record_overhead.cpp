// Recording overhead: average step time with the recorder attached over the same run without
// it. Each round runs a plain run, a recorded one and one recorded with the journal that
// protects a run against a crash (io/run_journal.h), each in a fresh process of its own, in an
// order that alternates between rounds, and prints the step times, their ratios and the page
// faults per timed step (load-independent: on a virtual machine a fault costs tens of
// microseconds). Targets: recorded and journaled each <= 1.05 of a plain step.
//
// --in-process runs every configuration in this one process instead, each as a new trainer or
// recording session: what differs between processes (where the heap and the model land, which
// moved a plain step by up to 20% from one process to the next here) is then the same for all
// three, and short rounds sample the machine's load finely, so the ratios scatter far less.
// Each round also prints the process's CPU time per timed step (every thread, kernel included),
// which does not depend on how busy the rest of the machine is. --observed adds a run observed
// by an empty record-function callback on the recorder's scopes: LibTorch's share of the cost.
//
//   bench_record_overhead [--preset P] [--threads N] [--steps N] [--rounds N] [--warmup N]
//                         [--poll-ms MS] [--record-shapes] [--in-process] [--observed]
//                         [--journal-dir DIR]
//   bench_record_overhead --per-call [--calls N]
//
// --per-call times (in CPU time of the calling thread) one cheap LibTorch op call (a select, what
// LibTorch's own kernels call most often: about 18,000 op calls per workshop-default step, most of
// them views) with no callback, with an empty record-function callback (LibTorch's own cost of
// observing an op) and with the recorder attached, and prints the cost per call of each; then with
// the recorder drained every 10,000 calls as a run's consumer drains it (its reused buffers then
// fault no fresh pages), and the recorder's own cost per op call (a select makes two: it calls
// as_strided). The full runs also print the CPU time per step of the thread that polls the session:
// it drains the recorder and, journaled, writes the journal, so the difference between the two is
// the journal's cost. The summary says in how many runs the trace's columns asked for huge pages
// (trace/huge_page_policy.h: MEMSCOPE_HUGE_PAGES=1; 4 KiB pages by default). Each ratio's median
// comes with a 90% bootstrap interval over the rounds, and recorded and journaled with a verdict:
// met when the whole interval is under the target, so one lucky run does not pass it.

#include "capture/recording_session.h"
#include "io/run_journal.h"
#include "trace/huge_page_policy.h"
#include "train/thread_policy.h"

#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

using namespace memscope;

namespace {

double median(std::vector<double> v) {
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// A 90% bootstrap interval of the median of `v`: the 5th and 95th percentiles of the medians of
// 4,000 resamples of it (with replacement, fixed seed so that a run's figures can be repeated).
// How far the host's noise leaves a run's median from where another run of it would land.
std::pair<double, double> medianInterval(const std::vector<double>& v) {
    if (v.size() < 2) {
        const double m = median(v);
        return {m, m};
    }
    std::mt19937_64 rng(20261126);
    std::uniform_int_distribution<size_t> pick(0, v.size() - 1);
    std::vector<double> medians, sample(v.size());
    for (int i = 0; i < 4000; ++i) {
        for (auto& x : sample) {
            x = v[pick(rng)];
        }
        medians.push_back(median(sample));
    }
    std::sort(medians.begin(), medians.end());
    return {medians[medians.size() * 5 / 100], medians[medians.size() * 95 / 100]};
}

// Median timed step: unlike the mean, a step that another process or the kernel stalled does
// not move it; unlike the fastest, it is the typical step.
double medianStep(const RunSummary& s) {
    std::vector<double> times;
    for (const auto& step : s.steps) {
        if (!step.warmup)
            times.push_back(step.total_s);
    }
    return median(times);
}

// Fastest timed step: less sensitive than the mean to other work on a shared machine.
double fastestStep(const RunSummary& s) {
    double best = 1e30;
    for (const auto& step : s.steps) {
        if (!step.warmup)
            best = std::min(best, step.total_s);
    }
    return best;
}

// CPU nanoseconds per call of a cheap op (select of a small tensor), best of five batches. With
// `drain`, it is called every kDrainEvery calls with the clock stopped, as the consumer of a run
// drains the recorder while it goes on (on another thread); what it costs is returned apart.
constexpr int64_t kDrainEvery = 10000;
struct PerSelect {
    double ns = 0;        // the calling thread's time per call
    double drain_ns = 0;  // the drains' time per call (0 without)
};
// The calling thread's CPU time (user and system, page faults included) in nanoseconds: unlike
// the wall clock it leaves out the time other processes on a shared machine run instead.
double threadCpuNs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e9 + double(ts.tv_nsec);
}

PerSelect nsPerSelect(int64_t calls, const std::function<void()>& drain = {}) {
    const auto x = at::ones({8, 16, 16});
    PerSelect best{1e30, 0};
    for (int batch = 0; batch < 5; ++batch) {
        double ns = 0, drain_ns = 0;
        for (int64_t done = 0; done < calls;) {
            const int64_t n = drain ? std::min(kDrainEvery, calls - done) : calls - done;
            const double start = threadCpuNs();
            for (int64_t i = done; i < done + n; ++i) {
                auto view = x.select(0, i & 7);
                (void)view;
            }
            const double end = threadCpuNs();
            ns += end - start;
            done += n;
            if (drain) {
                drain();
                drain_ns += threadCpuNs() - end;
            }
        }
        if (ns / double(calls) < best.ns) {
            best = {ns / double(calls), drain_ns / double(calls)};
        }
    }
    return best;
}

// A record-function callback that does nothing, on the scopes the recorder observes: what
// LibTorch itself costs to observe an op call.
at::RecordFunctionCallback emptyCallback() {
    return at::RecordFunctionCallback(
               [](const at::RecordFunction&) -> std::unique_ptr<at::ObserverContext> {
                   return nullptr;
               },
               [](const at::RecordFunction&, at::ObserverContext*) {})
        .needsInputs(false)
        .scopes({at::RecordScope::FUNCTION, at::RecordScope::BACKWARD_FUNCTION,
                 at::RecordScope::USER_SCOPE});
}

int perCall(int64_t calls) {
    const double plain = nsPerSelect(calls).ns;
    double empty = 0;
    {
        const auto handle = at::addThreadLocalCallback(emptyCallback());
        empty = nsPerSelect(calls).ns;
        at::removeCallback(handle);
    }
    double recorded = 0;
    double ops_per_select = 1;
    {
        Recorder recorder;
        recorder.onRunThreadStart();
        recorded = nsPerSelect(calls).ns;
        recorder.onRunThreadEnd();
        Trace trace;
        recorder.drainInto(trace);
        ops_per_select = double(trace.spans.size()) / double(5 * calls);
        std::printf("(recorded %zu op spans, %.2f op calls per select)\n", trace.spans.size(),
                    ops_per_select);
    }
    PerSelect drained;
    {
        Recorder recorder;
        Trace trace;
        recorder.onRunThreadStart();
        drained = nsPerSelect(calls, [&] { recorder.drainInto(trace); });
        recorder.onRunThreadEnd();
    }
    std::printf(
        "per op call: plain %.0f ns, empty record-function callback %.0f ns (+%.0f), recorder "
        "%.0f ns (+%.0f over plain, +%.0f over the empty callback)\n",
        plain, empty, empty - plain, recorded, recorded - plain, recorded - empty);
    std::printf(
        "drained every %lld calls as a consumer would (clock stopped meanwhile): recorder %.0f "
        "ns (+%.0f over the empty callback); the drains cost %.0f ns per call\n",
        static_cast<long long>(kDrainEvery), drained.ns, drained.ns - empty, drained.drain_ns);
    std::printf(
        "the recorder's own cost per op call (%.2f per select): %.0f ns undrained, %.0f ns "
        "drained\n",
        ops_per_select, (recorded - empty) / ops_per_select, (drained.ns - empty) / ops_per_select);
    return 0;
}

// Minor page faults of the process so far. On a virtual machine each one can cost tens of
// microseconds, so a run that keeps touching fresh memory pays for it in step time: the counts
// are printed beside the times because they do not depend on the machine's load.
long minorFaults() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
}

// Minor page faults of the calling thread so far.
long threadFaults() {
    rusage usage{};
    getrusage(RUSAGE_THREAD, &usage);
    return usage.ru_minflt;
}

// Page faults during the timed steps only (from the end of the last warmup step to the end of
// the last step), per step: set-up and warmup fault in the model once and are left out.
double processCpuMs();

struct StepFaults {
    long at_warmup_end = -1;
    long at_end = -1;
    double cpu_at_warmup_end = 0, cpu_at_end = 0;  // process CPU time, ms
    // The training thread's own CPU time, ms (the callback runs on it): what recording costs
    // that thread, without the time the machine's other work takes from it.
    double trainer_at_warmup_end = 0, trainer_at_end = 0;
    int64_t timed_steps = 0;
    std::function<void(const StepMetrics&)> callback(int64_t warmup) {
        return [this, warmup](const StepMetrics& step) {
            const long now = minorFaults();
            const double cpu = processCpuMs();
            const double trainer = threadCpuNs() / 1e6;
            if (step.step == warmup) {
                at_warmup_end = now;
                cpu_at_warmup_end = cpu;
                trainer_at_warmup_end = trainer;
            }
            if (step.step > warmup) {
                at_end = now;
                cpu_at_end = cpu;
                trainer_at_end = trainer;
                ++timed_steps;
            }
        };
    }
    double trainerCpuPerStep() const {
        if (at_warmup_end < 0 || timed_steps == 0)
            return 0;
        return (trainer_at_end - trainer_at_warmup_end) / double(timed_steps);
    }
    // Process CPU time per timed step, ms (0 without a warmup step to start from).
    double cpuPerStep() const {
        if (at_warmup_end < 0 || timed_steps == 0)
            return 0;
        return (cpu_at_end - cpu_at_warmup_end) / double(timed_steps);
    }
    double perStep() const {
        if (at_end < 0 || timed_steps == 0)
            return 0;
        return double(at_end - std::max(at_warmup_end, 0L)) / double(timed_steps);
    }
};

// One run's figures, as a child process prints them on its last line.
struct ChildResult {
    double avg = 0, fastest = 0, faults = 0, events = 0, journal_mb = 0, consumer_ms = 0,
           cpu_ms = 0, median = 0, trainer_ms = 0, consumer_faults = 0;
    double huge_pages = 0;  // 1 when the run's process gave the trace's columns huge pages
};

// CPU time the calling thread has used so far, in milliseconds.
double threadCpuMs() {
    return threadCpuNs() / 1e6;
}

// Where the journaled runs write their journal (--journal-dir): its file system decides what
// the kernel's writeback costs.
std::string g_journalDir = "/tmp";

// Process CPU time (every thread, user and system) in milliseconds.
double processCpuMs() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return (double(usage.ru_utime.tv_sec) + double(usage.ru_stime.tv_sec)) * 1e3 +
           (double(usage.ru_utime.tv_usec) + double(usage.ru_stime.tv_usec)) / 1e3;
}

// Runs one configuration in this process: consumer is the CPU time per step (warmup included) of
// the thread that polls the session, which drains the recorder and, journaled, also writes the
// journal; cpu is the whole process's CPU time per timed step (training, consumer and kernel).
ChildResult runConfiguration(const std::string& mode, const TrainOptions& options, bool shapes,
                             int poll_ms) {
    StepFaults faults;
    RunSummary summary;
    size_t events = 0;
    int64_t journal_bytes = 0;
    double consumer_ms = 0;
    long consumer_faults = 0;
    if (mode == "plain" || mode == "observed") {
        Trainer trainer(options);
        trainer.setMeasurePeakFlops(false);
        trainer.setStepCallback(faults.callback(options.warmup_steps));
        // Training on a thread of its own, as the recorded runs and the GUI do. Observed:
        // LibTorch's share, the same record-function callbacks the recorder registers, empty.
        std::thread thread([&] {
            const auto handle =
                mode == "observed" ? at::addThreadLocalCallback(emptyCallback()) : 0;
            summary = trainer.run();
            if (handle != 0) {
                at::removeCallback(handle);
            }
        });
        thread.join();
    } else if (mode == "recorded" || mode == "journaled") {
        const bool journal = mode == "journaled";
        const std::string journal_path =
            g_journalDir + "/bench_record_overhead." + std::to_string(getpid()) + ".journal";
        Recorder::Options ro;
        ro.record_shapes = shapes;
        RecordingSession session(options, ro);
        session.setMeasurePeakFlops(false);
        session.setStepCallback(faults.callback(options.warmup_steps));
        if (journal) {
            session.setJournal(journal_path);
        }
        session.start();
        // The consumer polls like the GUI unless --poll-ms 0 (drain once at the end).
        while (poll_ms > 0 && session.running()) {
            const double before = threadCpuMs();
            const long faults_before = threadFaults();
            session.poll();
            consumer_ms += threadCpuMs() - before;
            consumer_faults += threadFaults() - faults_before;
            std::this_thread::sleep_for(std::chrono::milliseconds(poll_ms));
        }
        summary = session.finish();
        events = session.trace().events.count();
        if (journal) {
            if (FILE* f = std::fopen(journal_path.c_str(), "rb")) {
                std::fseek(f, 0, SEEK_END);
                journal_bytes = std::ftell(f);
                std::fclose(f);
            }
            session.discardJournal();
        }
    } else {
        throw std::runtime_error("unknown run " + mode);
    }
    ChildResult r;
    const double steps = double(std::max<size_t>(summary.steps.size(), 1));
    r.avg = summary.avgStep();
    r.fastest = fastestStep(summary);
    r.median = medianStep(summary);
    r.trainer_ms = faults.trainerCpuPerStep();
    r.consumer_faults = double(consumer_faults) / steps;
    r.faults = faults.perStep();
    r.events = double(events);
    r.journal_mb = double(journal_bytes) / 1e6;
    r.consumer_ms = consumer_ms / steps;
    r.cpu_ms = faults.cpuPerStep();
    r.huge_pages = HugePagePolicy::current().use_huge_pages ? 1 : 0;
    return r;
}

int runChild(const std::string& mode, const TrainOptions& options, bool shapes, int poll_ms) {
    try {
        const ChildResult r = runConfiguration(mode, options, shapes, poll_ms);
        std::printf("RESULT %.6f %.6f %.1f %.0f %.3f %.3f %.3f %.6f %.3f %.1f %.0f\n", r.avg,
                    r.fastest, r.faults, r.events, r.journal_mb, r.consumer_ms, r.cpu_ms, r.median,
                    r.trainer_ms, r.consumer_faults, r.huge_pages);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_record_overhead: %s\n", e.what());
        return 2;
    }
    return 0;
}

// Starts `command`, returns the figures of its RESULT line.
std::optional<ChildResult> spawnChild(const std::string& command) {
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr) {
        return std::nullopt;
    }
    std::optional<ChildResult> result;
    char line[512];
    while (std::fgets(line, sizeof line, pipe) != nullptr) {
        ChildResult r;
        if (std::sscanf(line, "RESULT %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf", &r.avg,
                        &r.fastest, &r.faults, &r.events, &r.journal_mb, &r.consumer_ms, &r.cpu_ms,
                        &r.median, &r.trainer_ms, &r.consumer_faults, &r.huge_pages) == 11) {
            result = r;
        }
    }
    if (pclose(pipe) != 0) {
        return std::nullopt;
    }
    return result;
}

}  // namespace

int main(int argc, char** argv) {
    memscope::ThreadPolicy::applyWaitPolicy(argv);  // as the executables do
    std::string preset = "workshop-default";
    int threads = 2, steps = 20, rounds = 5, warmup = 3;
    bool shapes = false;
    std::string child;  // set in the child processes the rounds run in
    bool in_process = false;
    bool observed = false;  // also runs with LibTorch's observation alone (an empty callback)
    int poll_ms = 50;
    for (int i = 1; i < argc; ++i) {
        if (std::string(argv[i]) == "--per-call") {
            int64_t calls = 200000;
            if (i + 2 < argc && std::string(argv[i + 1]) == "--calls")
                calls = std::atoll(argv[i + 2]);
            return perCall(calls);
        }
    }
    for (int i = 1; i < argc; ++i) {
        const std::string key = argv[i];
        const char* value = i + 1 < argc ? argv[i + 1] : "";
        if (key == "--child") {
            child = value;
            ++i;
            continue;
        }
        if (key == "--record-shapes") {
            shapes = true;
            continue;
        }
        if (key == "--in-process") {
            in_process = true;
            continue;
        }
        if (key == "--observed") {
            observed = true;
            continue;
        }
        ++i;
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
        else if (key == "--poll-ms")
            poll_ms = std::atoi(value);
        else if (key == "--journal-dir")
            g_journalDir = value;
        else {
            std::fprintf(stderr, "bench_record_overhead: unknown option %s\n", key.c_str());
            return 2;
        }
    }
    auto options = TrainOptions::fromPreset(preset);
    options.threads = threads;
    options.num_steps = steps;
    options.warmup_steps = warmup;
    if (!child.empty()) {
        return runChild(child, options, shapes, poll_ms);
    }
    std::printf("bench_record_overhead: %s, %d threads, %d timed steps (+%d warmup), %d rounds%s\n",
                preset.c_str(), threads, steps, warmup, rounds, shapes ? ", record shapes" : "");
    std::printf(in_process ? "every run in this one process, one after another; the order "
                             "alternates between rounds\n"
                           : "each run in a fresh process; the order alternates between rounds\n");
    if (in_process) {
        std::printf("trace columns: %s\n", HugePagePolicy::current().describe().c_str());
    }
    std::vector<std::string> modes{"plain", "recorded", "journaled"};
    if (observed) {
        modes.insert(modes.begin() + 1, "observed");
    }
    std::map<std::string, std::vector<ChildResult>> all;
    for (int r = 0; r < rounds; ++r) {
        std::vector<std::string> order = modes;
        if (r % 2 == 1) {
            std::reverse(order.begin(), order.end());
        }
        std::map<std::string, ChildResult> results;
        for (const auto& mode : order) {
            if (in_process) {
                results[mode] = runConfiguration(mode, options, shapes, poll_ms);
                continue;
            }
            std::string command = "/proc/" + std::to_string(getpid()) + "/exe --child " + mode;
            for (int i = 1; i < argc; ++i) {
                command += ' ';
                command += argv[i];
            }
            const auto result = spawnChild(command);
            if (!result) {
                std::fprintf(stderr, "bench_record_overhead: the %s run failed\n", mode.c_str());
                return 1;
            }
            results[mode] = *result;
        }
        const ChildResult& p = results["plain"];
        std::printf("round %d:", r + 1);
        for (const auto& mode : modes) {
            const ChildResult& x = results[mode];
            all[mode].push_back(x);
            std::printf(" %s %.4f s/step median (%.3f)%s", mode.c_str(), x.median,
                        x.median / p.median, mode == modes.back() ? "\n" : ",");
        }
        std::printf(
            "  mean step %.4f / %.4f / %.4f, fastest %.4f / %.4f / %.4f (plain / recorded "
            "/ journaled); %.0f events, journal %.1f MB\n",
            p.avg, results["recorded"].avg, results["journaled"].avg, p.fastest,
            results["recorded"].fastest, results["journaled"].fastest, results["recorded"].events,
            results["journaled"].journal_mb);
        std::printf(
            "  page faults per timed step %.0f / %.0f / %.0f; consumer thread CPU per step "
            "(drain; journaled: drain and journal) %.2f / %.2f ms; process CPU per timed step "
            "%.1f / %.1f / %.1f ms\n",
            p.faults, results["recorded"].faults, results["journaled"].faults,
            results["recorded"].consumer_ms, results["journaled"].consumer_ms, p.cpu_ms,
            results["recorded"].cpu_ms, results["journaled"].cpu_ms);
        std::fflush(stdout);
    }
    // Per round: each configuration's figure over the plain run's of the same round.
    const auto ratios = [&](const std::string& mode, double ChildResult::*field) {
        std::vector<double> out;
        for (size_t i = 0; i < all[mode].size(); ++i) {
            out.push_back(all[mode][i].*field / all["plain"][i].*field);
        }
        return out;
    };
    const auto values = [&](const std::string& mode, double ChildResult::*field) {
        std::vector<double> out;
        for (const auto& x : all[mode]) {
            out.push_back(x.*field);
        }
        return out;
    };
    std::printf(
        "summary over %d rounds (median of the per-round ratios to plain; target for "
        "recorded and journaled <= 1.05):\n",
        rounds);
    for (const auto& mode : modes) {
        if (mode == "plain") {
            std::printf(
                "  plain       median step %.4f s, mean %.4f s, CPU %.1f ms/step (training "
                "thread %.1f ms)\n",
                median(values(mode, &ChildResult::median)), median(values(mode, &ChildResult::avg)),
                median(values(mode, &ChildResult::cpu_ms)),
                median(values(mode, &ChildResult::trainer_ms)));
            continue;
        }
        auto by_median = ratios(mode, &ChildResult::median);
        std::sort(by_median.begin(), by_median.end());
        const auto [low, high] = medianInterval(by_median);
        std::printf(
            "  %-10s  median step %.3f (90%% interval %.3f..%.3f; rounds %.3f..%.3f), mean step "
            "%.3f, fastest step %.3f, process CPU %.3f, training thread CPU %.3f\n",
            mode.c_str(), median(by_median), low, high, by_median.front(), by_median.back(),
            median(ratios(mode, &ChildResult::avg)), median(ratios(mode, &ChildResult::fastest)),
            median(ratios(mode, &ChildResult::cpu_ms)),
            median(ratios(mode, &ChildResult::trainer_ms)));
        if (mode != "observed") {
            const double m = median(by_median);
            std::printf("              target <= 1.05: %s\n",
                        high <= 1.05 ? "met (the whole interval is under it)"
                        : m <= 1.05  ? "met at the median, but the interval reaches past it"
                                     : "MISSED");
        }
    }
    std::printf("  journaled / recorded, median step: %.3f\n",
                median(values("journaled", &ChildResult::median)) /
                    median(values("recorded", &ChildResult::median)));
    std::printf("  page faults per timed step: plain %.0f, recorded %.0f, journaled %.0f\n",
                median(values("plain", &ChildResult::faults)),
                median(values("recorded", &ChildResult::faults)),
                median(values("journaled", &ChildResult::faults)));
    std::printf(
        "  consumer thread CPU per step: recorded %.2f ms, journaled %.2f ms (the journal's "
        "share: %.2f ms)\n",
        median(values("recorded", &ChildResult::consumer_ms)),
        median(values("journaled", &ChildResult::consumer_ms)),
        median(values("journaled", &ChildResult::consumer_ms)) -
            median(values("recorded", &ChildResult::consumer_ms)));
    std::printf("  consumer thread page faults per step: recorded %.1f, journaled %.1f\n",
                median(values("recorded", &ChildResult::consumer_faults)),
                median(values("journaled", &ChildResult::consumer_faults)));
    int huge_runs = 0, runs = 0;
    for (const char* mode : {"recorded", "journaled"}) {
        for (const double h : values(mode, &ChildResult::huge_pages)) {
            huge_runs += h > 0 ? 1 : 0;
            ++runs;
        }
    }
    std::printf(
        "  trace columns on huge pages (HugePagePolicy) in %d of %d recorded and journaled "
        "runs\n",
        huge_runs, runs);
    return 0;
}
