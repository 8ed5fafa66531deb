// Reserved memory in the GUI: the timeline's reserved line (drawn for a caching allocator, absent
// with a "no caching allocator" legend for a CPU run), the Segments tab (segments at the peak,
// tooltips, the message for runs without segments), the Summary tab's reserved figures, and
// the tab in the main window.

#include "../core/segment_fixtures.h"

#include "layout/timeline_layout.h"
#include "pages/segment_page.h"
#include "pages/segment_view.h"
#include "pages/summary_page.h"
#include "shell/main_window.h"
#include "timeline/timeline_view.h"

#include <QLabel>
#include <QPainter>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QtTest>

using namespace memscope;
using namespace memscope::test;

namespace {

// Pixels of exactly the reserved line's colour in a 1000 x 500 rendering of the view.
int reservedPixels(TimelineView& view) {
    QImage image(1000, 500, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    view.renderTo(painter, QRectF(0, 0, 1000, 500));
    painter.end();
    const QRgb color = ReservedLinePainter::color().rgb();
    int count = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            count += image.pixel(x, y) == color ? 1 : 0;
        }
    }
    return count;
}

std::shared_ptr<const Trace> cpuTrace() {
    SegmentTraceBuilder b(-1);
    b.alloc(1, kMiB, Category::Parameter).alloc(2, 2 * kMiB).free(2);
    auto t = std::make_shared<Trace>(b.build());
    t->events.reserved.transform([](int64_t) { return 0; });
    return t;
}

}  // namespace

class TestSegmentView : public QObject {
    Q_OBJECT

  private slots:
    void aCpuRunShowsNoReservedLine() {
        TimelineView view;
        view.resize(1000, 500);
        view.setTrace(cpuTrace());
        QVERIFY(!view.reservedLine().active());
        QVERIFY(view.reservedLine().legendText().contains("No caching allocator (CPU)"));
        QCOMPARE(reservedPixels(view), 0);
    }

    void aCachingAllocatorRunShowsItsReservedLine() {
        TimelineView view;
        view.resize(1000, 500);
        view.setTrace(std::make_shared<const Trace>(demoSegmentTrace()));
        QVERIFY(view.reservedLine().active());
        QVERIFY(view.reservedLine().legendText().startsWith("Reserved"));
        // Reserved is above allocated everywhere, and the y range makes room for its peak.
        QCOMPARE(view.reservedLine().maxIn(0, 1 << 20), 86 * kMiB);
        QVERIFY(reservedPixels(view) > 200);  // a 2 px line across most of the plot
    }

    void aGrowingTraceExtendsTheReservedLineAsAFullReadWould() {
        // A live run's snapshots: every prefix of the trace, read incrementally (extend) and
        // from scratch (setTrace), with the reserved column filled and with segments only.
        for (const bool column : {true, false}) {
            Trace whole = demoSegmentTrace();
            if (!column) {
                whole.events.reserved.transform([](int64_t) { return 0; });
            }
            ReservedLinePainter grown;
            bool extended_any = false;
            for (size_t k = 0; k <= whole.events.count(); ++k) {
                Trace prefix = whole;
                prefix.events.clear();
                for (size_t i = 0; i < k; ++i) {
                    prefix.events.append(whole.events.at(i));
                }
                prefix.segment_tags.clear();
                for (const SegmentTag& tag : whole.segment_tags) {
                    if (tag.event < int64_t(k)) {
                        prefix.segment_tags.push_back(tag);
                    }
                }
                prefix.finalize();
                const TimelineLayout layout(prefix);
                extended_any = grown.extend(&prefix, &layout) || extended_any;
                ReservedLinePainter fresh;
                fresh.setTrace(&prefix, &layout);
                QCOMPARE(grown.active(), fresh.active());
                for (int64_t x = 0; x <= layout.xCount(); ++x) {
                    QCOMPARE(grown.at(x), fresh.at(x));
                    QCOMPARE(grown.maxIn(0, x), fresh.maxIn(0, x));
                }
            }
            QVERIFY(extended_any);
            QVERIFY(grown.active());
        }
    }

    void theSegmentPageShowsThePeakAndFollowsTheChosenEvent() {
        const auto trace = std::make_shared<const Trace>(demoSegmentTrace());
        SegmentPage page;
        page.resize(1000, 600);
        page.setTrace(trace);
        QVERIFY(page.messageLabel()->isHidden());
        QCOMPARE(page.currentEvent(), trace->peakEvent());
        const QString header = page.headerLabel()->text();
        QVERIFY2(header.contains("Reserved peak") && header.contains("86.0 MiB"),
                 qPrintable(header));
        QVERIFY2(header.contains("out-of-memory point"), qPrintable(header));
        QCOMPARE(page.view()->state().segments().size(), size_t(3));
        QCOMPARE(page.view()->state().largestFreeBlock(), 24 * kMiB);

        // Event 12 (the second activation freed): the 32 MiB segment with a hole in it.
        page.eventSpinBox()->setValue(12);
        QCOMPARE(page.currentEvent(), int64_t(12));
        const auto& seg = page.view()->state().segments();
        QCOMPARE(seg.size(), size_t(2));
        QCOMPARE(seg[1].size, 32 * kMiB);
        QCOMPARE(seg[1].blocks.size(), size_t(2));
        QCOMPARE(seg[1].gaps.size(), size_t(2));  // the freed middle and the tail
        QVERIFY(page.stateLabel()->text().contains("Event 12"));

        // Tooltips: a block by its exact bytes, a free gap as free.
        page.view()->resize(1000, 200);
        const QRectF bar = page.view()->barRect(1);
        const QPointF on_block(bar.left() + bar.width() * 2 / 32, bar.center().y());
        const QPointF on_gap(bar.left() + bar.width() * 12 / 32, bar.center().y());
        const QString block_tip = page.view()->toolTipAt(on_block);
        QVERIFY2(block_tip.contains("block") && block_tip.contains(QLocale().toString(8 * kMiB)),
                 qPrintable(block_tip));
        const QString gap_tip = page.view()->toolTipAt(on_gap);
        QVERIFY2(gap_tip.contains("Free:") && gap_tip.contains(QLocale().toString(8 * kMiB)),
                 qPrintable(gap_tip));
    }

    void runsWithoutSegmentsShowAMessage() {
        SegmentPage page;
        page.setTrace(cpuTrace());
        QVERIFY(!page.messageLabel()->isHidden());
        QVERIFY(page.messageLabel()->text().contains("no caching allocator (CPU)"));
        QCOMPARE(page.view()->state().segments().size(), size_t(0));
    }

    void theSummarySaysWhetherThereIsACachingAllocator() {
        SummaryPage page;
        page.setMeasurePeaks(false);
        QSignalSpy computed(&page, &SummaryPage::computed);
        page.setTrace(cpuTrace());
        QVERIFY(computed.wait(20000));
        QCOMPARE(page.figureText("reserved_peak"), QStringLiteral("no caching allocator (CPU)"));

        page.setTrace(std::make_shared<const Trace>(demoSegmentTrace()));
        QVERIFY(computed.wait(20000));
        QCOMPARE(page.figureText("reserved_peak"), QStringLiteral("86.0 MiB"));
        QVERIFY2(page.figureText("fragmentation_peak").contains("largest free block 24.0 MiB"),
                 qPrintable(page.figureText("fragmentation_peak")));
        QVERIFY(page.figureText("fragmentation_oom").contains("27.8 MiB free of 86.0 MiB"));
    }

    void theMainWindowHasASegmentsTab() {
        MainWindow window;
        QVERIFY(window.viewNames(true).contains("segments"));
    }
};

QTEST_MAIN(TestSegmentView)
#include "test_segment_view.moc"
