// The Modules tab (issue 41): ModuleTreeModel's rows sum to the bytes alive, the page names the
// moment (the peak, or the pinned allocation's event) and the modules holding the most, says so
// in one sentence for a run without module frames, computes large runs on a worker, and a click
// on a row filters the views to the module (the document's highlights, the window's chip).

#include "../core/module_fixture.h"
#include "analysis/stack_tree.h"
#include "explain/module_table.h"
#include "itemmodels/allocation_list_model.h"
#include "itemmodels/module_tree_model.h"
#include "pages/allocations_page.h"
#include "pages/flame_graph_page.h"
#include "pages/module_page.h"
#include "run_document.h"
#include "shell/main_window.h"
#include "trace/trace.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QFrame>
#include <QLabel>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QToolButton>
#include <QTreeView>
#include <QtTest/QtTest>

#include <algorithm>

using namespace memscope;

namespace {

// The run of the module suites (tests/core/module_fixture.h), events a millisecond apart; with
// `modules` false the same sizes with no module frame anywhere.
std::shared_ptr<const Trace> netTrace(bool modules = true) {
    auto trace = std::make_shared<Trace>();
    ModuleFixture().build(*trace, modules, 1000000);
    return trace;
}

int64_t allocationAt(const Trace& trace, uint64_t addr) {
    const auto& all = trace.allocations();
    for (size_t a = 0; a < all.size(); ++a) {
        if (all[a].addr == addr) {
            return int64_t(a);
        }
    }
    return -1;
}

// The proxy index of the row showing `path` (depth first).
QModelIndex rowOfPath(const QAbstractItemModel* model, const QString& path,
                      const QModelIndex& parent = {}) {
    for (int r = 0; r < model->rowCount(parent); ++r) {
        const QModelIndex index = model->index(r, 0, parent);
        if (index.data(ModuleTreeModel::PathRole).toString() == path) {
            return index;
        }
        const QModelIndex below = rowOfPath(model, path, index);
        if (below.isValid()) {
            return below;
        }
    }
    return {};
}

void clickRow(QTreeView* view, const QModelIndex& index) {
    view->scrollTo(index);
    QTRY_VERIFY(view->visualRect(index).isValid());  // laid out by the event loop
    const QRect rect = view->visualRect(index);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
}

}  // namespace

class TestModulePage : public QObject {
    Q_OBJECT

  private slots:
    void modelRowsSumToTheTotal() {
        const auto trace = netTrace();
        for (int64_t e = -1; e < int64_t(trace->events.count()); ++e) {
            auto table = std::make_shared<const ModuleTable>(ModuleTable::compute(*trace, e));
            ModuleTreeModel model;
            QAbstractItemModelTester tester(&model,
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
            model.setTable(table);
            QCOMPARE(model.columnCount(), int(ModuleTreeModel::ColumnCount));
            // The top rows (the "(no module)" row among them) sum to the bytes alive, column by
            // column; every row's figures are its children's plus its own.
            auto sum = [&model](int column, const QModelIndex& parent) {
                qint64 bytes = 0;
                for (int r = 0; r < model.rowCount(parent); ++r) {
                    bytes +=
                        model.index(r, column, parent).data(ModuleTreeModel::SortRole).toLongLong();
                }
                return bytes;
            };
            QCOMPARE(sum(ModuleTreeModel::Held, {}), qint64(table->aliveBytes()));
            for (int c = ModuleTreeModel::Parameters; c <= ModuleTreeModel::Other; ++c) {
                QCOMPARE(sum(c, {}),
                         qint64(table->aliveByColumn()[size_t(c - ModuleTreeModel::Parameters)]));
            }
            for (size_t r = 0; r < table->rows().size(); ++r) {
                const auto& row = table->rows()[r];
                const QModelIndex index = model.indexOfTableRow(int(r));
                QCOMPARE(model.tableRow(index), int(r));
                int64_t self = 0;
                for (int64_t b : row.self) {
                    self += b;
                }
                QCOMPARE(sum(ModuleTreeModel::Held, index) + self, qint64(row.held()));
                qint64 columns = 0;
                for (int c = ModuleTreeModel::Parameters; c <= ModuleTreeModel::Other; ++c) {
                    columns +=
                        index.siblingAtColumn(c).data(ModuleTreeModel::SortRole).toLongLong();
                }
                QCOMPARE(columns, qint64(row.held()));
            }
        }
        // At the peak: Net holds w1, w2, g1, g2, s1, s2 (the loss has no module).
        auto table = std::make_shared<const ModuleTable>(ModuleTable::compute(*trace));
        ModuleTreeModel model;
        model.setTable(table);
        QCOMPARE(model.rowCount(), 2);
        const QModelIndex net = model.index(0, 0);
        QCOMPARE(net.data().toString(), QStringLiteral("Net"));
        QCOMPARE(net.siblingAtColumn(ModuleTreeModel::Held).data(ModuleTreeModel::SortRole),
                 QVariant(qint64(480)));
        QCOMPARE(net.siblingAtColumn(ModuleTreeModel::Held).data().toString(),
                 QStringLiteral("480 B"));
        QCOMPARE(net.siblingAtColumn(ModuleTreeModel::Held).data(Qt::TextAlignmentRole).toInt(),
                 int(Qt::AlignRight | Qt::AlignVCenter));
        QCOMPARE(
            net.siblingAtColumn(ModuleTreeModel::OptimizerState).data(ModuleTreeModel::SortRole),
            QVariant(qint64(160)));
        QCOMPARE(model.rowCount(net), 2);
        QCOMPARE(model.index(0, 0, net).data(ModuleTreeModel::PathRole).toString(),
                 QStringLiteral("Net.l1"));
        QCOMPARE(model.index(1, 0).data().toString(), QStringLiteral("(no module)"));
        QCOMPARE(model.index(1, 0).data(ModuleTreeModel::PathRole).toString(), QString());
        for (int c = 0; c < ModuleTreeModel::ColumnCount; ++c) {
            QVERIFY(!model.headerData(c, Qt::Horizontal).toString().isEmpty());
            QVERIFY(!model.headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
        }
    }

    void aRunWithoutModulesGetsOneSentence() {
        ModulePage page;
        page.setTrace(netTrace(false));
        QVERIFY(!page.hasModules());
        QVERIFY(!page.messageLabel()->isHidden());
        QVERIFY(page.view()->isHidden() || !page.view()->isVisibleTo(&page));
        QVERIFY2(page.messageLabel()->text().contains(QLatin1String("names no modules")),
                 qPrintable(page.messageLabel()->text()));
        QVERIFY(!page.table());
        QCOMPARE(page.model()->rowCount(), 0);

        page.setTrace(netTrace());
        QVERIFY(page.hasModules());
        QVERIFY(page.messageLabel()->isHidden());
        QVERIFY(page.view()->isVisibleTo(&page));
        QVERIFY(page.table());
    }

    void thePageShowsThePeakAndFollowsThePin() {
        const auto trace = netTrace();
        RunDocument document;
        document.setTrace(trace);
        ModulePage page(&document, nullptr);
        page.setTrace(trace);
        QVERIFY(page.table());
        QCOMPARE(page.table()->event(), trace->peakEvent());
        QVERIFY2(page.momentLabel()->text().startsWith(QLatin1String("At the peak, step 1")),
                 qPrintable(page.momentLabel()->text()));
        // One root: the dominant modules are its children, largest first.
        QVERIFY2(page.dominantLabel()->text().startsWith(
                     QLatin1String("Holding the most: Net.l1 (300 B, 62%), Net.l2")),
                 qPrintable(page.dominantLabel()->text()));
        // Sorted by Held, expanded two levels deep.
        QCOMPARE(page.proxy()->index(0, 0).data().toString(), QStringLiteral("Net"));
        QVERIFY(page.view()->isExpanded(page.proxy()->index(0, 0)));
        QCOMPARE(page.proxy()->index(0, 0, page.proxy()->index(0, 0)).data().toString(),
                 QStringLiteral("l1"));

        // The pinned allocation's event: h2 made, h1 alive.
        const int64_t h2 = allocationAt(*trace, 0x400);
        document.setSelectedAllocation(h2);
        const int64_t at = trace->allocations()[size_t(h2)].alloc_event;
        QCOMPARE(page.requestedEvent(), at);
        QCOMPARE(page.table()->event(), at);
        QVERIFY2(page.momentLabel()->text().startsWith(QStringLiteral("At event %1 (t = ").arg(at)),
                 qPrintable(page.momentLabel()->text()));
        QVERIFY2(page.momentLabel()->text().contains(QLatin1String("step 1: 224 B alive")),
                 qPrintable(page.momentLabel()->text()));
        const QModelIndex l2 = rowOfPath(page.proxy(), QStringLiteral("Net.l2"));
        QCOMPARE(l2.siblingAtColumn(ModuleTreeModel::Activations).data(ModuleTreeModel::SortRole),
                 QVariant(qint64(24)));
        // Unpinned: the peak again.
        document.setSelectedAllocation(-1);
        QCOMPARE(page.requestedEvent(), int64_t(-1));
        QCOMPARE(page.table()->event(), trace->peakEvent());
    }

    void clickingARowFiltersTheViewsToItsModule() {
        const auto trace = netTrace();
        RunDocument document;
        document.setTrace(trace);
        ModulePage page(&document, nullptr);
        page.resize(1200, 500);
        page.setTrace(trace);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QSignalSpy changed(&page, &ModulePage::moduleFilterChanged);

        // Net.l1: w1 and s1 (named for it), h1 and t1 (made in it), g1 (its backward's).
        QVector<qint64> l1;
        for (uint64_t addr : {0x100, 0x300, 0x310, 0x700, 0x800}) {
            l1.push_back(allocationAt(*trace, addr));
        }
        std::sort(l1.begin(), l1.end());
        // The allocations tab and the flame graph follow the document's module filter.
        AllocationsPage allocations;
        allocations.setViewState(&document);
        allocations.setTrace(trace);
        FlameGraphPage flame(&document, nullptr);
        flame.setTrace(trace);
        const int64_t all_rows = allocations.allocationModel()->rowCount();
        const int64_t all_bytes = flame.topDown()->nodes()[0].allocated_bytes;
        clickRow(page.view(), rowOfPath(page.proxy(), QStringLiteral("Net.l1")));
        QCOMPARE(page.moduleFilter(), QStringLiteral("Net.l1"));
        QCOMPARE(page.filteredAllocations(), l1);
        QCOMPARE(document.highlightedAllocations(), l1);
        QCOMPARE(document.moduleFilter(), QStringLiteral("Net.l1"));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(allocations.allocationModel()->rowCount(), int(l1.size()));
        int64_t l1_bytes = 0;
        for (const qint64 a : std::as_const(l1)) {
            QVERIFY(allocations.allocationModel()->rowOfAllocation(a) >= 0);
            l1_bytes += trace->allocations()[size_t(a)].size;
        }
        QCOMPARE(flame.topDown()->nodes()[0].allocated_bytes, l1_bytes);
        QVERIFY(l1_bytes < all_bytes);
        QVERIFY(page.filterLabel()->isVisibleTo(&page));
        QVERIFY2(page.filterLabel()->text().contains(QLatin1String("Net.l1: 5 allocation")),
                 qPrintable(page.filterLabel()->text()));

        // The same row again clears it, in every view.
        clickRow(page.view(), rowOfPath(page.proxy(), QStringLiteral("Net.l1")));
        QCOMPARE(page.moduleFilter(), QString());
        QVERIFY(document.highlightedAllocations().isEmpty());
        QVERIFY(!page.filterLabel()->isVisibleTo(&page));
        QVERIFY(document.moduleFilter().isEmpty());
        QCOMPARE(allocations.allocationModel()->rowCount(), int(all_rows));
        QCOMPARE(flame.topDown()->nodes()[0].allocated_bytes, all_bytes);

        // A parent takes its sub-modules' allocations; the clear button ends it.
        clickRow(page.view(), rowOfPath(page.proxy(), QStringLiteral("Net")));
        QCOMPARE(page.moduleFilter(), QStringLiteral("Net"));
        QCOMPARE(document.highlightedAllocations().size(), 10);  // all but the loss
        QTest::mouseClick(page.clearFilterButton(), Qt::LeftButton);
        QCOMPARE(page.moduleFilter(), QString());
        QVERIFY(document.highlightedAllocations().isEmpty());

        // Return on the current row, and another highlight (a search) replaces the module's.
        const QModelIndex l2 = rowOfPath(page.proxy(), QStringLiteral("Net.l2"));
        page.view()->setCurrentIndex(l2);
        page.view()->setFocus();
        QTest::keyClick(page.view(), Qt::Key_Return);
        QCOMPARE(page.moduleFilter(), QStringLiteral("Net.l2"));
        document.setHighlightedAllocations({0});
        QCOMPARE(page.moduleFilter(), QString());
        QVERIFY(!document.moduleMask());
        QCOMPARE(document.highlightedAllocations(), QVector<qint64>{0});

        // "(no module)" has no module to filter to; the filter stays at another moment.
        clickRow(page.view(), rowOfPath(page.proxy(), QString()));
        QCOMPARE(page.moduleFilter(), QString());
        page.setModuleFilter(QStringLiteral("Net.l1"));
        page.showAtEvent(3);
        QCOMPARE(page.moduleFilter(), QStringLiteral("Net.l1"));
        QCOMPARE(
            page.proxy()->mapToSource(page.view()->currentIndex()).data(ModuleTreeModel::PathRole),
            QVariant(QStringLiteral("Net.l1")));
    }

    void theWindowHasTheTabAndTheChip() {
        MainWindow window;
        QVERIFY(window.viewNames(true).contains(QStringLiteral("modules")));
        QVERIFY(!window.viewNames().contains(QStringLiteral("modules")));  // no run open
        window.resize(1400, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const auto trace = netTrace();
        window.showTrace(trace, QString());
        QVERIFY(window.selectView(QStringLiteral("modules")));
        ModulePage* page = window.modulePage();
        QTRY_VERIFY(page->table());
        QVERIFY(!window.moduleFilterChip()->isVisibleTo(&window));
        clickRow(page->view(), rowOfPath(page->proxy(), QStringLiteral("Net.l2")));
        QCOMPARE(window.viewState()->highlightedAllocations().size(), 5);  // w2 h2 b2 g2 s2
        QVERIFY(window.moduleFilterChip()->isVisibleTo(&window));
        QVERIFY2(window.moduleFilterLabel()->text().contains(QLatin1String("Net.l2")),
                 qPrintable(window.moduleFilterLabel()->text()));
        QTest::mouseClick(window.moduleFilterClearButton(), Qt::LeftButton);
        QCOMPARE(page->moduleFilter(), QString());
        QVERIFY(window.viewState()->highlightedAllocations().isEmpty());
        QVERIFY(!window.moduleFilterChip()->isVisibleTo(&window));
    }

    void largeRunsComputeOnAWorkerAndDropStaleResults() {
        const auto trace = netTrace();
        ModulePage page;
        page.setAsyncEvents(1);
        QSignalSpy ready(&page, &ModulePage::tableReady);
        page.setTrace(trace);
        QVERIFY(page.isComputing());
        QVERIFY(!page.table());
        QVERIFY2(page.momentLabel()->text().startsWith(QLatin1String("Computing the modules")),
                 qPrintable(page.momentLabel()->text()));
        page.showAtEvent(2);
        page.showAtEvent(5);
        QTRY_VERIFY_WITH_TIMEOUT(!page.isComputing(), 10000);
        QVERIFY(page.table());
        QCOMPARE(page.table()->event(), int64_t(5));
        QTRY_COMPARE(ready.count(), 1);  // the stale results were dropped
        QTest::qWait(50);
        QCOMPARE(ready.count(), 1);
        QCOMPARE(page.table()->event(), int64_t(5));
        // The filter works from the modules the worker found.
        page.setModuleFilter(QStringLiteral("Net.l2"));
        QCOMPARE(page.filteredAllocations().size(), 5);
    }
};

QTEST_MAIN(TestModulePage)
#include "test_module_page.moc"
