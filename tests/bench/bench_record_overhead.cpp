// Recording overhead: average step time with the recorder attached over the same run without
// it, measured side by side in one process (rounds alternate plain / recorded / recorded with
// the journal that protects a run against a crash, io/run_journal.h). Targets: recorded and
// journaled each <= 1.05 of a plain step.

#include "capture/recording_session.h"
#include "io/run_journal.h"
#include "train/thread_policy.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
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
