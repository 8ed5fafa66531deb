// Live runs without copying the run for every refresh (issue 11): a trace copy kept finalized as
// events are appended (LiveTraceBuilder) must equal the same events finalized at once, a layout
// extended by the new events (TimelineLayout::extend) must equal the layout computed at once,
// and the snapshots LiveTraceMirror hands out must be consistent prefixes of the growing trace
// that no later update touches. Random traces, several split points each.

#include "layout/live_trace_mirror.h"
#include "layout/timeline_layout.h"
#include "trace/backward_starts.h"
#include "trace/column_growth.h"
#include "trace/expected_run_length.h"
#include "trace/huge_page_policy.h"
#include "trace/live_trace_builder.h"
#include "trace/trace.h"

#include <QtTest/QtTest>

#include <limits>
#include <random>
#include <vector>

using namespace memscope;

namespace {

// A random trace of `n` events in steps of forward, backward and optimizer phases: allocs and
// frees over a small address pool (so re-allocs at a live address happen), Role names, OOM marks,
// and, when `gpu`, caching-allocator segments with tags. `present` adds frees never seen
// allocated and allocs before the trace began (present from the start).
Trace randomTrace(std::mt19937& rng, size_t n, bool gpu, bool present) {
    Trace t;
    std::uniform_int_distribution<int> pick(0, 99);
    std::vector<int64_t> live(48, 0);  // size per address slot, 0 = free
    std::vector<int64_t> segments(8, 0);
    int64_t allocated = 0;
    int64_t time = 0;
    int32_t step = 0;
    Phase phase = Phase::Init;
    for (size_t i = 0; i < n; ++i) {
        if (pick(rng) < 4) {  // the next phase
            if (phase == Phase::Init || phase == Phase::Optimizer) {
                phase = Phase::Forward;
                ++step;
            } else if (phase == Phase::Forward) {
                phase = Phase::Backward;
            } else {
                phase = Phase::Optimizer;
            }
        }
        Event e;
        time += 10 - (pick(rng) < 5 ? 15 : 0);  // threads' buffers interleave a little
        e.time_ns = time;
        e.step = step;
        e.phase = phase;
        e.device = gpu && pick(rng) < 30 ? 1 : (gpu ? 0 : -1);
        e.stack = uint32_t(pick(rng) % 3);
        const int r = pick(rng);
        const auto slot = size_t(pick(rng) % int(live.size()));
        e.addr = 0x1000 + slot * 0x100;
        if (r < 45) {
            e.kind = EventKind::Alloc;
            e.size = 1 + (pick(rng) < 10 ? 4096 * (1 + pick(rng) % 8) : pick(rng) * 8);
            if (present && pick(rng) < 5) {
                e.step = -1;  // live before the trace began
            }
            live[slot] = e.size;  // a live slot's old allocation ends here (free not recorded)
        } else if (r < 88) {
            e.kind = EventKind::Free;
            if (live[slot] == 0 && !(present && pick(rng) < 10)) {
                continue;
            }
            e.size = -(live[slot] > 0 ? live[slot] : 64);
            live[slot] = 0;
        } else if (r < 94) {
            e.kind = EventKind::Role;
            e.size = pick(rng) % (kCategoryCount + 1);  // sometimes out of range
        } else if (r < 96) {
            e.kind = EventKind::Oom;
            e.size = 1 << 20;
        } else if (gpu) {
            const auto s = size_t(pick(rng) % int(segments.size()));
            e.addr = 0x100000 + s * 0x10000;
            if (segments[s] == 0 || pick(rng) < 20) {
                e.kind = EventKind::SegmentAlloc;
                e.size = 1 << 16;
                segments[s] = e.size;
                if (pick(rng) < 50) {
                    t.segment_tags.push_back(
                        {int64_t(t.events.count()), int64_t(pick(rng) % 3), "large"});
                }
            } else {
                e.kind = EventKind::SegmentFree;
                e.size = -segments[s];
                segments[s] = 0;
            }
        } else {
            continue;
        }
        if (e.kind == EventKind::Alloc || e.kind == EventKind::Free) {
            allocated += e.size;
            e.allocated = allocated;
        }
        t.events.append(e);
    }
    return t;
}

// The first n events of `t` (and the segment tags among them), not finalized.
Trace prefixOf(const Trace& t, size_t n) {
    Trace p;
    p.meta = t.meta;
    n = std::min(n, t.events.count());  // randomTrace makes about one event a step, not exactly
    for (size_t i = 0; i < n; ++i) {
        p.events.append(t.events.at(i));
    }
    for (const SegmentTag& tag : t.segment_tags) {
        if (tag.event < int64_t(n)) {
            p.segment_tags.push_back(tag);
        }
    }
    return p;
}

// Split points: a few random ones, then the end.
std::vector<size_t> splits(std::mt19937& rng, size_t n, int count) {
    std::vector<size_t> out;
    std::uniform_int_distribution<size_t> at(0, n);
    for (int k = 0; k < count; ++k) {
        out.push_back(at(rng));
    }
    out.push_back(n);
    std::sort(out.begin(), out.end());
    return out;
}

bool sameAllocation(const Allocation& a, const Allocation& b) {
    return a.addr == b.addr && a.size == b.size && a.alloc_event == b.alloc_event &&
           a.free_event == b.free_event && a.category == b.category && a.device == b.device;
}

bool sameSegment(const Segment& a, const Segment& b) {
    return a.addr == b.addr && a.size == b.size && a.reserve_event == b.reserve_event &&
           a.release_event == b.release_event && a.device == b.device && a.stream == b.stream &&
           a.pool == b.pool;
}

// The finalized parts of two traces of the same events; "" when equal.
QString traceDifference(const Trace& got, const Trace& want) {
    if (got.events.count() != want.events.count()) {
        return QStringLiteral("event counts %1 vs %2")
            .arg(got.events.count())
            .arg(want.events.count());
    }
    for (size_t i = 0; i < want.events.count(); ++i) {
        const Event a = got.events.at(i);
        const Event b = want.events.at(i);
        if (a.time_ns != b.time_ns || a.addr != b.addr || a.size != b.size || a.kind != b.kind ||
            a.step != b.step || a.phase != b.phase || a.device != b.device) {
            return QStringLiteral("event %1 differs").arg(i);
        }
    }
    if (got.allocationOfEvent() != want.allocationOfEvent()) {
        return QStringLiteral("allocationOfEvent differs");
    }
    if (got.allocations().size() != want.allocations().size()) {
        return QStringLiteral("allocation counts %1 vs %2")
            .arg(got.allocations().size())
            .arg(want.allocations().size());
    }
    for (size_t a = 0; a < want.allocations().size(); ++a) {
        if (!sameAllocation(got.allocations()[a], want.allocations()[a])) {
            return QStringLiteral("allocation %1 differs (category %2 vs %3)")
                .arg(a)
                .arg(int(got.allocations()[a].category))
                .arg(int(want.allocations()[a].category));
        }
    }
    if (got.segments().size() != want.segments().size()) {
        return QStringLiteral("segment counts differ");
    }
    for (size_t s = 0; s < want.segments().size(); ++s) {
        if (!sameSegment(got.segments()[s], want.segments()[s])) {
            return QStringLiteral("segment %1 differs").arg(s);
        }
    }
    return {};
}

// Two layouts through everything they answer; "" when equal.
QString layoutDifference(const TimelineLayout& got, const TimelineLayout& want, std::mt19937& rng) {
    auto fail = [](const char* what, int64_t at) {
        return QStringLiteral("%1 differs at %2").arg(QLatin1String(what)).arg(at);
    };
    if (got.xCount() != want.xCount()) {
        return fail("xCount", got.xCount());
    }
    if (got.allocationCount() != want.allocationCount()) {
        return fail("allocationCount", got.allocationCount());
    }
    const int64_t xs = want.xCount();
    for (int64_t x = 0; x < xs; ++x) {
        if (got.eventAt(x) != want.eventAt(x) || got.timeAt(x) != want.timeAt(x)) {
            return fail("x axis", x);
        }
        if (got.totalAt(x) != want.totalAt(x)) {
            return fail("total", x);
        }
        if (got.drawnTopAt(x) != want.drawnTopAt(x)) {
            return fail("drawn top", x);
        }
        if (got.categoryBytesAt(x) != want.categoryBytesAt(x)) {
            return fail("category bytes", x);
        }
    }
    if (got.endTime() != want.endTime() || got.peakX() != want.peakX() ||
        got.peakBytes() != want.peakBytes()) {
        return fail("end time or peak", got.peakX());
    }
    for (int64_t a = 0; a < want.allocationCount(); ++a) {
        if (got.beginX(a) != want.beginX(a) || got.endX(a) != want.endX(a) ||
            got.sizeOf(a) != want.sizeOf(a) || got.categoryOf(a) != want.categoryOf(a) ||
            got.drawnIndexOf(a) != want.drawnIndexOf(a)) {
            return fail("allocation", a);
        }
    }
    if (got.detail() != want.detail() || got.drawnCount() != want.drawnCount() ||
        got.pointCount() != want.pointCount() || got.summarizedCount() != want.summarizedCount()) {
        return fail("detail", got.detail());
    }
    for (int64_t d = 0; d < want.drawnCount(); ++d) {
        if (got.drawnAllocation(d) != want.drawnAllocation(d) || got.points(d) != want.points(d)) {
            return fail("drawn allocation", d);
        }
    }
    std::uniform_int_distribution<int64_t> at(-2, xs + 2);
    for (int k = 0; k < 300; ++k) {
        int64_t x0 = at(rng);
        int64_t x1 = at(rng);
        if (x0 > x1) {
            std::swap(x0, x1);
        }
        if (got.maxTotal(x0, x1) != want.maxTotal(x0, x1) ||
            got.minTotal(x0, x1) != want.minTotal(x0, x1) ||
            got.minDrawnTop(x0, x1) != want.minDrawnTop(x0, x1) ||
            got.categoryStackMax(x0, x1) != want.categoryStackMax(x0, x1) ||
            got.drawnIn(x0, x1) != want.drawnIn(x0, x1)) {
            return fail("range query from", x0);
        }
    }
    return {};
}

}  // namespace

class TestLiveTrace : public QObject {
    Q_OBJECT

  private slots:
    // Appending in several pieces and finalizing only the new events gives what finalizing the
    // whole prefix at once gives, at every split point.
    void builderEqualsFinalizeAtOnce() {
        std::mt19937 rng(11);
        for (int round = 0; round < 60; ++round) {
            const bool gpu = round % 2 == 1;
            const Trace full = randomTrace(rng, 200 + size_t(round) * 40, gpu, round % 5 == 4);
            Trace copy;
            LiveTraceBuilder builder;
            for (const size_t n : splits(rng, full.events.count(), 4)) {
                const Trace source = prefixOf(full, n);
                QVERIFY(builder.update(copy, source));
                Trace want = source;
                want.finalize();
                const QString diff = traceDifference(copy, want);
                QVERIFY2(
                    diff.isEmpty(),
                    qPrintable(
                        QStringLiteral("round %1, %2 events: %3").arg(round).arg(n).arg(diff)));
            }
        }
    }

    // A layout extended at each split point equals the layout computed at once on the same
    // trace, for details that push older allocations out as larger ones come (small n), that
    // hold everything, and the default.
    void extendedLayoutEqualsLayoutAtOnce() {
        std::mt19937 rng(1101);
        int extended = 0;
        for (int round = 0; round < 90; ++round) {
            const int64_t details[] = {0, 1, 3, 12, 40, TimelineLayout::kDefaultDetail};
            const int64_t detail = details[round % 6];
            const bool present = round % 7 == 6;  // present from the start: laid out again
            const Trace full = randomTrace(rng, 150 + size_t(round) * 30, round % 3 == 0, present);
            Trace copy;
            LiveTraceBuilder builder;
            std::unique_ptr<TimelineLayout> layout;
            for (const size_t n : splits(rng, full.events.count(), 5)) {
                builder.update(copy, prefixOf(full, n));
                if (!layout) {
                    layout = std::make_unique<TimelineLayout>(copy, detail);
                } else {
                    const int64_t before = layout->allocationCount();
                    layout->extend(copy);
                    if (layout->firstNewAllocation() == before && before > 0) {
                        ++extended;
                    }
                }
                Trace at_once = prefixOf(full, n);
                at_once.finalize();
                const TimelineLayout want(at_once, detail);
                const QString diff = layoutDifference(*layout, want, rng);
                QVERIFY2(diff.isEmpty(), qPrintable(QStringLiteral("round %1 (detail %2), %3 "
                                                                   "events: %4")
                                                        .arg(round)
                                                        .arg(detail)
                                                        .arg(n)
                                                        .arg(diff)));
            }
        }
        QVERIFY(extended > 100);  // the in-place path ran, not only the fallback
    }

    // A detail the user set survives extension: the layout keeps drawing that many.
    void extendKeepsTheDetailAskedFor() {
        std::mt19937 rng(7);
        const Trace full = randomTrace(rng, 3000, false, false);
        Trace copy;
        LiveTraceBuilder builder;
        builder.update(copy, prefixOf(full, 1000));
        TimelineLayout layout(copy);
        layout.setDetail(25);
        builder.update(copy, prefixOf(full, 3000));
        layout.extend(copy);
        QCOMPARE(layout.detail(), int64_t(25));
        Trace at_once = prefixOf(full, 3000);
        at_once.finalize();
        TimelineLayout want(at_once, 25);
        QCOMPARE(layoutDifference(layout, want, rng), QString());
        // A larger detail than the extension kept sorted sorts again and still agrees.
        layout.setDetail(400);
        want.setDetail(400);
        QCOMPARE(layoutDifference(layout, want, rng), QString());
    }

    // The mirror's snapshots: each is a finalized prefix of the growing source equal to that
    // prefix finalized at once, later snapshots extend earlier ones, and a snapshot a reader
    // still holds is never written again (the mirror builds a new copy instead).
    void mirrorSnapshotsAreConsistentPrefixes() {
        std::mt19937 rng(2024);
        const Trace full = randomTrace(rng, 6000, true, false);
        LiveTraceMirror mirror;
        Trace source;
        std::shared_ptr<const Trace> held;
        size_t held_events = 0;
        Event held_last;
        int incremental = 0;
        size_t last = 0;
        for (const size_t n : splits(rng, full.events.count(), 12)) {
            // The recording trace grows by appending, as RecordingSession::poll does.
            for (size_t i = source.events.count(); i < n; ++i) {
                source.events.append(full.events.at(i));
            }
            source.segment_tags.clear();
            for (const SegmentTag& tag : full.segment_tags) {
                if (tag.event < int64_t(n)) {
                    source.segment_tags.push_back(tag);
                }
            }
            const LiveTraceMirror::Snapshot s = mirror.update(source);
            incremental += s.incremental;
            QCOMPARE(s.trace->events.count(), n);
            QVERIFY(n >= last);
            last = n;
            Trace want = prefixOf(full, n);
            want.finalize();
            QCOMPARE(traceDifference(*s.trace, want), QString());
            QCOMPARE(layoutDifference(*s.layout, TimelineLayout(want), rng), QString());
            if (!held && n > 500) {
                held = s.trace;  // a reader that keeps this snapshot
                held_events = n;
                held_last = held->events.at(n - 1);
            }
        }
        QVERIFY(held);
        QCOMPARE(held->events.count(), held_events);
        const Event now = held->events.at(held_events - 1);
        QCOMPARE(now.time_ns, held_last.time_ns);
        QCOMPARE(now.addr, held_last.addr);
        Trace want = prefixOf(full, held_events);
        want.finalize();
        QCOMPARE(traceDifference(*held, want), QString());
        QVERIFY(incremental >= 8);
    }

    // A source that did not only grow (a bounded run dropped events) is copied again whole.
    void builderStartsAgainWhenTheSourceShrank() {
        std::mt19937 rng(5);
        const Trace full = randomTrace(rng, 800, false, false);
        Trace copy;
        LiveTraceBuilder builder;
        QVERIFY(builder.update(copy, prefixOf(full, 600)));
        Trace shorter = prefixOf(full, 300);
        shorter.meta.dropped_events = 300;
        QVERIFY(!builder.update(copy, shorter));
        Trace want = shorter;
        want.finalize();
        QCOMPARE(traceDifference(copy, want), QString());
    }

    // The one growth helper of the live mirror's plain columns (the allocation index, the
    // allocations, the spans; the event columns are packed and grow by blocks): a column gets
    // the room asked for, at least twice its capacity, keeps what it held, and is left alone
    // when it has the room already.
    void columnGrowthKeepsEventsAndAtLeastDoubles() {
        std::vector<int32_t> column;
        for (int32_t i = 0; i < 30000; ++i) {
            column.push_back(i * 7 - 5);
        }
        const size_t before = column.capacity();
        growColumn(column, before + 1);
        QVERIFY(column.capacity() >= 2 * before);
        QCOMPARE(column.size(), size_t(30000));
        for (size_t i = 0; i < column.size(); ++i) {
            QCOMPARE(column[i], int32_t(i) * 7 - 5);
        }
        const int32_t* data = column.data();
        growColumn(column, column.size() + 10);  // room enough: nothing moves
        QVERIFY(column.data() == data);
        // at_least (the length a run is expected to reach) when it exceeds twice the capacity
        growColumn(column, column.capacity() + 1, 10 * before);
        QVERIFY(column.capacity() >= 10 * before);
        QCOMPARE(column.back(), int32_t(29999) * 7 - 5);

        std::vector<Span> spans;
        for (int64_t i = 0; i < 20000; ++i) {
            Span span;
            span.begin_ns = 3 * i;
            span.end_ns = 3 * i + 2;
            span.stack = uint32_t(i % 101);
            spans.push_back(span);
        }
        const size_t span_capacity = spans.capacity();
        growSpans(spans, span_capacity + 1);
        QVERIFY(spans.capacity() >= 2 * span_capacity);
        QCOMPARE(spans.size(), size_t(20000));
        for (size_t i = 0; i < spans.size(); ++i) {
            QCOMPARE(spans[i].begin_ns, int64_t(3 * i));
            QCOMPARE(spans[i].end_ns, int64_t(3 * i + 2));
            QCOMPARE(spans[i].stack, uint32_t(i % 101));
        }
    }

    // What a run will hold once it finishes, from its step count and the steps done: a quarter
    // more than the proportion, at most max_events for a bounded run's events, and 0 where the
    // trace cannot say.
    void expectedRunTotalScalesByTheStepsLeft() {
        Trace t;
        QCOMPARE(expectedRunTotal(t, 1000), size_t(0));  // no configuration (an import)
        t.meta.config = {{"num_steps", 8}, {"warmup_steps", 2}};
        t.steps.resize(1);
        QCOMPARE(expectedRunTotal(t, 1000), size_t(0));  // one step says too little
        t.steps.resize(2);
        QCOMPARE(expectedRunTotal(t, 1000), size_t(1000 / 2 * 10 * 5 / 4));
        t.meta.max_events = 4000;
        QCOMPARE(expectedRunTotal(t, 1000), size_t(6250));  // spans: not bounded
        QCOMPARE(expectedRunTotal(t, 1000, true), size_t(4000));
        t.steps.resize(10);
        QCOMPARE(expectedRunTotal(t, 1000), size_t(0));  // all done
        t.steps.resize(2);
        t.meta.config["num_steps"] = "8";  // not a number: cannot say
        t.meta.config.erase("warmup_steps");
        QCOMPARE(expectedRunTotal(t, 1000), size_t(0));
        // A run asked for a million steps: the answer is what it says; the columns cap what they
        // reserve (below).
        t.meta.config["num_steps"] = 1000000;
        QCOMPARE(expectedRunTotal(t, 18000), size_t(18000) / 2 * 1000000 * 5 / 4);
    }

    // What a column reserves ahead of need is capped at an eighth of the machine's memory (a
    // single mapping beyond memory and swap is refused by the kernel's overcommit heuristic), so
    // a run configured for millions of steps grows as any other.
    void reservingAheadIsCapped() {
        const size_t limit = reserveAheadLimitBytes();
        QVERIFY(limit >= kOwnMappingBytes);
        std::vector<Span> spans(10);
        growSpans(spans, 11, size_t(1) << 50);  // 32 PiB of spans: far beyond any machine
        QVERIFY(spans.capacity() * sizeof(Span) <= limit + kHugePageBytes);
        QVERIFY(spans.capacity() * sizeof(Span) >= std::min(limit, kOwnMappingBytes));
        QCOMPARE(spans.size(), size_t(10));
        std::vector<uint8_t> bytes;
        growColumn(bytes, 1, 1000);  // a little: as asked
        QCOMPARE(bytes.capacity(), kColumnGrowthMinimum);
    }

    // A live run configured for far more steps than the machine could hold: the mirror used to
    // reserve for the whole run uncapped (up to 10^10 events, 80 GB a column), which the kernel
    // refuses, and the bad_alloc ended the live view. Now it mirrors the run as any other. The
    // most steps a configuration may ask for (--num-steps' and --warmup-steps' ranges, checked
    // in JSON too) at this run's events a step: billions of events, tens of GB a column.
    void aRunOfBillionsOfStepsStillMirrors() {
        std::mt19937 rng(11);
        Trace source = randomTrace(rng, 3000, false, false);
        source.meta.config = {{"num_steps", 1000000}, {"warmup_steps", 1000000}};
        source.steps.resize(2);
        QVERIFY(expectedRunTotal(source, source.events.count()) > size_t(1) << 31);
        Trace copy;
        LiveTraceBuilder builder;
        try {
            QVERIFY(builder.update(copy, source));
        } catch (const std::bad_alloc&) {
            QFAIL("the mirror asked for more memory than the machine has");
        }
        QCOMPARE(copy.events.count(), source.events.count());
        QCOMPARE(copy.spans.size(), source.spans.size());
        QVERIFY(copy.allocationOfEvent().capacity() * sizeof(int32_t) <=
                reserveAheadLimitBytes() + kHugePageBytes);
        // The allocation index too: it reserved in proportion to the capped events, about 0.4
        // of memory in one mapping.
        QVERIFY(copy.allocations().records().capacity() * sizeof(AllocationRecord) <=
                reserveAheadLimitBytes());
    }

    // A column that outgrows a huge page gets a mapping of its own (at least kOwnMappingBytes
    // and a huge page more), and grows again before it would write past its last whole huge
    // page, where the kernel faults 4 KiB pages.
    void largeColumnsGrowIntoWholeHugePages() {
        std::vector<int64_t> column;
        growColumn(column, 1000);
        QCOMPARE(column.capacity(), kColumnGrowthMinimum);  // small: as before
        QCOMPARE(hugePageCapacity(column), column.capacity());
        const size_t past_a_huge_page = kHugePageBytes / sizeof(int64_t) + 1;
        growColumn(column, past_a_huge_page);
        QVERIFY(column.capacity() * sizeof(int64_t) >= kOwnMappingBytes + kHugePageBytes);
        const size_t usable = hugePageCapacity(column);
        QVERIFY(usable < column.capacity());
        QVERIFY(usable >= kOwnMappingBytes / sizeof(int64_t));
        const auto end = reinterpret_cast<uintptr_t>(column.data() + usable);
        QCOMPARE(end % kHugePageBytes, uintptr_t(0));  // ends where a whole huge page ends
        for (size_t i = 0; i < usable; ++i) {
            column.push_back(int64_t(i));
        }
        const int64_t* data = column.data();
        growColumn(column, usable);  // still inside: nothing moves
        QVERIFY(column.data() == data);
        growColumn(column, usable + 1);  // past it: a fresh buffer, though capacity is left
        QVERIFY(column.data() != data);
        QVERIFY(hugePageCapacity(column) >= 2 * usable);
        QCOMPARE(column.size(), usable);
        for (size_t i = 0; i < usable; i += 4099) {
            QCOMPARE(column[i], int64_t(i));
        }
    }

    // The columns ask for huge pages only when MEMSCOPE_HUGE_PAGES=1 says so; another value is
    // reported and leaves the default (4 KiB pages).
    void hugePagesOnlyWhenAskedFor() {
        std::string warning;
        const auto unset = HugePagePolicy::fromEnvironment(nullptr, &warning);
        QVERIFY(!unset.use_huge_pages);
        QCOMPARE(unset.source, std::string("default"));
        QVERIFY(warning.empty());
        const auto on = HugePagePolicy::fromEnvironment("1", &warning);
        QVERIFY(on.use_huge_pages);
        QCOMPARE(on.describe(), std::string("huge pages: yes (MEMSCOPE_HUGE_PAGES=1)"));
        QVERIFY(!HugePagePolicy::fromEnvironment("0", &warning).use_huge_pages);
        QVERIFY(warning.empty());
        const auto bad = HugePagePolicy::fromEnvironment("yes", &warning);
        QVERIFY(!bad.use_huge_pages);
        QVERIFY(warning.find("MEMSCOPE_HUGE_PAGES=yes") != std::string::npos);
        QVERIFY(!HugePagePolicy::parseOverride("").has_value());
        // the process's own policy is decided once: the same answer on every call
        const auto& first = HugePagePolicy::current();
        QVERIFY(&first == &HugePagePolicy::current());
        QVERIFY(!first.source.empty());
    }

    // Backward starts keep each step's first backward event, whatever order the steps come in,
    // and a step number no run reaches (a damaged file's 2^31 - 1) neither allocates for the
    // steps before it nor is lost. A dense vector up to that step would need 16 GiB.
    void backwardStartsStayBoundedWhateverTheSteps() {
        BackwardStarts starts;
        QCOMPARE(starts.at(0), int64_t(-1));
        starts.note(3, 10);
        starts.note(3, 11);  // not the first
        starts.note(4, 20);
        starts.note(std::numeric_limits<int32_t>::max(), 30);
        starts.note(std::numeric_limits<int32_t>::max(), 31);
        starts.note(1, 40);  // before the first step seen
        starts.note(1, 41);
        starts.note(200000, 50);  // far past the dense steps, then reached by them
        for (int32_t step = 5; step <= 200000; ++step) {
            starts.note(step, 60 + step);
        }
        QCOMPARE(starts.at(3), int64_t(10));
        QCOMPARE(starts.at(4), int64_t(20));
        QCOMPARE(starts.at(std::numeric_limits<int32_t>::max()), int64_t(30));
        QCOMPARE(starts.at(1), int64_t(40));
        QCOMPARE(starts.at(2), int64_t(-1));
        QCOMPARE(starts.at(200000), int64_t(50));
        QCOMPARE(starts.at(199999), int64_t(60 + 199999));
        QCOMPARE(starts.at(std::numeric_limits<int32_t>::max() - 1), int64_t(-1));
        starts.clear();
        QCOMPARE(starts.at(3), int64_t(-1));
    }
};

QTEST_GUILESS_MAIN(TestLiveTrace)
#include "test_live_trace.moc"
