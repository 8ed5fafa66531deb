// StepGrowth (explain/step_growth.h): what each step makes that later steps keep, on hand-made
// runs whose figures are worked out by hand: a leak from one line, a steady state that keeps a
// buffer for one step, a cache filled over three steps, a warm-up, a run cut after its last
// optimizer step, too few steps, and bad data (free events before their allocs, empty runs).

#include "growth_fixture.h"

#include "explain/step_growth.h"
#include "explain/trace_summary.h"

#include <QtTest>

using namespace memscope;

namespace {

const StepGrowth::Group* group(const std::vector<StepGrowth::Group>& groups,
                               const std::string& at) {
    for (const auto& g : groups) {
        if (g.made_at == at) {
            return &g;
        }
    }
    return nullptr;
}

}  // namespace

class TestStepGrowth : public QObject {
    Q_OBJECT

  private slots:
    void leakFromOneLine() {
        const GrowthLoop loop(6, Keep::Leak);
        const auto g = StepGrowth::analyze(loop.trace);
        QCOMPARE(g.verdict(), StepGrowth::Verdict::Grows);
        QCOMPARE(g.completeSteps(), 6);
        QCOMPARE(g.bytesPerStep(), int64_t(24));
        QCOMPARE(g.fromStep(), 1);
        const auto* leak = group(g.byStack(), "train.py:44 main");
        QVERIFY(leak != nullptr);
        QCOMPARE(leak->trend, StepGrowth::Trend::Grows);
        QCOMPARE(leak->bytes_per_step, int64_t(24));
        QCOMPARE(leak->count_per_step, int64_t(1));
        QCOMPARE(leak->first_step, 1);
        QCOMPARE(leak->last_step, 5);  // step 6 is the last: nothing after it to outlive
        QCOMPARE(leak->kept_count, int64_t(5));
        QCOMPARE(leak->allocations.size(), size_t(5));
        QCOMPARE(leak->op, std::string("aten::clone"));
        // Floors: parameter 100, then gradient and state from step 1 on, plus 24 B a step.
        QCOMPARE(g.steps().size(), size_t(6));
        for (int s = 1; s <= 6; ++s) {
            QCOMPARE(g.steps()[size_t(s - 1)].floor_bytes, int64_t(300 + 24 * s));
        }
        QCOMPARE(g.steps()[0].made_bytes, int64_t(40 + 24 + 4));  // not the gradient, not state
        QCOMPARE(g.steps()[0].kept_next_bytes, int64_t(24));
        QCOMPARE(g.steps()[0].kept_last_bytes, int64_t(24));
        QVERIFY(g.verdictText().find("grows 24 B a step from step 1") != std::string::npos);
        QVERIFY(g.verdictText().find("train.py:44 main") != std::string::npos);
        const auto json = g.toJson();
        QCOMPARE(json["verdict"].get<std::string>(), std::string("grows"));
        QCOMPARE(json["steps"][5].contains("kept_last_bytes"), false);
        // The module groups: the leak is outside every module.
        QCOMPARE(g.byModule().front().name, std::string("(no module)"));
        QCOMPARE(g.byModule().front().bytes_per_step, int64_t(24));
        // info: the verdict line.
        const auto text = TraceSummary::toText(loop.trace, TraceSummary::completed(loop.trace));
        QVERIFY(text.find("Growth across steps: grows 24 B a step") != std::string::npos);
    }

    void steadyStateIsNotGrowth() {
        // A buffer replaced every step: alive at the end of its step, freed in the next.
        const auto g = StepGrowth::analyze(GrowthLoop(6, Keep::LagOne).trace);
        QCOMPARE(g.verdict(), StepGrowth::Verdict::Steady);
        QCOMPARE(g.bytesPerStep(), int64_t(0));
        // What step 5 made is freed in step 6: nothing is kept to the last step.
        QVERIFY(g.byStack().empty());
        for (const auto& row : g.steps()) {
            QCOMPARE(row.floor_bytes, int64_t(316));
        }
        QCOMPARE(g.steps()[1].kept_next_bytes, int64_t(0));
        const auto nothing = StepGrowth::analyze(GrowthLoop(5, Keep::Nothing).trace);
        QCOMPARE(nothing.verdict(), StepGrowth::Verdict::Steady);
        QVERIFY(nothing.byStack().empty());
        QVERIFY(nothing.verdictText().find("does not grow") != std::string::npos);
    }

    void cacheStops() {
        const auto g = StepGrowth::analyze(GrowthLoop(7, Keep::Cache).trace);
        QCOMPARE(g.verdict(), StepGrowth::Verdict::Stopped);
        QCOMPARE(g.byStack().size(), size_t(1));
        const auto& cache = g.byStack()[0];
        QCOMPARE(cache.trend, StepGrowth::Trend::Stopped);
        QCOMPARE(cache.first_step, 1);
        QCOMPARE(cache.last_step, 3);
        QCOMPARE(cache.kept_bytes, int64_t(8 + 16 + 24));
        QCOMPARE(cache.made_at, std::string("train.py:20 table"));
        QVERIFY(g.verdictText().find("grew 48 B over steps 1-3, then stopped") !=
                std::string::npos);
    }

    void warmUpIsNotGrowth() {
        const auto g = StepGrowth::analyze(GrowthLoop(5, Keep::WarmUp).trace);
        QCOMPARE(g.verdict(), StepGrowth::Verdict::Steady);
        QCOMPARE(g.byStack()[0].trend, StepGrowth::Trend::Once);
        QVERIFY(g.verdictText().find("32 B made in step 1 stays to the end") != std::string::npos);
    }

    void tailAfterLastOptimizerStep() {
        // Step 7 holds only what ran after the last optimizer step: not a complete step.
        const auto g = StepGrowth::analyze(GrowthLoop(6, Keep::Leak, true).trace);
        QCOMPARE(g.completeSteps(), 6);
        QCOMPARE(g.bytesPerStep(), int64_t(24));
        QCOMPARE(g.steps().size(), size_t(6));
    }

    void tooFewSteps() {
        const auto g = StepGrowth::analyze(GrowthLoop(2, Keep::Leak).trace);
        QCOMPARE(g.verdict(), StepGrowth::Verdict::TooFewSteps);
        QVERIFY(g.byStack().empty());
        QVERIFY(g.verdictText().find("too few to tell") != std::string::npos);
        const auto text =
            TraceSummary::toText(GrowthLoop(2, Keep::Leak).trace,
                                 TraceSummary::completed(GrowthLoop(2, Keep::Leak).trace));
        QVERIFY(text.find("Growth across steps") == std::string::npos);
        Trace empty;
        empty.finalize();
        QCOMPARE(StepGrowth::analyze(empty).verdict(), StepGrowth::Verdict::TooFewSteps);
        QCOMPARE(StepGrowth::analyze(empty).completeSteps(), 0);
    }

    void badData() {
        // Frees without allocs, steps that go back, stack ids out of range: no crash, no growth.
        Trace t;
        EventWriter event{t};
        event(EventKind::Free, 0x99, -50, 0, Phase::Forward, 3);
        event(EventKind::Alloc, 0x1, 10, 0, Phase::Forward, 5);
        event(EventKind::Alloc, 0x2, 10, 0, Phase::Optimizer, 2);
        event(EventKind::Alloc, 0x3, 10, 0, Phase::Forward, -1);
        t.finalize();
        const auto g = StepGrowth::analyze(t);
        QVERIFY(g.completeSteps() >= 0);
        QVERIFY(!g.verdictText().empty());
        (void)g.toJson();
    }
};

QTEST_APPLESS_MAIN(TestStepGrowth)
#include "test_step_growth.moc"
