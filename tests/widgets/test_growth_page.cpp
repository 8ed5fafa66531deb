// The Growth tab (issue 53): the verdict, the places that keep what their steps made (by stack
// and by module), the steps' floors; a click on a place highlights its kept allocations on the
// timeline and a second click clears them; large runs on a worker; and the timeline's
// end-of-step floor marks, where the hand-made loops (tests/core/growth_fixture.h) put them.

#include "../core/growth_fixture.h"
#include "explain/step_growth.h"
#include "layout/timeline_layout.h"
#include "pages/growth_page.h"
#include "run_document.h"
#include "timeline/timeline_view.h"

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest/QtTest>

using namespace memscope;

namespace {

std::shared_ptr<const Trace> loop(int steps, Keep keep) {
    auto run = std::make_shared<GrowthLoop>(steps, keep);
    return std::shared_ptr<const Trace>(run, &run->trace);
}

// Whether a pixel of the floor colour lies within `radius` of p.
bool floorNear(const QImage& image, QPointF p, int radius) {
    for (int dy = -radius; dy <= radius; ++dy) {
        for (int dx = -radius; dx <= radius; ++dx) {
            const QPoint q(int(p.x()) + dx, int(p.y()) + dy);
            if (image.rect().contains(q) &&
                QColor(image.pixel(q)) == QColor(150, 40, 120)) {  // TimelineColors::stepFloor
                return true;
            }
        }
    }
    return false;
}

}  // namespace

class TestGrowthPage : public QObject {
    Q_OBJECT

  private slots:
    void leakIsNamedAndHighlighted() {
        RunDocument document;
        auto trace = loop(6, Keep::Leak);
        document.setTrace(trace);
        GrowthPage page(&document);
        page.setTrace(trace);
        QVERIFY(page.growth() != nullptr);
        QVERIFY(page.verdictLabel()->text().startsWith(
            QStringLiteral("Grows 24 B a step from step 1")));
        QVERIFY(page.verdictLabel()->text().contains(QStringLiteral("train.py:44 main")));
        QTableWidget* places = page.placesTable();
        QCOMPARE(places->rowCount(), 1);
        QCOMPARE(places->item(0, 0)->text(), QStringLiteral("grows"));
        QCOMPARE(places->item(0, 5)->text(), QStringLiteral("train.py:44 main"));
        QCOMPARE(places->item(0, 1)->text(), QStringLiteral("24 B"));
        QCOMPARE(page.stepsTable()->rowCount(), 6);
        QCOMPARE(page.stepsTable()->item(5, 3)->text(), QStringLiteral("-"));  // the last step

        // A click highlights the five kept allocations, a second clears them.
        QSignalSpy highlighted(&document, &RunDocument::highlightedAllocationsChanged);
        page.toggleRow(0);
        QCOMPARE(document.highlightedAllocations().size(), 5);
        for (const qint64 a : document.highlightedAllocations()) {
            QCOMPARE(trace->allocations()[size_t(a)].size, int64_t(24));
        }
        page.toggleRow(0);
        QVERIFY(document.highlightedAllocations().isEmpty());
        QCOMPARE(highlighted.count(), 2);

        // By module: the leak is outside every module.
        page.groupingBox()->setCurrentIndex(1);
        QCOMPARE(places->rowCount(), 1);
        QCOMPARE(places->item(0, 5)->text(), QStringLiteral("(no module)"));
    }

    void steadyAndStopped() {
        GrowthPage page(nullptr);
        page.setTrace(loop(5, Keep::Nothing));
        QVERIFY(page.verdictLabel()->text().startsWith(QStringLiteral("Does not grow")));
        QCOMPARE(page.placesTable()->rowCount(), 0);
        page.setTrace(loop(7, Keep::Cache));
        QVERIFY(page.verdictLabel()->text().startsWith(
            QStringLiteral("Grew 48 B over steps 1-3, then stopped growing.")));
        page.setTrace(loop(2, Keep::Leak));
        QVERIFY(page.verdictLabel()->text().contains(QStringLiteral("too few")));
        page.setTrace(nullptr);
        QCOMPARE(page.placesTable()->rowCount(), 0);
    }

    void largeRunsOnAWorker() {
        GrowthPage page(nullptr);
        page.setAsyncEvents(0);
        QSignalSpy ready(&page, &GrowthPage::growthReady);
        page.setTrace(loop(6, Keep::Leak));
        QVERIFY(page.isComputing());
        QVERIFY(page.verdictLabel()->text().contains(QStringLiteral("...")));
        QVERIFY(ready.wait(5000));
        QCOMPARE(page.growth()->bytesPerStep(), int64_t(24));
        // A run replaced while the worker runs: only the newer one's result is shown.
        page.setTrace(loop(6, Keep::Leak));
        page.setTrace(loop(5, Keep::Nothing));
        QTRY_VERIFY(!page.isComputing());
        QCOMPARE(page.growth()->verdict(), StepGrowth::Verdict::Steady);
    }

    void floorsOnTheTimeline() {
        auto trace = loop(6, Keep::Leak);
        TimelineView view;
        view.setTrace(trace);
        const QSize size(1000, 500);
        const QImage image = view.renderImage(size);
        const TimelineMapping m = view.mapping(QRectF(QPointF(0, 0), QSizeF(size)));
        const TimelineLayout* layout = view.timelineLayout();
        const auto growth = StepGrowth::analyze(*trace);
        int found = 0;
        for (size_t s = 2; s <= 6; ++s) {  // the end of step s - 1 is where step s begins
            int64_t begin = -1;
            for (const auto& p : trace->phases) {
                if (p.step == int32_t(s)) {
                    begin = p.begin_ns;
                    break;
                }
            }
            const int64_t x = layout->xAtTime(begin);
            const double px = m.xToPixel(double(x)) - 3;
            const double py = m.bytesToPixel(double(growth.steps()[s - 2].floor_bytes));
            found += floorNear(image, QPointF(px, py), 2);
        }
        QCOMPARE(found, 5);
        // Not where there is no step end: the middle of step 1's forward.
        const double px = m.xToPixel(1.5);
        QVERIFY(!floorNear(image, QPointF(px, m.bytesToPixel(300)), 2));
    }
};

QTEST_MAIN(TestGrowthPage)
#include "test_growth_page.moc"
