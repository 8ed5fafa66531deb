// ComparePage offscreen: the difference table model and its proxy under
// QAbstractItemModelTester, the two timelines following each other by step, CSV export.

#include "../core/tiny_options.h"
#include "analysis/aligned_difference.h"
#include "analysis/run_comparison.h"
#include "capture/recording_session.h"
#include "common/byte_format.h"
#include "itemmodels/comparison_model.h"
#include "layout/timeline_layout.h"
#include "studies/compare_page.h"
#include "studies/overlay_chart.h"
#include "timeline/timeline_view.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace memscope;

namespace {

std::shared_ptr<const Trace> record(AttentionKind attention) {
    TrainOptions o = tinyTrainOptions();  // with one layer, two steps, 32 tokens
    o.model.n_layers = 1;
    o.seq_len = 32;
    o.num_steps = 2;
    o.attention = attention;
    RecordingSession session(o);
    session.setMeasurePeakFlops(false);
    session.start();
    session.finish();
    return std::make_shared<Trace>(std::move(session.trace()));
}

}  // namespace

class TestComparePage : public QObject {
    Q_OBJECT

    std::shared_ptr<const Trace> m_eager;
    std::shared_ptr<const Trace> m_efficient;

  private slots:
    void initTestCase() {
        m_eager = record(AttentionKind::Eager);
        m_efficient = record(AttentionKind::MemoryEfficient);
    }

    void modelAndProxyPassTheModelTester() {
        ComparisonModel model;
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(Qt::UserRole);
        QAbstractItemModelTester t1(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setComparison(RunComparison::compare(*m_eager, *m_efficient, "eager", "efficient"));
        QVERIFY(model.rowCount() > 10);
        QCOMPARE(model.columnCount(), int(ComparisonModel::ColumnCount));
        QCOMPARE(model.headerData(ComparisonModel::AColumn, Qt::Horizontal).toString(),
                 QString("eager"));
        const auto& row0 = model.comparison().rows[0];
        QCOMPARE(model.index(0, ComparisonModel::AColumn).data(Qt::UserRole).toDouble(), row0.a);
        QVERIFY(model.index(0, ComparisonModel::AColumn).data().toString().contains("iB"));
        QVERIFY(model.index(0, ComparisonModel::AColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains("bytes"));
        // Sorting by delta through the proxy puts the largest increase last.
        proxy.sort(ComparisonModel::DeltaColumn, Qt::AscendingOrder);
        double previous = -INFINITY;
        for (int r = 0; r < proxy.rowCount(); ++r) {
            const double d =
                proxy.index(r, ComparisonModel::DeltaColumn).data(Qt::UserRole).toDouble();
            QVERIFY(d >= previous);
            previous = d;
        }
        model.setComparison(RunComparison());
        QCOMPARE(proxy.rowCount(), 0);
    }

    void timelinesFollowEachOtherByStep() {
        ComparePage page;
        page.resize(1000, 800);
        page.show();
        QSignalSpy ready(&page, &ComparePage::layoutsReady);
        page.setRuns(m_eager, m_efficient, "eager", "efficient");
        QVERIFY(page.isLayoutPending());
        QVERIFY(ready.wait(60000));
        QVERIFY(!page.isLayoutPending());
        QAbstractItemModelTester tester(page.proxyModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(page.model()->rowCount() > 0);
        const auto* la = page.viewA()->timelineLayout();
        const auto* lb = page.viewB()->timelineLayout();
        QVERIFY(la && lb);

        // The start of step 2 in A shown at the left edge: B shows its own step 2 start there.
        double a2 = -1, b2 = -1;
        for (const auto& p : m_eager->phases) {
            if (p.step == 2 && a2 < 0) {
                a2 = double(la->xAtTime(p.begin_ns));
            }
        }
        for (const auto& p : m_efficient->phases) {
            if (p.step == 2 && b2 < 0) {
                b2 = double(lb->xAtTime(p.begin_ns));
            }
        }
        QVERIFY(a2 > 0 && b2 > 0);
        page.viewA()->setVisibleRange(a2, double(la->xCount()));
        QCOMPARE(page.viewB()->visibleX0(), b2);
        QCOMPARE(page.viewB()->visibleX1(), double(lb->xCount()));
        // And back from B to A.
        page.viewB()->setVisibleRange(0, b2);
        QCOMPARE(page.viewA()->visibleX0(), 0.0);
        QCOMPARE(page.viewA()->visibleX1(), a2);
        // Unsynchronized, B stays where it is.
        page.syncCheckBox()->setChecked(false);
        page.viewA()->setVisibleRange(a2, double(la->xCount()));
        QCOMPARE(page.viewB()->visibleX1(), b2);
    }

    void overlayOnOneAxis() {
        ComparePage page;
        page.resize(1000, 800);
        page.show();
        QSignalSpy ready(&page, &ComparePage::layoutsReady);
        page.setRuns(m_eager, m_efficient, "eager", "efficient");
        QVERIFY(ready.wait(60000));
        page.overlayCheckBox()->setChecked(true);
        QVERIFY(page.overlayChart()->isVisible());
        QVERIFY(!page.syncCheckBox()->isEnabled());
        // Until a click: each run's peak, and its difference is the peaks' to the byte.
        const auto* la = page.viewA()->timelineLayout();
        const auto* lb = page.viewB()->timelineLayout();
        QCOMPARE(page.overlayChart()->pickedX(), double(la->peakX()));
        const QString delta = signedBytesText(lb->peakBytes() - la->peakBytes());
        QVERIFY2(page.overlayLabel()->text().startsWith("At each run's peak") &&
                     page.overlayLabel()->text().contains("difference " + delta),
                 qPrintable(page.overlayLabel()->text()));
        QVERIFY(page.overlayTable()->rowCount() > 0);
        // Both totals drawn: A's blue and B's orange over the plot.
        const QImage image = page.overlayChart()->grab().toImage();
        auto has = [&image](QRgb rgb) {
            for (int y = 0; y < image.height(); y += 1) {
                for (int x = 0; x < image.width(); x += 1) {
                    if (QColor(image.pixel(x, y)).rgb() == rgb) {
                        return true;
                    }
                }
            }
            return false;
        };
        QVERIFY(has(QColor(31, 100, 180).rgb()));
        QVERIFY(has(QColor(230, 120, 20).rgb()));
        // A click in step 2's backward: the difference there, step and phase named.
        double first = -1, last = -1;  // the middle of step 2's backward on A's axis
        for (int64_t i = 0; i < la->xCount(); ++i) {
            const int64_t e = la->eventAt(i);
            if (m_eager->events.step[size_t(e)] == 2 &&
                m_eager->events.phase[size_t(e)] == uint8_t(Phase::Backward)) {
                first = first < 0 ? double(i) : first;
                last = double(i);
            }
        }
        QVERIFY(first >= 0);
        const double x = (first + last) / 2;
        const QRectF plot = page.overlayChart()->plotRect();
        QTest::mouseClick(page.overlayChart(), Qt::LeftButton, {},
                          QPoint(int(page.overlayChart()->xToPixel(x)), int(plot.center().y())));
        QVERIFY2(page.overlayLabel()->text().startsWith("At step 2, backward"),
                 qPrintable(page.overlayLabel()->text()));
        const auto d = AlignedDifference::compute(*m_eager, *m_efficient,
                                                  AlignedDifference::parseMoment("2:backward"));
        QVERIFY(page.overlayLabel()->text().contains("difference " +
                                                     signedBytesText(d.total_b - d.total_a)));
        page.overlayCheckBox()->setChecked(false);
        QVERIFY(page.viewA()->isVisible());
    }

    void exportsTheTableAsCsv() {
        ComparePage page;
        page.setRuns(m_eager, m_efficient, "eager", "efficient");
        QTemporaryDir dir;
        const QString path = dir.filePath("cmp.csv");
        QVERIFY(page.exportCsv(path));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), page.model()->rowCount() + 1);
        QVERIFY(lines[0].startsWith("section,name,unit,eager,efficient"));
        const Outcome failed = page.exportCsv(dir.filePath("missing/dir/cmp.csv"));
        QVERIFY(!failed);
        QVERIFY(failed.message().contains("cmp.csv"));
        page.setRuns(nullptr, nullptr, QString(), QString());
        QCOMPARE(page.model()->rowCount(), 0);
    }
};

QTEST_MAIN(TestComparePage)
#include "test_compare_page.moc"
