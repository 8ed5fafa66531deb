// The active memory timeline's layout (memory_viz's stacking, detail and summarized band) on
// hand-built traces with offsets worked out by hand, a brute-force cross-check on random traces,
// and the x/bytes <-> pixel mapping with its zoom, pan and tick rules.

#include "layout/timeline_layout.h"
#include "layout/timeline_mapping.h"

#include <QtTest/QtTest>

#include <map>
#include <numeric>
#include <random>
#include <set>

using namespace memscope;

namespace {

// A trace from a script of words: "aK:S" allocates S bytes at address K, "fK" frees address K,
// "fK:S" frees S bytes at K never seen allocated (present from the start), "r" is a Role event
// (not an alloc/free: it must not take an x), "rK:C" names the category (code C) of the storage
// at K. Events are 10 ns apart.
Trace traceFromScript(const QString& script) {
    Trace t;
    std::map<uint64_t, int64_t> sizes;
    int64_t live = 0;
    int64_t time = 0;
    for (const QString& word : script.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        Event e;
        e.time_ns = time;
        time += 10;
        if (word == QLatin1String("r")) {
            e.kind = EventKind::Role;
            e.addr = 0xdead;
            e.size = 0;
            t.events.append(e);
            continue;
        }
        if (word.startsWith(QLatin1Char('r'))) {  // "rK:C": the storage at K has category C
            const QStringList parts = word.mid(1).split(QLatin1Char(':'));
            e.kind = EventKind::Role;
            e.addr = parts.at(0).toULongLong();
            e.size = parts.at(1).toLongLong();
            t.events.append(e);
            continue;
        }
        const QStringList parts = word.mid(1).split(QLatin1Char(':'));
        e.addr = parts.at(0).toULongLong();
        if (word.startsWith(QLatin1Char('a'))) {
            e.kind = EventKind::Alloc;
            e.size = parts.at(1).toLongLong();
            sizes[e.addr] = e.size;
        } else {
            e.kind = EventKind::Free;
            e.size = parts.size() > 1 ? -parts.at(1).toLongLong() : -sizes.at(e.addr);
        }
        live += e.size;
        e.allocated = live;
        t.events.append(e);
    }
    t.finalize();
    return t;
}

// "x:y x:y" for each allocation's points, "-" when it is not drawn.
QStringList describePoints(const TimelineLayout& layout) {
    QStringList out;
    for (int64_t a = 0; a < layout.allocationCount(); ++a) {
        const int64_t d = layout.drawnIndexOf(a);
        if (d < 0) {
            out << QStringLiteral("-");
            continue;
        }
        QStringList points;
        for (const auto& p : layout.points(d)) {
            points << QStringLiteral("%1:%2").arg(p.x).arg(p.y_bottom);
        }
        out << points.join(QLatin1Char(' '));
    }
    return out;
}

QString describeCurve(const std::vector<int64_t>& values) {
    QStringList out;
    for (const int64_t v : values) {
        out << QString::number(v);
    }
    return out.join(QLatin1Char(' '));
}

QString describeSpans(const TimelineLayout& layout) {
    QStringList out;
    for (int64_t a = 0; a < layout.allocationCount(); ++a) {
        out << QStringLiteral("[%1,%2)").arg(layout.beginX(a)).arg(layout.endX(a));
    }
    return out.join(QLatin1Char(' '));
}

// The layout by definition, O(X * M): at each x, a drawn allocation's bottom is the sum of the
// sizes of live drawn allocations below it in stack order.
std::vector<std::vector<int64_t>> bruteForceBottoms(const TimelineLayout& layout) {
    std::vector<std::vector<int64_t>> bottoms(size_t(layout.allocationCount()),
                                              std::vector<int64_t>(size_t(layout.xCount()), -1));
    for (int64_t x = 0; x < layout.xCount(); ++x) {
        int64_t sum = 0;
        for (int64_t d = 0; d < layout.drawnCount(); ++d) {
            const int64_t a = layout.drawnAllocation(d);
            if (layout.beginX(a) <= x && x < layout.endX(a)) {
                bottoms[size_t(a)][size_t(x)] = sum;
                sum += layout.sizeOf(a);
            }
        }
    }
    return bottoms;
}

// Time axis: eight events at these times (three at 20 ns), the axis ending at 410 ns; plot
// 100..1100 px.
const PackedColumn<int64_t> k_times{0, 10, 20, 20, 20, 100, 110, 400};
TimelineMapping timeMapping(double x0, double x1) {
    const TimelineMapping m{x0, x1, 1.0, 100, 0, 1000, 100};
    return m.withTimeAxis(&k_times, 8, 410);
}

}  // namespace

class TestTimelineLayout : public QObject {
    Q_OBJECT

  private slots:
    void layout_data() {
        QTest::addColumn<QString>("script");
        QTest::addColumn<int>("detail");  // -1: everything drawn
        QTest::addColumn<QString>("spans");
        QTest::addColumn<QStringList>("points");
        QTest::addColumn<QString>("total");
        QTest::addColumn<QString>("drawnTop");

        // x: a1=0 a2=1 a3=2 f2=3 f3=4 f1=5. Freeing the middle one slides the top one down.
        QTest::newRow("free in the middle of the stack")
            << "a1:100 a2:50 a3:30 f2 f3 f1" << -1 << "[0,5) [1,3) [2,4)"
            << QStringList{"0:0", "1:100", "2:150 3:100"} << "100 150 180 130 100 0"
            << "100 150 180 130 100 0";
        // Freeing the bottom one moves everything above it, each by its size.
        QTest::newRow("free at the bottom moves all above")
            << "a1:10 a2:20 a3:40 f1 f2" << -1 << "[0,3) [1,4) [2,5)"
            << QStringList{"0:0", "1:10 3:0", "2:30 3:20 4:0"} << "10 30 70 60 40"
            << "10 30 70 60 40";
        // Never freed: live to x = X.
        QTest::newRow("never freed runs to the end") << "a1:10 a2:20 f1" << -1 << "[0,2) [1,3)"
                                                     << QStringList{"0:0", "1:10 2:0"} << "10 30 20"
                                                     << "10 30 20";
        // addr 7 (40 B) and addr 8 (20 B) were live before recording. The one freed last (8)
        // lies lowest; 7 goes at x = 0, so a1 lands on 8 and drops when 8 goes.
        QTest::newRow("present from the start at the bottom")
            << "f7:40 a1:100 f8:20 f1" << -1 << "[0,0) [1,3) [0,2)"
            << QStringList{"0:20", "1:20 2:0", "0:0"} << "20 120 100 0"
            << "20 120 100 0";
        // Role events take no x.
        QTest::newRow("other events take no x") << "a1:8 r a2:8 r f1" << -1 << "[0,2) [1,3)"
                                                << QStringList{"0:0", "1:8 2:0"} << "8 16 8"
                                                << "8 16 8";
        // Detail 2: the 5-byte and 7-byte ones are summarized on top of the drawn ones.
        QTest::newRow("detail keeps the largest, sums the rest")
            << "a1:100 a2:5 a3:50 f1 a4:7" << 2 << "[0,3) [1,5) [2,5) [4,5)"
            << QStringList{"0:0", "-", "2:100 3:0", "-"} << "100 105 155 55 62"
            << "100 100 150 50 50";
        // Summarized frees below a drawn allocation move nothing drawn.
        QTest::newRow("summarized frees move nothing")
            << "a1:1 a2:100 f1 f2" << 1 << "[0,2) [1,3)" << QStringList{"-", "1:0"} << "1 101 100 0"
            << "0 100 100 0";
        // Equal sizes: the earlier allocation is drawn first.
        QTest::newRow("ties go to the earlier allocation")
            << "a1:10 a2:10 a3:10" << 2 << "[0,3) [1,3) [2,3)" << QStringList{"0:0", "1:10", "-"}
            << "10 20 30"
            << "10 20 20";
        QTest::newRow("detail zero: only the band")
            << "a1:10 a2:10 f1" << 0 << "[0,2) [1,3)" << QStringList{"-", "-"} << "10 20 10"
            << "0 0 0";
        // A second alloc at a live address ends the first (its free was not recorded) at that
        // very x; the new one goes on top after the old one left.
        QTest::newRow("re-alloc at a live address")
            << "a1:10 a2:20 a1:30" << -1 << "[0,2) [1,3) [2,3)"
            << QStringList{"0:0", "1:10 2:0", "2:20"} << "10 30 50"
            << "10 30 50";
    }

    void layout() {
        QFETCH(QString, script);
        QFETCH(int, detail);
        QFETCH(QString, spans);
        QFETCH(QStringList, points);
        QFETCH(QString, total);
        QFETCH(QString, drawnTop);

        const Trace trace = traceFromScript(script);
        TimelineLayout layout(trace, detail < 0 ? 1'000'000 : detail);
        QCOMPARE(describeSpans(layout), spans);
        QCOMPARE(describePoints(layout), points);
        QCOMPARE(describeCurve(layout.total().toVector()), total);
        QCOMPARE(describeCurve(layout.drawnTop()), drawnTop);
        const int64_t expected_drawn = detail < 0
                                           ? layout.allocationCount()
                                           : std::min<int64_t>(detail, layout.allocationCount());
        QCOMPARE(layout.drawnCount(), expected_drawn);
        QCOMPARE(layout.summarizedCount(), layout.allocationCount() - expected_drawn);
        for (int64_t x = 0; x < layout.xCount(); ++x) {
            QCOMPARE(layout.summarizedAt(x), layout.totalAt(x) - layout.drawnTopAt(x));
        }
    }

    void x_axis_maps_events_and_times() {
        const Trace trace = traceFromScript("a1:8 r a2:8 r f1");
        const TimelineLayout layout(trace);
        QCOMPARE(layout.xCount(), int64_t(3));
        QCOMPARE(layout.eventAt(0), int64_t(0));
        QCOMPARE(layout.eventAt(1), int64_t(2));
        QCOMPARE(layout.eventAt(2), int64_t(4));
        QCOMPARE(layout.timeAt(1), int64_t(20));
        QCOMPARE(layout.xAtTime(0), int64_t(0));
        QCOMPARE(layout.xAtTime(11), int64_t(1));  // the first event at or after 11 ns
        QCOMPARE(layout.xAtTime(20), int64_t(1));
        QCOMPARE(layout.xAtTime(41), int64_t(3));  // after everything: X
    }

    void peak_and_window_maxima() {
        const Trace trace = traceFromScript("a1:100 a2:50 a3:30 f2 f3 f1 a4:60 f4");
        const TimelineLayout layout(trace);
        QCOMPARE(layout.peakX(), int64_t(2));
        QCOMPARE(layout.peakBytes(), int64_t(180));
        QCOMPARE(layout.maxTotal(0, 8), int64_t(180));
        QCOMPARE(layout.maxTotal(3, 8), int64_t(130));
        QCOMPARE(layout.maxTotal(5, 7), int64_t(60));
        QCOMPARE(layout.maxTotal(-10, 1), int64_t(100));
        QCOMPARE(layout.maxTotal(5, 5), int64_t(0));
        QCOMPARE(layout.maxTotal(7, 100), int64_t(0));
        QCOMPARE(layout.minTotal(0, 8), int64_t(0));
        QCOMPARE(layout.minTotal(0, 5), int64_t(100));
        QCOMPARE(layout.minTotal(1, 4), int64_t(130));
        QCOMPARE(layout.minTotal(6, 7), int64_t(60));
    }

    void hit_test_finds_the_allocation_under_a_point() {
        // a1 [0,5) at 0..100; a2 [1,3) at 100..150; a3 [2,4) at 150..180, then 100..130.
        const Trace trace = traceFromScript("a1:100 a2:50 a3:30 f2 f3 f1");
        TimelineLayout layout(trace);
        QCOMPARE(layout.hitTest(0.5, 50), int64_t(0));
        QCOMPARE(layout.hitTest(1.9, 100), int64_t(1));
        QCOMPARE(layout.hitTest(2.0, 179.9), int64_t(2));
        QCOMPARE(layout.hitTest(3.5, 120), int64_t(2));  // slid down
        QCOMPARE(layout.hitTest(3.5, 140), int64_t(-1));
        QCOMPARE(layout.hitTest(5.5, 1), int64_t(-1));  // after the last free
        QCOMPARE(layout.hitTest(-0.1, 1), int64_t(-1));
        QCOMPARE(layout.hitTest(0.5, -1), int64_t(-1));
        QCOMPARE(layout.bottomAt(2, 2), int64_t(150));
        QCOMPARE(layout.bottomAt(2, 3), int64_t(100));
        QCOMPARE(layout.bottomAt(2, 4), int64_t(-1));

        layout.setDetail(1);  // only a1: the rest is the summarized band above it
        QCOMPARE(layout.hitTest(2.0, 50), int64_t(0));
        QCOMPARE(layout.hitTest(2.0, 150), int64_t(-1));
        QVERIFY(layout.inSummarizedBand(2.0, 150));
        QVERIFY(!layout.inSummarizedBand(2.0, 50));
        QVERIFY(!layout.inSummarizedBand(2.0, 181));
    }

    void visible_window_lists_live_drawn_allocations() {
        const Trace trace = traceFromScript("a1:100 a2:50 a3:30 f2 f3 f1");
        const TimelineLayout layout(trace);
        QCOMPARE(layout.drawnIn(0, 1), (std::vector<int64_t>{0}));
        QCOMPARE(layout.drawnIn(3, 4), (std::vector<int64_t>{0, 2}));
        QCOMPARE(layout.drawnIn(0, 6), (std::vector<int64_t>{0, 1, 2}));
        QCOMPARE(layout.drawnIn(5, 6), (std::vector<int64_t>{}));
    }

    void detail_percent_and_changes() {
        const Trace trace = traceFromScript("a1:100 a2:5 a3:50 f1 a4:7");
        TimelineLayout layout(trace, 0);
        QCOMPARE(layout.detailForPercent(50), int64_t(2));
        QCOMPARE(layout.detailForPercent(100), int64_t(4));
        QCOMPARE(layout.detailForPercent(250), int64_t(4));
        QCOMPARE(layout.detailForPercent(-1), int64_t(0));
        QCOMPARE(layout.detailForPercent(std::nan("")), int64_t(0));
        layout.setDetail(3);
        QCOMPARE(describePoints(layout), (QStringList{"0:0", "-", "2:100 3:0", "4:50"}));
        layout.setDetail(99);
        QCOMPARE(layout.detail(), int64_t(4));
        layout.setDetail(-3);
        QCOMPARE(layout.detail(), int64_t(0));
        QCOMPARE(layout.drawnCount(), int64_t(0));
        QCOMPARE(layout.pointCount(), int64_t(0));
    }

    void empty_trace() {
        Trace trace;
        trace.finalize();
        TimelineLayout layout(trace);
        QCOMPARE(layout.xCount(), int64_t(0));
        QCOMPARE(layout.peakX(), int64_t(-1));
        QCOMPARE(layout.peakBytes(), int64_t(0));
        QCOMPARE(layout.maxTotal(0, 10), int64_t(0));
        QCOMPARE(layout.hitTest(0, 0), int64_t(-1));
        QCOMPARE(layout.drawnCount(), int64_t(0));
    }

    // Blocks of 4 GiB and more (the layout keeps sizes in 32 bits and the larger ones beside):
    // sizes, totals, the detail's order and the stacking are exact, at once and extended.
    void sizes_of_4_gib_and_more() {
        const int64_t k4g = int64_t(1) << 32;
        const int64_t sizes[] = {k4g - 2, k4g - 1, k4g, 5 * (k4g / 4), 7};
        const QString allocs = QStringLiteral("a1:%1 a2:%2 a3:%3 a4:%4 a5:%5")
                                   .arg(sizes[0])
                                   .arg(sizes[1])
                                   .arg(sizes[2])
                                   .arg(sizes[3])
                                   .arg(sizes[4]);
        const QString frees = QStringLiteral(" f2 f4 a6:3 f1 f3 f5");
        const Trace full = traceFromScript(allocs + frees);
        TimelineLayout layout(full);
        const int64_t all = sizes[0] + sizes[1] + sizes[2] + sizes[3] + sizes[4];
        for (int a = 0; a < 5; ++a) {
            QCOMPARE(layout.sizeOf(a), sizes[a]);
        }
        QCOMPARE(layout.sizeOf(5), int64_t(3));
        QCOMPARE(layout.peakBytes(), all);
        QCOMPARE(layout.totalAt(5), all - sizes[1]);
        QCOMPARE(layout.totalAt(6), all - sizes[1] - sizes[3]);
        layout.setDetail(2);  // the two largest: 5 GiB, then 4 GiB
        QCOMPARE(layout.drawnAllocation(0), int64_t(2));
        QCOMPARE(layout.drawnAllocation(1), int64_t(3));
        QCOMPARE(layout.drawnIndexOf(1), int64_t(-1));
        // 4 GiB lies on the floor; 5 GiB above it until it goes.
        QCOMPARE(layout.bottomAt(3, 4), sizes[2]);
        layout.setDetail(6);
        QCOMPARE(layout.bottomAt(4, 4), sizes[0] + sizes[1] + sizes[2] + sizes[3]);
        QCOMPARE(layout.bottomAt(4, 6), sizes[0] + sizes[2]);  // after a2 and a4 went

        // Extended from the first three allocations: the same as laid out at once.
        TimelineLayout grown(
            traceFromScript(
                QStringLiteral("a1:%1 a2:%2 a3:%3").arg(sizes[0]).arg(sizes[1]).arg(sizes[2])),
            6);
        grown.extend(full);
        QCOMPARE(grown.allocationCount(), layout.allocationCount());
        for (int64_t a = 0; a < layout.allocationCount(); ++a) {
            QCOMPARE(grown.sizeOf(a), layout.sizeOf(a));
        }
        for (int64_t x = 0; x < layout.xCount(); ++x) {
            QCOMPARE(grown.totalAt(x), layout.totalAt(x));
        }
        QCOMPARE(describePoints(grown), describePoints(layout));
    }

    void unfinalized_trace_is_refused() {
        Trace trace;
        Event e;
        e.size = 8;
        trace.events.append(e);
        QVERIFY_THROWS_EXCEPTION(std::logic_error, TimelineLayout{trace});
    }

    // Random traces (present-from-start, never-freed, frees anywhere in the stack, re-allocs)
    // at several details: every bottom equals the definition, and totals add up.
    void matches_brute_force_on_random_traces() {
        std::mt19937 rng(1234);
        for (int round = 0; round < 30; ++round) {
            QString script;
            std::vector<int> live;
            int next_addr = 1000;
            for (int p = 0; p < int(rng() % 4); ++p) {
                script += QStringLiteral("f%1:%2 ").arg(p + 1).arg(1 + rng() % 64);
            }
            for (int i = 0; i < 120; ++i) {
                const unsigned dice = rng() % 10;
                if (dice < 5 || live.empty()) {
                    const int addr =
                        (dice == 0 && !live.empty()) ? live[rng() % live.size()] : next_addr++;
                    script += QStringLiteral("a%1:%2 ").arg(addr).arg(1 + rng() % 100);
                    if (std::find(live.begin(), live.end(), addr) == live.end()) {
                        live.push_back(addr);
                    }
                } else {
                    const size_t k = rng() % live.size();
                    script += QStringLiteral("f%1 ").arg(live[k]);
                    live.erase(live.begin() + std::ptrdiff_t(k));
                }
            }
            const Trace trace = traceFromScript(script);
            TimelineLayout layout(trace);
            for (const int64_t detail :
                 {int64_t(0), int64_t(1), int64_t(7), int64_t(40), layout.allocationCount()}) {
                layout.setDetail(detail);
                const auto bottoms = bruteForceBottoms(layout);
                for (int64_t a = 0; a < layout.allocationCount(); ++a) {
                    for (int64_t x = 0; x < layout.xCount(); ++x) {
                        const int64_t expected =
                            layout.drawnIndexOf(a) >= 0 ? bottoms[size_t(a)][size_t(x)] : -1;
                        if (layout.bottomAt(a, x) != expected) {
                            QFAIL(
                                qPrintable(QStringLiteral("round %1 detail %2 allocation %3 x %4: "
                                                          "%5, expected %6; script %7")
                                               .arg(round)
                                               .arg(detail)
                                               .arg(a)
                                               .arg(x)
                                               .arg(layout.bottomAt(a, x))
                                               .arg(expected)
                                               .arg(script)));
                        }
                    }
                }
                for (int64_t x = 0; x < layout.xCount(); ++x) {
                    int64_t total = 0;
                    int64_t drawn = 0;
                    for (int64_t a = 0; a < layout.allocationCount(); ++a) {
                        if (layout.beginX(a) <= x && x < layout.endX(a)) {
                            total += layout.sizeOf(a);
                            drawn += layout.drawnIndexOf(a) >= 0 ? layout.sizeOf(a) : 0;
                        }
                    }
                    QCOMPARE(layout.totalAt(x), total);
                    QCOMPARE(layout.drawnTopAt(x), drawn);
                }
                // Bottom edges only move down.
                for (int64_t d = 0; d < layout.drawnCount(); ++d) {
                    const auto points = layout.points(d);
                    for (size_t i = 1; i < points.size(); ++i) {
                        QVERIFY(points[i].x > points[i - 1].x);
                        QVERIFY(points[i].y_bottom < points[i - 1].y_bottom);
                    }
                }
                for (int64_t x0 = 0; x0 < layout.xCount(); x0 += 7) {
                    int64_t best = 0;
                    for (int64_t x = x0; x < std::min(layout.xCount(), x0 + 45); ++x) {
                        best = std::max(best, layout.totalAt(x));
                    }
                    QCOMPARE(layout.maxTotal(x0, x0 + 45), best);
                    int64_t lowest = std::numeric_limits<int64_t>::max();
                    for (int64_t x = x0; x < std::min(layout.xCount(), x0 + 45); ++x) {
                        lowest = std::min(lowest, layout.drawnTopAt(x));
                    }
                    QCOMPARE(layout.minDrawnTop(x0, x0 + 45), lowest);
                }
            }
        }
    }

    // The envelope the view draws per pixel column: min and max of the total over the x range
    // of each column, for random traces (long enough for many blocks and tree levels) and
    // random partitions of the axis into columns, against a scan of every x.
    void column_envelopes_match_brute_force() {
        std::mt19937 rng(99);
        for (int round = 0; round < 12; ++round) {
            QString script;
            std::vector<int> live;
            int next_addr = 1;
            for (int p = 0; p < int(rng() % 5); ++p) {
                script += QStringLiteral("f%1:%2 ").arg(900000 + p).arg(1 + rng() % 5000);
            }
            const int events = 200 + int(rng() % 3000);
            for (int i = 0; i < events; ++i) {
                // Runs of allocations then runs of frees, so totals swing widely.
                const bool grow = (i / (10 + round * 7)) % 2 == 0;
                if (live.empty() || (grow ? rng() % 10 < 8 : rng() % 10 < 2)) {
                    script += QStringLiteral("a%1:%2 ").arg(next_addr).arg(1 + rng() % 4096);
                    live.push_back(next_addr++);
                } else {
                    const size_t k = rng() % 3 == 0 ? rng() % live.size() : live.size() - 1;
                    script += QStringLiteral("f%1 ").arg(live[k]);
                    live.erase(live.begin() + std::ptrdiff_t(k));
                }
            }
            const Trace trace = traceFromScript(script);
            const TimelineLayout layout(trace, int64_t(rng() % 50));
            const int64_t n = layout.xCount();
            QVERIFY(n > 100);
            for (int partition = 0; partition < 20; ++partition) {
                // Columns of random widths (1 to a few hundred x) covering [0, n).
                const int64_t widest = 1 + int64_t(rng() % 400);
                for (int64_t x0 = 0; x0 < n;) {
                    const int64_t x1 = std::min(n, x0 + 1 + int64_t(rng() % widest));
                    int64_t lowest = std::numeric_limits<int64_t>::max();
                    int64_t highest = std::numeric_limits<int64_t>::min();
                    for (int64_t x = x0; x < x1; ++x) {
                        lowest = std::min(lowest, layout.totalAt(x));
                        highest = std::max(highest, layout.totalAt(x));
                    }
                    if (layout.minTotal(x0, x1) != lowest || layout.maxTotal(x0, x1) != highest) {
                        QFAIL(qPrintable(QStringLiteral("round %1 [%2, %3): min %4 max %5, "
                                                        "expected %6 and %7")
                                             .arg(round)
                                             .arg(x0)
                                             .arg(x1)
                                             .arg(layout.minTotal(x0, x1))
                                             .arg(layout.maxTotal(x0, x1))
                                             .arg(lowest)
                                             .arg(highest)));
                    }
                    x0 = x1;
                }
            }
            // Ranges reaching past the axis are clamped; empty ones answer 0.
            QCOMPARE(layout.minTotal(-5, 1), layout.totalAt(0));
            QCOMPARE(layout.minTotal(n - 1, n + 100), layout.totalAt(n - 1));
            QCOMPARE(layout.minTotal(7, 7), int64_t(0));
            QCOMPARE(layout.minTotal(n, n + 5), int64_t(0));
        }
    }

    void bytes_per_category_and_their_stacked_envelope() {
        // Parameter 100 for good, activation 50, a temporary 30 freed at once, a gradient 20.
        const Trace trace =
            traceFromScript("a1:100 r1:0 a2:50 r2:4 a3:30 r3:3 f3 a4:20 r4:5 f2 f4");
        const TimelineLayout layout(trace);
        QCOMPARE(layout.xCount(), int64_t(7));
        // Role events take no x; the time axis ends one average gap after the last event.
        QCOMPARE(layout.timeAt(6), int64_t(100));
        QCOMPARE(layout.endTime(), 100 + 100.0 / 7);
        using B = TimelineLayout::CategoryBytes;
        QCOMPARE(layout.categoryBytesAt(0), (B{100, 0, 0, 0, 0, 0, 0, 0}));
        QCOMPARE(layout.categoryBytesAt(2), (B{100, 0, 0, 30, 50, 0, 0, 0}));
        QCOMPARE(layout.categoryBytesAt(4), (B{100, 0, 0, 0, 50, 20, 0, 0}));
        QCOMPARE(layout.categoryBytesAt(5), (B{100, 0, 0, 0, 0, 20, 0, 0}));
        QCOMPARE(layout.categoryBytesAt(7), (B{}));  // past the axis
        // Stacked in enum order (parameter, optimizer state, input, temporary, activation,
        // gradient, ...): the highest top of each layer over the range.
        QCOMPARE(layout.categoryStackMax(0, 7),
                 (B{100, 100, 100, 130, 180, 180, 180, 180, 180, 180}));
        QCOMPARE(layout.categoryStackMax(3, 6),
                 (B{100, 100, 100, 100, 150, 170, 170, 170, 170, 170}));
        QCOMPARE(layout.categoryStackMax(6, 6), (B{}));
        // Present from the start (freed without a recorded alloc): live from x = 0.
        const Trace present = traceFromScript("f9:40 a1:10 f1");
        const TimelineLayout p(present);
        auto sum = [](const TimelineLayout::CategoryBytes& b) {
            return std::accumulate(b.begin(), b.end(), int64_t(0));
        };
        QCOMPARE(sum(p.categoryBytesAt(0)), int64_t(0));  // freed at x 0: never live
        const Trace later = traceFromScript("a1:10 f9:40 f1");
        const TimelineLayout l(later);
        QCOMPARE(sum(l.categoryBytesAt(0)), int64_t(50));
        QCOMPARE(sum(l.categoryBytesAt(1)), int64_t(10));
        QCOMPARE(sum(l.categoryBytesAt(1)), l.totalAt(1));
    }

    void bytes_per_category_match_brute_force_across_blocks() {
        std::mt19937 rng(99);
        for (int round = 0; round < 10; ++round) {
            QString script;
            std::vector<int> live;
            int next_addr = 1;
            for (int p = 0; p < int(rng() % 3); ++p) {
                script += QStringLiteral("f%1:%2 ").arg(5000 + p).arg(1 + rng() % 64);
            }
            for (int i = 0; i < 400; ++i) {
                if (rng() % 2 || live.empty()) {
                    const int addr = next_addr++;
                    script += QStringLiteral("a%1:%2 r%1:%3 ")
                                  .arg(addr)
                                  .arg(1 + rng() % 100)
                                  .arg(rng() % kCategoryCount);
                    live.push_back(addr);
                } else {
                    const size_t k = rng() % live.size();
                    script += QStringLiteral("f%1 ").arg(live[k]);
                    live.erase(live.begin() + std::ptrdiff_t(k));
                }
            }
            const Trace trace = traceFromScript(script);
            const TimelineLayout layout(trace);
            QVERIFY(layout.xCount() > 3 * TimelineLayout::kCategoryBlock);
            std::vector<TimelineLayout::CategoryBytes> expected(size_t(layout.xCount()));
            for (int64_t x = 0; x < layout.xCount(); ++x) {
                auto& bytes = expected[size_t(x)];
                bytes.fill(0);
                for (int64_t a = 0; a < layout.allocationCount(); ++a) {
                    if (layout.beginX(a) <= x && x < layout.endX(a)) {
                        bytes[size_t(layout.categoryOf(a))] += layout.sizeOf(a);
                    }
                }
                QCOMPARE(layout.categoryBytesAt(x), bytes);
            }
            for (int k = 0; k < 40; ++k) {
                const int64_t x0 = int64_t(rng() % uint64_t(layout.xCount()));
                const int64_t x1 = x0 + int64_t(rng() % 200);
                TimelineLayout::CategoryBytes top{};
                for (int64_t x = x0; x < std::min(x1, layout.xCount()); ++x) {
                    int64_t sum = 0;
                    for (size_t c = 0; c < top.size(); ++c) {
                        sum += expected[size_t(x)][c];
                        top[c] = std::max(top[c], sum);
                    }
                }
                QCOMPARE(layout.categoryStackMax(x0, x1), top);
                QCOMPARE(top.back(), layout.maxTotal(x0, x1));
            }
        }
    }

    // --- TimelineMapping

    void mapping_round_trips_data() {
        QTest::addColumn<double>("x0");
        QTest::addColumn<double>("x1");
        QTest::addColumn<double>("ymax");
        QTest::addColumn<double>("x");
        QTest::addColumn<double>("bytes");
        QTest::addColumn<double>("px");
        QTest::addColumn<double>("py");
        // Plot rect: left 100, top 20, 1000 x 500 pixels.
        QTest::newRow("left edge, zero bytes")
            << 0.0 << 100.0 << 1000.0 << 0.0 << 0.0 << 100.0 << 520.0;
        QTest::newRow("right edge, top")
            << 0.0 << 100.0 << 1000.0 << 100.0 << 1000.0 << 1100.0 << 20.0;
        QTest::newRow("middle") << 0.0 << 100.0 << 1000.0 << 50.0 << 500.0 << 600.0 << 270.0;
        QTest::newRow("shifted window")
            << 1000.0 << 1010.0 << 4096.0 << 1002.5 << 1024.0 << 350.0 << 395.0;
        QTest::newRow("outside the window")
            << 10.0 << 20.0 << 100.0 << 5.0 << 200.0 << -400.0 << -480.0;
    }

    void mapping_round_trips() {
        QFETCH(double, x0);
        QFETCH(double, x1);
        QFETCH(double, ymax);
        QFETCH(double, x);
        QFETCH(double, bytes);
        QFETCH(double, px);
        QFETCH(double, py);
        TimelineMapping m{x0, x1, ymax, 100, 20, 1000, 500};
        QCOMPARE(m.xToPixel(x), px);
        QCOMPARE(m.bytesToPixel(bytes), py);
        QCOMPARE(m.pixelToX(px), x);
        QCOMPARE(m.pixelToBytes(py), bytes);
    }

    void mapping_zoom_and_pan_data() {
        QTest::addColumn<QString>("op");  // "zoom PX FACTOR" or "pan DX"
        QTest::addColumn<double>("x0");
        QTest::addColumn<double>("x1");
        QTest::addColumn<double>("expected_x0");
        QTest::addColumn<double>("expected_x1");
        // Plot 0..1000 px; layout limits [0, 1000], min span 10.
        QTest::newRow("zoom in at the centre") << "zoom 500 2" << 0.0 << 1000.0 << 250.0 << 750.0;
        QTest::newRow("zoom in at the left edge keeps the left")
            << "zoom 0 4" << 0.0 << 1000.0 << 0.0 << 250.0;
        QTest::newRow("zoom in keeps the x under the cursor")
            << "zoom 250 2" << 200.0 << 600.0 << 250.0 << 450.0;
        QTest::newRow("zoom out around the cursor")
            << "zoom 500 0.25" << 400.0 << 600.0 << 100.0 << 900.0;
        QTest::newRow("zoom out past everything shows everything")
            << "zoom 500 0.01" << 400.0 << 600.0 << 0.0 << 1000.0;
        QTest::newRow("zoom in stops at the minimum span")
            << "zoom 500 1000" << 0.0 << 1000.0 << 495.0 << 505.0;
        QTest::newRow("zoom out near the end slides back inside")
            << "zoom 900 0.25" << 800.0 << 1000.0 << 200.0 << 1000.0;
        QTest::newRow("drag right shows earlier x")
            << "pan 100" << 400.0 << 600.0 << 380.0 << 580.0;
        QTest::newRow("drag left shows later x") << "pan -500" << 400.0 << 600.0 << 500.0 << 700.0;
        QTest::newRow("pan stops at the start") << "pan 10000" << 400.0 << 600.0 << 0.0 << 200.0;
        QTest::newRow("pan stops at the end") << "pan -10000" << 400.0 << 600.0 << 800.0 << 1000.0;
    }

    void mapping_zoom_and_pan() {
        QFETCH(QString, op);
        QFETCH(double, x0);
        QFETCH(double, x1);
        QFETCH(double, expected_x0);
        QFETCH(double, expected_x1);
        const TimelineMapping m{x0, x1, 1.0, 0, 0, 1000, 100};
        const QStringList words = op.split(QLatin1Char(' '));
        const TimelineMapping r =
            words[0] == QLatin1String("zoom")
                ? m.zoomedAt(words[1].toDouble(), words[2].toDouble(), 0, 1000, 10)
                : m.pannedBy(words[1].toDouble(), 0, 1000);
        QCOMPARE(r.x0, expected_x0);
        QCOMPARE(r.x1, expected_x1);
    }

    void time_axis_interpolates_between_events() {
        const TimelineMapping m = timeMapping(0, 8);
        QVERIFY(m.timeAxis());
        QCOMPARE(m.t0, 0.0);
        QCOMPARE(m.t1, 410.0);
        QCOMPARE(m.timeAtX(0.5), 5.0);
        QCOMPARE(m.timeAtX(3), 20.0);
        QCOMPARE(m.timeAtX(4.5), 60.0);   // from 20 ns at x = 4 to 100 ns at x = 5
        QCOMPARE(m.timeAtX(7.5), 405.0);  // the last state lasts until the axis' end
        QCOMPARE(m.timeAtX(8), 410.0);
        QCOMPARE(m.timeAtX(-3), 0.0);
        QCOMPARE(m.timeAtX(12), 410.0);
        // Inverse by binary search; within equal times the last event of the run.
        QCOMPARE(m.xAtTime(5), 0.5);
        QCOMPARE(m.xAtTime(20), 4.0);
        QCOMPARE(m.xAtTime(60), 4.5);
        QCOMPARE(m.xAtTime(405), 7.5);
        QCOMPARE(m.xAtTime(410), 8.0);
        QCOMPARE(m.xAtTime(-1), 0.0);
        // Pixels are proportional to time, not to x: events 2..4 take no width.
        QCOMPARE(m.xToPixel(1), 100 + 10.0 / 410 * 1000);
        QCOMPARE(m.xToPixel(2), m.xToPixel(4));
        QCOMPARE(m.xToPixel(6), 100 + 110.0 / 410 * 1000);
        QCOMPARE(m.pixelToX(m.xToPixel(4.5)), 4.5);
        QCOMPARE(m.pixelToX(100 + 1000 * 205.0 / 410), 6 + 95.0 / 290);
        // A plain mapping ignores times.
        const TimelineMapping plain{0, 8, 1.0, 100, 0, 1000, 100};
        QVERIFY(!plain.timeAxis());
        QCOMPARE(plain.xToPixel(1), 225.0);
    }

    void time_axis_zooms_and_pans_in_time() {
        const TimelineMapping m = timeMapping(0, 8);
        // Zoom in 2x at the centre: half the time, centred on 205 ns.
        const TimelineMapping z = m.zoomedAt(600, 2, 0, 8, 1);
        QCOMPARE(z.t0, 102.5);
        QCOMPARE(z.t1, 307.5);
        QCOMPARE(z.x0, 5.25);
        QCOMPARE(z.x1, 6 + 197.5 / 290);
        QCOMPARE(z.pixelToTime(600), m.pixelToTime(600));  // the time under the cursor stays
        // Drag left by 100 px: 10 % of the window later in time.
        const TimelineMapping p = z.pannedBy(-100, 0, 8);
        QCOMPARE(p.t0, 123.0);
        QCOMPARE(p.t1, 328.0);
        QCOMPARE(p.x0, m.xAtTime(123));
        // Far right: the window keeps its span in time and ends at the axis' end.
        const TimelineMapping end = z.pannedBy(-100000, 0, 8);
        QCOMPARE(end.t1, 410.0);
        QCOMPARE(end.t0, 205.0);
        QCOMPARE(end.x1, 8.0);
        // The minimum span is min_span average gaps (410 / 8 ns each).
        const TimelineMapping deep = m.zoomedAt(600, 1e6, 0, 8, 2);
        QCOMPARE(deep.t1 - deep.t0, 2 * 410.0 / 8);
        // Zooming out past everything shows everything.
        const TimelineMapping out = z.zoomedAt(300, 0.01, 0, 8, 1);
        QCOMPARE(out.x0, 0.0);
        QCOMPARE(out.x1, 8.0);
        // withWindow keeps the time window in step.
        const TimelineMapping w = m.withWindow(4.5, 7.5);
        QCOMPARE(w.t0, 60.0);
        QCOMPARE(w.t1, 405.0);
    }

    void time_tick_steps() {
        QCOMPARE(TimelineMapping::timeTickStep(1e9, 10), 1e8);   // 0.1 s over a second
        QCOMPARE(TimelineMapping::timeTickStep(3e9, 10), 5e8);   // 0.5 s
        QCOMPARE(TimelineMapping::timeTickStep(1.2e7, 5), 5e6);  // 5 ms
        QCOMPARE(TimelineMapping::timeTickStep(0.5, 5), 1.0);    // never below 1 ns
    }

    void mapping_zoom_keeps_the_anchor_fixed() {
        const TimelineMapping m{123.0, 4567.0, 1.0, 80, 0, 1200, 100};
        const double px = 80 + 1200 * 0.37;
        const TimelineMapping z = m.zoomedAt(px, 3.0, 0, 10000, 5);
        QCOMPARE(z.pixelToX(px), m.pixelToX(px));
        QCOMPARE(z.span(), m.span() / 3.0);
    }

    void ticks_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<double>("range");
        QTest::addColumn<int>("max_ticks");
        QTest::addColumn<double>("step");
        QTest::newRow("index 7374 in 8") << "index" << 7374.0 << 8 << 1000.0;
        QTest::newRow("index 100 in 10") << "index" << 100.0 << 10 << 10.0;
        QTest::newRow("index 101 in 10") << "index" << 101.0 << 10 << 20.0;
        QTest::newRow("index 3 in 10 is never below one") << "index" << 3.0 << 10 << 1.0;
        QTest::newRow("index 2e6 in 8") << "index" << 2.0e6 << 8 << 5.0e5;
        QTest::newRow("bytes 160 MiB in 6") << "bytes" << 160.0 * 1048576 << 6 << 32.0 * 1048576;
        QTest::newRow("bytes 1 GiB in 8") << "bytes" << 1073741824.0 << 8 << 134217728.0;
        QTest::newRow("bytes 1000 in 5") << "bytes" << 1000.0 << 5 << 256.0;
        QTest::newRow("bytes 0 in 5") << "bytes" << 0.0 << 5 << 1.0;
    }

    void ticks() {
        QFETCH(QString, kind);
        QFETCH(double, range);
        QFETCH(int, max_ticks);
        QFETCH(double, step);
        const double got = kind == QLatin1String("index")
                               ? TimelineMapping::indexTickStep(range, max_ticks)
                               : TimelineMapping::byteTickStep(range, max_ticks);
        QCOMPARE(got, step);
        QVERIFY(range / got <= max_ticks + 1e-9 || got == 1.0);
    }

    void nice_byte_top() {
        // 151.8 MiB plus headroom lands on a 32 MiB tick: 192 MiB.
        QCOMPARE(TimelineMapping::niceByteTop(151.8 * 1048576, 6), 192.0 * 1048576);
        QCOMPARE(TimelineMapping::niceByteTop(0, 6), 1.0);
        QCOMPARE(TimelineMapping::ticks(0, 100, 32), (std::vector<double>{0, 32, 64, 96}));
        QCOMPARE(TimelineMapping::ticks(10, 64, 32), (std::vector<double>{32, 64}));
        QCOMPARE(TimelineMapping::ticks(0, 10, 0), (std::vector<double>{}));
    }
};

QTEST_GUILESS_MAIN(TestTimelineLayout)
#include "test_timeline_layout.moc"
