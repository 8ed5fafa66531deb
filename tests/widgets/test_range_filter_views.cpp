// The shared view state and what follows it: the operator table model and page, the allocation
// lists and the summary page under a range filter (fewer rows, then all of them again once it is
// cleared), the filter chip, Ctrl+drag on the timeline and the minimap, the search bar, and
// annotations on the timeline. Offscreen, on the hand-made analysis fixture.

#include "common/filter_chip.h"
#include "common/search_bar.h"
#include "common/stack_pane.h"
#include "itemmodels/allocation_list_model.h"
#include "itemmodels/memory_events_model.h"
#include "itemmodels/operator_filter_proxy.h"
#include "itemmodels/operator_table_model.h"
#include "layout/timeline_layout.h"
#include "pages/allocations_page.h"
#include "pages/flame_graph_page.h"
#include "pages/operator_page.h"
#include "pages/segment_page.h"
#include "pages/summary_page.h"
#include "painters/timeline_annotation_painter.h"
#include "run_document.h"
#include "timeline/timeline_minimap.h"
#include "timeline/timeline_page.h"
#include "timeline/timeline_view.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QToolButton>
#include <QTreeView>
#include <QtTest>

#include "../core/analysis_fixtures.h"

using namespace memscope;

namespace {

using Grouping = OperatorTable::Grouping;

std::shared_ptr<const Trace> fixtureTrace() {
    AnalysisFixture f;
    return std::make_shared<const Trace>(f.trace);
}

// Every row of a tree model, depth first.
int allRows(const QAbstractItemModel& model, const QModelIndex& parent = {}) {
    int n = 0;
    for (int r = 0; r < model.rowCount(parent); ++r) {
        n += 1 + allRows(model, model.index(r, 0, parent));
    }
    return n;
}

// The table rows shown, by full name.
QStringList shownNames(const OperatorTableModel& model, const QModelIndex& parent = {}) {
    QStringList names;
    for (int r = 0; r < model.rowCount(parent); ++r) {
        const QModelIndex index = model.index(r, 0, parent);
        names << model.fullName(model.tableRow(index));
        names << shownNames(model, index);
    }
    return names;
}

// A cell of the first table row with this name, by SortRole (raw numbers).
QVariant cell(const OperatorTableModel& model, const char* name, int column) {
    const auto& rows = model.table()->rows();
    for (size_t r = 0; r < rows.size(); ++r) {
        if (rows[r].name == name) {
            return model.indexOfTableRow(int64_t(r), column).data(OperatorTableModel::SortRole);
        }
    }
    return {};
}

}  // namespace

class TestRangeFilterViews : public QObject {
    Q_OBJECT

  private slots:
    void operatorModelShowsFewerRowsThenAllAgain_data() {
        QTest::addColumn<int>("grouping");
        QTest::newRow("by operator") << int(Grouping::ByOperator);
        QTest::newRow("module tree") << int(Grouping::ByModule);
    }
    void operatorModelShowsFewerRowsThenAllAgain() {
        QFETCH(int, grouping);
        const auto trace = fixtureTrace();
        OperatorTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTable(trace, std::make_shared<const OperatorTable>(
                                  OperatorTable::build(*trace, Grouping(grouping))));
        const int all = allRows(model);
        const QStringList all_names = shownNames(model);
        QVERIFY(all > 2);
        // Made in events [5, 7): only a3 (400 B in aten::mm, in backward).
        model.setRangeFilter(RangeFilter(5, 7, RangeFilter::Mode::MadeIn));
        const int filtered = allRows(model);
        QVERIFY2(filtered < all, qPrintable(QStringLiteral("%1 of %2").arg(filtered).arg(all)));
        const QStringList names = shownNames(model);
        QVERIFY2(names.contains(QStringLiteral("aten::mm")), qPrintable(names.join(", ")));
        QVERIFY2(!names.contains(QStringLiteral("aten::addmm")), qPrintable(names.join(", ")));
        // The memory columns count a3 only.
        const QModelIndex mm = model.indexOfTableRow(
            model.table()->rowOfAllocation(AnalysisFixture().allocation(0xa3)),
            OperatorTableModel::CpuMemory);
        QVERIFY(mm.isValid());
        QCOMPARE(mm.data(OperatorTableModel::SortRole).toLongLong(), qint64(400));
        // Calls and times count the calls that ran in the range: aten::mm [520, 580] made a3
        // at 530 (events from t = 530 on); aten::addmm ran in forward only.
        QVERIFY(model.callsFollowFilter());
        QCOMPARE(model.coveredNs(), int64_t(100));  // MmBackward0, the outermost call
        QCOMPARE(cell(model, "aten::mm", OperatorTableModel::Calls).toLongLong(), qint64(1));
        QCOMPARE(cell(model, "aten::mm", OperatorTableModel::TotalCpu).toLongLong(), qint64(60));
        QCOMPARE(cell(model, "aten::addmm", OperatorTableModel::Calls).toLongLong(), qint64(0));
        // Every row shown holds an allocation the filter selects, and those are all a3.
        for (int r = 0; r < model.rowCount(); ++r) {
            const auto inside = model.allocationsInside(model.tableRow(model.index(r, 0)));
            QCOMPARE(inside, std::vector<int64_t>{AnalysisFixture().allocation(0xa3)});
        }
        // A range no allocation is alive in shows no rows... there is none in the fixture (a0
        // lives to the end), so alive in [3, 4) keeps a0 (addmm) and a2 (outside), not a1.
        model.setRangeFilter(RangeFilter(3, 4));
        const QStringList alive = shownNames(model);
        QVERIFY2(alive.contains(QStringLiteral("aten::addmm")), qPrintable(alive.join(", ")));
        QVERIFY2(!alive.contains(QStringLiteral("aten::mm")), qPrintable(alive.join(", ")));
        // Times [320, 390): aten::linear and aten::add_ ran in it; addmm [160, 300] shows for
        // a0, with no calls (an empty cell), add_ for its call alone.
        QVERIFY2(alive.contains(QStringLiteral("aten::add_")), qPrintable(alive.join(", ")));
        QCOMPARE(cell(model, "aten::add_", OperatorTableModel::Calls).toLongLong(), qint64(1));
        QCOMPARE(cell(model, "aten::add_", OperatorTableModel::CpuMemory).toLongLong(), qint64(0));
        QCOMPARE(cell(model, "aten::linear", OperatorTableModel::Calls).toLongLong(), qint64(1));
        QCOMPARE(cell(model, "aten::linear", OperatorTableModel::SelfCpu).toLongLong(), qint64(60));
        QCOMPARE(cell(model, "aten::addmm", OperatorTableModel::Calls).toLongLong(), qint64(0));
        const auto& rows = model.table()->rows();
        for (size_t r = 0; r < rows.size(); ++r) {
            if (rows[r].name == "aten::addmm") {
                QCOMPARE(model.indexOfTableRow(int64_t(r), OperatorTableModel::Calls).data(),
                         QVariant(QString()));
            }
        }
        // Cleared: every row again, the whole run's figures.
        model.setRangeFilter(std::nullopt);
        QCOMPARE(allRows(model), all);
        QCOMPARE(shownNames(model), all_names);
        QVERIFY(!model.callsFollowFilter());
        QCOMPARE(model.coveredNs(), int64_t(400));
        QCOMPARE(cell(model, "aten::addmm", OperatorTableModel::Calls).toLongLong(), qint64(1));
        // The filter stays across a new table of the same run (a grouping change).
        model.setRangeFilter(RangeFilter(5, 7, RangeFilter::Mode::MadeIn));
        model.setTable(trace, std::make_shared<const OperatorTable>(
                                  OperatorTable::build(*trace, Grouping(grouping))));
        QCOMPARE(allRows(model), filtered);
    }

    void pagesFollowTheState() {
        const auto trace = fixtureTrace();
        RunDocument state;
        state.setTrace(trace);
        OperatorPage operators;
        operators.setViewState(&state);
        operators.setTrace(trace);
        AllocationsPage allocations;
        allocations.setViewState(&state);
        allocations.setTrace(trace);
        SummaryPage summary;
        summary.setMeasurePeaks(false);
        summary.setViewState(&state);
        summary.setTrace(trace);
        FilterChip chip(&state);
        QSignalSpy ranges(&state, &RunDocument::filterRangeChanged);

        const int operator_rows = operators.proxy()->rowCount();
        const int allocation_rows = allocations.allocationModel()->rowCount();
        const int event_rows = allocations.eventsModel()->rowCount();
        QCOMPARE(allocation_rows, 5);
        QVERIFY(chip.isHidden());

        state.setFilter(RangeFilter(5, 7, RangeFilter::Mode::MadeIn),
                        RunDocument::FilterOrigin::Timeline);
        QCOMPARE(ranges.count(), 1);
        QCOMPARE(ranges.last().at(0).toLongLong(), qint64(5));
        QCOMPARE(ranges.last().at(1).toLongLong(), qint64(7));
        QVERIFY(operators.proxy()->rowCount() < operator_rows);
        QCOMPARE(allocations.allocationModel()->rowCount(), 1);
        QCOMPARE(allocations.eventsModel()->rowCount(), 2);  // a3's alloc and free
        // The status counts the rows shown against the whole run, not against the filter.
        const QLocale locale;
        QCOMPARE(allocations.statusText(),
                 QStringLiteral("1 of %1 allocations, 2 of %2 alloc/free events shown")
                     .arg(locale.toString(allocation_rows), locale.toString(event_rows)));
        QVERIFY(!chip.isHidden());
        QVERIFY2(chip.text().startsWith(QStringLiteral("Filtered to events 5–6")),
                 qPrintable(chip.text()));
        QVERIFY2(chip.text().contains(QStringLiteral("1 allocation")), qPrintable(chip.text()));
        QCOMPARE(summary.figureText(QStringLiteral("filter_allocations")), QStringLiteral("1"));
        // The chip's mode box switches to "alive in" on the same range: a0, a2, a4 and a3.
        chip.modeCombo()->setCurrentIndex(0);
        emit chip.modeCombo()->activated(0);
        QCOMPARE(state.filter()->mode, RangeFilter::Mode::AliveIn);
        QCOMPARE(allocations.allocationModel()->rowCount(), 4);
        QCOMPARE(summary.figureText(QStringLiteral("filter_allocations")), QStringLiteral("4"));

        // The chip's button clears it: everything again.
        chip.clearButton()->click();
        QVERIFY(!state.hasFilter());
        QCOMPARE(ranges.last().at(0).toLongLong(), qint64(0));
        QCOMPARE(ranges.last().at(1).toLongLong(), qint64(trace->events.count()));
        QCOMPARE(operators.proxy()->rowCount(), operator_rows);
        QCOMPARE(allocations.allocationModel()->rowCount(), allocation_rows);
        QCOMPARE(allocations.eventsModel()->rowCount(), event_rows);
        QCOMPARE(allocations.statusText(),
                 QStringLiteral("%1 of %1 allocations, %2 of %2 alloc/free events shown")
                     .arg(locale.toString(allocation_rows), locale.toString(event_rows)));
        QVERIFY(chip.isHidden());

        // A pinned allocation selects its row in the pages.
        state.setSelectedAllocation(AnalysisFixture().allocation(0xa3));
        const auto selected = operators.view()->selectionModel()->selectedRows();
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected.first().data().toString(), QStringLiteral("aten::mm"));

        // Another run clears the filter, the selection and the highlights.
        state.setFilter(RangeFilter(0, 3));
        state.setHighlightedAllocations({1, 2});
        state.setTrace(fixtureTrace());
        QVERIFY(!state.hasFilter());
        QCOMPARE(state.selectedAllocation(), qint64(-1));
        QVERIFY(state.highlightedAllocations().isEmpty());
    }

    // Issue 11: the views take the document in their constructors and follow it, not each
    // other, and the run's indexes are built once for all of them.
    void viewsFollowTheDocument() {
        const auto trace = fixtureTrace();
        const int64_t a3 = AnalysisFixture().allocation(0xa3);
        RunDocument doc;
        TimelinePage page(&doc, nullptr);
        AllocationsPage allocations(&doc, nullptr);
        SegmentPage segments(&doc, nullptr);
        FlameGraphPage flame(&doc, nullptr);
        page.setTrace(trace);
        allocations.setTrace(trace);
        segments.setTrace(trace);
        flame.setTrace(trace);
        QCOMPARE(doc.trace(), trace);
        QCOMPARE(doc.layout(), page.view()->sharedLayout());
        QVERIFY(!page.minimap()->columnMaxima().empty());  // the minimap has the layout
        // Timeline colours and OOM marks, allocation list, memory events, segment page: one
        // build.
        QCOMPARE(doc.indexBuilds(), 1);

        doc.setTimeAxis(true);
        QVERIFY(page.view()->timeAxis());
        QVERIFY(page.minimap()->timeAxis());
        QCOMPARE(page.timeAxisCombo()->currentIndex(), 1);
        page.timeAxisCombo()->setCurrentIndex(0);
        QVERIFY(!doc.timeAxis());
        QVERIFY(!page.minimap()->timeAxis());

        page.view()->setDetail(2);
        QCOMPARE(doc.detail(), qint64(2));
        doc.setDetail(3);
        QCOMPARE(page.view()->detail(), int64_t(3));

        doc.setSelectedAllocation(a3);
        QCOMPARE(page.stackPane()->allocation(), a3);
        flame.setTimeChoice(FlameGraphPage::TimeChoice::Selected);
        QCOMPARE(flame.atEvent(), trace->allocations()[size_t(a3)].alloc_event);
        doc.setFilter(RangeFilter(5, 7));
        QCOMPARE(flame.rangeFirst(), int64_t(5));
        QCOMPARE(flame.rangeLast(), int64_t(7));
        doc.setHoveredAllocation(a3);
        QCOMPARE(page.view()->hoveredAllocation(), a3);

        // A flame graph shown later starts from the document's filter and pinned time.
        FlameGraphPage later(&doc, nullptr);
        later.setTimeChoice(FlameGraphPage::TimeChoice::Selected);
        later.setTrace(trace);
        QCOMPARE(later.rangeFirst(), int64_t(5));
        QCOMPARE(later.rangeLast(), int64_t(7));
        QCOMPARE(later.atEvent(), trace->allocations()[size_t(a3)].alloc_event);

        // The rank selector and the document's rank follow each other.
        page.setRanks({QStringLiteral("0"), QStringLiteral("1")}, 0);
        QCOMPARE(doc.rank(), 0);
        doc.setRank(1);
        QCOMPARE(page.rankCombo()->currentIndex(), 1);
        emit page.rankCombo()->activated(0);
        QCOMPARE(doc.rank(), 0);
        page.setRanks({}, -1);
        QCOMPARE(doc.rank(), -1);

        // Another run: the pane, the flame graph's range and the indexes follow.
        const auto other = fixtureTrace();
        page.setTrace(other);
        QCOMPARE(page.stackPane()->allocation(), int64_t(-1));
        QCOMPARE(doc.indexBuilds(), 2);
    }

    // The operator page and the summary page read one operator table per run, the document's,
    // whichever page is filled first; grouping by module builds the page's own.
    void operatorAndSummaryPagesShareOneTable() {
        const auto trace = fixtureTrace();
        RunDocument doc;
        doc.setTrace(trace);
        SummaryPage summary(&doc, nullptr);
        summary.setMeasurePeaks(false);
        OperatorPage operators(&doc, nullptr);
        QSignalSpy computed(&summary, &SummaryPage::computed);
        summary.setTrace(trace);    // starts the table's build on a worker
        operators.setTrace(trace);  // small: takes it here and now
        QVERIFY(computed.wait(20000));
        QVERIFY(summary.result() && summary.result()->operators);
        QCOMPARE(operators.model()->table(), summary.result()->operators.get());
        QCOMPARE(doc.operatorTableBuilds(), 1);

        operators.setGrouping(Grouping::ByModule);
        QVERIFY(operators.model()->table() != summary.result()->operators.get());
        operators.setGrouping(Grouping::ByOperator);
        QCOMPARE(operators.model()->table(), summary.result()->operators.get());
        QCOMPARE(doc.operatorTableBuilds(), 1);

        // Another run: one new table, for both.
        const auto other = fixtureTrace();
        doc.setTrace(other);
        operators.setTrace(other);
        summary.setTrace(other);
        QVERIFY(computed.wait(20000));
        QCOMPARE(operators.model()->table(), summary.result()->operators.get());
        QCOMPARE(doc.operatorTableBuilds(), 2);
    }

    // An allocation pinned before the pages have a large run (laid out and tabulated on
    // workers) is shown by each once it is ready, and the timeline waiting for its layout
    // does not clear the pin.
    void pinBeforeTheRunIsReadyIsShownOnceItIs() {
        auto trace = std::make_shared<Trace>();
        const auto pairs = int64_t(RunDocument::kSyncLayoutEvents / 2 + 1000);
        int64_t live = 0;
        for (int64_t i = 0; i < pairs; ++i) {
            for (const bool free : {false, true}) {
                Event e;
                e.time_ns = i * 2 + free;
                e.kind = free ? EventKind::Free : EventKind::Alloc;
                e.addr = uint64_t(0x1000 + i);
                e.size = free ? -(64 + i % 7) : 64 + i % 7;
                live += e.size;
                e.allocated = live;
                trace->events.append(e);
            }
        }
        trace->finalize();
        RunDocument doc;
        TimelinePage page(&doc, nullptr);
        OperatorPage operators(&doc, nullptr);
        QSignalSpy laid(&page, &TimelinePage::layoutReady);
        QSignalSpy tabulated(&operators, &OperatorPage::tableReady);
        page.setTrace(trace);
        operators.setTrace(trace);
        QVERIFY(page.isLayoutPending());
        QVERIFY(operators.isBuilding());
        const qint64 pinned = pairs / 2;
        doc.setSelectedAllocation(pinned);
        QCOMPARE(doc.selectedAllocation(), pinned);
        QCOMPARE(page.view()->selectedAllocation(), int64_t(-1));
        QVERIFY(laid.count() > 0 || laid.wait(60'000));
        QCOMPARE(page.view()->selectedAllocation(), int64_t(pinned));
        QCOMPARE(page.stackPane()->allocation(), int64_t(pinned));
        QVERIFY(tabulated.count() > 0 || tabulated.wait(60'000));
        const auto rows = operators.view()->selectionModel()->selectedRows();
        QCOMPARE(rows.size(), 1);
        const QModelIndex source = operators.proxy()->mapToSource(rows.first());
        QCOMPARE(operators.model()->tableRow(source),
                 operators.model()->table()->rowOfAllocation(pinned));
        // A list filled later selects it too.
        AllocationsPage allocations(&doc, nullptr);
        allocations.setTrace(trace);
        const auto listed = allocations.allocationView()->selectionModel()->selectedRows();
        QCOMPARE(listed.size(), 1);
        QCOMPARE(listed.first().data(AllocationListModel::AllocationRole).toLongLong(), pinned);
        QCOMPARE(doc.selectedAllocation(), pinned);
    }

    void ctrlDragOnTheTimelineSetsTheFilter() {
        const auto trace = fixtureTrace();
        TimelinePage page;
        page.resize(900, 600);
        page.setTrace(trace);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        TimelineView* view = page.view();
        RunDocument* state = page.viewState();
        QCOMPARE(state->trace(), trace);
        const TimelineMapping m = view->mapping();
        // Drag with Ctrl from x = 1.5 to x = 3.5: the states after alloc/free events 1..3.
        const int y = int(m.top + m.height / 2);
        const QPoint from(int(m.xToPixel(1.5)), y);
        const QPoint to(int(m.xToPixel(3.5)), y);
        QTest::mousePress(view, Qt::LeftButton, Qt::ControlModifier, from);
        QMouseEvent move(QEvent::MouseMove, QPointF(to), view->mapToGlobal(QPointF(to)),
                         Qt::NoButton, Qt::LeftButton, Qt::ControlModifier);
        QCoreApplication::sendEvent(view, &move);
        QTest::mouseRelease(view, Qt::LeftButton, Qt::ControlModifier, to);
        QVERIFY(state->hasFilter());
        QCOMPARE(state->filterOrigin(), RunDocument::FilterOrigin::Timeline);
        const auto expected = RunDocument::eventRangeOfX(
            *view->timelineLayout(), int64_t(trace->events.count()),
            view->mapping().pixelToX(from.x()), view->mapping().pixelToX(to.x()));
        QCOMPARE(state->filter()->first, expected.first);
        QCOMPARE(state->filter()->last, expected.second);
        QCOMPARE(state->filter()->first, int64_t(1));
        QCOMPARE(state->filter()->last, int64_t(4));
        // The window did not zoom (a Ctrl+drag is not a rubber band).
        QCOMPARE(view->visibleX0(), 0.0);
        // The minimap follows the state, and Ctrl+drag there sets the filter too.
        TimelineMinimap* minimap = page.minimap();
        QCOMPARE(minimap->windowX1(), view->visibleX1());
        state->setVisibleRange(1, 3);
        QCOMPARE(view->visibleX0(), 1.0);
        QCOMPARE(minimap->windowX0(), 1.0);
        const TimelineMapping mm = minimap->mapping();
        const int my = minimap->height() / 2;
        const QPoint mfrom(int(mm.xToPixel(4.2)), my);
        const QPoint mto(int(mm.xToPixel(6.8)), my);
        QTest::mousePress(minimap, Qt::LeftButton, Qt::ControlModifier, mfrom);
        QMouseEvent mmove(QEvent::MouseMove, QPointF(mto), minimap->mapToGlobal(QPointF(mto)),
                          Qt::NoButton, Qt::LeftButton, Qt::ControlModifier);
        QCoreApplication::sendEvent(minimap, &mmove);
        QTest::mouseRelease(minimap, Qt::LeftButton, Qt::ControlModifier, mto);
        QCOMPARE(state->filterOrigin(), RunDocument::FilterOrigin::Minimap);
        QCOMPARE(state->filter()->first, view->timelineLayout()->eventAt(4));
        QCOMPARE(view->visibleX0(), 1.0);  // the window stays
        // The view shades outside the filter; clearing repaints it without.
        const QImage filtered = view->renderImage(QSize(800, 400));
        state->clearFilter();
        QVERIFY(view->renderImage(QSize(800, 400)) != filtered);
    }

    void searchFindsAndWalksMatches() {
        const auto trace = fixtureTrace();
        TimelinePage page;
        page.resize(900, 600);
        page.setTrace(trace);
        SearchBar* bar = page.searchBar();
        RunDocument* state = page.viewState();
        bar->edit()->setText(QStringLiteral("aten::"));
        bar->search();
        QCOMPARE(bar->matches().size(), size_t(3));  // a0 (addmm), a1 (linear), a3 (mm)
        QCOMPARE(state->highlightedAllocations().size(), 3);
        QCOMPARE(page.view()->highlightedAllocations().size(), 3);
        QVERIFY2(bar->countLabel()->text().startsWith(QStringLiteral("3 match")),
                 qPrintable(bar->countLabel()->text()));
        bar->next();
        QCOMPARE(state->selectedAllocation(), bar->matches()[0]);
        QCOMPARE(page.view()->selectedAllocation(), bar->matches()[0]);
        QCOMPARE(bar->countLabel()->text(), QStringLiteral("1 of 3"));
        bar->previous();
        QCOMPARE(state->selectedAllocation(), bar->matches()[2]);
        bar->next();
        QCOMPARE(state->selectedAllocation(), bar->matches()[0]);
        // Within a filter only the filtered allocations match: made in [5, 7) is a3.
        state->setFilter(RangeFilter(5, 7, RangeFilter::Mode::MadeIn));
        bar->search();
        QCOMPARE(bar->matches(), std::vector<int64_t>{AnalysisFixture().allocation(0xa3)});
        // A frame above the allocation's own (an autograd node).
        state->clearFilter();
        bar->edit()->setText(QStringLiteral("MmBackward"));
        bar->search();
        QCOMPARE(bar->matches(), std::vector<int64_t>{AnalysisFixture().allocation(0xa3)});
        bar->edit()->setText(QStringLiteral("nothing like this"));
        bar->search();
        QCOMPARE(bar->countLabel()->text(), QStringLiteral("No matches"));
        QVERIFY(state->highlightedAllocations().isEmpty());
    }

    void annotationsToggleOnTheTimeline() {
        const auto trace = fixtureTrace();
        TimelinePage page;
        page.resize(900, 600);
        page.setTrace(trace);
        TimelineView* view = page.view();
        // The fixture's phases: forward and backward of step 1 (init is no annotation).
        const auto& regions = view->annotations();
        QCOMPARE(int(std::count_if(regions.begin(), regions.end(),
                                   [](const TraceAnnotation& a) {
                                       return a.kind == TraceAnnotation::Kind::Phase;
                                   })),
                 2);
        QCOMPARE(int(std::count_if(regions.begin(), regions.end(),
                                   [](const TraceAnnotation& a) {
                                       return a.kind == TraceAnnotation::Kind::Step;
                                   })),
                 1);
        QVERIFY(!view->annotationsVisible());
        const QImage off = view->renderImage(QSize(800, 400));
        page.annotationsButton()->click();
        QVERIFY(view->annotationsVisible());
        const QImage on = view->renderImage(QSize(800, 400));
        QVERIFY(on != off);
        // The bands lie along the bottom of the plot: the rows above them are unchanged.
        const QRectF plot = view->plotRect(QRectF(0, 0, 800, 400));
        const int band_top = int(plot.bottom() - 2 * TimelineAnnotationPainter::kLane);
        bool same_above = true;
        for (int y = int(plot.top()) + 2; y < band_top - 2 && same_above; ++y) {
            for (int x = int(plot.left()) + 2; x < int(plot.right()) - 2; ++x) {
                if (on.pixel(x, y) != off.pixel(x, y)) {
                    same_above = false;
                    break;
                }
            }
        }
        QVERIFY(same_above);
    }

    // Hundreds of steps in one window: one band per lane ("step 1 – step 300 (300)"), not a
    // stripe per step that reads as noise.
    void crowdedAnnotationsMergeIntoOneBand() {
        AnalysisFixture f;
        Trace trace = f.trace;
        const int64_t t0 = trace.events.time_ns.front();
        const int64_t t1 = trace.events.time_ns.back();
        trace.phases.clear();
        const int steps = 300;
        for (int s = 0; s < steps; ++s) {
            const int64_t a = t0 + (t1 - t0) * s / steps;
            const int64_t b = t0 + (t1 - t0) * (s + 1) / steps;
            trace.phases.push_back({Phase::Forward, s + 1, a, (a + b) / 2});
            trace.phases.push_back({Phase::Backward, s + 1, (a + b) / 2, b});
        }
        TimelinePage page;
        page.resize(900, 600);
        page.setTrace(std::make_shared<const Trace>(trace));
        TimelineView* view = page.view();
        view->setTimeAxis(true);  // the steps evenly over the width
        page.annotationsButton()->click();
        QVERIFY(view->annotationsVisible());
        const QImage image = view->renderImage(QSize(800, 400));
        const QRectF plot = view->plotRect(QRectF(0, 0, 800, 400));
        // Colour changes across the plot in the middle row of the bottom lane (steps), less
        // those in a row just above the lanes: the step lines and the data cross both rows.
        auto changesAt = [&](int y) {
            int changes = 0;
            for (int x = int(plot.left()) + 3; x < int(plot.right()) - 3; ++x) {
                changes += image.pixel(x, y) != image.pixel(x + 1, y) ? 1 : 0;
            }
            return changes;
        };
        const int lane = changesAt(int(plot.bottom() - TimelineAnnotationPainter::kLane / 2));
        const int above = changesAt(int(plot.bottom() - 2 * TimelineAnnotationPainter::kLane - 4));
        // A stripe per step would add about 2 x 300 changes; one band adds its label's glyphs.
        QVERIFY2(lane - above < 150,
                 qPrintable(QStringLiteral("%1 in the lane, %2 above").arg(lane).arg(above)));
    }
};

QTEST_MAIN(TestRangeFilterViews)
#include "test_range_filter_views.moc"
