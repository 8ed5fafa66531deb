// ModuleTable (trace/module_table.h): rows of module paths that sum to the bytes alive, owners
// from Role events, forward and backward peaks, bytes saved for backward; the modules table of
// TableExporter.

#include "io/table_exporter.h"
#include "trace/module_table.h"

#include <QtTest>

#include <numeric>

using namespace memscope;

namespace {

// Net (Net.l1, Net.l2), one step:
//   init     w1 100 B, w2 60 B (no module on the stack; Role events name their owners)
//   forward  Net.l1 makes h1 40 B (kept) and t1 8 B (freed at once), Net.l2 makes h2 24 B
//            (kept), the loss 4 B outside any module
//   backward under "backward of Net.l2": g2 60 B (gradient of w2, kept) and b2 16 B (freed);
//            h2 freed; under "backward of Net.l1": g1 100 B (kept); h1 freed
//   optimizer  s1 100 B and s2 60 B, no module, named OPTIMIZER_STATE of Net.l1 / Net.l2
struct Fixture {
    Trace trace;
    int64_t peak_event = -1;
    int64_t backward_begins = -1;

    Fixture() {
        auto& s = trace.stacks;
        auto node = [&s](uint32_t parent, const char* name, FrameKind kind) {
            return s.child(parent, s.internFrame({name, "", 0, kind}));
        };
        const uint32_t net = node(StackTable::kEmpty, "Net", FrameKind::Module);
        const uint32_t l1 = node(net, "Net.l1", FrameKind::Module);
        const uint32_t l1_mm = node(l1, "aten::mm", FrameKind::Operator);
        const uint32_t l2 = node(net, "Net.l2", FrameKind::Module);
        const uint32_t bw2 = node(StackTable::kEmpty, "backward of Net.l2", FrameKind::BackwardOf);
        const uint32_t bw1 = node(StackTable::kEmpty, "backward of Net.l1", FrameKind::BackwardOf);
        const uint32_t loss = node(StackTable::kEmpty, "aten::nll_loss", FrameKind::Operator);
        const uint32_t own1 = node(StackTable::kEmpty, "Net.l1", FrameKind::Module);
        const uint32_t own2 = node(StackTable::kEmpty, "Net.l2", FrameKind::Module);
        int64_t live = 0, time = 0;
        auto event = [&](EventKind kind, uint64_t addr, int64_t size, uint32_t stack, Phase phase,
                         int32_t step) {
            Event e;
            e.time_ns = time += 10;
            e.kind = kind;
            e.addr = addr;
            e.size = size;
            if (kind == EventKind::Alloc || kind == EventKind::Free) {
                live += size;
            }
            e.allocated = live;
            e.stack = stack;
            e.phase = phase;
            e.step = step;
            trace.events.append(e);
        };
        auto role = [&](uint64_t addr, Category c, uint32_t owner, Phase phase, int32_t step) {
            event(EventKind::Role, addr, int64_t(c), owner, phase, step);
        };
        event(EventKind::Alloc, 0x100, 100, 0, Phase::Init, 0);  // w1
        event(EventKind::Alloc, 0x200, 60, 0, Phase::Init, 0);   // w2
        role(0x100, Category::Parameter, own1, Phase::Init, 0);
        role(0x200, Category::Parameter, own2, Phase::Init, 0);
        event(EventKind::Alloc, 0x300, 40, l1_mm, Phase::Forward, 1);  // h1
        event(EventKind::Alloc, 0x310, 8, l1_mm, Phase::Forward, 1);   // t1
        event(EventKind::Free, 0x310, -8, l1_mm, Phase::Forward, 1);
        event(EventKind::Alloc, 0x400, 24, l2, Phase::Forward, 1);   // h2
        event(EventKind::Alloc, 0x500, 4, loss, Phase::Forward, 1);  // loss
        backward_begins = int64_t(trace.events.count());
        event(EventKind::Alloc, 0x600, 60, bw2, Phase::Backward, 1);  // g2
        event(EventKind::Alloc, 0x610, 16, bw2, Phase::Backward, 1);  // b2
        event(EventKind::Free, 0x610, -16, bw2, Phase::Backward, 1);
        event(EventKind::Free, 0x400, -24, bw2, Phase::Backward, 1);
        event(EventKind::Alloc, 0x700, 100, bw1, Phase::Backward, 1);  // g1
        event(EventKind::Free, 0x300, -40, bw1, Phase::Backward, 1);
        role(0x600, Category::Gradient, own2, Phase::Backward, 1);
        role(0x700, Category::Gradient, own1, Phase::Backward, 1);
        event(EventKind::Alloc, 0x800, 100, 0, Phase::Optimizer, 1);  // s1
        event(EventKind::Alloc, 0x900, 60, 0, Phase::Optimizer, 1);   // s2
        peak_event = int64_t(trace.events.count()) - 1;
        role(0x800, Category::OptimizerState, own1, Phase::Optimizer, 1);
        role(0x900, Category::OptimizerState, own2, Phase::Optimizer, 1);
        trace.finalize();
    }
};

const ModuleTable::Row* rowOf(const ModuleTable& t, const std::string& path) {
    for (const auto& r : t.rows()) {
        if (r.path == path) {
            return &r;
        }
    }
    return nullptr;
}

int64_t aliveAt(const Trace& trace, int64_t e) {
    int64_t bytes = 0;
    for (const auto& a : trace.allocations()) {
        if (a.alloc_event <= e && (a.free_event < 0 || a.free_event > e)) {
            bytes += a.size;
        }
    }
    return bytes;
}

}  // namespace

class TestModuleTable : public QObject {
    Q_OBJECT

  private slots:
    void rowsSumToTheBytesAliveAtEveryEvent() {
        const Fixture f;
        for (int64_t e = 0; e < int64_t(f.trace.events.count()); ++e) {
            const auto t = ModuleTable::compute(f.trace, e);
            int64_t tops = 0;
            for (const auto& r : t.rows()) {
                // A row's total is its own bytes and its sub-modules' totals.
                ModuleTable::Bytes sum = r.self;
                for (const auto& c : t.rows()) {
                    if (c.parent >= 0 && &t.rows()[size_t(c.parent)] == &r) {
                        for (int k = 0; k < ModuleTable::kColumnCount; ++k) {
                            sum[size_t(k)] += c.total[size_t(k)];
                        }
                    }
                }
                QCOMPARE(sum, r.total);
                if (r.parent < 0) {
                    tops += r.held();
                }
            }
            QCOMPARE(tops, t.aliveBytes());
            QCOMPARE(t.aliveBytes(), aliveAt(f.trace, e));
            QCOMPARE(t.aliveBytes(), f.trace.events.allocated[size_t(e)]);
        }
    }

    void ownedMemoryFollowsTheOwnerOfItsParameter() {
        const Fixture f;
        const auto t = ModuleTable::compute(f.trace);  // the peak
        QCOMPARE(t.event(), f.peak_event);
        const auto* l1 = rowOf(t, "Net.l1");
        const auto* l2 = rowOf(t, "Net.l2");
        const auto* net = rowOf(t, "Net");
        QVERIFY(l1 && l2 && net);
        QCOMPARE(l1->total[ModuleTable::Parameters], int64_t(100));
        QCOMPARE(l1->total[ModuleTable::Gradients], int64_t(100));
        QCOMPARE(l1->total[ModuleTable::OptimizerState], int64_t(100));
        QCOMPARE(l2->total[ModuleTable::Parameters], int64_t(60));
        QCOMPARE(l2->total[ModuleTable::Gradients], int64_t(60));
        QCOMPARE(l2->total[ModuleTable::OptimizerState], int64_t(60));
        QCOMPARE(net->held(), int64_t(480));
        QCOMPARE(net->self, ModuleTable::Bytes{});
        // The loss is outside every module.
        const auto& none = t.rows().back();
        QVERIFY(none.path.empty());
        QCOMPARE(none.held(), int64_t(4));
        QCOMPARE(none.total[ModuleTable::Activations], int64_t(4));
        // Siblings by what they hold: l1 (300 B) before l2 (180 B), under Net.
        QVERIFY(l1 < l2);
        QVERIFY(net < l1);
        QCOMPARE(l1->depth, 1);
        QCOMPARE(t.rows()[size_t(l1->parent)].path, std::string("Net"));
        const auto dominant = t.dominantRows(1);
        QCOMPARE(dominant.size(), size_t(1));
        QCOMPARE(t.rows()[size_t(dominant[0])].path, std::string("Net.l1"));
    }

    void activationsAndBackwardBuffersAtTheirMoment() {
        const Fixture f;
        // Just before backward: h1 and h2 alive as activations of l1 and l2.
        const auto before = ModuleTable::compute(f.trace, f.backward_begins - 1);
        QCOMPARE(rowOf(before, "Net.l1")->total[ModuleTable::Activations], int64_t(40));
        QCOMPARE(rowOf(before, "Net.l2")->total[ModuleTable::Activations], int64_t(24));
        // b2 alive: a backward buffer of l2.
        const auto during = ModuleTable::compute(f.trace, f.backward_begins + 1);
        QCOMPARE(rowOf(during, "Net.l2")->total[ModuleTable::Backward], int64_t(16));
    }

    void peaksAndSavedBytesOverTheRun() {
        const Fixture f;
        const auto t = ModuleTable::compute(f.trace);
        // l1's forward: +40, +8, -8: at most 48 at once; Net's: back to 40, then +24 -> 64.
        QCOMPARE(rowOf(t, "Net.l1")->forward_peak, int64_t(48));
        QCOMPARE(rowOf(t, "Net")->forward_peak, int64_t(64));
        // l2's backward: +60 +16 -16 -24 -> 76 at most; l1's: +100 -40 -> 100.
        QCOMPARE(rowOf(t, "Net.l2")->backward_peak, int64_t(76));
        QCOMPARE(rowOf(t, "Net.l1")->backward_peak, int64_t(100));
        // Saved for backward: what each forward made that lived into the backward.
        QCOMPARE(rowOf(t, "Net.l1")->saved_for_backward, int64_t(40));
        QCOMPARE(rowOf(t, "Net.l2")->saved_for_backward, int64_t(24));
        QCOMPARE(rowOf(t, "Net")->saved_for_backward, int64_t(64));
    }

    void pathsAndTheEmptyRun() {
        QVERIFY(ModuleTable::isUnder("a.b.c", "a.b"));
        QVERIFY(ModuleTable::isUnder("a.b", "a.b"));
        QVERIFY(!ModuleTable::isUnder("a.bc", "a.b"));
        QVERIFY(!ModuleTable::isUnder("a", "a.b"));
        QVERIFY(!ModuleTable::isUnder("a", ""));
        const Trace empty;
        QVERIFY(!ModuleTable::available(empty));
        const auto t = ModuleTable::compute(empty);
        QCOMPARE(t.rows().size(), size_t(1));
        QCOMPARE(t.aliveBytes(), int64_t(0));
        const Fixture f;
        QVERIFY(ModuleTable::available(f.trace));
        // An event past the end is the last one.
        QCOMPARE(ModuleTable::compute(f.trace, 1 << 20).event(),
                 int64_t(f.trace.events.count()) - 1);
    }

    void modulesTableExport() {
        const Fixture f;
        const auto csv =
            TableExporter::make(TableExporter::Kind::Modules, f.trace, TableExporter::Units::Raw);
        QCOMPARE(csv.columns.front(), std::string("module"));
        QCOMPARE(csv.rows.size(), size_t(4));  // Net, Net.l1, Net.l2, (no module)
        QCOMPARE(csv.rows[0][0], std::string("Net"));
        QCOMPARE(csv.rows[1][0], std::string("Net.l1"));
        QCOMPARE(csv.rows[1][2], std::string("300"));
        QCOMPARE(csv.rows[3][0], std::string("(no module)"));
        const auto text = TableExporter::toCsv(csv);
        QVERIFY(text.find("Net.l2,1,180,60,60,60,0,0,0,0,24,76,24") != std::string::npos);
        TableExporter::Kind kind;
        QVERIFY(TableExporter::parseKind("modules", kind));
        QVERIFY(kind == TableExporter::Kind::Modules);
        // At a moment: before backward nothing is a gradient yet.
        const auto early =
            TableExporter::modules(f.trace, TableExporter::Units::Raw, 0, f.backward_begins - 1);
        QCOMPARE(early.rows[0][2], std::string("224"));  // Net: 160 parameters, 64 activations
        const auto md = TableExporter::toMarkdown(TableExporter::make(
            TableExporter::Kind::Modules, f.trace, TableExporter::Units::Readable));
        QVERIFY(md.find("| Module |") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestModuleTable)
#include "test_module_table.moc"
