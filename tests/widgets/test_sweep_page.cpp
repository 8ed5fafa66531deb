// SweepPage offscreen: charts and tables filled from a sweep result (synthetic, and a tiny real
// sweep run on the worker thread), log-log axes, OOM markers, verdicts, the table models under
// QAbstractItemModelTester, CSV export, opening a sweep directory, cancel, form errors.

#include "../core/tiny_options.h"
#include "itemmodels/sweep_table_model.h"
#include "studies/seed_tables.h"
#include "studies/sweep_page.h"

#include <QAbstractItemModelTester>
#include <QChart>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QProgressBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QtTest>

using namespace memscope;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

SweepPointResult point(int64_t batch, int64_t seq, AttentionKind attention) {
    SweepPointResult p;
    p.options.preset = "workshop-default";
    p.options.batch_size = batch;
    p.options.seq_len = seq;
    p.options.attention = attention;
    p.label = std::to_string(batch) + "-" + std::to_string(seq) + "-" + toString(attention);
    p.parameters = 1000000;
    p.static_bytes = 16000000;
    const int64_t input =
        attention == AttentionKind::Eager ? batch * seq * seq * 100 : batch * seq * 6400;
    p.bytes_by_category_at_peak = {{"PARAMETER", 4000000},
                                   {"GRADIENT", 4000000},
                                   {"OPTIMIZER_STATE", 8000000},
                                   {"ACTIVATION", input}};
    p.peak_bytes = p.static_bytes + input;
    p.avg_bytes = p.static_bytes + input / 2;
    p.step1_peak_bytes = p.peak_bytes;
    p.steps = 3;
    p.samples_per_s = 5000.0 / double(seq);
    p.tokens_per_s = p.samples_per_s * double(seq);
    p.avg_step_s = double(batch) / p.samples_per_s;
    return p;
}

// workshop-like axes sweep: seq 64..512 at batch 8 and batch 4/8/16 at seq 128, two variants;
// the eager seq-512 point ran out of memory.
SweepResult synthetic() {
    SweepResult r;
    for (const auto a : {AttentionKind::Eager, AttentionKind::MemoryEfficient}) {
        for (const int64_t s : {64, 128, 256, 512}) {
            r.points.push_back(point(8, s, a));
        }
        for (const int64_t b : {4, 16}) {
            r.points.push_back(point(b, 128, a));
        }
    }
    r.points[3].status = SweepPointResult::Status::OutOfMemory;
    r.points[3].capacity_bytes = int64_t(300 * kMiB);
    r.planned_points = int64_t(r.points.size());
    return r;
}

int lineSeriesCount(QChart* chart) {
    int n = 0;
    for (auto* s : chart->series()) {
        n += qobject_cast<QLineSeries*>(s) && !qobject_cast<QScatterSeries*>(s);
    }
    return n;
}

QScatterSeries* oomSeries(QChart* chart) {
    for (auto* s : chart->series()) {
        if (auto* scatter = qobject_cast<QScatterSeries*>(s)) {
            return scatter;
        }
    }
    return nullptr;
}

}  // namespace

class TestSweepPage : public QObject {
    Q_OBJECT

  private slots:
    void tableModelAndProxyPassTheModelTester() {
        SweepTableModel model;
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(Qt::UserRole);
        QAbstractItemModelTester t1(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const auto r = synthetic();
        for (const auto kind : {SeedTables::Kind::Points, SeedTables::Kind::Seed000Step1,
                                SeedTables::Kind::Seed000Step3, SeedTables::Kind::Seed003b}) {
            model.setTable(SeedTables::make(kind, r, TableExporter::Units::Readable));
            QVERIFY(model.rowCount() > 0);
        }
        model.setTable(
            SeedTables::make(SeedTables::Kind::Seed000Step1, r, TableExporter::Units::Readable));
        QCOMPARE(model.headerData(model.columnCount() - 4, Qt::Horizontal).toString(),
                 QString("Batch Size"));
        // Numbers sort as numbers: batch 16 after batch 8.
        const int batchColumn = model.columnCount() - 4;
        proxy.sort(batchColumn, Qt::AscendingOrder);
        QCOMPARE(proxy.index(proxy.rowCount() - 1, batchColumn).data().toString(), QString("16"));
        model.setTable({});
        QCOMPARE(proxy.rowCount(), 0);
    }

    void chartsAndVerdictFromAResult() {
        SweepPage page;
        page.resize(1400, 900);
        page.show();
        page.setResult(synthetic(), QString());
        // Memory against batch size: peak and average per variant.
        QCOMPARE(lineSeriesCount(page.memoryVsBatchChart()), 4);
        QCOMPARE(lineSeriesCount(page.memoryVsSeqChart()), 4);
        auto* peak = qobject_cast<QLineSeries*>(page.memoryVsSeqChart()->series()[0]);
        QVERIFY(peak);
        // The OOM point is not on the eager line but marked at the capacity.
        QCOMPARE(peak->count(), 3);
        QCOMPARE(peak->at(0),
                 QPointF(64, double(point(8, 64, AttentionKind::Eager).peak_bytes) / kMiB));
        auto* oom = oomSeries(page.memoryVsSeqChart());
        QVERIFY(oom);
        QCOMPARE(oom->count(), 1);
        QCOMPARE(oom->at(0), QPointF(512, 300.0));
        QVERIFY(!oomSeries(page.memoryVsBatchChart()));
        // Throughput: samples/s and tokens/s per variant; per token: two curves per variant.
        QCOMPARE(lineSeriesCount(page.throughputChart()), 4);
        QCOMPARE(lineSeriesCount(page.perTokenChart()), 4);
        QCOMPARE(page.throughputChart()->axes(Qt::Vertical).size(), 2);

        const QString verdict = page.verdictText();
        QVERIFY2(verdict.contains("quadratic"), qPrintable(verdict));
        QVERIFY(verdict.contains("linear"));
        QVERIFY(verdict.contains("ACTIVATION"));
        QVERIFY(verdict.contains("out of memory"));

        // Log-log: every axis logarithmic, the same points.
        page.setLogAxes(true);
        for (auto* chart : {page.memoryVsBatchChart(), page.memoryVsSeqChart(),
                            page.throughputChart(), page.perTokenChart()}) {
            for (auto* axis : chart->axes()) {
                QVERIFY(qobject_cast<QLogValueAxis*>(axis));
            }
        }
        QCOMPARE(qobject_cast<QLineSeries*>(page.memoryVsSeqChart()->series()[0])->count(), 3);
        page.setLogAxes(false);
        QVERIFY(qobject_cast<QValueAxis*>(page.memoryVsSeqChart()->axes(Qt::Horizontal)[0]));

        // The charts render.
        const QImage image = page.grab().toImage();
        QVERIFY(!image.isNull());
    }

    void tablesAndCsvExport() {
        SweepPage page;
        page.setResult(synthetic(), QString());
        QAbstractItemModelTester tester(page.proxyModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(page.tableModel()->rowCount(), 12);  // the points
        page.tableComboBox()->setCurrentIndex(2);     // seed000 step 3
        QCOMPARE(page.tableModel()->headerData(1, Qt::Horizontal).toString(),
                 QString("Seq Length"));
        QCOMPARE(page.tableModel()->rowCount(), 8);  // 4 lengths x 2 variants
        QTemporaryDir dir;
        const QString path = dir.filePath("step3.csv");
        QVERIFY(page.exportCsv(path));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 9);
        QVERIFY(lines[0].startsWith("Setting,Seq Length,Batch Size"));
        QVERIFY(!page.exportCsv(dir.filePath("no/such/dir.csv")));
    }

    void runsATinySweepOnTheWorkerAndOpensItAgain() {
        QTemporaryDir dir;
        SweepSpec spec;
        spec.base = tinyTrainOptions();  // with one layer, batch 1
        spec.base.model.n_layers = 1;
        spec.base.batch_size = 1;
        spec.batch_sizes = {1, 2};
        spec.seq_lens = {16, 32};
        spec.mode = SweepSpec::Mode::Axes;
        spec.steps = 1;
        SweepPage page;
        page.show();
        QSignalSpy finished(&page, &SweepPage::sweepFinished);
        QVERIFY(page.startSweep(spec, dir.path()));
        QVERIFY(page.isRunning());
        QVERIFY(!page.runButton()->isEnabled());
        QVERIFY(page.cancelButton()->isEnabled());
        QVERIFY(!page.startSweep(spec, dir.path()));  // one at a time
        QVERIFY(finished.wait(120000));
        QVERIFY(!page.isRunning());
        QCOMPARE(page.result().points.size(), size_t(3));
        QCOMPARE(page.progressBar()->value(), page.progressBar()->maximum());
        QVERIFY(page.statusLabel()->text().contains(dir.path()));
        QCOMPARE(lineSeriesCount(page.memoryVsBatchChart()), 2);
        QCOMPARE(lineSeriesCount(page.memoryVsSeqChart()), 2);

        SweepPage reopened;
        QVERIFY(reopened.openSweep(dir.path()));
        QCOMPARE(reopened.result().points.size(), size_t(3));
        QCOMPARE(reopened.result().points[1].peak_bytes, page.result().points[1].peak_bytes);
        QCOMPARE(lineSeriesCount(reopened.memoryVsSeqChart()), 2);
        QSignalSpy activated(&reopened, &SweepPage::runFileActivated);
        const Outcome failed = reopened.openSweep(dir.filePath("nothing-here"));
        QVERIFY(!failed);
        QVERIFY(failed.message().contains("nothing-here"));

        // Cancel at once: no point finishes, the page is usable again.
        SweepPage cancelled;
        QSignalSpy done(&cancelled, &SweepPage::sweepFinished);
        QVERIFY(cancelled.startSweep(spec, dir.filePath("cancelled")));
        cancelled.cancelSweep();
        QVERIFY(done.wait(120000));
        QVERIFY(cancelled.result().cancelled);
        QVERIFY(cancelled.result().points.size() < 3);
        QVERIFY(cancelled.runButton()->isEnabled());
    }

    void formErrorsNameTheField() {
        SweepPage page;
        SweepSpec spec;
        QVERIFY(page.specFromForm(spec));
        QCOMPARE(spec.points().size(), size_t((3 + 4 - 1) * 2));  // the workshop demo, axes
        page.batchSizesEdit()->setText("4,x");
        Outcome read = page.specFromForm(spec);
        QVERIFY(!read);
        QVERIFY2(read.message().contains("Batch sizes"), qPrintable(read.message()));
        page.batchSizesEdit()->setText("4");
        page.seqLensEdit()->setText("0");
        read = page.specFromForm(spec);
        QVERIFY(!read);
        QVERIFY2(read.message().contains("Sequence lengths"), qPrintable(read.message()));
        // A size out of range: the option's own check, named by the field (issue 54).
        page.seqLensEdit()->setText("64");
        page.batchSizesEdit()->setText("4,100000");
        read = page.specFromForm(spec);
        QVERIFY(!read);
        QVERIFY2(read.message().contains("Batch sizes") &&
                     read.message().contains("must be between 1 and 65536, got 100000"),
                 qPrintable(read.message()));
    }

    // The page words each verdict by its kind, not by the core's English words (issue 54: a
    // renamed verdict read "not enough points"): every kind its own words, and only the kind
    // without a fit says there are not enough points.
    void eachVerdictKindHasItsOwnWords() {
        using V = ScalingFit::Verdict;
        const QString none = SweepPage::verdictWord(V::NotEnoughPoints);
        QSet<QString> words{none};
        for (const V v :
             {V::SubLinear, V::Linear, V::InBetween, V::Quadratic, V::SteeperThanQuadratic}) {
            const QString word = SweepPage::verdictWord(v);
            QVERIFY2(!words.contains(word), qPrintable(word));
            words.insert(word);
        }
        QCOMPARE(SweepPage::verdictWord(V::Quadratic), QString("quadratic"));
        QCOMPARE(SweepPage::verdictWord(V::InBetween), QString("between linear and quadratic"));
    }
};

QTEST_MAIN(TestSweepPage)
#include "test_sweep_page.moc"
