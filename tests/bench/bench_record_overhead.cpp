// Recording overhead: average step time with the recorder attached over the same run without
// it, measured side by side in one process (rounds alternate plain / recorded / recorded with
// the journal that protects a run against a crash, io/run_journal.h). Targets: recorded and
// journaled each <= 1.05 of a plain step.
//
//   bench_record_overhead [--preset P] [--threads N] [--steps N] [--rounds N] [--warmup N]
//                         [--poll-ms MS] [--record-shapes]
//   bench_record_overhead --per-call [--calls N]
//
// --per-call times one cheap LibTorch op call (a select, what LibTorch's own kernels call most
// often: about 18,000 op calls per workshop-default step, most of them views) with no callback,
// with an empty record-function callback (LibTorch's own cost of observing an op) and with the
// recorder attached, and prints the cost per call of each.

#include "capture/recording_session.h"
#include "io/run_journal.h"
#include "train/thread_policy.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
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

// Nanoseconds per call of a cheap op (select of a small tensor), best of five batches.
double nsPerSelect(int64_t calls) {
    const auto x = at::ones({8, 16, 16});
    double best = 1e30;
    for (int batch = 0; batch < 5; ++batch) {
        const auto start = std::chrono::steady_clock::now();
        for (int64_t i = 0; i < calls; ++i) {
            auto view = x.select(0, i & 7);
            (void)view;
        }
        const double ns =
            std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start)
                .count();
        best = std::min(best, ns / double(calls));
    }
    return best;
}

int perCall(int64_t calls) {
    const double plain = nsPerSelect(calls);
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
        empty = nsPerSelect(calls);
        at::removeCallback(handle);
    }
    double recorded = 0;
    {
        Recorder recorder;
        recorder.onRunThreadStart();
        recorded = nsPerSelect(calls);
        recorder.onRunThreadEnd();
        Trace trace;
        recorder.drainInto(trace);
        std::printf("(recorded %zu op spans)\n", trace.spans.size());
    }
    std::printf(
        "per op call: plain %.0f ns, empty record-function callback %.0f ns (+%.0f), recorder "
        "%.0f ns (+%.0f over plain, +%.0f over the empty callback)\n",
        plain, empty, empty - plain, recorded, recorded - plain, recorded - empty);
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

}  // namespace

int main(int argc, char** argv) {
    memscope::ThreadPolicy::applyWaitPolicy(argv);  // as the executables do
    std::string preset = "workshop-default";
    int threads = 2, steps = 20, rounds = 5, warmup = 3;
    bool shapes = false;
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
    std::printf("bench_record_overhead: %s, %d threads, %d timed steps (+%d warmup), %d rounds%s\n",
                preset.c_str(), threads, steps, warmup, rounds, shapes ? ", record shapes" : "");
    std::vector<double> plain, recorded, ratios, plain_min, recorded_min, journaled, j_ratios,
        journaled_min;
    const std::string journal_path =
        "/tmp/bench_record_overhead." + std::to_string(getpid()) + ".journal";
    for (int r = 0; r < rounds; ++r) {
        Trainer trainer(options);
        trainer.setMeasurePeakFlops(false);
        // Both runs train on a thread of their own, as the GUI does: a second OpenMP team next
        // to the main thread's would otherwise bias whichever run comes second.
        RunSummary plain_summary;
        StepFaults plain_faults, recorded_faults, journaled_faults;
        trainer.setStepCallback(plain_faults.callback(warmup));
        std::thread plain_thread([&] { plain_summary = trainer.run(); });
        plain_thread.join();
        const double p = plain_summary.avgStep();
        Recorder::Options ro;
        ro.record_shapes = shapes;
        // The consumer polls like the GUI unless --poll-ms 0 (drain once at the end).
        auto record = [&](bool journal, int64_t* journal_bytes) {
            RecordingSession session(options, ro);
            session.setMeasurePeakFlops(false);
            if (journal) {
                session.setJournal(journal_path);
            }
            session.setStepCallback(
                (journal ? journaled_faults : recorded_faults).callback(warmup));
            session.start();
            while (poll_ms > 0 && session.running()) {
                session.poll();
                std::this_thread::sleep_for(std::chrono::milliseconds(poll_ms));
            }
            RunSummary summary = session.finish();
            if (journal && journal_bytes) {
                if (FILE* f = std::fopen(journal_path.c_str(), "rb")) {
                    std::fseek(f, 0, SEEK_END);
                    *journal_bytes = std::ftell(f);
                    std::fclose(f);
                }
                session.discardJournal();
            }
            return std::make_pair(summary, session.trace().events.count());
        };
        // Alternate which of the two goes first, so that neither always follows the plain run.
        int64_t journal_bytes = 0;
        std::pair<RunSummary, size_t> without, with;
        if (r % 2 == 0) {
            without = record(false, nullptr);
            with = record(true, &journal_bytes);
        } else {
            with = record(true, &journal_bytes);
            without = record(false, nullptr);
        }
        const RunSummary& recorded_summary = without.first;
        const RunSummary& journaled_summary = with.first;
        const size_t events = without.second;
        const double q = recorded_summary.avgStep();
        const double j = journaled_summary.avgStep();
        plain_min.push_back(fastestStep(plain_summary));
        recorded_min.push_back(fastestStep(recorded_summary));
        journaled_min.push_back(fastestStep(journaled_summary));
        plain.push_back(p);
        recorded.push_back(q);
        journaled.push_back(j);
        ratios.push_back(q / p);
        j_ratios.push_back(j / p);
        std::printf(
            "round %d: plain %.4f s/step, recorded %.4f (ratio %.3f), journaled %.4f (ratio "
            "%.3f); fastest step %.4f / %.4f / %.4f (%zu events, journal %.1f MB)\n",
            r + 1, p, q, q / p, j, j / p, plain_min.back(), recorded_min.back(),
            journaled_min.back(), events, double(journal_bytes) / 1e6);
        std::printf("  page faults per timed step: plain %.0f, recorded %.0f, journaled %.0f\n",
                    plain_faults.perStep(), recorded_faults.perStep(), journaled_faults.perStep());
        std::fflush(stdout);
    }
    std::printf(
        "median: plain %.4f s/step, recorded %.4f s/step, ratio of medians %.3f, "
        "median ratio %.3f\n",
        median(plain), median(recorded), median(recorded) / median(plain), median(ratios));
    std::printf(
        "median: journaled %.4f s/step, ratio to plain: of medians %.3f, median ratio %.3f "
        "(target <= 1.05); journaled / recorded %.3f\n",
        median(journaled), median(journaled) / median(plain), median(j_ratios),
        median(journaled) / median(recorded));
    return 0;
}
