// RangeFilter (analysis/range_filter.h): the allocations alive in, or made in, a range of events,
// checked by hand on a small trace and against a replay of the events on random traces.

#include "analysis/range_filter.h"

#include <QtTest>

#include <random>
#include <set>
#include <unordered_map>

using namespace memscope;

namespace {

// A random trace: allocs of new or reused addresses, frees of live ones, frees of addresses
// never allocated (allocations present from the start), OOM events in between, and allocations
// left live at the end. Times grow by 0 to 3 ns per event (equal times happen).
Trace randomTrace(std::mt19937& rng, int events) {
    Trace trace;
    std::vector<std::pair<uint64_t, int64_t>> live;
    uint64_t next = 0x1000;
    uint64_t orphan = 0x900000;
    int64_t time = 0;
    int64_t total = 0;
    for (int i = 0; i < events; ++i) {
        Event e;
        time += int64_t(rng() % 4);
        e.time_ns = time;
        const unsigned dice = rng() % 20;
        if (dice == 0) {
            e.kind = EventKind::Oom;
            e.size = 1 << 20;
        } else if (dice == 1) {
            e.kind = EventKind::Free;
            e.addr = orphan++;
            e.size = -int64_t(1 + rng() % 64);
        } else if (dice < 11 || live.empty()) {
            e.kind = EventKind::Alloc;
            e.addr = next++;
            e.size = int64_t(1 + rng() % 100);
            live.push_back({e.addr, e.size});
        } else {
            const size_t k = rng() % live.size();
            e.kind = EventKind::Free;
            e.addr = live[k].first;
            e.size = -live[k].second;
            live.erase(live.begin() + std::ptrdiff_t(k));
        }
        if (e.kind != EventKind::Oom) {
            total += e.size;
        }
        e.allocated = total;
        trace.events.append(e);
    }
    trace.finalize();
    return trace;
}

// Replays the events keeping the set of live allocations and collects every allocation live
// after an event of [first, last).
std::vector<int64_t> bruteAliveIn(const Trace& trace, int64_t first, int64_t last) {
    std::set<int64_t> live;
    const auto& all = trace.allocations();
    for (size_t a = 0; a < all.size(); ++a) {
        if (all[a].alloc_event < 0) {
            live.insert(int64_t(a));
        }
    }
    std::set<int64_t> seen;
    const auto& of_event = trace.allocationOfEvent();
    for (int64_t i = 0; i < int64_t(trace.events.count()); ++i) {
        const auto kind = EventKind(trace.events.kind[size_t(i)]);
        const int64_t a = of_event[size_t(i)];
        if (kind == EventKind::Alloc && a >= 0) {
            live.insert(a);
        } else if (kind == EventKind::Free && a >= 0) {
            live.erase(a);
        }
        if (i >= first && i < last) {
            seen.insert(live.begin(), live.end());
        }
    }
    return {seen.begin(), seen.end()};
}

std::vector<int64_t> bruteMadeIn(const Trace& trace, int64_t first, int64_t last) {
    std::set<int64_t> made;
    const auto& of_event = trace.allocationOfEvent();
    for (int64_t i = std::max<int64_t>(first, 0); i < std::min<int64_t>(last, trace.events.count());
         ++i) {
        if (EventKind(trace.events.kind[size_t(i)]) == EventKind::Alloc &&
            of_event[size_t(i)] >= 0) {
            made.insert(of_event[size_t(i)]);
        }
    }
    return {made.begin(), made.end()};
}

}  // namespace

class TestRangeFilter : public QObject {
    Q_OBJECT

  private slots:
    void by_hand() {
        // e0 alloc A, e1 alloc B, e2 free A, e3 alloc C, e4 free D (present from the start),
        // e5 free B; C stays live.
        Trace trace;
        auto add = [&](EventKind kind, uint64_t addr, int64_t size) {
            Event e;
            e.kind = kind;
            e.addr = addr;
            e.size = size;
            e.time_ns = int64_t(trace.events.count()) * 10;
            trace.events.append(e);
        };
        add(EventKind::Alloc, 0xa, 10);
        add(EventKind::Alloc, 0xb, 20);
        add(EventKind::Free, 0xa, -10);
        add(EventKind::Alloc, 0xc, 30);
        add(EventKind::Free, 0xd, -40);
        add(EventKind::Free, 0xb, -20);
        trace.finalize();
        QCOMPARE(trace.allocations().size(), size_t(4));
        auto names = [&](const std::vector<int64_t>& indices) {
            QString out;
            for (int64_t a : indices) {
                out += QString::number(trace.allocations()[size_t(a)].addr, 16);
            }
            std::sort(out.begin(), out.end());
            return out;
        };
        // After e3 and e4: B, C live; D until e4.
        QCOMPARE(names(RangeFilter(3, 5).allocations(trace)), QStringLiteral("bcd"));
        // After e2 only: B and D (A was freed by e2 itself).
        QCOMPARE(names(RangeFilter(2, 3).allocations(trace)), QStringLiteral("bd"));
        QCOMPARE(names(RangeFilter(5, 6).allocations(trace)), QStringLiteral("c"));
        QCOMPARE(names(RangeFilter(0, 6, RangeFilter::Mode::MadeIn).allocations(trace)),
                 QStringLiteral("abc"));
        QCOMPARE(names(RangeFilter(1, 3, RangeFilter::Mode::MadeIn).allocations(trace)),
                 QStringLiteral("b"));
        QVERIFY(RangeFilter(4, 4).allocations(trace).empty());
        QVERIFY(RangeFilter(5, 2).allocations(trace).empty());
        // Times: [10, 30) is e1 and e2.
        const RangeFilter t = RangeFilter::fromRunRange(trace, RunRange::time(10, 30));
        QCOMPARE(t.first, int64_t(1));
        QCOMPARE(t.last, int64_t(3));
        const RangeFilter e = RangeFilter::fromRunRange(trace, RunRange::parse("2:"));
        QCOMPARE(e.first, int64_t(2));
        QCOMPARE(e.last, int64_t(6));
        const RangeFilter clamped = RangeFilter::fromRunRange(trace, RunRange::events(-5, 100));
        QCOMPARE(clamped.first, int64_t(0));
        QCOMPARE(clamped.last, int64_t(6));
        const auto mask = RangeFilter(3, 5).mask(trace);
        QCOMPARE(int(std::count(mask.begin(), mask.end(), 1)), 3);
        // Summary of [3, 5): B, C, D alive (20 + 30 + 40 bytes), times 30 and 40.
        const RangeFilter::Summary sum = RangeFilter(3, 5).summarize(trace);
        QCOMPARE(sum.allocations, int64_t(3));
        QCOMPARE(sum.bytes, int64_t(90));
        QCOMPARE(sum.begin_ns, int64_t(30));
        QCOMPARE(sum.end_ns, int64_t(40));
        int64_t by_category = 0;
        for (int64_t b : sum.bytes_by_category) {
            by_category += b;
        }
        QCOMPARE(by_category, int64_t(90));
    }

    void matches_replay_on_random_traces() {
        std::mt19937 rng(4711);
        for (int round = 0; round < 40; ++round) {
            const Trace trace = randomTrace(rng, 50 + int(rng() % 400));
            const int64_t n = int64_t(trace.events.count());
            for (int r = 0; r < 25; ++r) {
                int64_t a = int64_t(rng() % uint64_t(n + 1));
                int64_t b = int64_t(rng() % uint64_t(n + 1));
                if (a > b) {
                    std::swap(a, b);
                }
                const auto alive = RangeFilter(a, b).allocations(trace);
                QCOMPARE(alive, bruteAliveIn(trace, a, b));
                const auto made = RangeFilter(a, b, RangeFilter::Mode::MadeIn).allocations(trace);
                QCOMPARE(made, bruteMadeIn(trace, a, b));
                QVERIFY(std::is_sorted(alive.begin(), alive.end()));
                // The summary's peak is the highest allocated total among the range's events.
                const auto sum = RangeFilter(a, b).summarize(trace);
                bool any = false;
                int64_t peak = 0;
                for (int64_t i = a; i < b; ++i) {
                    if (EventKind(trace.events.kind[size_t(i)]) != EventKind::Oom) {
                        const int64_t live = trace.events.allocated[size_t(i)];
                        peak = any ? std::max(peak, live) : live;
                        any = true;
                    }
                }
                QCOMPARE(sum.peak_event >= 0, any);
                if (any) {
                    QCOMPARE(sum.peak_bytes, peak);
                    QCOMPARE(trace.events.allocated[size_t(sum.peak_event)], peak);
                }
                QCOMPARE(sum.allocations, int64_t(alive.size()));
            }
            // The whole run selects every allocation that is live after some event.
            QCOMPARE(RangeFilter(0, n).allocations(trace), bruteAliveIn(trace, 0, n));
        }
    }

    void time_ranges_follow_event_times() {
        std::mt19937 rng(7);
        const Trace trace = randomTrace(rng, 300);
        const auto& times = trace.events.time_ns;
        for (int r = 0; r < 50; ++r) {
            const int64_t t0 = int64_t(rng() % uint64_t(times.back() + 2));
            const int64_t t1 = t0 + int64_t(rng() % 40);
            const RangeFilter f = RangeFilter::fromRunRange(trace, RunRange::time(t0, t1));
            for (int64_t i = 0; i < int64_t(times.size()); ++i) {
                const bool inside = times[size_t(i)] >= t0 && times[size_t(i)] < t1;
                QCOMPARE(i >= f.first && i < f.last, inside);
            }
        }
    }

    void time_windows_for_spans() {
        // Events at t = 0, 10, ..., 50.
        Trace trace;
        for (int i = 0; i < 6; ++i) {
            Event e;
            e.kind = EventKind::Alloc;
            e.addr = uint64_t(0x10 + i);
            e.size = 1;
            e.time_ns = 10 * i;
            trace.events.append(e);
        }
        trace.finalize();
        auto span = [](int64_t begin, int64_t end) {
            Span s;
            s.begin_ns = begin;
            s.end_ns = end;
            return s;
        };
        // [2, 4): from event 2's time up to event 4's.
        const auto w = RangeFilter(2, 4).timeWindow(trace);
        QCOMPARE(w.begin_ns, int64_t(20));
        QCOMPARE(w.end_ns, int64_t(40));
        QVERIFY(RangeFilter::overlaps(span(25, 26), w));
        QVERIFY(RangeFilter::overlaps(span(0, 20), w));   // ends as the range begins
        QVERIFY(RangeFilter::overlaps(span(0, 100), w));  // straddles it
        QVERIFY(RangeFilter::overlaps(span(39, 39), w));  // takes no time
        QVERIFY(!RangeFilter::overlaps(span(0, 19), w));
        QVERIFY(!RangeFilter::overlaps(span(40, 45), w));  // begins with the next event
        // The mode does not change the window.
        const auto made = RangeFilter(2, 4, RangeFilter::Mode::MadeIn).timeWindow(trace);
        QCOMPARE(made.begin_ns, w.begin_ns);
        QCOMPARE(made.end_ns, w.end_ns);
        // Open where the range reaches the first or the last event: the whole run's range
        // holds spans before the first event and after the last.
        const auto all = RangeFilter(0, 6).timeWindow(trace);
        QVERIFY(RangeFilter::overlaps(span(-5, -1), all));
        QVERIFY(RangeFilter::overlaps(span(900, 1000), all));
        const auto tail = RangeFilter(4, 6).timeWindow(trace);
        QCOMPARE(tail.begin_ns, int64_t(40));
        QVERIFY(RangeFilter::overlaps(span(900, 1000), tail));
        QVERIFY(!RangeFilter::overlaps(span(-5, -1), tail));
        // An empty range (or one past the events) holds no span.
        for (const RangeFilter& empty : {RangeFilter(3, 3), RangeFilter(5, 2), RangeFilter(8, 9)}) {
            const auto none = empty.timeWindow(trace);
            for (const Span& s : {span(-100, 100), span(0, 0), span(20, 40), span(60, 70)}) {
                QVERIFY(!RangeFilter::overlaps(s, none));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestRangeFilter)
#include "test_range_filter.moc"
