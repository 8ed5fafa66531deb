// OomExplanation (explain/oom_explanation.h): the first out-of-memory event of a run explained:
// the request, capacity, allocated, reserved and free bytes, capacity or fragmentation, the
// categories and the modules alive at that moment; on hand-made traces whose figures are
// worked out by hand, and on bad data.

#include "module_fixture.h"
#include "segment_fixtures.h"

#include "explain/module_table.h"
#include "explain/oom_explanation.h"
#include "explain/trace_summary.h"

#include <QtTest>

using namespace memscope;
using namespace memscope::test;

namespace {

// A CPU run under a 1000-byte limit (RunMetadata::capacity_bytes, and the OOM event's reserved
// column): Net.l1's weight (300 B, owned through a Role event), Net.l1's forward output h1
// (250 B), Net.l2's forward output h2 (200 B, made in its aten::mm), a temporary of Net.l2 freed
// at once, the loss outside any module (50 B); then "backward of Net.l2" / aten::mm_backward
// asks for 400 B with 800 B in use: 200 B free.
struct CpuFixture {
    Trace trace;
    int64_t oom_event = -1;
    uint32_t oom_stack = 0;

    explicit CpuFixture(int64_t capacity = 1000, bool bad_stack = false) {
        trace.meta.device = "cpu";
        trace.meta.capacity_bytes = capacity;
        auto& s = trace.stacks;
        auto node = [&s](uint32_t parent, const char* name, FrameKind kind) {
            return s.child(parent, s.internFrame({name, "", 0, kind}));
        };
        const uint32_t net = node(StackTable::kEmpty, "Net", FrameKind::Module);
        const uint32_t l1 = node(net, "Net.l1", FrameKind::Module);
        const uint32_t l2 = node(net, "Net.l2", FrameKind::Module);
        const uint32_t l2_mm = node(l2, "aten::mm", FrameKind::Operator);
        const uint32_t own1 = node(StackTable::kEmpty, "Net.l1", FrameKind::Module);
        const uint32_t bw2 = node(StackTable::kEmpty, "backward of Net.l2", FrameKind::BackwardOf);
        oom_stack = node(bw2, "aten::mm_backward", FrameKind::Operator);
        EventWriter event{trace};
        event(EventKind::Alloc, 0x100, 300, 0, Phase::Init, 0);
        event(EventKind::Role, 0x100, int64_t(Category::Parameter), own1, Phase::Init, 0);
        event(EventKind::Alloc, 0x200, 250, l1, Phase::Forward, 1);
        event(EventKind::Alloc, 0x300, 200, l2_mm, Phase::Forward, 1);
        event(EventKind::Alloc, 0x380, 100, l2_mm, Phase::Forward, 1);
        event(EventKind::Free, 0x380, -100, l2_mm, Phase::Forward, 1);
        event(EventKind::Alloc, 0x400, 50, 0, Phase::Forward, 1);
        oom_event = int64_t(trace.events.count());
        // An OOM event carries the capacity in its reserved column (trace.h).
        event(EventKind::Oom, 0, 400, bad_stack ? 99'999 : oom_stack, Phase::Backward, 1, capacity);
        trace.finalize();
    }
};

const OomExplanation::ModuleRow* moduleRow(const OomExplanation& x, const std::string& path) {
    for (const auto& m : x.modules()) {
        if (m.path == path) {
            return &m;
        }
    }
    return nullptr;
}

int64_t categorySum(const OomExplanation& x) {
    int64_t sum = 0;
    for (const auto& c : x.categories()) {
        sum += c.second;
    }
    return sum;
}

// One 64 MiB device. Two 32 MiB segments, each with blocks 8 MiB apart:
//   A: [0, 8) alloc, [8, 16) free, [16, 24) alloc, [24, 32) free
//   B: [0, 8) free,  [8, 16) alloc, [16, 24) free, [24, 32) alloc
// 32 MiB allocated, 32 MiB free in four 8 MiB gaps; `capacity` beyond 64 MiB is not reserved.
Trace scatteredSegments(int64_t request, int64_t capacity) {
    const uint64_t a = 0x7f0000000000, b = 0x7f0010000000;
    SegmentTraceBuilder t;
    t.reserve(a, 32 * kMiB)
        .alloc(a, 8 * kMiB, Category::Parameter)
        .alloc(a + 8 * kMiB, 8 * kMiB, Category::Activation)
        .alloc(a + 16 * kMiB, 8 * kMiB, Category::Activation)
        .alloc(a + 24 * kMiB, 8 * kMiB, Category::Activation)
        .reserve(b, 32 * kMiB)
        .alloc(b, 8 * kMiB, Category::Activation)
        .alloc(b + 8 * kMiB, 8 * kMiB, Category::Gradient)
        .alloc(b + 16 * kMiB, 8 * kMiB, Category::Activation)
        .alloc(b + 24 * kMiB, 8 * kMiB, Category::Activation)
        .free(a + 8 * kMiB)
        .free(a + 24 * kMiB)
        .free(b)
        .free(b + 16 * kMiB)
        .oom(request, capacity);
    return t.build();
}

}  // namespace

class TestOomExplanation : public QObject {
    Q_OBJECT

  private slots:
    void cpuLimitIsACapacityVerdict() {
        const CpuFixture f;
        const auto x = OomExplanation::explain(f.trace);
        QVERIFY(x.has_value());
        QCOMPARE(x->request().event, f.oom_event);
        QCOMPARE(x->request().bytes, int64_t(400));
        QCOMPARE(x->request().device, int16_t(-1));
        QCOMPARE(x->request().step, 1);
        QVERIFY(x->request().phase == Phase::Backward);
        QCOMPARE(x->request().module, std::string("Net.l2"));
        QVERIFY(x->request().in_backward);
        QCOMPARE(x->request().op, std::string("aten::mm_backward"));
        QCOMPARE(x->request().stack, f.trace.stacks.describe(f.oom_stack));
        QCOMPARE(x->capacity(), int64_t(1000));
        QVERIFY(x->capacityKnown());
        QCOMPARE(x->allocated(), int64_t(800));
        QVERIFY(!x->hasSegments());
        QCOMPARE(x->reserved(), int64_t(-1));
        QCOMPARE(x->freeBytes(), int64_t(200));
        QCOMPARE(x->largestFreeRegion(), int64_t(-1));
        QCOMPARE(x->verdict(), OomExplanation::Verdict::Capacity);

        const auto j = x->toJson();
        QCOMPARE(j["verdict"].get<std::string>(), std::string("capacity"));
        QVERIFY(j["setting"].is_null());
        QVERIFY(j["reserved_bytes"].is_null());
        QCOMPARE(j["free_bytes"].get<int64_t>(), int64_t(200));
        const std::string text = x->toText();
        QVERIFY2(text.find("400 B") != std::string::npos, text.c_str());
        QVERIFY2(text.find("200 B free") != std::string::npos, text.c_str());
        QVERIFY2(text.find("Capacity:") != std::string::npos, text.c_str());
        QVERIFY2(text.find("backward of Net.l2 / aten::mm_backward") != std::string::npos,
                 text.c_str());
        QVERIFY2(text.find("expandable_segments") == std::string::npos, text.c_str());
    }

    // An OOM in forward (the step never reached backward): the forward's tensors alive at it are
    // the activations it would have saved (CategoryRule::AliveAtOutOfMemory), not temporaries,
    // though the unwinding frees them in that same forward; one freed before it stays a
    // temporary, and a forward of an earlier step that had its backward is unchanged.
    void forwardOomCallsWhatItHeldActivations() {
        Trace trace;
        trace.meta.device = "cpu";
        trace.meta.capacity_bytes = 1000;
        EventWriter event{trace};
        event(EventKind::Alloc, 0x100, 200, 0, Phase::Forward, 1);  // saved in step 1
        event(EventKind::Alloc, 0x180, 50, 0, Phase::Forward, 1);   // freed in step 1's forward
        event(EventKind::Free, 0x180, -50, 0, Phase::Forward, 1);
        event(EventKind::Free, 0x100, -200, 0, Phase::Backward, 1);
        event(EventKind::Alloc, 0x200, 300, 0, Phase::Forward, 2);  // alive at the OOM
        event(EventKind::Alloc, 0x280, 100, 0, Phase::Forward, 2);  // freed before it
        event(EventKind::Free, 0x280, -100, 0, Phase::Forward, 2);
        event(EventKind::Alloc, 0x300, 400, 0, Phase::Forward, 2);  // alive at the OOM
        event(EventKind::Oom, 0, 600, 0, Phase::Forward, 2, 1000);
        event(EventKind::Free, 0x300, -400, 0, Phase::Forward, 2);  // the exception unwinds
        event(EventKind::Free, 0x200, -300, 0, Phase::Forward, 2);
        trace.finalize();
        auto ruleAt = [&](uint64_t addr) {
            for (const auto& a : trace.allocations()) {
                if (a.addr == addr) {
                    return std::make_pair(a.category, a.rule);
                }
            }
            return std::make_pair(Category::Unknown, CategoryRule::NothingTells);
        };
        QVERIFY(ruleAt(0x100) ==
                std::make_pair(Category::Activation, CategoryRule::FreedInBackward));
        QVERIFY(ruleAt(0x180) == std::make_pair(Category::Temporary, CategoryRule::FreedInPhase));
        QVERIFY(ruleAt(0x200) ==
                std::make_pair(Category::Activation, CategoryRule::AliveAtOutOfMemory));
        QVERIFY(ruleAt(0x280) == std::make_pair(Category::Temporary, CategoryRule::FreedInPhase));
        QVERIFY(ruleAt(0x300) ==
                std::make_pair(Category::Activation, CategoryRule::AliveAtOutOfMemory));
        const auto x = OomExplanation::explain(trace);
        QVERIFY(x.has_value());
        QCOMPARE(x->categories().size(), size_t(1));
        QCOMPARE(x->categories()[0].first, std::string("ACTIVATION"));
        QCOMPARE(x->categories()[0].second, int64_t(700));
        QCOMPARE(TraceSummary::ruleId(CategoryRule::AliveAtOutOfMemory),
                 std::string("ALIVE_AT_OUT_OF_MEMORY"));
    }

    void moduleRowsAtTheOomSumToTheAllocatedBytes() {
        const CpuFixture f;
        const auto x = OomExplanation::explain(f.trace);
        QVERIFY(x.has_value());
        // The bytes alive at the OOM: the weight, h1, h2 and the loss.
        QCOMPARE(x->aliveBytes(), int64_t(800));
        QCOMPARE(x->aliveBytes(), x->allocated());
        int64_t tops = 0;
        for (const auto& m : x->modules()) {
            QVERIFY(m.depth <= 1);
            tops += m.depth == 0 ? m.held : 0;
        }
        QCOMPARE(tops, x->allocated());
        // Net.l1: its weight (owned through the Role event) and h1; Net.l2: h2 (its temporary
        // was freed); the loss has no module.
        QVERIFY(moduleRow(*x, "Net") && moduleRow(*x, "Net.l1") && moduleRow(*x, "Net.l2"));
        QCOMPARE(moduleRow(*x, "Net")->held, int64_t(750));
        QCOMPARE(moduleRow(*x, "Net.l1")->held, int64_t(550));
        QCOMPARE(moduleRow(*x, "Net.l2")->held, int64_t(200));
        QVERIFY(moduleRow(*x, ""));
        QCOMPARE(moduleRow(*x, "")->held, int64_t(50));
        // The same as the lead's table at that event.
        const auto table = ModuleTable::compute(f.trace, f.oom_event);
        QCOMPARE(table.aliveBytes(), x->aliveBytes());
        // Categories: what Trace::bytesByCategoryAt gives, largest first, summing to the same.
        QCOMPARE(categorySum(*x), int64_t(800));
        for (size_t i = 1; i < x->categories().size(); ++i) {
            QVERIFY(x->categories()[i - 1].second >= x->categories()[i].second);
        }
        bool parameters = false;
        for (const auto& [name, bytes] : x->categories()) {
            if (name == "PARAMETER") {
                parameters = true;
                QCOMPARE(bytes, int64_t(300));
            }
        }
        QVERIFY(parameters);
    }

    void scatteredFreeBytesAreAFragmentationVerdict() {
        // 12 MiB asked, 32 MiB free, but no gap above 8 MiB and nothing left to reserve.
        const Trace t = scatteredSegments(12 * kMiB, 64 * kMiB);
        const auto x = OomExplanation::explain(t);
        QVERIFY(x.has_value());
        QVERIFY(x->hasSegments());
        QCOMPARE(x->request().device, int16_t(0));
        QCOMPARE(x->capacity(), 64 * kMiB);
        QCOMPARE(x->reserved(), 64 * kMiB);
        QCOMPARE(x->allocated(), 32 * kMiB);
        QCOMPARE(x->freeInSegments(), 32 * kMiB);
        QCOMPARE(x->unreserved(), int64_t(0));
        QCOMPARE(x->freeBytes(), 32 * kMiB);
        QCOMPARE(x->largestFreeRegion(), 8 * kMiB);
        QCOMPARE(x->freeRegions(), int64_t(4));
        QCOMPARE(x->verdict(), OomExplanation::Verdict::Fragmentation);
        const auto j = x->toJson();
        QCOMPARE(j["verdict"].get<std::string>(), std::string("fragmentation"));
        QCOMPARE(j["setting"].get<std::string>(),
                 std::string("PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True"));
        const std::string text = x->toText();
        QVERIFY2(text.find("expandable_segments:True") != std::string::npos, text.c_str());
        QVERIFY2(text.find("Fragmentation:") != std::string::npos, text.c_str());
        QVERIFY2(text.find("4 pieces") != std::string::npos, text.c_str());
        QVERIFY2(text.find("12,582,912 B") != std::string::npos, text.c_str());
        // Nothing names a module: every byte is in the "(no module)" row.
        QCOMPARE(x->modules().size(), size_t(1));
        QCOMPARE(x->modules().front().held, 32 * kMiB);
        QCOMPARE(categorySum(*x), 32 * kMiB);
    }

    void unreservedCapacityIsOneMoreFreeRegion() {
        // 8 MiB not reserved: five regions of 8 MiB, still none of 12 MiB.
        const Trace t = scatteredSegments(12 * kMiB, 72 * kMiB);
        auto x = OomExplanation::explain(t);
        QVERIFY(x.has_value());
        QCOMPARE(x->unreserved(), 8 * kMiB);
        QCOMPARE(x->freeBytes(), 40 * kMiB);
        QCOMPARE(x->freeRegions(), int64_t(5));
        QCOMPARE(x->verdict(), OomExplanation::Verdict::Fragmentation);
        // 20 MiB not reserved: a region large enough exists, so it is neither.
        x = OomExplanation::explain(scatteredSegments(12 * kMiB, 84 * kMiB));
        QCOMPARE(x->largestFreeRegion(), 20 * kMiB);
        QCOMPARE(x->verdict(), OomExplanation::Verdict::Undetermined);
        // One byte more than the 40 MiB free (32 in gaps, 8 not reserved): capacity.
        x = OomExplanation::explain(scatteredSegments(40 * kMiB + 1, 72 * kMiB));
        QCOMPARE(x->verdict(), OomExplanation::Verdict::Capacity);
        // A gap exactly as large as the request fits it: not fragmentation.
        x = OomExplanation::explain(scatteredSegments(8 * kMiB, 64 * kMiB));
        QCOMPARE(x->verdict(), OomExplanation::Verdict::Undetermined);
    }

    void runWithoutOomHasNoExplanation() {
        SegmentTraceBuilder b;
        b.reserve(0x1000, 4 * kMiB).alloc(0x1000, kMiB);
        QVERIFY(!OomExplanation::explain(b.build()).has_value());
        QVERIFY(!OomExplanation::explain(Trace()).has_value());
        QVERIFY(TraceSummary::compute(b.build())["oom_explanation"].is_null());
    }

    void summaryCarriesTheExplanation() {
        const CpuFixture f;
        const auto s = TraceSummary::compute(f.trace);
        QVERIFY(s["oom_explanation"].is_object());
        QCOMPARE(s["oom_explanation"]["verdict"].get<std::string>(), std::string("capacity"));
        const std::string text = TraceSummary::toText(f.trace, s);
        QVERIFY2(text.find("Out of memory explained") != std::string::npos, text.c_str());
    }

    void jsonRoundTrips() {
        for (const Trace& t :
             {CpuFixture().trace, scatteredSegments(12 * kMiB, 72 * kMiB), Trace()}) {
            const auto x = OomExplanation::explain(t);
            if (!x) {
                continue;
            }
            const auto back = OomExplanation::fromJson(x->toJson());
            QVERIFY(back.has_value());
            QCOMPARE(back->toJson(), x->toJson());
            QCOMPARE(back->toText(), x->toText());
        }
        QVERIFY(!OomExplanation::fromJson(nlohmann::json()).has_value());
        QVERIFY(!OomExplanation::fromJson(nlohmann::json::array()).has_value());
        // Fields of the wrong type read as absent, never throw.
        const auto odd = OomExplanation::fromJson(
            {{"request", {{"bytes", "many"}, {"phase", 3}}}, {"modules", {1, 2}}});
        QVERIFY(odd.has_value());
        QCOMPARE(odd->request().bytes, int64_t(0));
        QVERIFY(!odd->toText().empty());
    }

    void badDataIsExplainedWithoutCrashing() {
        // No capacity anywhere: undetermined, says so.
        {
            const CpuFixture f(0);
            const auto x = OomExplanation::explain(f.trace);
            QVERIFY(x.has_value());
            QVERIFY(!x->capacityKnown());
            QCOMPARE(x->capacity(), int64_t(0));
            QCOMPARE(x->verdict(), OomExplanation::Verdict::Undetermined);
            QVERIFY(x->toText().find("Capacity not recorded") != std::string::npos);
        }
        // A stack id beyond the stack table.
        {
            const CpuFixture f(1000, true);
            const auto x = OomExplanation::explain(f.trace);
            QVERIFY(x.has_value());
            QVERIFY(x->request().stack_unknown);
            QVERIFY(x->request().module.empty());
            QVERIFY(x->request().op.empty());
            QCOMPARE(x->verdict(), OomExplanation::Verdict::Capacity);
            QVERIFY(x->toText().find("Stack: unknown") != std::string::npos);
        }
        // An OOM before any allocation, with a negative size and a nonsense phase.
        {
            Trace t;
            Event e;
            e.kind = EventKind::Oom;
            e.size = -5;
            e.reserved = 100;
            e.stack = 7;
            e.phase = static_cast<Phase>(200);
            t.events.append(e);
            t.finalize();
            const auto x = OomExplanation::explain(t);
            QVERIFY(x.has_value());
            QCOMPARE(x->request().bytes, int64_t(0));
            QVERIFY(x->request().phase == Phase::Other);
            QCOMPARE(x->allocated(), int64_t(0));
            QCOMPARE(x->freeBytes(), int64_t(100));
            QVERIFY(x->categories().empty());
            QVERIFY(x->modules().empty());
            QCOMPARE(x->aliveBytes(), int64_t(0));
            QVERIFY(x->toText().find("nothing the run recorded was alive") != std::string::npos);
        }
        // Reserved beyond the stated capacity: the capacity is at least what is reserved.
        {
            const Trace t = scatteredSegments(12 * kMiB, 16 * kMiB);
            const auto x = OomExplanation::explain(t);
            QCOMPARE(x->capacity(), 64 * kMiB);
            QCOMPARE(x->unreserved(), int64_t(0));
            QCOMPARE(x->verdict(), OomExplanation::Verdict::Fragmentation);
        }
    }
};

QTEST_GUILESS_MAIN(TestOomExplanation)
#include "test_oom_explanation.moc"
