// The roofline: the workshop's thresholds, bytes moved and FLOPs of calls from their shapes on
// a hand-made trace, a tiny recorded run whose step FLOPs are the model's matmul FLOPs, the
// measured CPU bandwidth, and the run statistics the summary page shows.

#include "analysis/roofline.h"
#include "analysis/run_statistics.h"
#include "capture/recording_session.h"
#include "device/peak_bandwidth.h"
#include "explain/trace_summary.h"
#include "model/model_cost.h"

#include <QtTest/QtTest>

#include <numeric>

#include "analysis_fixtures.h"
#include "tiny_options.h"

using namespace memscope;

namespace {

const Roofline::Entry* entry(const Roofline& r, const std::string& name) {
    for (const auto& e : r.ops) {
        if (e.name == name)
            return &e;
    }
    return nullptr;
}

std::unique_ptr<RecordingSession> recordTiny(TrainOptions o, bool shapes) {
    Recorder::Options ro;
    ro.record_shapes = shapes;
    auto session = std::make_unique<RecordingSession>(o, ro);
    session->setMeasurePeakFlops(false);
    session->start();
    session->finish();
    return session;
}

}  // namespace

class TestRoofline : public QObject {
    Q_OBJECT

  private slots:
    void classificationThresholds() {
        using B = Roofline::Bound;
        QCOMPARE(Roofline::classify(0.0), B::MemoryBound);
        QCOMPARE(Roofline::classify(9.99), B::MemoryBound);
        QCOMPARE(Roofline::classify(10.0), B::Mixed);
        QCOMPARE(Roofline::classify(55.0), B::Mixed);
        QCOMPARE(Roofline::classify(100.0), B::Mixed);
        QCOMPARE(Roofline::classify(100.01), B::ComputeBound);
        QCOMPARE(Roofline::toString(B::ComputeBound), std::string("compute-bound"));
        QCOMPARE(Roofline::toString(B::MemoryBound), std::string("memory-bound"));
        Roofline::Entry e;
        e.flops = 5000, e.bytes_read = 40, e.bytes_written = 10;  // 100 FLOP/byte, no shapes
        QCOMPARE(e.bound(), B::Unknown);
        e.shapes = true;
        QCOMPARE(e.intensity(), 100.0);
        QCOMPARE(e.bound(), B::Mixed);
        QCOMPARE(Roofline::ridgePoint(1e12, 1e10), 100.0);
        QCOMPARE(Roofline::ridgePoint(1e12, 0), 0.0);
    }

    void elementSizes() {
        QCOMPARE(Roofline::elementSize("aten::mm", "fp32"), 4);
        QCOMPARE(Roofline::elementSize("aten::mm", "bf16"), 2);
        QCOMPARE(Roofline::elementSize("aten::linear", "fp16"), 2);
        QCOMPARE(Roofline::elementSize("aten::softmax", "bf16"), 4);
    }

    void callsFromShapesOnHandMadeTrace() {
        AnalysisFixture f;
        const auto r = Roofline::compute(f.trace);
        QVERIFY(r.shapes_recorded);
        QCOMPARE(r.steps, int64_t(1));
        // aten::linear is the outermost call: its inputs [4, 8] [16, 8] [16] in fp32, the
        // 1000 + 50 bytes allocated inside it, and the FLOPs of the addmm it called
        const auto* linear = entry(r, "aten::linear");
        QVERIFY(linear);
        QVERIFY(!entry(r, "aten::addmm"));  // nested: counted in linear
        QCOMPARE(linear->calls, int64_t(1));
        QCOMPARE(linear->flops, 2.0 * 4 * 8 * 16);
        QCOMPARE(linear->bytes_read, double((32 + 128 + 16) * 4));
        QCOMPARE(linear->bytes_written, 1050.0);
        QCOMPARE(linear->time_ns, int64_t(200));
        QCOMPARE(linear->intensity(), 1024.0 / (704.0 + 1050.0));
        QCOMPARE(linear->bound(), Roofline::Bound::MemoryBound);
        // a matmul from its shapes: [16, 4] x [4, 8] read, 400 bytes written
        const auto* mm = entry(r, "aten::mm");
        QVERIFY(mm);
        QCOMPARE(mm->flops, 2.0 * 16 * 4 * 8);
        QCOMPARE(mm->bytes_read, double((64 + 32) * 4));
        QCOMPARE(mm->bytes_written, 400.0);
        QCOMPARE(mm->flopsPerSecond(), 1024.0 * 1e9 / 60.0);
        // in place: both inputs read, the first written back
        const auto* add = entry(r, "aten::add_");
        QVERIFY(add);
        QCOMPARE(add->bytes_read, double((64 + 64 + 64) * 4));
        QCOMPARE(add->flops, 0.0);
        QCOMPARE(add->bound(), Roofline::Bound::MemoryBound);
        // the step: everything once, against the step's wall time (phases 90..650)
        QCOMPARE(r.step.flops, 2048.0);
        QCOMPARE(r.step.bytes_read, 704.0 + 768.0 + 384.0);
        QCOMPARE(r.step.bytes_written, 1450.0);
        QCOMPARE(r.step.time_ns, int64_t(560));
        QCOMPARE(r.step.calls, int64_t(3));

        // mixed precision: matmul-like calls read 2-byte elements, the rest 4
        f.trace.meta.config["dtype"] = "bf16";
        const auto half = Roofline::compute(f.trace);
        QCOMPARE(entry(half, "aten::linear")->bytes_read, double((32 + 128 + 16) * 2));
        QCOMPARE(entry(half, "aten::add_")->bytes_read, double((64 + 64 + 64) * 4));
    }

    void wrappersWithoutTensorInputsAreNotUnits() {
        // autograd wraps each backward node in an op without inputs: the mm inside is the unit
        Trace t;
        auto& s = t.stacks;
        const auto wrapper =
            s.child(0, s.internFrame({"autograd::engine::evaluate_function: MmBackward0", "", 0,
                                      FrameKind::Operator}));
        const auto node =
            s.child(wrapper, s.internFrame({"MmBackward0", "", 0, FrameKind::BackwardNode}));
        const auto mm = s.child(node, s.internFrame({"aten::mm", "", 0, FrameKind::Operator}));
        const auto leaf = s.child(0, s.internFrame({"aten::empty", "", 0, FrameKind::Operator}));
        t.shape_strings = {"", "[2, 3], [3, 4]", "", "-, -"};
        t.spans.push_back({20, 40, mm, 0, 1});
        t.spans.push_back({15, 45, node, 0, 0});
        t.spans.push_back({10, 50, wrapper, 0, 2});
        t.spans.push_back({60, 70, leaf, 0, 3});  // no tensor inputs, but nothing inside: a unit
        const auto view = s.child(0, s.internFrame({"aten::reshape", "", 0, FrameKind::Operator}));
        t.spans.push_back({80, 90, view, 0, 1});  // allocates nothing: a view, reads nothing
        Event e;
        e.time_ns = 30, e.addr = 1, e.size = 32, e.allocated = 32, e.stack = mm;
        t.events.append(e);
        t.finalize();
        const auto r = Roofline::compute(t);
        QVERIFY(!entry(r, "autograd::engine::evaluate_function: MmBackward0"));
        QVERIFY(entry(r, "aten::mm"));
        QCOMPARE(entry(r, "aten::mm")->bytes_read, double((6 + 12) * 4));
        QCOMPARE(entry(r, "aten::mm")->flops, 2.0 * 2 * 3 * 4);
        QVERIFY(entry(r, "aten::empty"));
        QCOMPARE(entry(r, "aten::reshape")->bytes_read, 0.0);
        QCOMPARE(r.step.calls, int64_t(3));
    }

    void withoutShapesIsUnknown() {
        AnalysisFixture f;
        for (auto& s : f.trace.spans)
            s.shapes = 0;
        const auto r = Roofline::compute(f.trace);
        QVERIFY(!r.shapes_recorded);
        QCOMPARE(r.step.bound(), Roofline::Bound::Unknown);
        QCOMPARE(r.step.flops, 0.0);
        QCOMPARE(r.step.bytes_written, 1450.0);  // allocations are still known
    }

    void recordedForwardRunMatchesModelFlops() {
        auto o = tinyTrainOptions();
        o.profile = ProfileType::Forward;
        o.num_steps = 2;
        auto session = recordTiny(o, true);
        const auto r = Roofline::compute(session->trace());
        QVERIFY(r.shapes_recorded);
        QCOMPARE(r.steps, int64_t(2));
        const auto expected = ModelCost::stepFlops(o.model, o.batch_size, o.seq_len, false, false,
                                                   AttentionKind::Eager);
        QVERIFY(qAbs(r.step.flops - expected.forward) <= 1e-9 * expected.forward);
        QVERIFY(r.step.bytes_read > 0);
        QVERIFY(r.step.bytes_written > 0);
        QVERIFY(r.step.time_ns > 0);
        QVERIFY(r.step.bound() != Roofline::Bound::Unknown);
        double flops = 0;
        int classified = 0;
        for (const auto& e : r.ops) {
            if (e.shapes && e.bytes() > 0) {
                QVERIFY2(e.bound() != Roofline::Bound::Unknown, e.name.c_str());
                ++classified;
            }
            flops += e.flops;
        }
        QVERIFY(classified >= 5);  // linear, matmul, softmax, silu, mul, ... are all classified
        QVERIFY(qAbs(flops / 2 - r.step.flops) <= 1e-9 * r.step.flops);
    }

    void measuredCpuBandwidth() {
        const auto peak = PeakBandwidth::measure(c10::Device(c10::kCPU), 1);
        QVERIFY(peak.bytes_per_s > 1e8);  // any machine moves more than 100 MB/s
        QVERIFY(peak.method.find("triad") != std::string::npos);
        QVERIFY(peak.method.find("1 thread") != std::string::npos);
        const auto again = PeakBandwidth::measure(c10::Device(c10::kCPU), 1);
        QCOMPARE(again.bytes_per_s, peak.bytes_per_s);  // cached
    }

    void runStatisticsOfTinyRun() {
        auto o = tinyTrainOptions();
        auto session = recordTiny(o, false);
        const Trace& trace = session->trace();
        const auto s = RunStatistics::fromTrace(trace);
        QCOMPARE(s.peak_bytes, trace.summary["peak_allocated_bytes"].get<int64_t>());
        QCOMPARE(s.step1_peak_bytes, trace.summary["step1_peak_allocated_bytes"].get<int64_t>());
        QCOMPARE(s.steady_peak_bytes, trace.summary["steady_peak_allocated_bytes"].get<int64_t>());
        QVERIFY(s.avg_bytes > 0 && s.avg_bytes < s.peak_bytes);
        QCOMPARE(s.peak_to_avg, double(s.peak_bytes) / double(s.avg_bytes));
        QVERIFY(s.backward_peak_bytes > 0 && s.forward_peak_bytes > 0);
        QVERIFY(s.has_timing);
        QCOMPARE(s.steps, o.num_steps);
        QVERIFY(s.samples_per_s > 0);
        QCOMPARE(s.tokens_per_s, s.samples_per_s * double(o.seq_len));
        // the categories at the peak add up to the recorded peak
        const int64_t at_peak = std::accumulate(s.bytes_by_category_at_peak.begin(),
                                                s.bytes_by_category_at_peak.end(), int64_t(0));
        QCOMPARE(at_peak, trace.events.allocated[size_t(trace.peakEvent())]);
        // the step peaks from the events agree with the trainer's
        const auto computed = TraceSummary::compute(trace);
        QCOMPARE(computed["step1_peak_allocated_bytes_recorded"].get<int64_t>(),
                 s.step1_peak_bytes);
        QCOMPARE(computed["steady_peak_allocated_bytes_recorded"].get<int64_t>(),
                 s.steady_peak_bytes);

        // an imported-like trace without a stored summary: figures from the events only
        Trace bare = trace;
        bare.summary = nlohmann::json::object();
        const auto b = RunStatistics::fromTrace(bare);
        QVERIFY(!b.has_timing);
        QCOMPARE(b.peak_bytes, trace.events.allocated[size_t(trace.peakEvent())]);
        QCOMPARE(b.step1_peak_bytes, s.step1_peak_bytes);

        // What the run stored only (the Ranks table reads this for every rank): the same
        // peaks and timing, without a pass over the events.
        const auto stored = RunStatistics::fromStored(trace);
        QCOMPARE(stored.peak_bytes, s.peak_bytes);
        QCOMPARE(stored.step1_peak_bytes, s.step1_peak_bytes);
        QCOMPARE(stored.steady_peak_bytes, s.steady_peak_bytes);
        QCOMPARE(stored.avg_step_s, s.avg_step_s);
        QCOMPARE(stored.communication_bytes, int64_t(0));  // one process: no collectives
        QCOMPARE(s.recorded_peak_bytes, trace.events.allocated[size_t(trace.peakEvent())]);
        Trace ranked = trace;
        ranked.summary["communication_bytes"] = int64_t(123456);
        QCOMPARE(RunStatistics::fromStored(ranked).communication_bytes, int64_t(123456));
        // Steps alone (a summary lost with a killed run): the peaks and the step time from them.
        Trace steps_only = trace;
        steps_only.summary = nlohmann::json::object();
        const auto from_steps = RunStatistics::fromStored(steps_only);
        QCOMPARE(from_steps.step1_peak_bytes, s.step1_peak_bytes);
        QCOMPARE(from_steps.steady_peak_bytes, s.steady_peak_bytes);
        QVERIFY(from_steps.avg_step_s > 0);
    }
};

QTEST_GUILESS_MAIN(TestRoofline)
#include "test_roofline.moc"
