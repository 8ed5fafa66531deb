// The trainer on tiny configurations: determinism, phases, peaks, forward-only, cancellation.

#include "device/peak_flops.h"
#include "model/config_error.h"
#include "train/trainer.h"
#include "train/training_thread_clocks.h"

#include <nlohmann/json.hpp>

#include <QtTest/QtTest>

#include <torch/torch.h>

#include <ctime>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>

#include "tiny_options.h"

using namespace memscope;

namespace {

TrainOptions tinyOptions() {
    TrainOptions o = tinyTrainOptions();
    o.learning_rate = 1e-3;
    return o;
}

RunSummary runQuietly(const TrainOptions& o) {
    Trainer trainer(o);
    trainer.setMeasurePeakFlops(false);
    return trainer.run();
}

// Counts phases and lets a test act when a given phase of a given step starts.
class PhaseWatcher : public AllocationObserver {
  public:
    void onMemoryEvent(void*, int64_t size, int64_t, int64_t, int64_t, c10::Device) override {
        (size > 0 ? allocs : frees)++;
    }
    void onPhase(Phase phase, int64_t step) override {
        phases.emplace_back(phase, step);
        if (onEnter)
            onEnter(phase, step);
    }
    std::vector<std::pair<Phase, int64_t>> phases;
    std::function<void(Phase, int64_t)> onEnter;
    int64_t allocs = 0, frees = 0;
};

// Threads of this process now.
int threadCount() {
    int n = 0;
    for ([[maybe_unused]] const auto& entry :
         std::filesystem::directory_iterator("/proc/self/task")) {
        ++n;
    }
    return n;
}

}  // namespace

class TestTrainer : public QObject {
    Q_OBJECT

  private slots:
    // Measuring the peak from a thread that lives on (the GUI thread: the Planner page measures
    // it) must not leave an OpenMP team behind it: libgomp then manages more threads than there
    // are cores and makes every team, the trainer's too, sleep at each parallel region instead
    // of spinning briefly (a live GUI run on 2 threads took 0.18-0.22 s a step, the CLI 0.11).
    void measuringPeakFlopsLeavesNoThreadsBehind() {
        if (std::thread::hardware_concurrency() < 2) {
            QSKIP("one core: a GEMM makes no team");
        }
        const int before = threadCount();
        std::mutex mutex;
        std::condition_variable cv;
        bool measured = false, done = false;
        // Three threads: a count no other test measures with, so the cache cannot answer.
        std::thread caller([&] {
            PeakFlops::measure(c10::Device(c10::kCPU), Dtype::Float32, 3);
            std::unique_lock<std::mutex> lock(mutex);
            measured = true;
            cv.notify_all();
            cv.wait(lock, [&] { return done; });
        });
        {
            std::unique_lock<std::mutex> lock(mutex);
            cv.wait(lock, [&] { return measured; });
        }
        // The caller is alive; the measurement's team must be gone (its threads end just after
        // the measuring thread does, so allow them a moment).
        int now = threadCount();
        for (int i = 0; i < 200 && now > before + 1; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            now = threadCount();
        }
        {
            std::lock_guard<std::mutex> lock(mutex);
            done = true;
        }
        cv.notify_all();
        caller.join();
        QCOMPARE(now, before + 1);
    }

    // The training threads' CPU: the calling thread's and its OpenMP team's, and nothing else in
    // the process (a GUI's threads count as load from elsewhere for the thread governor).
    void trainingClocksCountTheTeamAndNothingElse() {
        TrainingThreadClocks clocks;
        QVERIFY(clocks.collect(2));
        QCOMPARE(clocks.threads(), size_t(2));
        clocks.collect(2);  // the same team: nothing new
        QCOMPARE(clocks.threads(), size_t(2));

        // Another thread of the process keeps a core busy: not training.
        const int64_t before = clocks.cpuTicks();
        std::thread other([] {
            const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
            while (std::chrono::steady_clock::now() < until) {
            }
        });
        other.join();
        const int64_t after_other = clocks.cpuTicks();
        QVERIFY2(after_other - before <= 5, qPrintable(QString::number(after_other - before)));

        // The team at work: more than this thread alone used.
        if (std::thread::hardware_concurrency() < 2) {
            QSKIP("one core: the team's threads take turns");
        }
        const auto ownTicks = [] {
            timespec t{};
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
            return (int64_t(t.tv_sec) * 1000000000 + t.tv_nsec) /
                   (1000000000 / sysconf(_SC_CLK_TCK));
        };
        // ATen's own parallel loop (at::parallel_for on LibTorch's OpenMP) rather than a GEMM:
        // newer OpenBLAS keeps to OMP_NUM_THREADS=1 (which CTest sets) whatever
        // omp_set_num_threads says, so a matrix product never woke the team there.
        at::set_num_threads(2);
        const int64_t own_before = ownTicks();
        const auto a = torch::randn({2048, 1024});
        const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(400);
        while (std::chrono::steady_clock::now() < until) {
            (void)torch::exp(a);
        }
        const int64_t own = ownTicks() - own_before;
        const int64_t team = clocks.cpuTicks() - after_other;
        QVERIFY2(team > own + own / 4,
                 qPrintable(QStringLiteral("team %1 ticks, this thread %2").arg(team).arg(own)));
    }

    // Yielding to an interface, a thread of this process that keeps a core busy (a GUI thread
    // painting) makes the default threads give that core back, as another process would.
    void aBusyThreadOfTheProcessTakesACoreWhenYielding() {
        if (std::thread::hardware_concurrency() < 2) {
            QSKIP("one core: nothing to give back");
        }
        auto o = tinyOptions();
        o.threads = 0;         // all cores, governed
        o.num_steps = 100000;  // cancelled once a step ran on fewer threads, or after 5 s
        Trainer trainer(o);
        trainer.setMeasurePeakFlops(false);
        trainer.setYieldToInterface(true);
        const int cores = o.resolvedThreads();
        std::atomic<bool> stop{false};
        std::atomic<int> fewest{cores};
        std::atomic<int64_t> steps{0};
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        trainer.setStepCallback([&](const StepMetrics& s) {
            fewest = std::min(fewest.load(), s.threads);
            ++steps;
            if (s.threads < cores || std::chrono::steady_clock::now() > give_up) {
                trainer.cancel();
            }
        });
        std::thread interface([&] {
            while (!stop) {
            }
        });
        const auto summary = trainer.run();
        stop = true;
        interface.join();
        QVERIFY(summary.error.empty());
        QVERIFY2(
            fewest < cores,
            qPrintable(QStringLiteral("%1 steps, all on %2 threads").arg(steps.load()).arg(cores)));
        QCOMPARE(summary.fewest_threads, fewest.load());
    }

    void sameSeedGivesTheSameLosses() {
        const auto a = runQuietly(tinyOptions());
        const auto b = runQuietly(tinyOptions());
        QVERIFY(a.error.empty());
        QCOMPARE(a.steps.size(), size_t(3));
        for (size_t i = 0; i < a.steps.size(); ++i) {
            QCOMPARE(a.steps[i].loss, b.steps[i].loss);
        }
        auto other = tinyOptions();
        other.seed = 43;
        QVERIFY(runQuietly(other).steps[0].loss != a.steps[0].loss);
    }

    void summaryReportsPeaksAndRates() {
        auto o = tinyOptions();
        o.warmup_steps = 1;
        const auto s = runQuietly(o);
        QVERIFY(s.error.empty());
        QCOMPARE(s.steps.size(), size_t(4));
        QCOMPARE(s.timedSteps(), int64_t(3));
        QVERIFY(s.steps[0].warmup);
        QVERIFY(s.avgStep() > 0);
        QVERIFY(s.samplesPerSecond() > 0);
        QCOMPARE(s.tokensPerSecond(), s.samplesPerSecond() * 16);
        // AdamW creates its state lazily in step 1, so later steps peak higher.
        QVERIFY(s.steadyPeakAllocated() > s.step1PeakAllocated());
        QVERIFY(s.peak_allocated_bytes >= s.steadyPeakAllocated());
        // parameters alone are 4 bytes each and were allocated during initialisation
        QVERIFY(s.init_allocated_bytes >= s.parameters * 4);
        const auto json = s.toJson();
        for (const char* key :
             {"parameters", "steps", "threads", "device", "torch_version", "avg_step_s",
              "avg_forward_s", "avg_backward_s", "avg_optimizer_s", "samples_per_s", "tokens_per_s",
              "model_tflops_per_s", "mfu", "peak_allocated_bytes", "step1_peak_allocated_bytes",
              "steady_peak_allocated_bytes", "config"}) {
            QVERIFY2(json.contains(key), key);
        }
        QCOMPARE(json["config"]["hidden_dim"].get<int64_t>(), int64_t(32));
    }

    void phasesArriveInStepOrder() {
        PhaseWatcher watcher;
        Trainer trainer(tinyOptions());
        trainer.setMeasurePeakFlops(false);
        trainer.setAllocationObserver(&watcher);
        trainer.run();
        QVERIFY(watcher.allocs > 0 && watcher.frees > 0);
        QVERIFY(watcher.phases.front().first == Phase::Init);
        std::vector<Phase> step2;
        for (const auto& [phase, step] : watcher.phases) {
            if (step == 2)
                step2.push_back(phase);
        }
        const std::vector<Phase> expected{Phase::Other, Phase::Forward, Phase::Backward,
                                          Phase::Optimizer, Phase::Other};
        QVERIFY(step2 == expected);
    }

    void forwardOnlyKeepsNothingBetweenSteps() {
        auto o = tinyOptions();
        o.profile = ProfileType::Forward;
        const auto s = runQuietly(o);
        QVERIFY(s.error.empty());
        QCOMPARE(s.flops_per_step.backward, 0.0);
        for (const auto& step : s.steps) {
            QCOMPARE(step.backward_s, 0.0);
            // no gradients, no optimizer state: memory returns to the initial level
            QCOMPARE(step.allocated_bytes_at_end, s.init_allocated_bytes);
        }
        auto training = tinyOptions();
        const auto t = runQuietly(training);
        // training keeps grads (4 B/param) and AdamW state (8 B/param) after each step
        QCOMPARE(t.steps.back().allocated_bytes_at_end - t.init_allocated_bytes, 12 * t.parameters);
    }

    void mixedPrecisionAndVariantsRun() {
        for (auto attention :
             {AttentionKind::Fused, AttentionKind::Sdpa, AttentionKind::MemoryEfficient}) {
            auto o = tinyOptions();
            o.num_steps = 1;
            o.dtype = Dtype::BFloat16;
            o.attention = attention;
            o.checkpointing = Checkpointing::PerBlock;
            const auto s = runQuietly(o);
            QVERIFY2(s.error.empty(), s.error.c_str());
            QVERIFY(std::isfinite(s.steps[0].loss));
        }
        auto sgd = tinyOptions();
        sgd.optimizer = OptimizerKind::Sgd;
        QVERIFY(runQuietly(sgd).error.empty());
    }

    void invalidOptionsThrowBeforeRunning() {
        auto o = tinyOptions();
        o.model.n_kv_heads = 3;
        Trainer trainer(o);
        try {
            trainer.run();
            QFAIL("expected a ConfigError");
        } catch (const ConfigError& e) {
            QCOMPARE(QString::fromStdString(e.option()), QString("--num-kv-heads"));
        }
        auto gpu = tinyOptions();
        gpu.device = "cuda:0";
        if (!torch::cuda::is_available()) {
            QVERIFY_THROWS_EXCEPTION(ConfigError, Trainer(gpu).run());
        }
    }

    void cancellationMidStepReturnsAPartialSummary() {
        auto o = tinyOptions();
        o.num_steps = 1000;
        PhaseWatcher watcher;
        Trainer trainer(o);
        trainer.setMeasurePeakFlops(false);
        trainer.setAllocationObserver(&watcher);
        std::mutex m;
        std::condition_variable cv;
        bool in_backward = false, cancelled = false;
        watcher.onEnter = [&](Phase phase, int64_t step) {
            if (phase == Phase::Backward && step == 2) {
                std::unique_lock<std::mutex> lock(m);
                in_backward = true;
                cv.notify_all();
                // hold the training thread until the other thread has cancelled
                cv.wait(lock, [&] { return cancelled; });
            }
        };
        RunSummary summary;
        std::thread worker([&] { summary = trainer.run(); });
        {
            std::unique_lock<std::mutex> lock(m);
            cv.wait(lock, [&] { return in_backward; });
            trainer.cancel();
            cancelled = true;
            cv.notify_all();
        }
        worker.join();
        QVERIFY(summary.cancelled);
        QVERIFY(summary.error.empty());
        QCOMPARE(summary.steps.size(), size_t(1));  // step 2 never completed
        QVERIFY(summary.toText().find("cancelled") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestTrainer)
#include "test_trainer.moc"
