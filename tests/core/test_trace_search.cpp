// TraceSearch (analysis/trace_search.h): addresses, frame names and files, categories.

#include "analysis/trace_search.h"

#include "analysis_fixtures.h"

#include <QtTest>

using namespace memscope;

class TestTraceSearch : public QObject {
    Q_OBJECT

    // The fixture's allocations by address (a0..a4 are at 0xa0..0xa4).
    static QString addrs(const Trace& trace, const std::vector<int64_t>& hits) {
        QStringList out;
        for (int64_t a : hits) {
            out << QString::number(trace.allocations()[size_t(a)].addr, 16);
        }
        out.sort();
        return out.join(QLatin1Char(','));
    }

  private slots:
    void frame_names() {
        AnalysisFixture f;
        const Trace& t = f.trace;
        // aten::addmm's allocation only; "aten::" also finds those under linear and mm.
        QCOMPARE(addrs(t, TraceSearch::matches(t, "addmm")), QStringLiteral("a0"));
        QCOMPARE(addrs(t, TraceSearch::matches(t, "aten::")), QStringLiteral("a0,a1,a3"));
        // Case and blanks do not matter; the module M is an ancestor of a0, a1 and a4.
        QCOMPARE(addrs(t, TraceSearch::matches(t, "  ATEN::MM ")), QStringLiteral("a3"));
        QCOMPARE(addrs(t, TraceSearch::matches(t, "mmbackward")), QStringLiteral("a3"));
        QCOMPARE(addrs(t, TraceSearch::matches(t, "backward of m")), QStringLiteral("a3"));
        QVERIFY(TraceSearch::matches(t, "no such frame").empty());
        QVERIFY(TraceSearch::matches(t, "   ").empty());
    }

    void addresses() {
        AnalysisFixture f;
        const Trace& t = f.trace;
        // 0xa3 starts a3 and lies inside a0 (1000 B at 0xa0), a1 (50 B at 0xa1) and a2 (7 B at
        // 0xa2), not a4 (at 0xa4): the fixture's blocks overlap, real ones do not.
        QCOMPARE(addrs(t, TraceSearch::matches(t, "0xa3")), QStringLiteral("a0,a1,a2,a3"));
        QCOMPARE(addrs(t, TraceSearch::matches(t, "0XA")), QStringLiteral("a0,a1,a2,a3,a4"));
        // Inside a block: 0x100 lies in a0 (1000 bytes at 0xa0) and a3 (400 bytes at 0xa3).
        QCOMPARE(addrs(t, TraceSearch::matches(t, "0x100")), QStringLiteral("a0,a3"));
        // Bare hex needs six digits: "a3" is a word (no frame has it), not an address.
        QVERIFY(TraceSearch::matches(t, "a3").empty());
        uint64_t value = 0;
        bool explicit_hex = false;
        QVERIFY(TraceSearch::parseAddress("7f12ab34cd00", value, explicit_hex));
        QCOMPARE(value, uint64_t(0x7f12ab34cd00));
        QVERIFY(!explicit_hex);
        QVERIFY(TraceSearch::parseAddress("0x7F12", value, explicit_hex));
        QCOMPARE(value, uint64_t(0x7f12));
        QVERIFY(explicit_hex);
        QVERIFY(!TraceSearch::parseAddress("0x", value, explicit_hex));
        QVERIFY(!TraceSearch::parseAddress("0xg1", value, explicit_hex));
        QVERIFY(!TraceSearch::parseAddress("0x12345678901234567", value, explicit_hex));
    }

    void bare_hex_addresses() {
        Trace trace;
        Event e;
        e.kind = EventKind::Alloc;
        e.addr = 0x7f12ab34cd00;
        e.size = 64;
        trace.events.append(e);
        e.addr = 0x7f12ab990000;
        trace.events.append(e);
        trace.finalize();
        QCOMPARE(TraceSearch::matches(trace, "7f12ab34").size(), size_t(1));
        QCOMPARE(TraceSearch::matches(trace, "7f12ab").size(), size_t(2));
        QCOMPARE(TraceSearch::matches(trace, "0x7f12ab34cd20").size(), size_t(1));  // inside
    }

    void categories_and_files() {
        AnalysisFixture f;
        Trace& t = f.trace;
        // Every allocation of the fixture has some category; searching its name finds it.
        const Category c = t.allocations()[0].category;
        const std::string name = toString(c);
        const auto hits = TraceSearch::matches(t, name);
        QVERIFY(std::find(hits.begin(), hits.end(), 0) != hits.end());
        for (int64_t a : hits) {
            const Allocation& alloc = t.allocations()[size_t(a)];
            const bool by_stack =
                alloc.alloc_event >= 0 &&
                QString::fromStdString(t.stacks.describe(t.events.stack[size_t(alloc.alloc_event)]))
                    .contains(QString::fromStdString(name), Qt::CaseInsensitive);
            QVERIFY(alloc.category == c || by_stack);
        }
        // Underscores and blanks are the same.
        QCOMPARE(TraceSearch::normalize("OPTIMIZER_STATE"), std::string("optimizer state"));
        // A frame's file is searched too.
        Trace trace;
        const uint32_t frame =
            trace.stacks.internFrame({"forward", "train_model.py", 12, FrameKind::Other});
        Event e;
        e.kind = EventKind::Alloc;
        e.addr = 0x40;
        e.size = 8;
        e.stack = trace.stacks.child(StackTable::kEmpty, frame);
        trace.events.append(e);
        trace.finalize();
        QCOMPARE(TraceSearch::matches(trace, "train model.py").size(), size_t(1));
        QCOMPARE(TraceSearch::matches(trace, "forward").size(), size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestTraceSearch)
#include "test_trace_search.moc"
