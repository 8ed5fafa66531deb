// The flame graph: boxes proportional to bytes, hover and tooltips, click to zoom in and out; the
// Flame Graph page (time chooser, event range, tree views, highlights for the timeline); the
// compare page's per-stack difference table and difference flame graph; the main window's tab.

#include "analysis/stack_diff.h"
#include "analysis/stack_tree.h"
#include "common/stack_pane.h"
#include "itemmodels/stack_diff_model.h"
#include "itemmodels/stack_tree_model.h"
#include "pages/flame_graph_page.h"
#include "pages/flame_graph_view.h"
#include "painters/timeline_frame_painter.h"
#include "shell/main_window.h"
#include "studies/compare_page.h"
#include "trace/trace.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTreeView>
#include <QTreeWidget>
#include <QtTest/QtTest>

#include "../core/analysis_fixtures.h"

using namespace memscope;

namespace {

int childNamed(const StackTree& tree, int parent, const std::string& name) {
    for (int32_t c : tree.node(parent).children) {
        if (tree.node(c).name == name) {
            return c;
        }
    }
    return -1;
}

std::shared_ptr<const Trace> fixtureTrace() {
    AnalysisFixture f;
    return std::make_shared<const Trace>(f.trace);
}

}  // namespace

class TestFlameGraph : public QObject {
    Q_OBJECT

  private slots:
    void boxesAreProportionalToBytes();
    void clickZoomsInAndTheRootZoomsOut();
    void tooltipNamesFrameBytesShareAndCount();
    void pageShowsThePeakAndHighlightsAFrame();
    void pageFollowsTheSelectedTimeAndTheRange();
    void largeRunsBuildOnAWorkerAndDropStaleResults();
    void treeViewsSortByTheirColumns();
    void modelsPassTheModelTester();
    void comparePageShowsTheStackDifference();
    void mainWindowHasTheTab();
    void rawFramesOfAnImportAreOneClickAway();
};

void TestFlameGraph::boxesAreProportionalToBytes() {
    AnalysisFixture f;
    auto tree = std::make_shared<const StackTree>(StackTree::build(f.trace));
    FlameGraphView view;
    view.resize(1437, 200);  // one pixel per byte at the peak
    view.setTree(tree);
    QCOMPARE(view.boxOf(0), QRectF(0, 0, 1437, FlameGraphView::kRowHeight - 1));
    const int m = childNamed(*tree, 0, "M");
    const int bw = childNamed(*tree, 0, "backward of M");
    const int none = childNamed(*tree, 0, StackTree::kNoStack);
    QCOMPARE(view.boxOf(m).x(), 0.0);
    QCOMPARE(view.boxOf(m).width(), 1030.0);
    QCOMPARE(view.boxOf(m).y(), double(FlameGraphView::kRowHeight));
    QCOMPARE(view.boxOf(bw).x(), 1030.0);
    QCOMPARE(view.boxOf(bw).width(), 400.0);
    QCOMPARE(view.boxOf(none).width(), 7.0);
    const int linear = childNamed(*tree, m, "aten::linear");
    QCOMPARE(view.boxOf(linear).width(), 1000.0);
    QCOMPARE(view.boxOf(linear).y(), 2.0 * FlameGraphView::kRowHeight);
    QCOMPARE(view.nodeAt(QPointF(1200, FlameGraphView::kRowHeight + 5)), bw);
    QCOMPARE(view.nodeAt(QPointF(1200, 2 * FlameGraphView::kRowHeight + 5)),
             childNamed(*tree, bw, "MmBackward0"));
    QCOMPARE(view.nodeAt(QPointF(1020, 2 * FlameGraphView::kRowHeight + 5)), -1);  // M's self
    // Narrower than a pixel: not drawn.
    view.resize(100, 200);
    QVERIFY(view.boxOf(none).isEmpty());
    QCOMPARE(view.boxOf(m).width(), 1030.0 * 100 / 1437);
}

void TestFlameGraph::clickZoomsInAndTheRootZoomsOut() {
    AnalysisFixture f;
    auto tree = std::make_shared<const StackTree>(StackTree::build(f.trace));
    FlameGraphView view;
    view.resize(1437, 200);
    view.setTree(tree);
    QSignalSpy clicked(&view, &FlameGraphView::frameClicked);
    const int bw = childNamed(*tree, 0, "backward of M");
    QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(1200, FlameGraphView::kRowHeight + 5));
    QCOMPARE(clicked.count(), 1);
    QCOMPARE(clicked.at(0).at(0).toInt(), bw);
    QCOMPARE(view.zoomedNode(), bw);
    QCOMPARE(view.boxOf(bw).width(), 1437.0);  // the whole width
    const int node = childNamed(*tree, bw, "MmBackward0");
    QCOMPARE(view.boxOf(node).width(), 1437.0);
    QVERIFY(view.boxOf(childNamed(*tree, 0, "M")).isEmpty());  // siblings are gone
    QCOMPARE(view.boxOf(0).width(), 1437.0);                   // the root stays on top
    QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(10, 5));
    QCOMPARE(view.zoomedNode(), 0);
    QCOMPARE(view.boxOf(bw).width(), 400.0);
    QCOMPARE(clicked.count(), 2);
}

void TestFlameGraph::tooltipNamesFrameBytesShareAndCount() {
    AnalysisFixture f;
    auto tree = std::make_shared<const StackTree>(StackTree::build(f.trace));
    FlameGraphView view;
    view.setTree(tree);
    const QString tip = view.toolTipFor(childNamed(*tree, 0, "M"));
    QVERIFY2(tip.contains(QLatin1String("<b>M</b>")), qPrintable(tip));
    QVERIFY2(tip.contains(QLatin1String("71.7%")), qPrintable(tip));  // 1030 of 1437
    QVERIFY2(tip.contains(QLatin1String("in 2 allocation")), qPrintable(tip));
    QVERIFY2(tip.contains(QLatin1String("1.0 KiB")), qPrintable(tip));  // as the CLI writes it
    // Hovering highlights the frame under the mouse.
    view.resize(1437, 200);
    const QPointF pos(1200, FlameGraphView::kRowHeight + 5);
    QMouseEvent move(QEvent::MouseMove, pos, view.mapToGlobal(pos), Qt::NoButton, Qt::NoButton,
                     Qt::NoModifier);
    QApplication::sendEvent(&view, &move);
    QCOMPARE(view.hoveredNode(), childNamed(*tree, 0, "backward of M"));
}

void TestFlameGraph::pageShowsThePeakAndHighlightsAFrame() {
    AnalysisFixture f;
    auto trace = std::make_shared<const Trace>(f.trace);
    FlameGraphPage page;
    page.resize(1437, 600);
    page.setTrace(trace);
    QCOMPARE(page.atEvent(), int64_t(5));
    QCOMPARE(page.topDown()->root().bytes, int64_t(1437));
    QCOMPARE(page.bottomUp()->direction(), StackTreeOptions::Direction::BottomUp);
    QCOMPARE(page.topDownModel()->rowCount(), 3);
    QCOMPARE(page.bottomUpModel()->rowCount(), 5);

    QSignalSpy highlighted(&page, &FlameGraphPage::allocationsHighlighted);
    const int m = childNamed(*page.topDown(), 0, "M");
    emit page.flameGraph()->frameClicked(m);
    QCOMPARE(highlighted.count(), 1);
    QVector<qint64> expected{f.allocation(0xa0), f.allocation(0xa4)};
    std::sort(expected.begin(), expected.end());
    QCOMPARE(highlighted.at(0).at(0).value<QVector<qint64>>(), expected);
    emit page.flameGraph()->frameClicked(0);  // the root: no highlight
    QVERIFY(highlighted.at(1).at(0).value<QVector<qint64>>().isEmpty());

    // Choosing a bottom-up row highlights its allocations too.
    QTreeView* bottom = page.bottomUpView();
    const QModelIndex mm =
        page.bottomUpModel()->indexOfNode(childNamed(*page.bottomUp(), 0, "aten::addmm"));
    auto* proxy = qobject_cast<QSortFilterProxyModel*>(bottom->model());
    bottom->setCurrentIndex(proxy->mapFromSource(mm));
    QCOMPARE(highlighted.last().at(0).value<QVector<qint64>>(),
             QVector<qint64>{f.allocation(0xa0)});
}

void TestFlameGraph::pageFollowsTheSelectedTimeAndTheRange() {
    AnalysisFixture f;
    auto trace = std::make_shared<const Trace>(f.trace);
    FlameGraphPage page;
    page.setTrace(trace);
    // A selection does nothing "at the peak"...
    page.setSelectedAllocation(f.allocation(0xa1));
    QCOMPARE(page.atEvent(), int64_t(5));
    // ... and gives the time "at the selected time": a1's alloc, event 2 (1057 B).
    page.setTimeChoice(FlameGraphPage::TimeChoice::Selected);
    QCOMPARE(page.atEvent(), int64_t(2));
    QCOMPARE(page.topDown()->root().bytes, int64_t(1057));
    page.setSelectedAllocation(f.allocation(0xa4));
    QCOMPARE(page.atEvent(), int64_t(4));
    page.showAtEvent(3);
    QCOMPARE(page.atEvent(), int64_t(3));
    QCOMPARE(page.topDown()->root().bytes, int64_t(1007));

    // The range filter's slot: the peak inside events [2, 4) is event 2.
    page.setTimeChoice(FlameGraphPage::TimeChoice::Peak);
    page.setEventRange(2, 4);
    QCOMPARE(page.atEvent(), int64_t(2));
    QCOMPARE(page.topDown()->root().allocated_bytes, int64_t(50));
    QCOMPARE(page.rangeFirst(), int64_t(2));
    page.setEventRange(0, -1);  // cleared
    QCOMPARE(page.atEvent(), int64_t(5));
    QCOMPARE(page.topDown()->root().allocated_bytes, int64_t(1487));
    // A new trace forgets the range and the selection.
    page.setEventRange(2, 4);
    page.setTrace(fixtureTrace());
    QCOMPARE(page.rangeLast(), int64_t(-1));
    QCOMPARE(page.atEvent(), int64_t(5));
}

// Above asyncEvents() the trees are built on a worker: nothing stale is shown meanwhile, the
// result equals the synchronous one, and a result for a range or time changed meanwhile is
// dropped (one treesReady, for the latest request).
void TestFlameGraph::largeRunsBuildOnAWorkerAndDropStaleResults() {
    AnalysisFixture f;
    auto trace = std::make_shared<const Trace>(f.trace);
    FlameGraphPage page;
    page.setAsyncEvents(0);  // the fixture counts as large
    QSignalSpy ready(&page, &FlameGraphPage::treesReady);
    page.setTrace(trace);
    QVERIFY(page.isBuildPending());
    QVERIFY(!page.topDown());
    QVERIFY(ready.wait(10000));
    QVERIFY(!page.isBuildPending());
    QCOMPARE(ready.count(), 1);
    QCOMPARE(page.atEvent(), int64_t(5));
    QCOMPARE(page.topDown()->root().bytes, int64_t(1437));
    QCOMPARE(page.bottomUpModel()->rowCount(), 5);

    // Two requests before the first result: only the second one's trees arrive.
    ready.clear();
    page.setEventRange(2, 4);
    page.setTimeChoice(FlameGraphPage::TimeChoice::Selected);
    page.showAtEvent(3);
    QVERIFY(page.isBuildPending());
    QVERIFY(ready.wait(10000));
    QTest::qWait(100);  // a stale result would arrive around now
    QCOMPARE(ready.count(), 1);
    QCOMPARE(page.atEvent(), int64_t(3));
    QCOMPARE(page.rangeFirst(), int64_t(2));
    QCOMPARE(page.topDown()->root().bytes, int64_t(1007));

    // A new run while building: the old run's trees never show.
    ready.clear();
    page.setTrace(trace);
    auto other = std::make_shared<const Trace>(AnalysisFixture().trace);
    page.setTrace(other);
    QVERIFY(ready.wait(10000));
    QTest::qWait(100);
    QCOMPARE(ready.count(), 1);
    QCOMPARE(page.trace(), other.get());
    QCOMPARE(page.topDown()->root().bytes, int64_t(1437));
}

void TestFlameGraph::treeViewsSortByTheirColumns() {
    AnalysisFixture f;
    FlameGraphPage page;
    page.setTrace(std::make_shared<const Trace>(f.trace));
    QTreeView* view = page.bottomUpView();
    auto* proxy = qobject_cast<QSortFilterProxyModel*>(view->model());
    auto firstName = [proxy] { return proxy->index(0, StackTreeModel::Frame).data().toString(); };
    view->sortByColumn(StackTreeModel::Peak, Qt::DescendingOrder);
    QCOMPARE(firstName(), QStringLiteral("aten::addmm"));
    view->sortByColumn(StackTreeModel::Temporary, Qt::DescendingOrder);
    QCOMPARE(firstName(), QStringLiteral("aten::mm"));  // 400 B temporary
    view->sortByColumn(StackTreeModel::Allocated, Qt::AscendingOrder);
    QCOMPARE(firstName(), QStringLiteral("[no stack]"));  // 7 B
    view->sortByColumn(StackTreeModel::Allocations, Qt::DescendingOrder);
    QCOMPARE(
        proxy->index(0, StackTreeModel::Allocations).data(StackTreeModel::SortRole).toLongLong(),
        qint64(1));
    // Children sort too: under aten::addmm, aten::linear.
    const QModelIndex addmm =
        proxy->match(proxy->index(0, 0), Qt::DisplayRole, QStringLiteral("aten::addmm")).value(0);
    QVERIFY(addmm.isValid());
    QCOMPARE(proxy->rowCount(addmm), 1);
    QCOMPARE(proxy->index(0, 0, addmm).data().toString(), QStringLiteral("aten::linear"));
    QCOMPARE(proxy->index(0, StackTreeModel::Peak, addmm).data(StackTreeModel::SortRole),
             QVariant(qint64(1000)));
}

void TestFlameGraph::modelsPassTheModelTester() {
    AnalysisFixture f;
    StackTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(StackTreeModel::SortRole);
    proxy.sort(StackTreeModel::Temporary, Qt::DescendingOrder);
    QAbstractItemModelTester proxy_tester(&proxy,
                                          QAbstractItemModelTester::FailureReportingMode::QtTest);
    StackTreeOptions options;
    model.setTree(std::make_shared<const StackTree>(StackTree::build(f.trace, options)));
    QCOMPARE(model.rowCount(), 3);
    const QModelIndex addmm = model.indexOfNode(childNamed(
        *model.tree(), childNamed(*model.tree(), childNamed(*model.tree(), 0, "M"), "aten::linear"),
        "aten::addmm"));
    QCOMPARE(addmm.data().toString(), QStringLiteral("aten::addmm"));
    QCOMPARE(addmm.parent().parent().data().toString(), QStringLiteral("M"));
    QCOMPARE(model.nodeOf(addmm), addmm.data(StackTreeModel::NodeRole).toInt());
    options.direction = StackTreeOptions::Direction::BottomUp;
    model.setTree(std::make_shared<const StackTree>(StackTree::build(f.trace, options)));
    QCOMPARE(model.rowCount(), 5);
    model.setTree(nullptr);
    QCOMPARE(model.rowCount(), 0);

    StackDiffModel diff_model;
    QAbstractItemModelTester diff_tester(&diff_model,
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    diff_model.setDiff(std::make_shared<const StackDiff>(StackDiff::compare(f.trace, f.trace)));
    QCOMPARE(diff_model.rowCount(), 0);
    diff_model.setDiff(nullptr);
}

void TestFlameGraph::comparePageShowsTheStackDifference() {
    AnalysisFixture fa;
    // B: the fixture with a1 never freed and a3 twice as large.
    Trace b = fa.trace;
    b.events.clear();
    int64_t live = 0;
    for (size_t i = 0; i < fa.trace.events.count(); ++i) {
        if (i == 3) {
            continue;  // a1's free
        }
        Event e = fa.trace.events.at(i);
        if (e.addr == 0xa3) {
            e.size = e.size > 0 ? 800 : -800;
        }
        live += e.size;
        e.allocated = live;
        b.events.append(e);
    }
    b.finalize();
    ComparePage page;
    page.resize(1200, 800);
    page.setRuns(std::make_shared<const Trace>(fa.trace), std::make_shared<const Trace>(b),
                 QStringLiteral("a"), QStringLiteral("b"));
    StackDiffModel* model = page.stackDiffModel();
    // B's peak (event 4): a2 7, a0 1000, a1 50, a4 30, a3 800.
    QCOMPARE(model->rowCount(), 2);
    QCOMPARE(model->index(0, StackDiffModel::Stack).data().toString(),
             QStringLiteral("backward of M > MmBackward0 > aten::mm"));
    QCOMPARE(model->index(0, StackDiffModel::Difference).data(StackDiffModel::SortRole),
             QVariant(qint64(400)));
    QCOMPARE(model->index(1, StackDiffModel::Stack).data().toString(),
             QStringLiteral("M > aten::linear"));
    QCOMPARE(model->index(1, StackDiffModel::BytesA).data(StackDiffModel::SortRole),
             QVariant(qint64(0)));
    QCOMPARE(model->index(1, StackDiffModel::BytesB).data(StackDiffModel::SortRole),
             QVariant(qint64(50)));
    const StackTree* tree = page.differenceFlameGraph()->tree();
    QVERIFY(tree);
    QCOMPARE(page.differenceFlameGraph()->mode(), FlameGraphView::Mode::Difference);
    QCOMPARE(tree->root().bytes, int64_t(450));
    QCOMPARE(tree->root().delta(), int64_t(450));
    const QString tip = page.differenceFlameGraph()->toolTipFor(childNamed(*tree, 0, "M"));
    QVERIFY2(tip.contains(QLatin1String("Difference: +")), qPrintable(tip));
    QTRY_VERIFY_WITH_TIMEOUT(!page.isLayoutPending(), 10000);
}

void TestFlameGraph::mainWindowHasTheTab() {
    MainWindow window;
    QVERIFY(window.viewNames(true).contains(QStringLiteral("flamegraph")));
    QVERIFY(!window.viewNames().contains(QStringLiteral("flamegraph")));  // no run open
    QVERIFY(window.flameGraphPage());
}

// An imported snapshot keeps the file's frames beside the cleaned stacks (Trace::raw_stacks):
// the flame graph shows them on demand, the stack pane lists them (collapsed) under each stack,
// and the timeline's legend says the categories are inferred.
void TestFlameGraph::rawFramesOfAnImportAreOneClickAway() {
    AnalysisFixture f;
    Trace trace = f.trace;
    // Raw frames as a stacks='all' snapshot lists them: interpreter and allocator frames around
    // the user's, one raw node per event.
    auto raw = [&trace](std::initializer_list<const char*> outermost_first) {
        uint32_t node = StackTable::kEmpty;
        for (const char* name : outermost_first) {
            node = trace.raw_stacks.child(
                node, trace.raw_stacks.internFrame({name, "", 0, FrameKind::Other}));
        }
        return node;
    };
    const uint32_t forward =
        raw({"_start", "Py_BytesMain", "train.py:12 main", "_PyEval_EvalFrameDefault",
             "model.py:3 forward", "c10::NativeCachingAllocator::malloc"});
    const uint32_t backward = raw({"torch::autograd::Engine::thread_main", "MmBackward0::apply",
                                   "c10::NativeCachingAllocator::malloc"});
    trace.raw_stack.clear();
    for (size_t e = 0; e < trace.events.count(); ++e) {
        trace.raw_stack.push_back(Phase(trace.events.phase[e]) == Phase::Backward ? backward
                                                                                  : forward);
    }
    trace.meta.categories_inferred = true;
    QVERIFY(trace.hasRawStacks());
    const auto imported = std::make_shared<const Trace>(trace);

    FlameGraphPage page;
    QVERIFY(!page.rawFramesBox()->isVisibleTo(&page));
    page.setTrace(fixtureTrace());  // a recording: no raw frames, no box
    QVERIFY(!page.rawFramesBox()->isVisibleTo(&page));
    page.setTrace(imported);
    QVERIFY(page.rawFramesBox()->isVisibleTo(&page));
    const auto topNames = [&page] {
        QStringList names;
        const StackTree* tree = page.topDown();
        for (int child : tree->root().children) {
            names << QString::fromStdString(tree->node(child).name);
        }
        names.sort();
        return names;
    };
    QVERIFY(!topNames().contains(QStringLiteral("_start")));  // cleaned: the modules
    page.rawFramesBox()->setChecked(true);
    QVERIFY(page.showsRawFrames());
    QVERIFY2(topNames().contains(QStringLiteral("_start")), qPrintable(topNames().join(", ")));
    // The same allocations either way: the root's bytes at the peak do not change.
    const int64_t raw_bytes = page.topDown()->root().bytes;
    page.rawFramesBox()->setChecked(false);
    QCOMPARE(page.topDown()->root().bytes, raw_bytes);

    // The stack pane: the cleaned stack, then "Raw frames", collapsed, innermost first.
    StackPane pane;
    pane.setTrace(imported);
    pane.showAllocation(f.allocation(0xa0));
    const QString text = pane.plainText();
    QVERIFY2(text.contains(QStringLiteral("Raw frames")), qPrintable(text));
    QVERIFY(text.indexOf(QStringLiteral("c10::NativeCachingAllocator::malloc")) <
            text.indexOf(QStringLiteral("_start")));
    QList<QTreeWidgetItem*> raws =
        pane.tree()->findItems(QStringLiteral("Raw frames"), Qt::MatchRecursive);
    QVERIFY(!raws.isEmpty());
    QVERIFY(!raws.first()->isExpanded());

    // The timeline's legend says the categories are inferred (before them, once).
    QCOMPARE(TimelineFramePainter::legendLead(imported.get()), QStringLiteral("Inferred:"));
    QVERIFY(TimelineFramePainter::legendLead(fixtureTrace().get()).isEmpty());
}

QTEST_MAIN(TestFlameGraph)
#include "test_flame_graph.moc"
