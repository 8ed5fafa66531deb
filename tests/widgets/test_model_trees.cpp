// The operator, allocation, memory-event and stack-tree (flame graph) models printed as text
// trees (model_dump.h) on the analysis fixture and compared whole: order, nesting, labels and
// figures in one readable diff.

#include "analysis/operator_table.h"
#include "analysis/stack_tree.h"
#include "itemmodels/allocation_list_model.h"
#include "itemmodels/memory_events_model.h"
#include "itemmodels/operator_table_model.h"
#include "itemmodels/stack_tree_model.h"
#include "trace/trace.h"

#include <QLocale>
#include <QtTest>

#include "../core/analysis_fixtures.h"
#include "model_dump.h"

using namespace memscope;
using memscope_test::dumpModel;

namespace {

std::shared_ptr<const Trace> fixtureTrace() {
    AnalysisFixture f;
    return std::make_shared<const Trace>(f.trace);
}

std::shared_ptr<const OperatorTable> table(const Trace& trace, OperatorTable::Grouping grouping) {
    return std::make_shared<const OperatorTable>(OperatorTable::build(trace, grouping));
}

// Both texts, so that a failure prints the whole tree it got.
void compareTrees(const QString& actual, const QString& expected) {
    if (actual != expected) {
        qWarning().noquote() << "\n--- got:\n" << actual << "--- expected:\n" << expected;
    }
    QCOMPARE(actual, expected);
}

}  // namespace

class TestModelTrees : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        // Digit grouping and units as the expected texts spell them, whatever the machine's.
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    }

    // By operator: a flat row per operator (nested calls too), largest CPU memory first.
    void operatorsByOperator() {
        const auto trace = fixtureTrace();
        OperatorTableModel model;
        model.setTable(trace, table(*trace, OperatorTable::Grouping::ByOperator));
        compareTrees(
            dumpModel(model, {OperatorTableModel::Name, OperatorTableModel::Calls,
                              OperatorTableModel::CpuMemory, OperatorTableModel::SelfCpuMemory,
                              OperatorTableModel::SelfAllocated, OperatorTableModel::InputShapes}),
            QStringLiteral("aten::linear | 1 | 1.0 KiB | 0 B | 50 B | [4, 8], [16, 8], [16]\n"
                           "aten::addmm | 1 | 1000 B | 1000 B | 1000 B | [16], [4, 8], [8, 16]\n"
                           "MmBackward0 | 1 | 400 B | -400 B | 0 B | \n"
                           "aten::mm | 1 | 400 B | 400 B | 400 B | [16, 4], [4, 8]\n"
                           "(outside any operator) |  | 37 B | 37 B | 37 B | \n"
                           "aten::add_ | 1 | 0 B | 0 B | 0 B | [4, 16], [4, 16]\n"));
    }

    // The module tree: operators under their module, backward under the forward module that
    // caused it, allocations outside any module last.
    void operatorsByModule() {
        const auto trace = fixtureTrace();
        OperatorTableModel model;
        model.setTable(trace, table(*trace, OperatorTable::Grouping::ByModule));
        compareTrees(
            dumpModel(model, {OperatorTableModel::Name, OperatorTableModel::Calls,
                              OperatorTableModel::CpuMemory, OperatorTableModel::SelfCpuMemory,
                              OperatorTableModel::SelfAllocated}),
            QStringLiteral("M | 1 | 1.4 KiB | 30 B | 30 B\n"
                           "  aten::linear | 1 | 1.0 KiB | 0 B | 50 B\n"
                           "    aten::addmm | 1 | 1000 B | 1000 B | 1000 B\n"
                           "  backward |  | 400 B | 0 B | 0 B\n"
                           "    MmBackward0 | 1 | 400 B | -400 B | 0 B\n"
                           "      aten::mm | 1 | 400 B | 400 B | 400 B\n"
                           "  aten::add_ | 1 | 0 B | 0 B | 0 B\n"
                           "(outside any module or operator) |  | 7 B | 7 B | 7 B\n"));
    }

    // Largest first; a backward allocation names the forward module.
    void allocations() {
        AllocationListModel model;
        model.setTrace(fixtureTrace());
        compareTrees(dumpModel(model, {AllocationListModel::Size, AllocationListModel::Category,
                                       AllocationListModel::Phase, AllocationListModel::Step,
                                       AllocationListModel::Module, AllocationListModel::Operator,
                                       AllocationListModel::FreedAt}),
                     QStringLiteral(
                         "1000 B | Activation | forward | 1 | M | aten::addmm | never\n"
                         "400 B | Temporary | backward | 1 | backward of M | aten::mm | 0.001 ms\n"
                         "50 B | Temporary | forward | 1 | M | aten::linear | 0.000 ms\n"
                         "30 B | Activation | forward | 1 | M |  | never\n"
                         "7 B | Unknown | init | 0 |  |  | never\n"));
    }

    void memoryEvents() {
        MemoryEventsModel model;
        model.setTrace(fixtureTrace());
        compareTrees(
            dumpModel(model),
            QStringLiteral(
                "0.000 ms | alloc | 7 B | 7 B |  |  | init | 0 | 0.000 ms | never | \n"
                "0.000 ms | alloc | 1000 B | 1007 B | aten::addmm | M | forward | 1 | 0.000 ms | "
                "never | \n"
                "0.000 ms | alloc | 50 B | 1.0 KiB | aten::linear | M | forward | 1 | 0.000 ms | "
                "0.000 ms | 0.000 ms\n"
                "0.000 ms | free | -50 B | 1007 B | aten::linear | M | forward | 1 | 0.000 ms | "
                "0.000 ms | 0.000 ms\n"
                "0.000 ms | alloc | 30 B | 1.0 KiB |  | M | forward | 1 | 0.000 ms | never | \n"
                "0.001 ms | alloc | 400 B | 1.4 KiB | aten::mm | backward of M | backward | 1 | "
                "0.001 ms | 0.001 ms | 0.000 ms\n"
                "0.001 ms | free | -400 B | 1.0 KiB | MmBackward0 | backward of M | backward | 1 | "
                "0.001 ms | 0.001 ms | 0.000 ms\n"));
    }

    // The flame graph's tree (top down): bytes at the peak, allocated, temporary, allocations.
    void stackTreeTopDown() {
        const auto trace = fixtureTrace();
        StackTreeModel model;
        model.setTree(std::make_shared<const StackTree>(StackTree::build(*trace)));
        compareTrees(dumpModel(model),
                     QStringLiteral("M | 1.0 KiB | 1.1 KiB | 50 B | 3\n"
                                    "  aten::linear | 1000 B | 1.0 KiB | 50 B | 2\n"
                                    "    aten::addmm | 1000 B | 1000 B | 0 B | 1\n"
                                    "backward of M | 400 B | 400 B | 400 B | 1\n"
                                    "  MmBackward0 | 400 B | 400 B | 400 B | 1\n"
                                    "    aten::mm | 400 B | 400 B | 400 B | 1\n"
                                    "[no stack] | 7 B | 7 B | 0 B | 1\n"));
    }

    // Bottom up (heaptrack's): innermost frames first, their callers below.
    void stackTreeBottomUp() {
        const auto trace = fixtureTrace();
        StackTreeOptions options;
        options.direction = StackTreeOptions::Direction::BottomUp;
        StackTreeModel model;
        model.setTree(std::make_shared<const StackTree>(StackTree::build(*trace, options)));
        compareTrees(dumpModel(model),
                     QStringLiteral("aten::addmm | 1000 B | 1000 B | 0 B | 1\n"
                                    "  aten::linear | 1000 B | 1000 B | 0 B | 1\n"
                                    "    M | 1000 B | 1000 B | 0 B | 1\n"
                                    "aten::mm | 400 B | 400 B | 400 B | 1\n"
                                    "  MmBackward0 | 400 B | 400 B | 400 B | 1\n"
                                    "    backward of M | 400 B | 400 B | 400 B | 1\n"
                                    "M | 30 B | 30 B | 0 B | 1\n"
                                    "[no stack] | 7 B | 7 B | 0 B | 1\n"
                                    "aten::linear | 0 B | 50 B | 50 B | 1\n"
                                    "  M | 0 B | 50 B | 50 B | 1\n"));
    }
};

QTEST_MAIN(TestModelTrees)
#include "test_model_trees.moc"
