// The recorder on tiny runs: exact categories, attribution, totals, OOM, bounded mode, files.

#include "capture/recording_session.h"
#include "explain/trace_summary.h"
#include "interchange/chrome_trace_exporter.h"
#include "io/run_file.h"
#include "model/model_cost.h"
#include "model/module_scope.h"

#include <QTemporaryDir>

#include <QtTest/QtTest>
#include <sstream>

#include "tiny_options.h"

using namespace memscope;

namespace {

TrainOptions tinyOptions() {
    TrainOptions o = tinyTrainOptions();
    return o;
}

struct Recorded {
    std::unique_ptr<RecordingSession> session;
    RunSummary summary;
    Trace& trace() { return session->trace(); }
};

Recorded record(const TrainOptions& o, Recorder::Options ro = {}) {
    Recorded r;
    r.session = std::make_unique<RecordingSession>(o, ro);
    r.session->setMeasurePeakFlops(false);
    r.session->start();
    r.summary = r.session->finish();
    return r;
}

// Index of the last event of a step (any kind), or -1.
int64_t lastEventOfStep(const Trace& t, int32_t step) {
    int64_t last = -1;
    for (size_t i = 0; i < t.events.count(); ++i) {
        if (t.events.step[i] == step)
            last = static_cast<int64_t>(i);
    }
    return last;
}

int64_t bytesOf(const std::vector<int64_t>& by_category, Category c) {
    return by_category[static_cast<size_t>(c)];
}

bool anyFrameNamed(const StackTable& stacks, const std::string& prefix, FrameKind kind) {
    for (const auto& f : stacks.frames()) {
        if (f.kind == kind && f.name.rfind(prefix, 0) == 0)
            return true;
    }
    return false;
}

}  // namespace

class TestRecorder : public QObject {
    Q_OBJECT

  private slots:
    void modelStateCategoriesAreExactAfterStep2() {
        auto r = record(tinyOptions());
        QVERIFY2(r.summary.error.empty(), r.summary.error.c_str());
        const auto& t = r.trace();
        const int64_t params = r.summary.parameters;
        const auto end2 = lastEventOfStep(t, 2);
        QVERIFY(end2 > 0);
        const auto live = t.bytesByCategoryAt(static_cast<size_t>(end2));
        QCOMPARE(bytesOf(live, Category::Parameter), 4 * params);
        QCOMPARE(bytesOf(live, Category::OptimizerState), 8 * params);
        QCOMPARE(bytesOf(live, Category::Gradient), 4 * params);
        QCOMPARE(bytesOf(live, Category::Activation), int64_t(0));  // freed by backward
        QCOMPARE(bytesOf(live, Category::Unknown), int64_t(0));
        int64_t total = 0;
        for (auto b : live)
            total += b;
        QCOMPARE(total, t.events.allocated[static_cast<size_t>(end2)]);
    }

    void activationsAndTemporariesFollowTheirPhases() {
        auto r = record(tinyOptions());
        const auto& t = r.trace();
        const auto& ev = t.events;
        int activations = 0, inputs = 0;
        for (const auto& a : t.allocations()) {
            if (a.alloc_event < 0)
                continue;
            const auto phase = static_cast<Phase>(ev.phase[a.alloc_event]);
            if (a.category == Category::Activation) {
                ++activations;
                QVERIFY(phase == Phase::Forward);
                // freed by backward, or (the loss and the logits) once the step is over
                if (a.free_event >= 0) {
                    QVERIFY(static_cast<Phase>(ev.phase[a.free_event]) != Phase::Forward);
                }
            }
            if (a.category == Category::Temporary && a.free_event >= 0) {
                QCOMPARE(ev.phase[a.free_event], ev.phase[a.alloc_event]);
                QCOMPARE(ev.step[a.free_event], ev.step[a.alloc_event]);
            }
            inputs += a.category == Category::Input;
        }
        QVERIFY(activations > 0);
        QCOMPARE(inputs, 2 * 3);  // inputs and labels, three steps
    }

    void forwardOnlyHasNoGradientsStateOrActivations() {
        auto o = tinyOptions();
        o.profile = ProfileType::Forward;
        auto r = record(o);
        for (const auto& a : r.trace().allocations()) {
            QVERIFY(a.category != Category::Gradient);
            QVERIFY(a.category != Category::OptimizerState);
            QVERIFY(a.category != Category::Activation);
        }
    }

    void checkpointingKeepsOnlyBlockInputsAsActivations() {
        auto plain = record(tinyOptions());
        auto o = tinyOptions();
        o.checkpointing = Checkpointing::PerBlock;
        auto ckpt = record(o);
        auto activation_bytes = [](Trace& t) {
            const auto peak = t.peakEvent();
            return t.bytesByCategoryAt(static_cast<size_t>(peak))[int(Category::Activation)];
        };
        QVERIFY(activation_bytes(ckpt.trace()) < activation_bytes(plain.trace()));
        // recomputed activations live and die inside backward
        bool recomputed = false;
        const auto& ev = ckpt.trace().events;
        for (const auto& a : ckpt.trace().allocations()) {
            if (a.alloc_event >= 0 &&
                static_cast<Phase>(ev.phase[a.alloc_event]) == Phase::Backward &&
                TraceSummary::moduleOf(ckpt.trace().stacks, ev.stack[a.alloc_event])
                        .find(".feed_forward") != std::string::npos) {
                recomputed = true;
                QVERIFY(a.category == Category::Temporary || a.category == Category::Gradient);
            }
        }
        QVERIFY(recomputed);
    }

    void backwardAllocationsNameTheirForwardModule() {
        auto r = record(tinyOptions());
        const auto& stacks = r.trace().stacks;
        QVERIFY(anyFrameNamed(stacks, "backward of TinyLlama.blocks.1.attention",
                              FrameKind::BackwardOf));
        QVERIFY(anyFrameNamed(stacks, "backward of TinyLlama.blocks.0.feed_forward",
                              FrameKind::BackwardOf));
        QVERIFY(anyFrameNamed(stacks, "MmBackward", FrameKind::BackwardNode));
        // module frames carry the source location of the module's forward
        bool located = false;
        for (const auto& f : stacks.frames()) {
            if (f.kind == FrameKind::Module && f.name == "TinyLlama.blocks.0.attention.q_proj") {
                located = f.file.find("linear.cpp") != std::string::npos && f.line > 0;
            }
        }
        QVERIFY(located);
        // an allocation made in backward is attributed to a forward module
        const auto& ev = r.trace().events;
        bool attributed = false;
        for (size_t i = 0; i < ev.count() && !attributed; ++i) {
            if (static_cast<Phase>(ev.phase[i]) == Phase::Backward && ev.size[i] > 0) {
                attributed =
                    TraceSummary::moduleOf(stacks, ev.stack[i]).rfind("backward of TinyLlama", 0) ==
                    0;
            }
        }
        QVERIFY(attributed);
    }

    // The CPU allocator has no pool: its events keep reserved 0 whatever it reports, while a
    // GPU's caching allocator fills the column from its memory-usage report.
    void reservedBytesComeFromGpuAllocatorsOnly() {
        Recorder recorder;
        int cpu_storage = 0;
        int gpu_storage = 0;
        recorder.onMemoryEvent(&cpu_storage, 64, 64, 64, 4096, c10::Device(c10::DeviceType::CPU));
        recorder.onMemoryEvent(&gpu_storage, 512, 576, 512, 2 << 20,
                               c10::Device(c10::DeviceType::CUDA, 0));
        Trace t;
        QCOMPARE(recorder.drainInto(t), size_t(2));
        QCOMPARE(t.events.reserved[0], int64_t(0));
        QCOMPARE(t.events.device[0], int16_t(-1));
        QCOMPARE(t.events.reserved[1], int64_t(2 << 20));
        QCOMPARE(t.events.device[1], int16_t(0));
    }

    void runningTotalMatchesTheAllocatorAtStepBoundaries() {
        auto o = tinyOptions();
        RecordingSession session(o);
        session.setMeasurePeakFlops(false);
        std::vector<std::pair<int64_t, int64_t>> totals;
        const Recorder* recorder = &session.recorder();
        session.setStepCallback([&](const StepMetrics&) {
            totals.emplace_back(recorder->recordedTotal(), recorder->allocatorReportedTotal());
        });
        session.start();
        session.finish();
        QCOMPARE(totals.size(), size_t(3));
        for (const auto& [ours, allocator] : totals) {
            QCOMPARE(ours, allocator);
        }
        // and every event's running total is the sum of the sizes before it
        const auto& ev = session.trace().events;
        int64_t sum = ev.count() ? ev.allocated[0] - ev.size[0] : 0;
        for (size_t i = 0; i < ev.count(); ++i) {
            const auto kind = static_cast<EventKind>(ev.kind[i]);
            if (kind == EventKind::Alloc || kind == EventKind::Free) {
                sum += ev.size[i];
                QCOMPARE(ev.allocated[i], sum);
            }
        }
    }

    void outOfMemoryKeepsEveryEventBeforeIt() {
        auto o = tinyOptions();
        auto plain = record(o);
        const int64_t peak = plain.summary.peak_allocated_bytes;
        o.device_memory_limit =
            plain.summary.init_allocated_bytes + (peak - plain.summary.init_allocated_bytes) / 2;
        auto r = record(o);
        QVERIFY(r.summary.out_of_memory);
        QVERIFY(r.summary.error.find("out of memory") != std::string::npos);
        auto& t = r.trace();
        const auto& s = t.summary;
        QVERIFY(!s["oom"].is_null());
        QVERIFY(s["oom"]["requested_bytes"].get<int64_t>() > 0);
        QCOMPARE(s["oom"]["capacity_bytes"].get<int64_t>(), o.device_memory_limit);
        // the limit held: nothing above it was ever live
        for (size_t i = 0; i < t.events.count(); ++i) {
            QVERIFY(t.events.allocated[i] <= o.device_memory_limit);
        }
        QVERIFY(t.events.count() > 100);
        QTemporaryDir dir;
        const auto path = dir.filePath("oom.memscope").toStdString();
        RunFile::save(t, path);
        const auto back = RunFile::load(path);
        QCOMPARE(back.events.count(), t.events.count());
        QVERIFY(!back.summary["oom"].is_null());
    }

    void boundedModeKeepsTheNewestEventsAndSaysSo() {
        auto full = record(tinyOptions());
        Recorder::Options ro;
        ro.max_events = 500;
        auto r = record(tinyOptions(), ro);
        auto& t = r.trace();
        QCOMPARE(t.events.count(), size_t(500));
        QCOMPARE(t.meta.dropped_events, int64_t(full.trace().events.count()) - 500);
        QCOMPARE(t.summary["dropped_events"].get<int64_t>(), t.meta.dropped_events);
        // the kept events are the newest: they end where the full recording ends
        QCOMPARE(t.events.allocated.back(), full.trace().events.allocated.back());
        QTemporaryDir dir;
        const auto path = dir.filePath("bounded.memscope").toStdString();
        RunFile::save(t, path);
        QCOMPARE(RunFile::load(path).meta.dropped_events, t.meta.dropped_events);
    }

    void recordedRunsRoundTripThroughTheFile() {
        auto r = record(tinyOptions());
        auto& t = r.trace();
        QTemporaryDir dir;
        const auto path = dir.filePath("run.memscope").toStdString();
        RunFile::save(t, path);
        const auto back = RunFile::load(path);
        QVERIFY(back.events.time_ns == t.events.time_ns);
        QVERIFY(back.events.size == t.events.size);
        QVERIFY(back.events.addr == t.events.addr);
        QVERIFY(back.events.stack == t.events.stack);
        QVERIFY(back.events.phase == t.events.phase);
        QCOMPARE(back.stacks.nodeCount(), t.stacks.nodeCount());
        QCOMPARE(back.operators.size(), t.operators.size());
        QCOMPARE(back.allocations().size(), t.allocations().size());
        for (size_t i = 0; i < t.allocations().size(); ++i) {
            QVERIFY(back.allocations()[i].category == t.allocations()[i].category);
        }
        QCOMPARE(back.summary["peak_allocated_bytes"], t.summary["peak_allocated_bytes"]);
    }

    void operatorStatisticsAddUp() {
        auto r = record(tinyOptions());
        const auto& ops = r.trace().operators;
        const OperatorStat* mm = nullptr;
        const OperatorStat* q_proj = nullptr;
        for (const auto& o : ops) {
            if (o.name == "aten::mm")
                mm = &o;
            if (o.name == "TinyLlama.blocks.0.attention.q_proj")
                q_proj = &o;
        }
        QVERIFY(mm != nullptr && q_proj != nullptr);
        QVERIFY(q_proj->is_module);
        QCOMPARE(q_proj->calls, int64_t(3));  // one forward per step
        QVERIFY(mm->calls > 0 && mm->self_ns <= mm->total_ns);
        QVERIFY(mm->bytes_allocated >= mm->self_bytes_allocated);
        QVERIFY(q_proj->bytes_allocated > 0);                            // its matmul output
        QCOMPARE(q_proj->largest_allocation, int64_t(2 * 16 * 32 * 4));  // [B*S, D] fp32
    }

    // While a run goes on, another thread reads what the recording thread last published (the
    // journal, once a second): nothing before the first request, then the figures as of the
    // recording thread's next op exit, never more than the live ones.
    void publishedStatisticsFollowARequest() {
        Recorder recorder;
        recorder.onRunThreadStart();
        const auto a = torch::ones({4, 4});
        (void)torch::mm(a, a);
        QVERIFY(recorder.publishedOperatorStats().empty());
        (void)torch::mm(a, a);
        const auto published = recorder.publishedOperatorStats();
        recorder.onRunThreadEnd();
        const auto live = recorder.operatorStats();
        auto calls = [](const std::vector<OperatorStat>& stats, const std::string& name) {
            for (const auto& s : stats) {
                if (s.name == name) {
                    return s.calls;
                }
            }
            return int64_t(0);
        };
        QVERIFY(calls(published, "aten::mm") >= 1);
        QVERIFY(calls(published, "aten::mm") <= calls(live, "aten::mm"));
        QCOMPARE(calls(live, "aten::mm"), int64_t(2));
    }

    // The recorder predicts each call from the one before it (the call that followed it last
    // time): calls whose order changes from one repetition to the next, the same op under two
    // modules, a loop that alternates two ops and names too long to keep must each still land on
    // their own stack node, in the order they ran.
    void callsKeepTheirStacksWhateverTheirOrder() {
        const std::string long_name = "TinyLlama." + std::string(100, 'x');
        Recorder recorder;
        recorder.onRunThreadStart();
        const auto a = torch::ones({4, 4});
        std::vector<std::string> expected;  // "parent/op" of each top-level op, in order
        auto run = [&](const std::string& module, const std::vector<std::string>& ops) {
            ModuleScope scope(module);
            for (const auto& op : ops) {
                if (op == "aten::mm")
                    (void)torch::mm(a, a);
                else if (op == "aten::add")
                    (void)torch::add(a, a);
                else
                    (void)torch::mul(a, a);
                expected.push_back(module + "/" + op);
            }
        };
        for (int repeat = 0; repeat < 6; ++repeat) {
            run("m.first", repeat % 2 == 0 ? std::vector<std::string>{"aten::mm", "aten::add"}
                                           : std::vector<std::string>{"aten::add", "aten::mm"});
            run("m.second", {"aten::mm", "aten::mul", "aten::mm", "aten::mul", "aten::add"});
            run(long_name, {"aten::mul", "aten::add"});
            if (repeat == 3)
                run("m.first", {"aten::mul"});  // a call the prediction has never seen here
        }
        recorder.onRunThreadEnd();
        Trace trace;
        recorder.drainInto(trace);
        std::vector<const Span*> ops;  // the ops called right inside a module
        for (const auto& s : trace.spans) {
            const auto parent = trace.stacks.parent(s.stack);
            if (parent != StackTable::kEmpty && trace.stacks.parent(parent) == StackTable::kEmpty &&
                trace.stacks.frame(trace.stacks.frameOf(parent)).kind == FrameKind::Module &&
                trace.stacks.frame(trace.stacks.frameOf(s.stack)).kind == FrameKind::Operator)
                ops.push_back(&s);
        }
        std::sort(ops.begin(), ops.end(),
                  [](const Span* x, const Span* y) { return x->begin_ns < y->begin_ns; });
        std::vector<std::string> seen;
        for (const Span* s : ops) {
            const auto parent = trace.stacks.parent(s->stack);
            seen.push_back(trace.stacks.frame(trace.stacks.frameOf(parent)).name + "/" +
                           trace.stacks.frame(trace.stacks.frameOf(s->stack)).name);
        }
        QCOMPARE(seen, expected);
        // each (module, op) pair is one node however often and in whatever order it ran
        std::map<std::string, std::set<uint32_t>> nodes;
        for (size_t i = 0; i < ops.size(); ++i)
            nodes[seen[i]].insert(ops[i]->stack);
        for (const auto& [call, ids] : nodes)
            QVERIFY2(ids.size() == 1, call.c_str());
        int64_t mm_calls = 0;
        for (const auto& o : recorder.operatorStats())
            mm_calls += o.name == "aten::mm" ? o.calls : 0;
        QCOMPARE(mm_calls, int64_t(6 * 3));
    }

    // A consumer drains while the run goes on: in pieces within a chunk, of exactly a chunk
    // (4,096) and across chunks, every event and span arrives once and in order.
    void drainingInPiecesKeepsEverything() {
        Recorder recorder;
        recorder.onRunThreadStart();
        Trace t;
        std::vector<int> storage(64);
        size_t sent = 0;
        int64_t ops = 0;
        for (const size_t piece : {1, 7, 4096, 4000, 200, 9000, 0, 3}) {
            for (size_t i = 0; i < piece; ++i, ++sent) {
                recorder.onMemoryEvent(&storage[sent % storage.size()], 8, int64_t(8 * (sent + 1)),
                                       0, 0, c10::Device(c10::DeviceType::CPU));
            }
            for (size_t i = 0; i < piece; i += 97, ++ops) {
                const auto x = at::ones({2, 2});  // op calls, so spans
                QVERIFY(x.sum().item<float>() == 4.0f);
            }
            recorder.drainInto(t);
            QCOMPARE(t.events.count(), sent);
            QVERIFY(int64_t(t.spans.size()) >= 2 * ops);
        }
        recorder.onRunThreadEnd();
        for (size_t i = 0; i < sent; ++i) {
            QCOMPARE(t.events.allocated[i], int64_t(8 * (i + 1)));
        }
        for (size_t i = 1; i < t.spans.size(); ++i) {
            QVERIFY(t.spans[i - 1].end_ns <= t.spans[i].end_ns);  // in the order they ended
        }
        int64_t ones = 0;
        for (const auto& o : recorder.operatorStats())
            ones += o.name == "aten::ones" ? o.calls : 0;
        QCOMPARE(ones, ops);
        QCOMPARE(int64_t(std::count_if(t.spans.begin(), t.spans.end(),
                                       [&](const Span& s) {
                                           return t.stacks.frame(t.stacks.frameOf(s.stack)).name ==
                                                  "aten::ones";
                                       })),
                 ops);
    }

    void spansAndPhasesAreRecordedAndSaved() {
        auto r = record(tinyOptions());
        auto& t = r.trace();
        QVERIFY(!t.spans.empty());
        QVERIFY(!t.phases.empty());
        // phases tile the run in order: init, then other/forward/backward/optimizer/other per step
        QVERIFY(t.phases.front().phase == Phase::Init);
        for (size_t i = 1; i < t.phases.size(); ++i) {
            QVERIFY(t.phases[i].begin_ns >= t.phases[i - 1].begin_ns);
            QCOMPARE(t.phases[i - 1].end_ns, t.phases[i].begin_ns);
        }
        int forward_phases = 0;
        for (const auto& p : t.phases)
            forward_phases += p.phase == Phase::Forward;
        QCOMPARE(forward_phases, 3);
        // a q_proj call contains the aten::linear it made
        const Span* q = nullptr;
        for (const auto& s : t.spans) {
            const auto& f = t.stacks.frame(t.stacks.frameOf(s.stack));
            if (f.name == "TinyLlama.blocks.0.attention.q_proj") {
                q = &s;
                break;
            }
        }
        QVERIFY(q != nullptr);
        bool nested = false;
        for (const auto& s : t.spans) {
            if (t.stacks.parent(s.stack) == q->stack) {
                nested = s.begin_ns >= q->begin_ns && s.end_ns <= q->end_ns;
                break;
            }
        }
        QVERIFY(nested);
        QTemporaryDir dir;
        const auto path = dir.filePath("spans.memscope").toStdString();
        RunFile::save(t, path);
        const auto back = RunFile::load(path);
        QCOMPARE(back.spans.size(), t.spans.size());
        QCOMPARE(back.spans.back().end_ns, t.spans.back().end_ns);
        QCOMPARE(back.spans.back().stack, t.spans.back().stack);
        QCOMPARE(back.phases.size(), t.phases.size());
        QCOMPARE(back.phases.back().end_ns, t.phases.back().end_ns);
    }

    void summaryOfAStepLessTraceAveragesEverything() {
        // Imported snapshots have no steps: the average must not read 0 B.
        Trace t;
        auto add = [&t](int64_t time, uint64_t addr, int64_t size, int64_t live) {
            Event e;
            e.time_ns = time, e.addr = addr, e.size = size, e.allocated = live;
            e.kind = size > 0 ? EventKind::Alloc : EventKind::Free;
            e.phase = Phase::Other;
            t.events.append(e);
        };
        add(0, 0x10, 100, 100);
        add(10, 0x20, 300, 400);
        add(20, 0x10, -100, 300);
        add(30, 0x20, -300, 0);
        t.finalize();
        const auto s = TraceSummary::compute(t);
        // (100*10 + 400*10 + 300*10) / 30
        QCOMPARE(s["avg_allocated_bytes"].get<int64_t>(), int64_t(266));
        QCOMPARE(s["events"].get<int64_t>(), int64_t(4));
    }

    void recordShapesCountsMatmulFlops() {
        auto o = tinyOptions();
        o.num_steps = 1;
        o.profile = ProfileType::Forward;
        Recorder::Options ro;
        ro.record_shapes = true;
        auto r = record(o, ro);
        double mm = 0, bmm = 0;
        for (const auto& op : r.trace().operators) {
            if (op.name == "aten::mm")
                mm = op.flops;
            if (op.name == "aten::bmm")
                bmm = op.flops;
        }
        // The projections and the LM head run as mm, attention as bmm: together they are the
        // model's forward FLOPs (ModelCost's convention counts exactly these matmuls).
        const auto expected =
            ModelCost::stepFlops(o.model, 2, 16, false, false, AttentionKind::Eager);
        QCOMPARE(mm + bmm, expected.forward);
        QVERIFY(bmm > 0);

        // the op spans carry their input shapes, through the run file and into the Chrome trace
        auto& t = r.trace();
        bool q_proj_mm = false;
        for (const auto& span : t.spans) {
            const auto& f = t.stacks.frame(t.stacks.frameOf(span.stack));
            if (f.name == "aten::mm" && TraceSummary::moduleOf(t.stacks, span.stack) ==
                                            "TinyLlama.blocks.0.attention.q_proj") {
                // [B*S, D] x [D, D]
                q_proj_mm = t.shape_strings.at(span.shapes) == "[32, 32], [32, 32]";
            }
        }
        QVERIFY(q_proj_mm);
        QTemporaryDir dir;
        const auto path = dir.filePath("shapes.memscope").toStdString();
        RunFile::save(t, path);
        const auto back = RunFile::load(path);
        QCOMPARE(back.shape_strings, t.shape_strings);
        QCOMPARE(back.spans.back().shapes, t.spans.back().shapes);
        std::ostringstream chrome;
        ChromeTraceExporter::write(back, chrome, ChromeTraceExporter::Options{});
        QVERIFY(chrome.str().find("\"input_shapes\":\"[32, 32], [32, 32]\"") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestRecorder)
#include "test_recorder.moc"
