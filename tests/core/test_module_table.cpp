// ModuleTable (explain/module_table.h): rows of module paths that sum to the bytes alive, owners
// from Role events, forward and backward peaks, bytes saved for backward; the modules table of
// TableExporter.

#include "analysis/table_exporter.h"
#include "explain/module_table.h"
#include "module_fixture.h"

#include <QtTest>

#include <numeric>

using namespace memscope;

namespace {

// The shared run (module_fixture.h), built once per test.
struct Fixture : ModuleFixture {
    Trace trace;
    Fixture() { build(trace); }
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
