// StepGrowth (trace/step_growth.h): what each step makes that later steps keep, on hand-made
// runs whose figures are worked out by hand: a leak from one line, a steady state that keeps a
// buffer for one step, a cache filled over three steps, a warm-up, a run cut after its last
// optimizer step, too few steps, and bad data (free events before their allocs, empty runs).

#include "module_fixture.h"

#include "trace/step_growth.h"
#include "trace/trace_summary.h"

#include <QtTest>

using namespace memscope;

namespace {

// A training loop of `steps` steps over a 100 B parameter (and a 100 B gradient, a 100 B
// optimizer state made in step 1): each step's forward makes a 40 B activation freed in its
// backward, and the loop's body makes what `keep` says.
enum class Keep { Nothing, Leak, LagOne, Cache, WarmUp };

struct Loop {
    Trace trace;
    uint32_t leak_stack = 0;
    uint32_t cache_stack = 0;

    Loop(int steps, Keep keep, bool tail = false) {
        auto& s = trace.stacks;
        auto node = [&s](uint32_t parent, const char* name, const char* file, int line,
                         FrameKind kind) {
            return s.child(parent, s.internFrame({name, file, line, kind}));
        };
        const uint32_t main =
            node(StackTable::kEmpty, "main", "/home/u/train.py", 40, FrameKind::Other);
        const uint32_t fwd = node(main, "Net.forward", "/home/u/train.py", 12, FrameKind::Other);
        const uint32_t net = node(fwd, "Net", "", 0, FrameKind::Module);
        const uint32_t mm = node(net, "aten::mm", "", 0, FrameKind::Operator);
        leak_stack =
            node(node(StackTable::kEmpty, "main", "/home/u/train.py", 44, FrameKind::Other),
                 "aten::clone", "", 0, FrameKind::Operator);
        cache_stack = node(node(main, "table", "/home/u/train.py", 20, FrameKind::Other),
                           "aten::arange", "", 0, FrameKind::Operator);
        const uint32_t own = node(StackTable::kEmpty, "Net", "", 0, FrameKind::Module);
        EventWriter event{trace};
        event(EventKind::Alloc, 0x10, 100, 0, Phase::Init, 0);
        event(EventKind::Role, 0x10, int64_t(Category::Parameter), own, Phase::Init, 0);
        uint64_t next = 0x1000;
        uint64_t lag = 0;
        for (int step = 1; step <= steps; ++step) {
            const uint64_t act = next++;
            event(EventKind::Alloc, act, 40, mm, Phase::Forward, step);
            if (keep == Keep::Leak) {
                event(EventKind::Alloc, next++, 24, leak_stack, Phase::Forward, step);
            }
            if (keep == Keep::LagOne) {  // kept until the next step replaces it
                if (lag != 0) {
                    event(EventKind::Free, lag, -16, leak_stack, Phase::Forward, step);
                }
                lag = next++;
                event(EventKind::Alloc, lag, 16, leak_stack, Phase::Forward, step);
            }
            if (keep == Keep::Cache && step <= 3) {
                event(EventKind::Alloc, next++, 8 * step, cache_stack, Phase::Forward, step);
            }
            if (keep == Keep::WarmUp && step == 1) {
                event(EventKind::Alloc, next++, 32, cache_stack, Phase::Forward, step);
            }
            event(EventKind::Free, act, -40, mm, Phase::Backward, step);
            if (step == 1) {
                event(EventKind::Alloc, 0x20, 100, mm, Phase::Backward, step);  // the gradient
                event(EventKind::Alloc, 0x30, 100, 0, Phase::Optimizer, step);  // AdamW's state
                event(EventKind::Role, 0x30, int64_t(Category::OptimizerState), own,
                      Phase::Optimizer, step);
            }
            event(EventKind::Alloc, next, 4, 0, Phase::Optimizer, step);  // a temporary
            event(EventKind::Free, next++, -4, 0, Phase::Optimizer, step);
        }
        if (tail) {  // what a Python program runs after its last optimizer step
            event(EventKind::Alloc, next++, 24, leak_stack, Phase::Forward, steps + 1);
        }
        trace.finalize();
    }
};

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
        const Loop loop(6, Keep::Leak);
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
        const auto g = StepGrowth::analyze(Loop(6, Keep::LagOne).trace);
        QCOMPARE(g.verdict(), StepGrowth::Verdict::Steady);
        QCOMPARE(g.bytesPerStep(), int64_t(0));
        // What step 5 made is freed in step 6: nothing is kept to the last step.
        QVERIFY(g.byStack().empty());
        for (const auto& row : g.steps()) {
            QCOMPARE(row.floor_bytes, int64_t(316));
        }
        QCOMPARE(g.steps()[1].kept_next_bytes, int64_t(0));
        const auto nothing = StepGrowth::analyze(Loop(5, Keep::Nothing).trace);
        QCOMPARE(nothing.verdict(), StepGrowth::Verdict::Steady);
        QVERIFY(nothing.byStack().empty());
        QVERIFY(nothing.verdictText().find("does not grow") != std::string::npos);
    }

    void cacheStops() {
        const auto g = StepGrowth::analyze(Loop(7, Keep::Cache).trace);
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
        const auto g = StepGrowth::analyze(Loop(5, Keep::WarmUp).trace);
        QCOMPARE(g.verdict(), StepGrowth::Verdict::Steady);
        QCOMPARE(g.byStack()[0].trend, StepGrowth::Trend::Once);
        QVERIFY(g.verdictText().find("32 B made in step 1 stays to the end") != std::string::npos);
    }

    void tailAfterLastOptimizerStep() {
        // Step 7 holds only what ran after the last optimizer step: not a complete step.
        const auto g = StepGrowth::analyze(Loop(6, Keep::Leak, true).trace);
        QCOMPARE(g.completeSteps(), 6);
        QCOMPARE(g.bytesPerStep(), int64_t(24));
        QCOMPARE(g.steps().size(), size_t(6));
    }

    void tooFewSteps() {
        const auto g = StepGrowth::analyze(Loop(2, Keep::Leak).trace);
        QCOMPARE(g.verdict(), StepGrowth::Verdict::TooFewSteps);
        QVERIFY(g.byStack().empty());
        QVERIFY(g.verdictText().find("too few to tell") != std::string::npos);
        const auto text = TraceSummary::toText(Loop(2, Keep::Leak).trace,
                                               TraceSummary::completed(Loop(2, Keep::Leak).trace));
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
