// An import's parameters inferred from its gradients (trace/parameter_inference.h): the blocks
// alive from before the trace to its end, one per gradient of its size; beside them an
// optimizer's per-parameter state; nothing changes when a gradient finds no block.

#include "explain/trace_summary.h"
#include "phase_event.h"
#include "trace/parameter_inference.h"
#include "trace/trace.h"

#include <QtTest>

#include <optional>

using namespace memscope;

namespace {

using test::phaseEvent;

std::optional<Allocation> at(const Trace& t, uint64_t addr) {
    for (const Allocation& a : t.allocations()) {
        if (a.addr == addr) {
            return a;
        }
    }
    return std::nullopt;
}

// Before the trace (step -1): an AdamW-shaped set for two parameters of 100 and 300 bytes,
// their parameter, exp_avg and exp_avg_sq each (addresses 0x1000.. rising), a buffer of 50
// bytes, and a last step's gradient of 100 bytes that the trace frees (zero_grad). Then a step:
// forward, backward making one gradient per parameter, the optimizer.
Trace adamShaped(bool with_optimizer, int64_t second_gradient = 300) {
    Trace t;
    t.meta.categories_inferred = true;
    const std::vector<Event> events = {
        phaseEvent(EventKind::Alloc, 0x1000, 100, Phase::Other, -1),  // parameter 1
        phaseEvent(EventKind::Alloc, 0x1100, 300, Phase::Other, -1),  // parameter 2
        phaseEvent(EventKind::Alloc, 0x1400, 100, Phase::Other, -1),  // exp_avg 1
        phaseEvent(EventKind::Alloc, 0x1500, 300, Phase::Other, -1),  // exp_avg 2
        phaseEvent(EventKind::Alloc, 0x1800, 100, Phase::Other, -1),  // exp_avg_sq 1
        phaseEvent(EventKind::Alloc, 0x1900, 300, Phase::Other, -1),  // exp_avg_sq 2
        phaseEvent(EventKind::Alloc, 0x1C00, 50, Phase::Other, -1),   // a buffer
        phaseEvent(EventKind::Free, 0x2000, -100, Phase::Forward,
                   1),                                                // last step's gradient, freed
        phaseEvent(EventKind::Alloc, 0x3000, 70, Phase::Forward, 1),  // activation
        phaseEvent(EventKind::Alloc, 0x4000, 100, Phase::Backward, 1),              // gradient 1
        phaseEvent(EventKind::Alloc, 0x4100, second_gradient, Phase::Backward, 1),  // gradient 2
        phaseEvent(EventKind::Free, 0x3000, -70, Phase::Backward, 1),
        phaseEvent(EventKind::Alloc, 0x5000, 10, with_optimizer ? Phase::Optimizer : Phase::Forward,
                   1),
        phaseEvent(EventKind::Free, 0x5000, -10, with_optimizer ? Phase::Optimizer : Phase::Forward,
                   1),
    };
    for (const Event& e : events) {
        t.events.append(e);
    }
    t.finalize();
    return t;
}

}  // namespace

class TestParameterInference : public QObject {
    Q_OBJECT

  private slots:
    // One parameter per gradient, the lowest address of its size; two blocks of state beside
    // it; the buffer and the freed gradient stay from before recording.
    void adamStateBesideParameters() {
        const Trace t = adamShaped(true);
        QCOMPARE(int(at(t, 0x4000)->category), int(Category::Gradient));
        for (const uint64_t p : {0x1000, 0x1100}) {
            QCOMPARE(int(at(t, p)->category), int(Category::Parameter));
            QCOMPARE(int(at(t, p)->rule), int(CategoryRule::ParameterOfGradient));
        }
        for (const uint64_t s : {0x1400, 0x1500, 0x1800, 0x1900}) {
            QCOMPARE(int(at(t, s)->category), int(Category::OptimizerState));
            QCOMPARE(int(at(t, s)->rule), int(CategoryRule::StateBesideParameter));
        }
        QCOMPARE(int(at(t, 0x1C00)->category), int(Category::BeforeRecording));
        QCOMPARE(int(at(t, 0x2000)->category), int(Category::BeforeRecording));

        const auto m = ParameterInference::match(t);  // the same after it applied
        QVERIFY(m.applies());
        QCOMPARE(m.step, 1);
        QCOMPARE(m.gradients, int64_t(2));
        QCOMPARE(m.parameters, int64_t(2));
        QCOMPARE(m.parameter_bytes, int64_t(400));
        QCOMPARE(m.states, int64_t(4));
        QCOMPARE(m.state_bytes, int64_t(800));

        // The bytes of each category at the end; info's lines.
        const auto bytes = t.bytesByCategoryAt(t.events.count() - 1);
        QCOMPARE(bytes[size_t(Category::Parameter)], int64_t(400));
        QCOMPARE(bytes[size_t(Category::OptimizerState)], int64_t(800));
        QCOMPARE(bytes[size_t(Category::BeforeRecording)], int64_t(50));
        const auto summary = TraceSummary::compute(t);
        QCOMPARE(summary["parameters_inferred"]["parameter_bytes"].get<int64_t>(), int64_t(400));
        const std::string text = TraceSummary::toText(t, summary);
        QVERIFY2(text.find("Parameters (inferred): 400 B in 2 blocks alive from before the trace "
                           "to its end, one for each gradient of step 1 by size; optimizer state "
                           "beside them (inferred): 800 B in 4 more blocks") != std::string::npos,
                 text.c_str());
    }

    // Without an optimizer phase the blocks beside a parameter are not called its state.
    void noOptimizerNoState() {
        const Trace t = adamShaped(false);
        QCOMPARE(int(at(t, 0x1000)->category), int(Category::Parameter));
        QCOMPARE(int(at(t, 0x1400)->category), int(Category::BeforeRecording));
        QCOMPARE(ParameterInference::match(t).states, int64_t(0));
    }

    // A gradient with no block of its size from before: nothing is inferred, and info says why.
    void unmatchedGradientChangesNothing() {
        const Trace t = adamShaped(true, 200);
        for (const Allocation& a : t.allocations()) {
            QVERIFY(a.category != Category::Parameter);
        }
        const auto m = ParameterInference::match(t);
        QVERIFY(!m.applies());
        QCOMPARE(m.unmatched, int64_t(1));
        const std::string text = TraceSummary::toText(t, TraceSummary::compute(t));
        QVERIFY2(
            text.find("Parameters not inferred: 1 of the 2 gradients of step 1 have no block "
                      "of their size alive from before the trace to its end.") != std::string::npos,
            text.c_str());
    }

    // A recording names its parameters: the rule is for imports only.
    void recordingsAreNotInferred() {
        Trace t = adamShaped(true);
        t.meta.categories_inferred = false;
        t.finalize();
        QCOMPARE(int(at(t, 0x1000)->category), int(Category::BeforeRecording));
        QVERIFY(ParameterInference::match(t).gradients == 0);
    }
};

QTEST_GUILESS_MAIN(TestParameterInference)
#include "test_parameter_inference.moc"
