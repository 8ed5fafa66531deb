// Recording overhead: average step time with the recorder attached over the same run without
// it. Each round runs a plain run, a recorded one and one recorded with the journal that
// protects a run against a crash (io/run_journal.h), each in a fresh process of its own, in an
// order that alternates between rounds, and prints the step times, their ratios and the page
// faults per timed step (load-independent: on a virtual machine a fault costs tens of
// microseconds). Targets: recorded and journaled each <= 1.05 of a plain step.
//
//   bench_record_overhead [--preset P] [--threads N] [--steps N] [--rounds N] [--warmup N]
//                         [--poll-ms MS] [--record-shapes]
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
// the journal's cost.

#include "capture/recording_session.h"
#include "io/run_journal.h"
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
#include <string>
#include <thread>
#include <vector>

using namespace memscope;

namespace {

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

int perCall(int64_t calls) {
    const double plain = nsPerSelect(calls).ns;
    double empty = 0;
    {
        auto callback = at::RecordFunctionCallback(
                            [](const at::RecordFunction&) -> std::unique_ptr<at::ObserverContext> {
                                return nullptr;
                            },
                            [](const at::RecordFunction&, at::ObserverContext*) {})
                            .needsInputs(false)
                            .scopes({at::RecordScope::FUNCTION, at::RecordScope::BACKWARD_FUNCTION,
                                     at::RecordScope::USER_SCOPE});
        const auto handle = at::addThreadLocalCallback(std::move(callback));
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

// Page faults during the timed steps only (from the end of the last warmup step to the end of
// the last step), per step: set-up and warmup fault in the model once and are left out.
struct StepFaults {
    long at_warmup_end = -1;
    long at_end = -1;
    int64_t timed_steps = 0;
    std::function<void(const StepMetrics&)> callback(int64_t warmup) {
        return [this, warmup](const StepMetrics& step) {
            const long now = minorFaults();
            if (step.step == warmup)
                at_warmup_end = now;
            if (step.step > warmup) {
                at_end = now;
                ++timed_steps;
            }
        };
    }
    double perStep() const {
        if (at_end < 0 || timed_steps == 0)
            return 0;
        return double(at_end - std::max(at_warmup_end, 0L)) / double(timed_steps);
    }
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// One run's figures, as a child process prints them on its last line.
struct ChildResult {
    double avg = 0, fastest = 0, faults = 0, events = 0, journal_mb = 0, consumer_ms = 0;
};

// CPU time the calling thread has used so far, in milliseconds.
double threadCpuMs() {
    return threadCpuNs() / 1e6;
}

// Runs one configuration in this process and prints "RESULT avg fastest faults events journal
// consumer": consumer is the CPU time per step (warmup included) of the thread that polls the
// session, which drains the recorder and, journaled, also writes the journal.
// Each run gets a fresh process: after a recorded run has freed its trace, glibc's heap behaves
// differently for the next run in the same process (plain runs that followed recorded ones
// faulted up to ten times more pages per step), which biased the old in-process rounds.
int runChild(const std::string& mode, const TrainOptions& options, bool shapes, int poll_ms) {
    StepFaults faults;
    RunSummary summary;
    size_t events = 0;
    int64_t journal_bytes = 0;
    double consumer_ms = 0;
    if (mode == "plain") {
        Trainer trainer(options);
        trainer.setMeasurePeakFlops(false);
        trainer.setStepCallback(faults.callback(options.warmup_steps));
        // Training on a thread of its own, as the recorded runs and the GUI do.
        std::thread thread([&] { summary = trainer.run(); });
        thread.join();
    } else if (mode == "recorded" || mode == "journaled") {
        const bool journal = mode == "journaled";
        const std::string journal_path =
            "/tmp/bench_record_overhead." + std::to_string(getpid()) + ".journal";
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
            session.poll();
            consumer_ms += threadCpuMs() - before;
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
        std::fprintf(stderr, "bench_record_overhead: unknown run %s\n", mode.c_str());
        return 2;
    }
    const double steps = double(std::max<size_t>(summary.steps.size(), 1));
    std::printf("RESULT %.6f %.6f %.1f %zu %.3f %.3f\n", summary.avgStep(), fastestStep(summary),
                faults.perStep(), events, double(journal_bytes) / 1e6, consumer_ms / steps);
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
        if (std::sscanf(line, "RESULT %lf %lf %lf %lf %lf %lf", &r.avg, &r.fastest, &r.faults,
                        &r.events, &r.journal_mb, &r.consumer_ms) == 6) {
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
    std::printf("each run in a fresh process; the order alternates between rounds\n");
    std::vector<double> plain, recorded, ratios, plain_min, recorded_min, journaled, j_ratios,
        journaled_min, plain_faults, recorded_faults, journaled_faults, recorded_consumer,
        journaled_consumer;
    for (int r = 0; r < rounds; ++r) {
        const std::vector<std::string> order =
            r % 2 == 0 ? std::vector<std::string>{"plain", "recorded", "journaled"}
                       : std::vector<std::string>{"journaled", "recorded", "plain"};
        std::map<std::string, ChildResult> results;
        for (const auto& mode : order) {
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
        const auto& p = results["plain"];
        const auto& q = results["recorded"];
        const auto& j = results["journaled"];
        plain.push_back(p.avg), recorded.push_back(q.avg), journaled.push_back(j.avg);
        plain_min.push_back(p.fastest), recorded_min.push_back(q.fastest);
        journaled_min.push_back(j.fastest);
        ratios.push_back(q.avg / p.avg), j_ratios.push_back(j.avg / p.avg);
        plain_faults.push_back(p.faults), recorded_faults.push_back(q.faults);
        journaled_faults.push_back(j.faults);
        recorded_consumer.push_back(q.consumer_ms), journaled_consumer.push_back(j.consumer_ms);
        std::printf(
            "round %d: plain %.4f s/step, recorded %.4f (ratio %.3f), journaled %.4f (ratio "
            "%.3f); fastest step %.4f / %.4f / %.4f (%.0f events, journal %.1f MB)\n",
            r + 1, p.avg, q.avg, q.avg / p.avg, j.avg, j.avg / p.avg, p.fastest, q.fastest,
            j.fastest, q.events, j.journal_mb);
        std::printf("  page faults per timed step: plain %.0f, recorded %.0f, journaled %.0f\n",
                    p.faults, q.faults, j.faults);
        std::printf(
            "  consumer thread CPU per step (drain; journaled: drain and journal): recorded %.2f "
            "ms, journaled %.2f ms\n",
            q.consumer_ms, j.consumer_ms);
        std::fflush(stdout);
    }
    std::vector<double> min_ratios, j_min_ratios;
    for (size_t i = 0; i < plain_min.size(); ++i) {
        min_ratios.push_back(recorded_min[i] / plain_min[i]);
        j_min_ratios.push_back(journaled_min[i] / plain_min[i]);
    }
    std::printf(
        "median: plain %.4f s/step, recorded %.4f s/step, ratio of medians %.3f, "
        "median ratio %.3f (fastest steps: %.3f)\n",
        median(plain), median(recorded), median(recorded) / median(plain), median(ratios),
        median(min_ratios));
    std::printf(
        "median: journaled %.4f s/step, ratio to plain: of medians %.3f, median ratio %.3f "
        "(fastest steps: %.3f; target <= 1.05); journaled / recorded %.3f\n",
        median(journaled), median(journaled) / median(plain), median(j_ratios),
        median(j_min_ratios), median(journaled) / median(recorded));
    std::printf("median page faults per timed step: plain %.0f, recorded %.0f, journaled %.0f\n",
                median(plain_faults), median(recorded_faults), median(journaled_faults));
    std::printf(
        "median consumer thread CPU per step: recorded %.2f ms, journaled %.2f ms (the journal's "
        "share: %.2f ms)\n",
        median(recorded_consumer), median(journaled_consumer),
        median(journaled_consumer) - median(recorded_consumer));
    return 0;
}
