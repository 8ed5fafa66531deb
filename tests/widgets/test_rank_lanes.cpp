// The timeline's lanes of all ranks (issue 40) offscreen: one lane per rank of a run directory
// (a missing rank too), one byte scale that is the highest of the ranks' peaks, each lane's peak
// marked where that rank's own peak is, step k of every lane starting at the same pixel column
// however many events each rank's steps have, a click on a lane picking that rank for the
// detailed view, and a Python program's processes named on their lanes.

#include "common/byte_format.h"
#include "io/run_directory.h"
#include "io/run_file.h"
#include "open_and_wait.h"
#include "run_document.h"
#include "shell/main_window.h"
#include "timeline/rank_lanes_view.h"
#include "timeline/timeline_page.h"
#include "trace/trace.h"

#include <QComboBox>
#include <QPlainTextEdit>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

#include <algorithm>
#include <memory>
#include <vector>

using namespace memscope;

namespace {

// A training-shaped run of `steps` steps: `params` bytes of parameters from init, then per
// step `per_step` activations of `size` bytes made in forward and freed in backward. Different
// ranks get different event counts per step and different peaks. `peak` is set to the highest
// running total.
std::shared_ptr<const Trace> rankRun(int steps, int per_step, int64_t size, int64_t* peak) {
    auto t = std::make_shared<Trace>();
    int64_t live = 0;
    int64_t time = 0;
    int64_t highest = 0;
    uint64_t next_addr = 1;
    auto add = [&](EventKind kind, uint64_t addr, int64_t bytes, Phase phase, int32_t step) {
        Event e;
        e.time_ns = time += 1000;
        e.kind = kind;
        e.addr = addr;
        e.size = bytes;
        live += bytes;
        highest = std::max(highest, live);
        e.allocated = live;
        e.phase = phase;
        e.step = step;
        t->events.append(e);
    };
    add(EventKind::Alloc, next_addr++, 1000, Phase::Init, 0);
    t->phases.push_back({Phase::Init, 0, 0, time + 500});
    for (int s = 1; s <= steps; ++s) {
        const int64_t forward_begin = time + 500;
        std::vector<uint64_t> made;
        for (int i = 0; i < per_step; ++i) {
            made.push_back(next_addr);
            add(EventKind::Alloc, next_addr++, size, Phase::Forward, s);
        }
        t->phases.push_back({Phase::Forward, s, forward_begin, time + 500});
        const int64_t backward_begin = time + 500;
        for (auto it = made.rbegin(); it != made.rend(); ++it) {
            add(EventKind::Free, *it, -size, Phase::Backward, s);
        }
        t->phases.push_back({Phase::Backward, s, backward_begin, time + 500});
    }
    t->finalize();
    if (peak) {
        *peak = highest;
    }
    return t;
}

// The x on a rank's own axis where its step starts (its first phase), as the lanes find it.
int64_t stepStartX(const Trace& trace, int32_t step) {
    // Alloc/free events only, so the x of an event is its index here.
    for (const auto& p : trace.phases) {
        if (p.step == step) {
            for (size_t e = 0; e < trace.events.count(); ++e) {
                if (trace.events.time_ns[e] >= p.begin_ns) {
                    return int64_t(e);
                }
            }
        }
    }
    return -1;
}

}  // namespace

class TestRankLanes : public QObject {
    Q_OBJECT

  private slots:
    void lanes_share_one_scale_mark_each_peak_and_align_steps() {
        RunDocument document;
        RankLanesView lanes(&document);
        lanes.resize(1200, 700);
        lanes.show();  // laid out when shown
        // Rank 0: 3 steps of 4 activations; rank 1: 3 steps of 10 larger ones; rank 2: 3
        // steps of 7 small ones.
        int64_t peaks[3] = {0, 0, 0};
        const auto r0 = rankRun(3, 4, 100, &peaks[0]);
        const auto r1 = rankRun(3, 10, 300, &peaks[1]);
        const auto r2 = rankRun(3, 7, 50, &peaks[2]);
        lanes.setRuns({{0, QString(), r0}, {1, QString(), r1}, {2, QString(), r2}});
        QVERIFY(!lanes.isComputing());
        QCOMPARE(lanes.laneCount(), 3);

        // One y scale, the highest of the ranks' peaks; each lane's own peak marked.
        const int64_t highest = *std::max_element(peaks, peaks + 3);
        QCOMPARE(lanes.scaleBytes(), highest);
        QCOMPARE(highest, peaks[1]);
        QVERIFY(lanes.axisTopBytes() >= double(highest));
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(lanes.laneRank(i), i);
            QCOMPARE(lanes.lanePeakBytes(i), peaks[i]);
            QVERIFY2(lanes.laneLabel(i).contains(bytesText(peaks[i])),
                     qPrintable(lanes.laneLabel(i)));
            // The dot is at the peak's height on the shared scale.
            const QRectF plot = lanes.lanePlotRect(i);
            const QPointF dot = lanes.peakPoint(i);
            QVERIFY(plot.contains(dot));
            const double bytes_at_dot =
                (plot.bottom() - dot.y()) / plot.height() * lanes.axisTopBytes();
            QVERIFY2(std::abs(bytes_at_dot - double(peaks[i])) < 1e-6 * lanes.axisTopBytes(),
                     qPrintable(QString::number(bytes_at_dot)));
            // ... and at the x where that rank's total first reaches its peak.
            QCOMPARE(dot.x(), lanes.laneXToPixel(i, double(lanes.lanePeakX(i)) + 0.5));
            // Its tooltip there says the rank and the peak's bytes.
            const QString tip = lanes.toolTipAt(dot + QPointF(0, 1));
            QVERIFY2(tip.startsWith(QStringLiteral("rank %1").arg(i)), qPrintable(tip));
            QVERIFY2(tip.contains(bytesText(peaks[i]) + QStringLiteral(" in use")),
                     qPrintable(tip));
        }
        // The same scale: the lowest peak's dot is lower in its lane than the highest's.
        const auto rel = [&](int i) {
            const QRectF plot = lanes.lanePlotRect(i);
            return (plot.bottom() - lanes.peakPoint(i).y()) / plot.height();
        };
        QVERIFY(rel(1) > rel(0));
        QVERIFY(rel(0) > rel(2));
        QVERIFY(std::abs(rel(0) / rel(1) - double(peaks[0]) / double(peaks[1])) < 1e-9);

        // Step k of every lane starts at the same pixel column, though the ranks' steps start
        // at different x on their own axes.
        for (int32_t step = 1; step <= 3; ++step) {
            if (step > 1) {  // step 1 starts after the parameters on every rank
                QVERIFY(stepStartX(*r0, step) != stepStartX(*r1, step));
            }
            const double px = lanes.stepStartPixel(0, step);
            QVERIFY(px > lanes.lanePlotRect(0).left());
            for (int i = 1; i < 3; ++i) {
                QVERIFY2(std::abs(lanes.stepStartPixel(i, step) - px) < 1e-6,
                         qPrintable(QStringLiteral("step %1 lane %2: %3 vs %4")
                                        .arg(step)
                                        .arg(i)
                                        .arg(lanes.stepStartPixel(i, step))
                                        .arg(px)));
            }
            // And that is the rank's own step start mapped through its lane.
            QCOMPARE(lanes.laneXToPixel(0, double(stepStartX(*r0, step))), px);
        }
        // Every lane ends at the plot's right edge.
        for (int i = 0; i < 3; ++i) {
            const Trace& t = i == 0 ? *r0 : i == 1 ? *r1 : *r2;
            QVERIFY(std::abs(lanes.laneXToPixel(i, double(t.events.count())) -
                             lanes.lanePlotRect(i).right()) < 1e-6);
        }

        // The pointer over one lane draws a line through all of them (the same moment of the
        // step on every rank): above the data, the top of each plot is darker there.
        const QPoint over =
            QPointF(lanes.stepStartPixel(0, 2) + 7.3, lanes.lanePlotRect(0).center().y()).toPoint();
        const auto top_of = [&](const QImage& image, int lane) {
            const qreal dpr = image.devicePixelRatio();
            return image
                .pixelColor(int((over.x() + 0.5) * dpr),
                            int((lanes.lanePlotRect(lane).top() + 3) * dpr))
                .lightness();
        };
        const QImage before = lanes.grab().toImage();
        QTest::mouseMove(&lanes, over);
        const QImage after = lanes.grab().toImage();
        for (int i = 0; i < 3; ++i) {
            QVERIFY2(top_of(after, i) < top_of(before, i) - 20,
                     qPrintable(QStringLiteral("lane %1: %2 then %3")
                                    .arg(i)
                                    .arg(top_of(before, i))
                                    .arg(top_of(after, i))));
        }

        // The same runs again keep the lanes; none clears them.
        QSignalSpy ready(&lanes, &RankLanesView::lanesReady);
        lanes.setRuns({{0, QString(), r0}, {1, QString(), r1}, {2, QString(), r2}});
        QCOMPARE(ready.count(), 0);
        lanes.setRuns({});
        QCOMPARE(lanes.laneCount(), 0);
        QVERIFY(!lanes.grab().isNull());  // paints its placeholder
    }

    // Zoomed out (more events than pixel columns) every column of every lane is drawn: the
    // linear pieces of a lane meet without a gap.
    void no_column_of_a_lane_is_left_blank() {
        RunDocument document;
        RankLanesView lanes(&document);
        lanes.resize(400, 400);
        lanes.show();
        const auto r0 = rankRun(3, 200, 10, nullptr);
        const auto r1 = rankRun(3, 150, 20, nullptr);
        lanes.setRuns({{0, QString(), r0}, {1, QString(), r1}});
        QVERIFY(int64_t(r0->events.count()) > 2 * int64_t(lanes.lanePlotRect(0).width()));
        // Where the pieces meet in pixels depends on the width: try a few.
        for (int width = 400; width < 440; ++width) {
            lanes.resize(width, 400);
            const QImage image = lanes.grab().toImage();
            const qreal dpr = image.devicePixelRatio();
            for (int i = 0; i < 2; ++i) {
                const QRectF plot = lanes.lanePlotRect(i);
                // A row inside the lowest band (1,000 bytes from the start, always live).
                const int y = int((plot.bottom() - 3) * dpr);
                for (int x = int(plot.left()) + 2; x < int(plot.right()) - 2; ++x) {
                    const QColor c = image.pixelColor(int(x * dpr), y);
                    // Data, not the light background or a phase band.
                    QVERIFY2(c.lightness() < 200, qPrintable(QStringLiteral("width %1, lane %2, "
                                                                            "column %3: %4")
                                                                 .arg(width)
                                                                 .arg(i)
                                                                 .arg(x)
                                                                 .arg(c.name())));
                }
            }
        }
    }

    void large_runs_are_laid_out_on_a_worker() {
        RunDocument document;
        RankLanesView lanes(&document);
        lanes.resize(800, 500);
        int64_t peaks[2] = {0, 0};
        const auto r0 = rankRun(2, 60000, 16, &peaks[0]);
        const auto r1 = rankRun(2, 70000, 16, &peaks[1]);
        QVERIFY(int64_t(r0->events.count() + r1->events.count()) > RankLanesView::kAsyncEvents);
        lanes.setRuns({{0, QString(), r0}, {1, QString(), r1}});
        QVERIFY(!lanes.isComputing());  // not shown: nothing to do yet
        QSignalSpy ready(&lanes, &RankLanesView::lanesReady);
        lanes.show();
        QVERIFY(lanes.isComputing());
        QVERIFY(!lanes.grab().isNull());  // paints its placeholder meanwhile
        QVERIFY(ready.wait(60000));
        QVERIFY(!lanes.isComputing());
        QCOMPARE(lanes.laneCount(), 2);
        QCOMPARE(lanes.lanePeakBytes(0), peaks[0]);
        QCOMPARE(lanes.lanePeakBytes(1), peaks[1]);
        QCOMPARE(lanes.scaleBytes(), peaks[1]);
        QVERIFY(std::abs(lanes.stepStartPixel(0, 2) - lanes.stepStartPixel(1, 2)) < 1e-6);
    }

    void a_run_directory_shows_a_lane_per_rank_and_a_click_picks_the_rank() {
        QTemporaryDir dir;
        RunDirectory manifest;
        manifest.world_size = 3;
        manifest.parallel = "";  // a Python program's run directory names no strategy
        for (int r = 0; r < 3; ++r) {
            manifest.rank_files.push_back(RunDirectory::rankFileName(r));
            RunDirectory::Process process;
            process.role = "spawn";
            process.pid = 4240 + r;
            process.group_rank = r;
            process.group_size = 3;
            manifest.processes.push_back(process);
        }
        manifest.save(dir.path().toStdString());
        // Rank 2 died before it saved: a lane that says so.
        int64_t peak0 = 0, peak1 = 0;
        RunFile::save(*rankRun(2, 3, 100, &peak0), manifest.rankPath(dir.path().toStdString(), 0));
        RunFile::save(*rankRun(2, 6, 200, &peak1), manifest.rankPath(dir.path().toStdString(), 1));

        MainWindow window;
        window.setErrorReporter([](const QString& message) { QFAIL(qPrintable(message)); });
        window.resize(1400, 900);
        window.show();
        QVERIFY(memscope_test::openAndWait(window, dir.path()));
        TimelinePage* page = window.timelinePage();
        RankLanesView* lanes = page->rankLanes();
        QToolButton* toggle = page->allRanksButton();
        QVERIFY(toggle->isVisibleTo(page));
        QVERIFY(!page->showsAllRanks());
        QVERIFY(lanes->hasRuns());
        QCOMPARE(lanes->laneCount(), 0);  // nothing laid out until the lanes show
        toggle->click();
        QVERIFY(page->showsAllRanks());
        QVERIFY(lanes->isVisible());
        QVERIFY(!lanes->isComputing());

        // As many lanes as the world size, the missing rank's too.
        QCOMPARE(lanes->laneCount(), manifest.world_size);
        QCOMPARE(lanes->lanePeakBytes(0), peak0);
        QCOMPARE(lanes->lanePeakBytes(1), peak1);
        QCOMPARE(lanes->lanePeakBytes(2), int64_t(-1));
        QCOMPARE(lanes->scaleBytes(), std::max(peak0, peak1));
        QVERIFY2(lanes->laneLabel(1).contains(QStringLiteral("spawn, pid 4241")),
                 qPrintable(lanes->laneLabel(1)));
        QVERIFY2(lanes->laneLabel(2).contains(QStringLiteral("no recording")),
                 qPrintable(lanes->laneLabel(2)));
        // The selector names the processes too, and the log no empty strategy.
        QVERIFY2(page->rankCombo()->itemText(1).contains(QStringLiteral("1 · spawn, pid 4241")),
                 qPrintable(page->rankCombo()->itemText(1)));
        QVERIFY2(window.logView()->toPlainText().contains(QStringLiteral("2 of 3 ranks.")),
                 qPrintable(window.logView()->toPlainText()));

        // Clicking rank 1's lane shows rank 1 in the detailed view: the document's rank, the
        // session's run and the selector follow; the lanes stay.
        QCOMPARE(window.currentRank(), 0);
        QTest::mouseClick(lanes, Qt::LeftButton, {}, lanes->lanePlotRect(1).center().toPoint());
        QCOMPARE(window.viewState()->rank(), 1);
        QCOMPARE(window.currentRank(), 1);
        QCOMPARE(page->rankCombo()->currentIndex(), 1);
        QVERIFY(page->showsAllRanks());
        QCOMPARE(lanes->laneCount(), 3);  // the same runs: not laid out again
        // The missing rank's lane picks nothing.
        QTest::mouseClick(lanes, Qt::LeftButton, {}, lanes->lanePlotRect(2).center().toPoint());
        QCOMPARE(window.currentRank(), 1);
        // The export (File > Export View, --screenshot ranks) is the lanes.
        const QString png = dir.filePath(QStringLiteral("ranks.png"));
        const memscope::Outcome exported = window.exportView(png, 1.0, QSize(800, 500));
        QVERIFY2(exported, qPrintable(exported.message()));
        QCOMPARE(QImage(png).size(), QSize(800, 500));
        // Double-clicking rank 0's lane opens it in the detailed timeline.
        QTest::mouseDClick(lanes, Qt::LeftButton, {}, lanes->lanePlotRect(0).center().toPoint());
        QCOMPARE(window.currentRank(), 0);
        QVERIFY(!page->showsAllRanks());
        QVERIFY(!toggle->isChecked());

        // A single run has no lanes and no toggle.
        toggle->click();
        QVERIFY(page->showsAllRanks());
        const QString single = dir.filePath(QStringLiteral("single.memscope"));
        RunFile::save(*rankRun(1, 2, 100, nullptr), single.toStdString());
        QVERIFY(memscope_test::openAndWait(window, single));
        QVERIFY(!toggle->isVisibleTo(page));
        QVERIFY(!page->showsAllRanks());
        QCOMPARE(lanes->laneCount(), 0);
    }
};

QTEST_MAIN(TestRankLanes)
#include "test_rank_lanes.moc"
