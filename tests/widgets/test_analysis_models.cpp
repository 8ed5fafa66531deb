// The operator, allocation and memory-event models under QAbstractItemModelTester (plain, and
// behind the sort/filter proxy in both groupings), numeric sorting, search, the pages' selection
// signals and showAllocation, CSV export, the summary page on a tiny recorded run, and its
// out-of-memory box's advice for a Python program from a sweep of it.

// First: the recorder declares a method named emit, which Qt headers define as a macro.
#include "capture/recording_session.h"

#include "itemmodels/allocation_list_model.h"
#include "itemmodels/memory_events_model.h"
#include "itemmodels/operator_filter_proxy.h"
#include "itemmodels/operator_table_model.h"
#include "pages/allocations_page.h"
#include "pages/operator_page.h"
#include "pages/summary_page.h"
#include "run/run_summary.h"
#include "shell/translation_loader.h"
#include "studies/program_sweep.h"

#include <QAbstractItemModelTester>
#include <QBarSeries>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFile>
#include <QHorizontalStackedBarSeries>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTranslator>
#include <QTreeView>
#include <QtTest>

#include "../core/analysis_fixtures.h"
#include "../core/tiny_options.h"

using namespace memscope;

namespace {

using Grouping = OperatorTable::Grouping;

std::shared_ptr<const Trace> fixtureTrace() {
    AnalysisFixture f;
    return std::make_shared<const Trace>(f.trace);
}

int64_t allocationAt(uint64_t addr) {
    static const AnalysisFixture f;
    return f.allocation(addr);
}

// The proxy index whose Name column (full name) is `name`, searched depth first.
QModelIndex findName(const QAbstractItemModel* model, const OperatorTableModel* source,
                     const OperatorFilterProxy* proxy, const QString& name,
                     const QModelIndex& parent = {}) {
    for (int r = 0; r < model->rowCount(parent); ++r) {
        const QModelIndex index = model->index(r, 0, parent);
        if (source->fullName(source->tableRow(proxy->mapToSource(index))) == name)
            return index;
        const QModelIndex below = findName(model, source, proxy, name, index);
        if (below.isValid())
            return below;
    }
    return {};
}

std::shared_ptr<const Trace> recordTiny() {
    Recorder::Options ro;
    ro.record_shapes = true;
    RecordingSession session(tinyTrainOptions(), ro);
    session.setMeasurePeakFlops(false);
    session.start();
    session.finish();
    return std::make_shared<const Trace>(session.trace());
}

}  // namespace

class TestAnalysisModels : public QObject {
    Q_OBJECT

  private slots:
    void operatorModelUnderTester_data() {
        QTest::addColumn<int>("grouping");
        QTest::newRow("by operator") << int(Grouping::ByOperator);
        QTest::newRow("module tree") << int(Grouping::ByModule);
    }
    void operatorModelUnderTester() {
        QFETCH(int, grouping);
        const auto trace = fixtureTrace();
        OperatorTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        OperatorFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester proxy_tester(
            &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTable(trace, std::make_shared<const OperatorTable>(
                                  OperatorTable::build(*trace, Grouping(grouping))));
        QVERIFY(model.rowCount() > 0);
        proxy.sort(OperatorTableModel::CpuMemory, Qt::DescendingOrder);
        proxy.setSearchText(QStringLiteral("mm"));
        proxy.setSearchText(QString());
        model.setTable(nullptr, nullptr);
        QCOMPARE(model.rowCount(), 0);
        model.setTable(trace, std::make_shared<const OperatorTable>(
                                  OperatorTable::build(*trace, Grouping(grouping))));
        QVERIFY(proxy.rowCount() > 0);
    }

    void sortingIsNumeric() {
        const auto trace = fixtureTrace();
        OperatorTableModel model;
        model.setTable(trace, std::make_shared<const OperatorTable>(
                                  OperatorTable::build(*trace, Grouping::ByOperator)));
        OperatorFilterProxy proxy;
        proxy.setSourceModel(&model);
        proxy.sort(OperatorTableModel::SelfAllocated, Qt::AscendingOrder);
        // "1000 B" sorts after "37 B" and "400 B": by bytes, not by text
        const int last = proxy.rowCount() - 1;
        QCOMPARE(proxy.index(last, OperatorTableModel::Name).data().toString(),
                 QStringLiteral("aten::addmm"));
        QCOMPARE(proxy.index(last, OperatorTableModel::SelfAllocated).data().toString(),
                 QStringLiteral("1000 B"));
        qint64 previous = -1;
        for (int r = 0; r < proxy.rowCount(); ++r) {
            const qint64 v = proxy.index(r, OperatorTableModel::SelfAllocated)
                                 .data(OperatorTableModel::SortRole)
                                 .toLongLong();
            QVERIFY(v >= previous);
            previous = v;
        }
        proxy.sort(OperatorTableModel::SelfCpu, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, OperatorTableModel::Name).data().toString(),
                 QStringLiteral("aten::addmm"));  // 140 ns
        QCOMPARE(proxy.index(0, OperatorTableModel::SelfCpuPercent)
                     .data(OperatorTableModel::SortRole)
                     .toDouble(),
                 35.0);
    }

    void searchFiltersNamesAndShapes() {
        const auto trace = fixtureTrace();
        OperatorTableModel model;
        OperatorFilterProxy proxy;
        proxy.setSourceModel(&model);
        model.setTable(trace, std::make_shared<const OperatorTable>(
                                  OperatorTable::build(*trace, Grouping::ByOperator)));
        proxy.setSearchText(QStringLiteral("ADDMM"));
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setSearchText(QStringLiteral("[4, 16]"));  // an input shape of aten::add_ only
        QCOMPARE(proxy.rowCount(), 1);
        QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("aten::add_"));
        proxy.setSearchText(QStringLiteral("aten mm"));  // every word must match
        QCOMPARE(proxy.rowCount(), 2);                   // aten::addmm, aten::mm
        proxy.setSearchText(QStringLiteral("nothing-like-this"));
        QCOMPARE(proxy.rowCount(), 0);

        // the tree keeps the parents of a match
        model.setTable(trace, std::make_shared<const OperatorTable>(
                                  OperatorTable::build(*trace, Grouping::ByModule)));
        proxy.setSearchText(QStringLiteral("addmm"));
        QCOMPARE(proxy.rowCount(), 1);
        const QModelIndex m = proxy.index(0, 0);
        QCOMPARE(m.data().toString(), QStringLiteral("M"));
        QCOMPARE(proxy.rowCount(m), 1);
        const QModelIndex linear = proxy.index(0, 0, m);
        QCOMPARE(linear.data().toString(), QStringLiteral("aten::linear"));
        QCOMPARE(proxy.index(0, 0, linear).data().toString(), QStringLiteral("aten::addmm"));
    }

    void allocationModelsUnderTester() {
        const auto trace = fixtureTrace();
        AllocationListModel allocations;
        QAbstractItemModelTester t1(&allocations,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        MemoryEventsModel events;
        QAbstractItemModelTester t2(&events,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        OperatorFilterProxy allocation_proxy;
        allocation_proxy.setRoles(AllocationListModel::SortRole,
                                  AllocationListModel::SearchTextRole);
        allocation_proxy.setSourceModel(&allocations);
        QAbstractItemModelTester t3(&allocation_proxy,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        OperatorFilterProxy events_proxy;
        events_proxy.setRoles(MemoryEventsModel::SortRole, MemoryEventsModel::SearchTextRole);
        events_proxy.setSourceModel(&events);
        QAbstractItemModelTester t4(&events_proxy,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        allocations.setTrace(trace);
        events.setTrace(trace);

        QCOMPARE(allocations.rowCount(), 5);
        QCOMPARE(allocations.allocationAt(0), allocationAt(0xa0));  // largest first
        QCOMPARE(allocations.index(0, AllocationListModel::Size).data().toString(),
                 QStringLiteral("1000 B"));
        QCOMPARE(allocations.index(0, AllocationListModel::Operator).data().toString(),
                 QStringLiteral("aten::addmm"));
        QCOMPARE(allocations.index(0, AllocationListModel::Module).data().toString(),
                 QStringLiteral("M"));
        const int a1 = allocations.rowOfAllocation(allocationAt(0xa1));
        QCOMPARE(allocations.index(a1, AllocationListModel::Lifetime)
                     .data(AllocationListModel::SortRole)
                     .toLongLong(),
                 qint64(10));  // 310 -> 320 ns
        QCOMPARE(allocations
                     .index(allocations.rowOfAllocation(allocationAt(0xa0)),
                            AllocationListModel::FreedAt)
                     .data()
                     .toString(),
                 QStringLiteral("never"));

        QCOMPARE(events.rowCount(), 7);
        const auto rows = events.rowsOfAllocation(allocationAt(0xa3));
        QCOMPARE(rows.size(), size_t(2));
        QCOMPARE(events.index(rows[0], MemoryEventsModel::Action).data().toString(),
                 QStringLiteral("alloc"));
        QCOMPARE(events.index(rows[1], MemoryEventsModel::Action).data().toString(),
                 QStringLiteral("free"));
        QCOMPARE(events.index(rows[1], MemoryEventsModel::Duration)
                     .data(MemoryEventsModel::SortRole)
                     .toLongLong(),
                 qint64(60));
        QCOMPARE(events.index(rows[1], MemoryEventsModel::Operator).data().toString(),
                 QStringLiteral("MmBackward0"));

        events_proxy.sort(MemoryEventsModel::Size, Qt::AscendingOrder);
        QCOMPARE(events_proxy.index(0, MemoryEventsModel::Size)
                     .data(MemoryEventsModel::SortRole)
                     .toLongLong(),
                 qint64(-400));
        allocation_proxy.setSearchText(QStringLiteral("addmm"));
        QCOMPARE(allocation_proxy.rowCount(), 1);
        events_proxy.setSearchText(QStringLiteral("free"));
        QCOMPARE(events_proxy.rowCount(), 2);
        allocations.setTrace(nullptr);
        events.setTrace(nullptr);
        QCOMPARE(allocations.rowCount(), 0);
    }

    void operatorPageSignals() {
        const auto trace = fixtureTrace();
        OperatorPage page;
        page.resize(900, 500);
        page.setTrace(trace);
        QSignalSpy highlighted(&page, &OperatorPage::allocationsHighlighted);
        const QModelIndex linear =
            findName(page.proxy(), page.model(), page.proxy(), QStringLiteral("aten::linear"));
        QVERIFY(linear.isValid());
        page.view()->selectionModel()->setCurrentIndex(
            linear, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QCOMPARE(highlighted.count(), 1);
        QCOMPARE(highlighted.last().at(0).value<QVector<qint64>>(),
                 (QVector<qint64>{allocationAt(0xa0), allocationAt(0xa1)}));

        // a pinned allocation selects the row it is attributed to, without echoing a highlight
        page.searchEdit()->setText(QStringLiteral("linear"));  // hides aten::mm: cleared
        page.showAllocation(allocationAt(0xa3));
        QCOMPARE(highlighted.count(), 1);
        QVERIFY(page.searchEdit()->text().isEmpty());
        QModelIndex current = page.view()->selectionModel()->currentIndex();
        QCOMPARE(page.model()->fullName(page.model()->tableRow(page.proxy()->mapToSource(current))),
                 QStringLiteral("aten::mm"));

        page.groupingCombo()->setCurrentIndex(1);  // module tree
        QCOMPARE(page.grouping(), Grouping::ByModule);
        page.showAllocation(allocationAt(0xa3));
        current = page.view()->selectionModel()->currentIndex();
        QCOMPARE(current.data().toString(), QStringLiteral("aten::mm"));
        QCOMPARE(current.parent().data().toString(), QStringLiteral("MmBackward0"));
        QCOMPARE(current.parent().parent().data().toString(), QStringLiteral("backward"));
        QVERIFY(page.view()->isExpanded(current.parent()));

        const QModelIndex m =
            findName(page.proxy(), page.model(), page.proxy(), QStringLiteral("M"));
        page.view()->selectionModel()->setCurrentIndex(
            m, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QCOMPARE(highlighted.last().at(0).value<QVector<qint64>>().size(), 4);  // all but init's
        page.showAllocation(-1);
        QVERIFY(page.view()->selectionModel()->selectedRows().isEmpty());
    }

    void operatorPageExportsCsv() {
        const auto trace = fixtureTrace();
        OperatorPage page;
        page.setTrace(trace);
        page.setGrouping(Grouping::ByModule);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ops.csv"));
        const memscope::Outcome written = page.exportCsv(path);
        QVERIFY2(written, qPrintable(written.message()));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines =
            QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY(lines.first().startsWith(QStringLiteral("path,calls,self_cpu_ns")));
        QCOMPARE(lines.size(), 1 + 8);  // M, linear, addmm, add_, backward, node, mm, outside
        bool addmm = false;
        for (const QString& line : lines) {
            if (line.startsWith(QStringLiteral("M > aten::linear > aten::addmm,1,140,"))) {
                addmm = line.contains(QStringLiteral(",1000,")) &&
                        line.contains(QStringLiteral("1024"));
            }
        }
        QVERIFY(addmm);
        const memscope::Outcome failed =
            page.exportCsv(dir.filePath(QStringLiteral("no/such/dir/ops.csv")));
        QVERIFY(!failed);
        QVERIFY(failed.message().contains(QStringLiteral("ops.csv")));
    }

    void allocationsPageSignals() {
        const auto trace = fixtureTrace();
        AllocationsPage page;
        page.setTrace(trace);
        QSignalSpy selected(&page, &AllocationsPage::allocationSelected);
        const QModelIndex first = page.allocationProxy()->index(0, 0);
        page.allocationView()->selectionModel()->setCurrentIndex(
            first, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.last().at(0).toLongLong(), allocationAt(0xa0));
        const QModelIndex event = page.eventsProxy()->index(2, 0);
        page.eventsView()->selectionModel()->setCurrentIndex(
            event, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QCOMPARE(selected.last().at(0).toLongLong(),
                 event.data(MemoryEventsModel::AllocationRole).toLongLong());

        page.searchEdit()->setText(QStringLiteral("aten::mm"));
        page.applySearch();
        QCOMPARE(page.allocationProxy()->rowCount(), 1);
        const int before = selected.count();
        page.showAllocation(allocationAt(0xa1));  // hidden by the search: it is cleared
        QCOMPARE(selected.count(), before);       // no echo back to the timeline
        QVERIFY(page.searchEdit()->text().isEmpty());
        QCOMPARE(page.allocationView()
                     ->selectionModel()
                     ->currentIndex()
                     .data(AllocationListModel::AllocationRole)
                     .toLongLong(),
                 allocationAt(0xa1));
        QCOMPARE(page.eventsView()
                     ->selectionModel()
                     ->currentIndex()
                     .data(MemoryEventsModel::AllocationRole)
                     .toLongLong(),
                 allocationAt(0xa1));
    }

    void pagesFollowTheGermanTranslation() {
        QTranslator translator;
        QVERIFY(loadMemscopeTranslation(translator, QLocale(QLocale::German)));
        OperatorPage operators;
        AllocationsPage allocations;
        SummaryPage summary;
        QVERIFY(QCoreApplication::installTranslator(&translator));
        QCoreApplication::processEvents();  // LanguageChange reaches the pages
        QCOMPARE(operators.groupingCombo()->itemText(1), QStringLiteral("Modulbaum"));
        QCOMPARE(
            operators.model()->headerData(OperatorTableModel::Calls, Qt::Horizontal).toString(),
            QStringLiteral("Aufrufe"));
        QCOMPARE(allocations.tabs()->tabText(1), QStringLiteral("Speicherereignisse"));
        QCOMPARE(summary.rooflineTable()->horizontalHeaderItem(9)->text(),
                 QStringLiteral("Einordnung"));
        QVERIFY(QCoreApplication::removeTranslator(&translator));
        QCoreApplication::processEvents();
        QCOMPARE(operators.groupingCombo()->itemText(1), QStringLiteral("Module tree"));
    }

    // An import's phase figures and category chart say they are inferred; a recording's do not.
    void summaryPageSaysWhatIsInferred() {
        AnalysisFixture f;
        Trace imported = f.trace;
        imported.meta.categories_inferred = true;
        for (const auto& [trace, inferred] :
             {std::make_pair(std::make_shared<const Trace>(imported), true),
              std::make_pair(fixtureTrace(), false)}) {
            SummaryPage page;
            QSignalSpy computed(&page, &SummaryPage::computed);
            page.setTrace(trace);
            if (page.isComputing()) {
                QVERIFY(computed.wait(60000));
            }
            QCOMPARE(page.figureText(QStringLiteral("forward_peak"))
                         .endsWith(QStringLiteral("(inferred)")),
                     inferred);
            QCOMPARE(page.figureText(QStringLiteral("peak")).contains(QStringLiteral("inferred")),
                     false);  // the peak itself is the snapshot's, not inferred
            // An import says which rule put each category's bytes there at the peak, one line
            // a category (issue 39); a recording does not.
            const QString rules = page.figureText(QStringLiteral("category_rules"));
            QCOMPARE(rules.contains(QStringLiteral("(inferred: ")), inferred);
            if (inferred) {
                const auto* result = page.result();
                int categories = 0;
                for (const int64_t b : result->statistics.bytes_by_category_at_peak) {
                    categories += b > 0 ? 1 : 0;
                }
                QCOMPARE(int(rules.count(QLatin1Char('\n'))) + 1, categories);
            }
            QVERIFY(!page.figureText(QStringLiteral("before_recording")).isEmpty());
        }
    }

    void summaryPageShowsTinyRun() {
        const auto trace = recordTiny();
        SummaryPage page;
        page.resize(1000, 900);
        QSignalSpy computed(&page, &SummaryPage::computed);
        page.setTrace(trace);
        QVERIFY(page.isComputing());
        QVERIFY(computed.wait(60000));
        QVERIFY(!page.isComputing());
        const auto& summary = trace->summary;
        QCOMPARE(
            page.figureText(QStringLiteral("peak")),
            QString::fromStdString(formatBytes(summary["peak_allocated_bytes"].get<int64_t>())));
        QCOMPARE(page.figureText(QStringLiteral("step1_peak")),
                 QString::fromStdString(
                     formatBytes(summary["step1_peak_allocated_bytes"].get<int64_t>())));
        QCOMPARE(
            page.figureText(QStringLiteral("average")),
            QString::fromStdString(formatBytes(summary["avg_allocated_bytes"].get<int64_t>())));
        const auto* result = page.result();
        QVERIFY(result);
        QCOMPARE(page.figureText(QStringLiteral("peak_to_average")),
                 QLocale().toString(result->statistics.peak_to_avg, 'f', 2));
        QCOMPARE(page.figureText(QStringLiteral("samples_per_s")),
                 QLocale().toString(summary["samples_per_s"].get<double>(), 'f', 1));
        // the roofline: the step classified, per-op rows, the CPU peaks measured and reported
        const QString step_class = page.figureText(QStringLiteral("step_class"));
        QCOMPARE(step_class,
                 QString::fromStdString(Roofline::toString(result->roofline.step.bound())));
        QVERIFY(result->roofline.step.bound() != Roofline::Bound::Unknown);
        QCOMPARE(page.rooflineTable()->rowCount(), int(result->roofline.ops.size()));
        QVERIFY(result->peak_bytes_per_s > 0);
        QVERIFY(result->peak_flops_per_s > 0);
        QVERIFY(result->peak_bandwidth_method.contains(QStringLiteral("triad")));
        QVERIFY(page.figureText(QStringLiteral("peak_bandwidth")).endsWith(QStringLiteral("/s")));
        // the chart has one bar per category present at the peak
        int categories = 0;
        for (int64_t b : result->statistics.bytes_by_category_at_peak)
            categories += b > 0 ? 1 : 0;
        const auto series = page.chartView()->chart()->series();
        QCOMPARE(series.size(), 1);
        QCOMPARE(static_cast<QHorizontalStackedBarSeries*>(series.first())->count(), categories);
        QVERIFY(categories >= 3);

        // selecting an operator in the roofline table highlights its allocations
        QSignalSpy highlighted(&page, &SummaryPage::allocationsHighlighted);
        int linear = -1;
        for (int r = 0; r < page.rooflineTable()->rowCount(); ++r) {
            if (page.rooflineTable()->item(r, 0)->text() == QStringLiteral("aten::linear"))
                linear = r;
        }
        QVERIFY(linear >= 0);
        page.rooflineTable()->selectRow(linear);
        QCOMPARE(highlighted.count(), 1);
        QVERIFY(!highlighted.last().at(0).value<QVector<qint64>>().isEmpty());

        page.setTrace(nullptr);
        QVERIFY(page.figureText(QStringLiteral("peak")).isEmpty());
    }

    // A Python program's run that ran out of memory under a 100,000-byte limit at b=8, s=64,
    // and a sweep of the program whose peaks are 1000 + 256*b*s bytes: the box says the planner
    // does not model the program, offers "Advice from a sweep...", and with the sweep lists the
    // largest batch and context that fit (issue 44 item 5).
    void summaryPageAdvisesAProgramFromItsSweep() {
        auto trace = std::make_shared<Trace>();
        trace->meta.device = "cpu";
        trace->meta.capacity_bytes = 100000;
        trace->meta.config = {{"program",
                               {{"script", "/home/student/train.py"},
                                {"argv", {"--batch-size", "8", "--context-length", "64"}}}}};
        Event alloc;
        alloc.time_ns = 10;
        alloc.kind = EventKind::Alloc;
        alloc.addr = 0x100;
        alloc.size = 90000;
        alloc.allocated = 90000;
        alloc.phase = Phase::Forward;
        alloc.step = 1;
        trace->events.append(alloc);
        Event oom = alloc;
        oom.time_ns = 20;
        oom.kind = EventKind::Oom;
        oom.addr = 0;
        oom.size = 20000;
        oom.reserved = 100000;
        trace->events.append(oom);
        trace->finalize();

        SummaryPage page;
        page.setMeasurePeaks(false);
        QSignalSpy computed(&page, &SummaryPage::computed);
        page.setTrace(trace);
        QVERIFY(computed.wait(60000));
        const auto* button = page.findChild<QPushButton*>(QStringLiteral("oom_sweep_button"));
        QVERIFY(button);
        QVERIFY(!button->isHidden());
        QVERIFY2(page.figureText(QStringLiteral("oom_advice")).contains(QStringLiteral("sweep")),
                 qPrintable(page.figureText(QStringLiteral("oom_advice"))));

        QTemporaryDir dir;
        ProgramSweep sweep;
        sweep.spec.program = {"train.py", "--batch-size", "{b}", "--context-length", "{s}"};
        sweep.spec.axes = {ProgramSweepSpec::parseAxis("b=1,2,3"),
                           ProgramSweepSpec::parseAxis("s=16,32,48")};
        for (const int64_t b : {1, 2, 3}) {
            for (const int64_t s : {16, 32, 48}) {
                ProgramSweep::Point p;
                p.sizes = {{"b", b}, {"s", s}};
                p.label = sweep.spec.labelOf(p.sizes);
                p.ok = true;
                PhasePeaks::Peak peak;
                peak.bytes = 1000 + 256 * b * s;
                peak.by_category[size_t(Category::Activation)] = peak.bytes;
                for (const char* phase : {"first/forward", "steady/forward"}) {
                    p.peaks.regions[phase]["after:-|aten::mm#0"] = peak;
                    p.peaks.phases[phase] = peak;
                }
                sweep.points.push_back(p);
            }
        }
        sweep.save(dir.path().toStdString());
        QVERIFY(page.adviseFromSweep(dir.path()));
        const QString advice = page.figureText(QStringLiteral("oom_advice"));
        // 132,072 bytes at b=8, s=64. With 0.5% to spare under 100,000 (99,502 usable):
        // b: 1000 + 256*64*b -> b=6; s: 1000 + 256*8*s -> s=48.
        QVERIFY2(advice.contains(QStringLiteral("at b=8, s=64")), qPrintable(advice));
        QVERIFY2(advice.contains(QStringLiteral("1. b=6 (was 8)")), qPrintable(advice));
        QVERIFY2(advice.contains(QStringLiteral("2. s=48 (was 64)")), qPrintable(advice));

        QVERIFY(!page.adviseFromSweep(dir.filePath(QStringLiteral("missing"))));
        QVERIFY2(page.figureText(QStringLiteral("oom_advice"))
                     .contains(QStringLiteral("Cannot advise from the sweep")),
                 qPrintable(page.figureText(QStringLiteral("oom_advice"))));
    }
};

QTEST_MAIN(TestAnalysisModels)
#include "test_analysis_models.moc"
