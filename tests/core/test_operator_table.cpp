// The operator table: exact rows, times and attribution on a hand-made trace, and on a tiny
// recorded run every allocation in exactly one row with totals that agree with the recorder's
// own per-operator statistics.

#include "analysis/operator_table.h"
#include "analysis/shape_list.h"
#include "analysis/span_nesting.h"
#include "capture/recording_session.h"
#include "explain/stack_attribution.h"
#include "explain/trace_summary.h"

#include <QtTest/QtTest>

#include <map>
#include <numeric>
#include <set>

#include "analysis_fixtures.h"
#include "tiny_options.h"

using namespace memscope;

namespace {

using Grouping = OperatorTable::Grouping;
using RowKind = OperatorTable::RowKind;

int64_t findRow(const OperatorTable& t, const std::string& name, RowKind kind,
                int64_t parent = -2) {
    for (size_t i = 0; i < t.rows().size(); ++i) {
        const auto& r = t.rows()[i];
        if (r.name == name && r.kind == kind && (parent == -2 || r.parent == parent))
            return int64_t(i);
    }
    return -1;
}

std::unique_ptr<RecordingSession> recordTiny(bool shapes, TrainOptions o = tinyTrainOptions()) {
    Recorder::Options ro;
    ro.record_shapes = shapes;
    auto session = std::make_unique<RecordingSession>(o, ro);
    session->setMeasurePeakFlops(false);
    session->start();
    session->finish();
    return session;
}

// Every allocation appears in exactly one row's list, and rowOfAllocation agrees.
void checkEachAllocationOnce(const Trace& trace, const OperatorTable& table) {
    std::vector<int> seen(trace.allocations().size(), 0);
    for (size_t r = 0; r < table.rows().size(); ++r) {
        for (int64_t a : table.rows()[r].allocations) {
            QVERIFY(a >= 0 && size_t(a) < seen.size());
            ++seen[size_t(a)];
            QCOMPARE(table.rowOfAllocation(a), int64_t(r));
        }
    }
    for (size_t a = 0; a < seen.size(); ++a) {
        QCOMPARE(seen[a], 1);
    }
}

}  // namespace

class TestOperatorTable : public QObject {
    Q_OBJECT

  private slots:
    void shapeListParsesRecorderText() {
        const auto s = ShapeList::parse("[8, 128, 256], -, [256], []");
        QCOMPARE(s.size(), size_t(4));
        QCOMPARE(s.sizes(0), (std::vector<int64_t>{8, 128, 256}));
        QVERIFY(!s.isTensor(1));
        QCOMPARE(s.numel(1), int64_t(0));
        QCOMPARE(s.numel(2), int64_t(256));
        QCOMPARE(s.numel(3), int64_t(1));  // 0-d tensor
        QCOMPARE(s.totalNumel(), int64_t(8 * 128 * 256 + 256 + 1));
        QCOMPARE(ShapeList::parse("[3, 4], [4, 5]").matmulFlops("aten::mm"), 2.0 * 3 * 4 * 5);
        QCOMPARE(ShapeList::parse("[5], [3, 4], [4, 5]").matmulFlops("aten::addmm"),
                 2.0 * 3 * 4 * 5);
        QCOMPARE(ShapeList::parse("[2, 3, 4], [2, 4, 5]").matmulFlops("aten::bmm"),
                 2.0 * 2 * 3 * 4 * 5);
        QCOMPARE(ShapeList::parse("[3, 4], [4, 5]").matmulFlops("aten::add"), 0.0);
        QCOMPARE(ShapeList::parse("[3, 4").size(), size_t(0));   // unterminated
        QCOMPARE(ShapeList::parse("[3, x]").size(), size_t(0));  // not a number
        QCOMPARE(ShapeList::parse("").size(), size_t(0));
    }

    void spanNestingSelfTimes() {
        AnalysisFixture f;
        const SpanNesting n(f.trace);
        // spans in fixture order: addmm, linear, add_, M, mm, MmBackward0
        QCOMPARE(n.parent(0), int64_t(1));
        QCOMPARE(n.parent(1), int64_t(3));
        QCOMPARE(n.parent(2), int64_t(3));
        QCOMPARE(n.parent(3), int64_t(-1));
        QCOMPARE(n.parent(4), int64_t(5));
        QCOMPARE(n.parent(5), int64_t(-1));
        QCOMPARE(n.selfNs(0), int64_t(140));
        QCOMPARE(n.selfNs(1), int64_t(60));
        QCOMPARE(n.selfNs(3), int64_t(300 - 200 - 20));
        QCOMPARE(n.selfNs(5), int64_t(40));
        QCOMPARE(n.coveredNs(), int64_t(400));
    }

    void byOperatorOnHandMadeTrace() {
        AnalysisFixture f;
        const auto t = OperatorTable::build(f.trace, Grouping::ByOperator);
        QCOMPARE(t.topLevel().size(), t.rows().size());  // flat
        const auto addmm = findRow(t, "aten::addmm", RowKind::Operator);
        const auto linear = findRow(t, "aten::linear", RowKind::Operator);
        const auto add = findRow(t, "aten::add_", RowKind::Operator);
        const auto node = findRow(t, "MmBackward0", RowKind::BackwardNode);
        const auto mm = findRow(t, "aten::mm", RowKind::Operator);
        const auto outside = findRow(t, "", RowKind::Unattributed);
        QVERIFY(addmm >= 0 && linear >= 0 && add >= 0 && node >= 0 && mm >= 0 && outside >= 0);
        QCOMPARE(t.rows().size(), size_t(6));
        QCOMPARE(t.row(addmm).self_ns, int64_t(140));
        QCOMPARE(t.row(addmm).total_ns, int64_t(140));
        QCOMPARE(t.row(linear).self_ns, int64_t(60));
        QCOMPARE(t.row(linear).total_ns, int64_t(200));
        QCOMPARE(t.row(node).self_ns, int64_t(40));
        QCOMPARE(t.row(mm).calls, int64_t(1));
        QCOMPARE(t.coveredNs(), int64_t(400));
        QCOMPARE(t.selfPercent(t.row(addmm)), 35.0);
        QCOMPARE(t.totalPercent(t.row(linear)), 50.0);

        QCOMPARE(t.row(addmm).allocations, (std::vector<int64_t>{f.allocation(0xa0)}));
        QCOMPARE(t.row(addmm).flops, 2.0 * 4 * 8 * 16);
        QCOMPARE(t.row(linear).self_bytes_allocated, int64_t(50));
        QCOMPARE(t.row(linear).self_net_bytes, int64_t(0));      // allocated and freed inside
        QCOMPARE(t.row(linear).bytes_allocated, int64_t(1050));  // addmm's included
        QCOMPARE(t.allocationsInside(linear),
                 (std::vector<int64_t>{f.allocation(0xa0), f.allocation(0xa1)}));
        QCOMPARE(t.row(node).self_net_bytes, int64_t(-400));  // frees what aten::mm allocated
        QCOMPARE(t.row(node).bytes_allocated, int64_t(400));
        // allocations outside every operator: the init one and the one in module M itself
        QCOMPARE(t.row(outside).self_bytes_allocated, int64_t(37));
        QCOMPARE(t.rowOfAllocation(f.allocation(0xa4)), outside);
        QCOMPARE(t.row(add).shapes.size(), size_t(1));
        QCOMPARE(f.trace.shape_strings[t.row(add).shapes[0].first],
                 std::string("[4, 16], [4, 16]"));
        QCOMPARE(t.rowOfAllocation(-1), int64_t(-1));
        QCOMPARE(t.rowOfAllocation(99), int64_t(-1));
        checkEachAllocationOnce(f.trace, t);
    }

    void byModuleOnHandMadeTrace() {
        AnalysisFixture f;
        const auto t = OperatorTable::build(f.trace, Grouping::ByModule);
        const auto m = findRow(t, "M", RowKind::Module);
        QVERIFY(m >= 0);
        QCOMPARE(t.row(m).parent, int64_t(-1));
        const auto linear = findRow(t, "aten::linear", RowKind::Operator, m);
        const auto addmm = findRow(t, "aten::addmm", RowKind::Operator, linear);
        const auto add = findRow(t, "aten::add_", RowKind::Operator, m);
        const auto backward = findRow(t, "M", RowKind::Backward, m);
        const auto node = findRow(t, "MmBackward0", RowKind::BackwardNode, backward);
        const auto mm = findRow(t, "aten::mm", RowKind::Operator, node);
        QVERIFY(linear >= 0 && addmm >= 0 && add >= 0 && backward >= 0 && node >= 0 && mm >= 0);
        QCOMPARE(t.row(m).self_ns, int64_t(80));
        QCOMPARE(t.row(m).calls, int64_t(1));
        QCOMPARE(t.row(backward).total_ns, int64_t(100));
        QCOMPARE(t.row(m).total_ns, int64_t(400));  // forward and backward
        QCOMPARE(t.row(m).self_bytes_allocated, int64_t(30));
        QCOMPARE(t.row(m).bytes_allocated, int64_t(30 + 1050 + 400));
        QCOMPARE(t.allocationsInside(backward), (std::vector<int64_t>{f.allocation(0xa3)}));
        QCOMPARE(t.allocationsInside(m).size(), size_t(4));
        const auto outside = findRow(t, "", RowKind::Unattributed);
        QCOMPARE(t.row(outside).allocations, (std::vector<int64_t>{f.allocation(0xa2)}));
        // children sorted by memory: linear (1050 B) first
        QCOMPARE(t.row(m).children.front(), linear);
        checkEachAllocationOnce(f.trace, t);
    }

    // Fixture events: e0 t50, e1 t200, e2 t310, e3 t320, e4 t390, e5 t530, e6 t590.
    void callsInRangeByOperator() {
        AnalysisFixture f;
        const auto t = OperatorTable::build(f.trace, Grouping::ByOperator);
        const auto addmm = findRow(t, "aten::addmm", RowKind::Operator);
        const auto linear = findRow(t, "aten::linear", RowKind::Operator);
        const auto add = findRow(t, "aten::add_", RowKind::Operator);
        const auto node = findRow(t, "MmBackward0", RowKind::BackwardNode);
        const auto mm = findRow(t, "aten::mm", RowKind::Operator);
        // Events [2, 4): times [310, 390). linear [150, 350] and add_ [360, 380] ran in it
        // (whole calls, whole times), addmm [160, 300] ended before it, backward is after it.
        const auto in = t.callsIn(f.trace, RangeFilter(2, 4));
        QCOMPARE(in.rows.size(), t.rows().size());
        QCOMPARE(in.rows[size_t(linear)].calls, int64_t(1));
        QCOMPARE(in.rows[size_t(linear)].self_ns, int64_t(60));
        QCOMPARE(in.rows[size_t(linear)].total_ns, int64_t(200));
        QCOMPARE(in.rows[size_t(add)].calls, int64_t(1));
        QCOMPARE(in.rows[size_t(add)].total_ns, int64_t(20));
        QCOMPARE(in.rows[size_t(addmm)].calls, int64_t(0));
        QCOMPARE(in.rows[size_t(addmm)].self_ns, int64_t(0));
        QCOMPARE(in.rows[size_t(addmm)].flops, 0.0);
        QCOMPARE(in.rows[size_t(node)].calls, int64_t(0));
        QCOMPARE(in.rows[size_t(mm)].calls, int64_t(0));
        QCOMPARE(in.covered_ns, int64_t(300));  // module M's call, the outermost one
        QCOMPARE(in.totalPercent(in.rows[size_t(linear)]), 200.0 / 3.0);
        // Made in [5, 7): times from 530 on; the mode picks allocations, not calls. aten::mm
        // [520, 580] made a3 at 530 and counts though it began before the range.
        const auto made = t.callsIn(f.trace, RangeFilter(5, 7, RangeFilter::Mode::MadeIn));
        QCOMPARE(made.rows[size_t(mm)].calls, int64_t(1));
        QCOMPARE(made.rows[size_t(mm)].flops, 2.0 * 16 * 4 * 8);
        QCOMPARE(made.rows[size_t(node)].calls, int64_t(1));
        QCOMPARE(made.rows[size_t(node)].self_ns, int64_t(40));
        QCOMPARE(made.rows[size_t(linear)].calls, int64_t(0));
        QCOMPARE(made.covered_ns, int64_t(100));
        // An empty range: no calls.
        const auto none = t.callsIn(f.trace, RangeFilter(3, 3));
        for (const auto& c : none.rows) {
            QCOMPARE(c.calls, int64_t(0));
        }
        QCOMPARE(none.covered_ns, int64_t(0));
        // The whole run's range gives the rows' own figures.
        for (const RangeFilter& whole :
             {RangeFilter(0, 7), RangeFilter(0, 7, RangeFilter::Mode::MadeIn)}) {
            const auto all = t.callsIn(f.trace, whole);
            QCOMPARE(all.covered_ns, t.coveredNs());
            for (size_t r = 0; r < t.rows().size(); ++r) {
                QCOMPARE(all.rows[r].calls, t.rows()[r].calls);
                QCOMPARE(all.rows[r].self_ns, t.rows()[r].self_ns);
                QCOMPARE(all.rows[r].total_ns, t.rows()[r].total_ns);
                QCOMPARE(all.rows[r].flops, t.rows()[r].flops);
            }
        }
    }

    void callsInRangeByModule() {
        AnalysisFixture f;
        const auto t = OperatorTable::build(f.trace, Grouping::ByModule);
        const auto m = findRow(t, "M", RowKind::Module);
        const auto linear = findRow(t, "aten::linear", RowKind::Operator, m);
        const auto addmm = findRow(t, "aten::addmm", RowKind::Operator, linear);
        const auto backward = findRow(t, "M", RowKind::Backward, m);
        const auto node = findRow(t, "MmBackward0", RowKind::BackwardNode, backward);
        // [2, 4): M (self 80), linear (self 60) and add_ (20) ran; addmm did not. The tree's
        // totals sum the selves below a row, as for the whole run.
        const auto in = t.callsIn(f.trace, RangeFilter(2, 4));
        QCOMPARE(in.rows[size_t(m)].calls, int64_t(1));
        QCOMPARE(in.rows[size_t(m)].self_ns, int64_t(80));
        QCOMPARE(in.rows[size_t(m)].total_ns, int64_t(80 + 60 + 20));
        QCOMPARE(in.rows[size_t(linear)].total_ns, int64_t(60));
        QCOMPARE(in.rows[size_t(addmm)].calls, int64_t(0));
        QCOMPARE(in.rows[size_t(backward)].total_ns, int64_t(0));
        // Made in [5, 7): only the backward ran; M's total is its backward's.
        const auto made = t.callsIn(f.trace, RangeFilter(5, 7, RangeFilter::Mode::MadeIn));
        QCOMPARE(made.rows[size_t(m)].calls, int64_t(0));
        QCOMPARE(made.rows[size_t(node)].calls, int64_t(1));
        QCOMPARE(made.rows[size_t(backward)].total_ns, int64_t(100));
        QCOMPARE(made.rows[size_t(m)].total_ns, int64_t(100));
        const auto all = t.callsIn(f.trace, RangeFilter(0, 7));
        for (size_t r = 0; r < t.rows().size(); ++r) {
            QCOMPARE(all.rows[r].calls, t.rows()[r].calls);
            QCOMPARE(all.rows[r].self_ns, t.rows()[r].self_ns);
            QCOMPARE(all.rows[r].total_ns, t.rows()[r].total_ns);
        }
    }

    void callsInRangeWithoutSpans() {
        // A run stored without spans keeps the recorder's statistics: no range splits them.
        AnalysisFixture f;
        f.trace.spans.clear();
        OperatorStat o;
        o.name = "aten::addmm";
        o.calls = 3;
        o.self_ns = 90;
        f.trace.operators.push_back(o);
        const auto t = OperatorTable::build(f.trace, Grouping::ByOperator);
        QCOMPARE(t.row(findRow(t, "aten::addmm", RowKind::Operator)).calls, int64_t(3));
        QVERIFY(t.callsIn(f.trace, RangeFilter(2, 4)).rows.empty());
    }

    void moduleParentsFollowPaths() {
        Trace trace;
        auto& s = trace.stacks;
        const auto root = s.child(0, s.internFrame({"Net", "", 0, FrameKind::Module}));
        const auto block = s.child(root, s.internFrame({"Net.blocks.0", "", 0, FrameKind::Module}));
        const auto attn =
            s.child(block, s.internFrame({"Net.blocks.0.attention", "", 0, FrameKind::Module}));
        Event e;
        e.kind = EventKind::Alloc, e.addr = 1, e.size = 10, e.allocated = 10, e.stack = attn;
        trace.events.append(e);
        trace.finalize();
        const auto t = OperatorTable::build(trace, Grouping::ByModule);
        const auto net = findRow(t, "Net", RowKind::Module);
        const auto b = findRow(t, "Net.blocks.0", RowKind::Module);
        const auto a = findRow(t, "Net.blocks.0.attention", RowKind::Module);
        QCOMPARE(t.row(b).parent, net);
        QCOMPARE(t.row(a).parent, b);
        QCOMPARE(t.row(net).bytes_allocated, int64_t(10));
        QCOMPARE(t.topLevel(), std::vector<int64_t>{net});
    }

    void emptyTrace() {
        Trace trace;
        trace.finalize();
        for (auto g : {Grouping::ByOperator, Grouping::ByModule}) {
            const auto t = OperatorTable::build(trace, g);
            QVERIFY(t.rows().empty());
            QVERIFY(t.allocationsInside(0).empty());
            QCOMPARE(t.coveredNs(), int64_t(0));
        }
    }

    void recordedRunAgreesWithRecorder_data() {
        QTest::addColumn<bool>("checkpointed");
        QTest::newRow("eager") << false;
        // recomputed forwards run inside backward nodes, attention in a custom Function
        QTest::newRow("checkpointed, memory-efficient") << true;
    }
    void recordedRunAgreesWithRecorder() {
        QFETCH(bool, checkpointed);
        auto o = tinyTrainOptions();
        if (checkpointed) {
            o.checkpointing = Checkpointing::PerBlock;
            o.attention = AttentionKind::MemoryEfficient;
        }
        auto session = recordTiny(true, o);
        const Trace& trace = session->trace();
        QVERIFY(!trace.spans.empty());
        const int64_t all_bytes =
            std::accumulate(trace.allocations().begin(), trace.allocations().end(), int64_t(0),
                            [](int64_t sum, const Allocation& a) { return sum + a.size; });
        std::map<std::string, const OperatorStat*> stats;
        for (const auto& o : trace.operators)
            stats[o.name] = &o;

        const auto flat = OperatorTable::build(trace, Grouping::ByOperator);
        checkEachAllocationOnce(trace, flat);
        int64_t self_sum = 0;
        for (size_t r = 0; r < flat.rows().size(); ++r) {
            const auto& row = flat.rows()[r];
            self_sum += row.self_bytes_allocated;
            if (row.kind == RowKind::Unattributed)
                continue;
            // calls, self time and FLOPs are what the recorder counted itself
            QVERIFY2(stats.count(row.name), row.name.c_str());
            const OperatorStat& o = *stats[row.name];
            QCOMPARE(row.calls, o.calls);
            QCOMPARE(row.self_ns, o.self_ns);
            QVERIFY(qAbs(row.flops - o.flops) <= 1e-9 * std::max(1.0, o.flops));
            QVERIFY(row.total_ns <= o.total_ns);  // recursive calls count once here
            // bytes allocated inside = the allocations listed as inside
            int64_t inside = 0;
            for (int64_t a : flat.allocationsInside(int64_t(r)))
                inside += trace.allocations()[size_t(a)].size;
            QCOMPARE(row.bytes_allocated, inside);
            QVERIFY(row.bytes_allocated >= row.self_bytes_allocated);
        }
        QCOMPARE(self_sum, all_bytes);
        // Calls in the whole run's range are the rows' own; a call runs in the first half of
        // the events, the second, or both (it straddles the middle).
        const int64_t events = int64_t(trace.events.count());
        const auto whole = flat.callsIn(trace, RangeFilter(0, events));
        const auto first = flat.callsIn(trace, RangeFilter(0, events / 2));
        const auto second = flat.callsIn(trace, RangeFilter(events / 2, events));
        QCOMPARE(whole.covered_ns, flat.coveredNs());
        int64_t calls = 0, split = 0;
        for (size_t r = 0; r < flat.rows().size(); ++r) {
            QCOMPARE(whole.rows[r].calls, flat.rows()[r].calls);
            QCOMPARE(whole.rows[r].total_ns, flat.rows()[r].total_ns);
            QVERIFY(first.rows[r].calls + second.rows[r].calls >= flat.rows()[r].calls);
            QVERIFY(first.rows[r].calls <= flat.rows()[r].calls);
            calls += flat.rows()[r].calls;
            split += first.rows[r].calls;
        }
        QVERIFY(split > 0 && split < calls);
        QVERIFY(findRow(flat, "aten::mm", RowKind::Operator) >= 0);
        QVERIFY(!flat.row(findRow(flat, "aten::mm", RowKind::Operator)).shapes.empty());

        const auto tree = OperatorTable::build(trace, Grouping::ByModule);
        checkEachAllocationOnce(trace, tree);
        int64_t top_bytes = 0;
        for (int64_t r : tree.topLevel())
            top_bytes += tree.row(r).bytes_allocated;
        QCOMPARE(top_bytes, all_bytes);
        const auto model = findRow(tree, "TinyLlama", RowKind::Module);
        QVERIFY(model >= 0);
        QCOMPARE(tree.row(model).parent, int64_t(-1));
        const auto q = findRow(tree, "TinyLlama.blocks.0.attention.q_proj", RowKind::Module);
        QVERIFY(q >= 0);
        QCOMPARE(tree.row(tree.row(q).parent).name, std::string("TinyLlama.blocks.0.attention"));
        // the module's backward sits under it, and its allocations are the ones whose stack
        // says "backward of" that module
        const auto q_backward =
            findRow(tree, "TinyLlama.blocks.0.attention.q_proj", RowKind::Backward, q);
        QVERIFY(q_backward >= 0);
        const StackAttribution attribution(trace.stacks);
        for (int64_t a : tree.allocationsInside(q_backward)) {
            const auto& alloc = trace.allocations()[size_t(a)];
            QCOMPARE(attribution.moduleOf(trace.events.stack[size_t(alloc.alloc_event)]),
                     std::string("backward of TinyLlama.blocks.0.attention.q_proj"));
        }
        for (const auto& row : tree.rows()) {
            int64_t children_total = 0, children_bytes = 0;
            for (int64_t c : row.children) {
                children_total += tree.row(c).total_ns;
                children_bytes += tree.row(c).bytes_allocated;
            }
            QCOMPARE(row.total_ns, row.self_ns + children_total);
            QCOMPARE(row.bytes_allocated, row.self_bytes_allocated + children_bytes);
        }
        // the module tree's time covers the flat table's
        int64_t tree_time = 0;
        for (int64_t r : tree.topLevel())
            tree_time += tree.row(r).total_ns;
        QVERIFY(tree_time <= tree.coveredNs());
    }

    void stackAttributionMatchesTraceSummary() {
        auto session = recordTiny(false);
        const Trace& trace = session->trace();
        const StackAttribution attribution(trace.stacks);
        for (uint32_t n = 0; n < trace.stacks.nodeCount(); ++n) {
            QCOMPARE(attribution.moduleOf(n), TraceSummary::moduleOf(trace.stacks, n));
            QCOMPARE(attribution.operatorOf(n), TraceSummary::operatorOf(trace.stacks, n));
        }
    }
};

QTEST_GUILESS_MAIN(TestOperatorTable)
#include "test_operator_table.moc"
