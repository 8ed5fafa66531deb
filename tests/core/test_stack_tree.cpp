// Stack trees (flame graph, heaptrack's top-down and bottom-up trees) and the per-stack
// difference of two runs: exact bytes on the hand-made analysis trace, and brute force on random
// traces (every node's bytes are the allocations alive at the event under it).

#include "analysis/event_at.h"
#include "analysis/stack_diff.h"
#include "analysis/stack_tree.h"
#include "model/input_error.h"
#include "trace/trace.h"

#include <QtTest/QtTest>

#include <map>
#include <random>

#include "analysis_fixtures.h"

using namespace memscope;

namespace {

using Direction = StackTreeOptions::Direction;

int32_t findChild(const StackTree& tree, int32_t parent, const std::string& name) {
    for (int32_t c : tree.node(parent).children) {
        if (tree.node(c).name == name) {
            return c;
        }
    }
    return -1;
}

// The node at a path of frame names below the root, or -1.
int32_t findPath(const StackTree& tree, std::initializer_list<const char*> names) {
    int32_t node = 0;
    for (const char* name : names) {
        node = findChild(tree, node, name);
        if (node < 0) {
            return -1;
        }
    }
    return node;
}

std::vector<std::string> childNames(const StackTree& tree, int32_t node) {
    std::vector<std::string> out;
    for (int32_t c : tree.node(node).children) {
        out.push_back(tree.node(c).name);
    }
    return out;
}

// Builds small traces by hand: stacks by frame names (all Operator frames unless named "M..."),
// allocs and frees by address with the running total in `allocated`.
struct TraceBuilder {
    Trace trace;
    int64_t live = 0;
    int64_t time = 0;

    uint32_t stack(const std::vector<std::string>& names) {
        uint32_t node = StackTable::kEmpty;
        for (const auto& n : names) {
            const FrameKind kind = n[0] == 'M' ? FrameKind::Module : FrameKind::Operator;
            node = trace.stacks.child(node, trace.stacks.internFrame({n, "", 0, kind}));
        }
        return node;
    }
    void event(EventKind kind, uint64_t addr, int64_t size, uint32_t stack) {
        Event e;
        e.time_ns = time += 10;
        e.kind = kind;
        e.addr = addr;
        e.size = size;
        live += size;
        e.allocated = live;
        e.stack = stack;
        e.phase = Phase::Forward;
        e.step = 1;
        trace.events.append(e);
    }
    void alloc(uint64_t addr, int64_t size, uint32_t stack) {
        event(EventKind::Alloc, addr, size, stack);
    }
    void free(uint64_t addr, int64_t size) { event(EventKind::Free, addr, -size, 0); }
};

}  // namespace

class TestStackTree : public QObject {
    Q_OBJECT

  private slots:
    void topDownAtThePeak();
    void bottomUpWithHeaptrackFigures();
    void eventRangeRestrictsTheTree();
    void chosenEventAndAllocationsOfANode();
    void mergedLinesMakeOneNodePerFunction();
    void foldedStacks();
    void framesWithASourceLocation();
    void differenceOfTwoRuns();
    void randomTracesAgreeWithBruteForce();
    void emptyTrace();
    void eventAtParsesAndResolves();
};

void TestStackTree::topDownAtThePeak() {
    AnalysisFixture f;
    const StackTree tree = StackTree::build(f.trace);
    // Events: 7, 1007, 1057, 1007, 1037, 1437, 1037 bytes allocated: the peak is event 5.
    QCOMPARE(tree.atEvent(), int64_t(5));
    QCOMPARE(tree.root().bytes, int64_t(1437));
    QCOMPARE(tree.root().alive_count, int64_t(4));
    QCOMPARE(tree.root().allocated_bytes, int64_t(1487));
    QCOMPARE(tree.root().allocations, int64_t(5));
    QCOMPARE(childNames(tree, 0),
             (std::vector<std::string>{"M", "backward of M", StackTree::kNoStack}));
    const int32_t m = findPath(tree, {"M"});
    QCOMPARE(tree.node(m).bytes, int64_t(1030));  // a0 in addmm and a4 in M itself
    QCOMPARE(tree.node(m).alive_count, int64_t(2));
    QCOMPARE(tree.node(m).allocated_bytes, int64_t(1080));  // a1 (freed) too
    QCOMPARE(tree.node(m).kind, FrameKind::Module);
    QCOMPARE(childNames(tree, m), std::vector<std::string>{"aten::linear"});  // add_ allocated none
    const int32_t addmm = findPath(tree, {"M", "aten::linear", "aten::addmm"});
    QVERIFY(addmm > 0);
    QCOMPARE(tree.node(addmm).bytes, int64_t(1000));
    QCOMPARE(tree.node(addmm).depth, 3);
    QCOMPARE(tree.path(addmm), (std::vector<std::string>{"M", "aten::linear", "aten::addmm"}));
    const int32_t mm = findPath(tree, {"backward of M", "MmBackward0", "aten::mm"});
    QCOMPARE(tree.node(mm).bytes, int64_t(400));
    QCOMPARE(tree.node(mm).kind, FrameKind::Operator);
    QCOMPARE(tree.node(findPath(tree, {StackTree::kNoStack})).bytes, int64_t(7));
    // Category bytes add up to the bytes of each node.
    for (const StackTreeNode& n : tree.nodes()) {
        int64_t sum = 0;
        for (int64_t b : n.category_bytes) {
            sum += b;
        }
        QCOMPARE(sum, n.bytes);
    }
}

void TestStackTree::bottomUpWithHeaptrackFigures() {
    AnalysisFixture f;
    StackTreeOptions options;
    options.direction = Direction::BottomUp;
    const StackTree tree = StackTree::build(f.trace, options);
    QCOMPARE(tree.direction(), Direction::BottomUp);
    QCOMPARE(tree.root().bytes, int64_t(1437));
    // Innermost frames first, largest alive bytes first; aten::linear holds nothing at the peak
    // (its 50 B were freed) but made an allocation.
    QCOMPARE(childNames(tree, 0), (std::vector<std::string>{"aten::addmm", "aten::mm", "M",
                                                            StackTree::kNoStack, "aten::linear"}));
    const int32_t addmm_m = findPath(tree, {"aten::addmm", "aten::linear", "M"});
    QCOMPARE(tree.node(addmm_m).bytes, int64_t(1000));
    const int32_t linear = findPath(tree, {"aten::linear"});
    QCOMPARE(tree.node(linear).bytes, int64_t(0));
    QCOMPARE(tree.node(linear).allocated_bytes, int64_t(50));
    QCOMPARE(tree.node(linear).allocations, int64_t(1));
    // a1 (50 B) is freed by the very next event, and so is a3 (400 B): both temporary.
    QCOMPARE(tree.node(linear).temporary_bytes, int64_t(50));
    QCOMPARE(tree.node(linear).temporaries, int64_t(1));
    const int32_t mm = findPath(tree, {"aten::mm"});
    QCOMPARE(tree.node(mm).temporary_bytes, int64_t(400));
    QCOMPARE(tree.node(findPath(tree, {"aten::mm", "MmBackward0", "backward of M"})).bytes,
             int64_t(400));
    QCOMPARE(tree.root().temporary_bytes, int64_t(450));
    QCOMPARE(tree.root().temporaries, int64_t(2));
    QCOMPARE(tree.node(findPath(tree, {"aten::addmm"})).temporary_bytes, int64_t(0));
}

void TestStackTree::eventRangeRestrictsTheTree() {
    AnalysisFixture f;
    StackTreeOptions options;
    options.first_event = 2;
    options.last_event = 4;
    const StackTree tree = StackTree::build(f.trace, options);
    QCOMPARE(tree.firstEvent(), int64_t(2));
    QCOMPARE(tree.lastEvent(), int64_t(4));
    QCOMPARE(tree.atEvent(), int64_t(2));                // the peak inside the range: 1057 B
    QCOMPARE(tree.root().bytes, int64_t(1057));          // a2, a0, a1
    QCOMPARE(tree.root().allocated_bytes, int64_t(50));  // only a1 was made in the range
    QCOMPARE(tree.root().allocations, int64_t(1));
    QCOMPARE(tree.root().temporary_bytes, int64_t(50));
    QCOMPARE(findPath(tree, {"backward of M"}), -1);  // a3 is outside the range
    QCOMPARE(tree.node(findPath(tree, {"M", "aten::linear"})).bytes, int64_t(1050));

    // A range with no alloc or free in it after the last event: nothing.
    options.first_event = 7;
    options.last_event = 100;
    const StackTree empty = StackTree::build(f.trace, options);
    QCOMPARE(empty.atEvent(), int64_t(-1));
    QCOMPARE(empty.root().bytes, int64_t(0));
    QCOMPARE(empty.size(), size_t(1));
}

void TestStackTree::chosenEventAndAllocationsOfANode() {
    AnalysisFixture f;
    StackTreeOptions options;
    options.at_event = 3;  // after a1's free: a2, a0
    const StackTree tree = StackTree::build(f.trace, options);
    QCOMPARE(tree.atEvent(), int64_t(3));
    QCOMPARE(tree.root().bytes, int64_t(1007));
    QCOMPARE(tree.allocationsAt(f.trace, 0),
             (std::vector<int64_t>{f.allocation(0xa2), f.allocation(0xa0)}));

    const StackTree peak = StackTree::build(f.trace);
    const int32_t m = findPath(peak, {"M"});
    std::vector<int64_t> expected{f.allocation(0xa0), f.allocation(0xa4)};
    std::sort(expected.begin(), expected.end());
    QCOMPARE(peak.allocationsAt(f.trace, m), expected);
    QCOMPARE(peak.allocationsAt(f.trace, findPath(peak, {StackTree::kNoStack})),
             std::vector<int64_t>{f.allocation(0xa2)});
    QVERIFY(peak.allocationsAt(f.trace, 999).empty());

    options.direction = Direction::BottomUp;
    options.at_event = -1;
    const StackTree bottom_up = StackTree::build(f.trace, options);
    // Under innermost M: only a4 (a0's innermost frame is addmm).
    QCOMPARE(bottom_up.allocationsAt(f.trace, findPath(bottom_up, {"M"})),
             std::vector<int64_t>{f.allocation(0xa4)});
    QCOMPARE(bottom_up.allocationsAt(f.trace, findPath(bottom_up, {"aten::addmm", "aten::linear"})),
             std::vector<int64_t>{f.allocation(0xa0)});
}

void TestStackTree::foldedStacks() {
    AnalysisFixture f;
    const StackTree tree = StackTree::build(f.trace);
    QCOMPARE(QString::fromStdString(tree.folded()),
             QStringLiteral("M;aten::linear;aten::addmm 1000\n"
                            "backward of M;MmBackward0;aten::mm 400\n"
                            "M 30\n"
                            "[no stack] 7\n"));
}

void TestStackTree::framesWithASourceLocation() {
    TraceBuilder b;
    const uint32_t outer =
        b.trace.stacks.internFrame({"forward", "model.py", 12, FrameKind::Other});
    const uint32_t inner = b.trace.stacks.internFrame({"forward", "attn.py", 40, FrameKind::Other});
    const uint32_t other = b.trace.stacks.internFrame({"a;b", "", 0, FrameKind::Other});
    const uint32_t s1 = b.trace.stacks.child(b.trace.stacks.child(0, outer), inner);
    const uint32_t s2 = b.trace.stacks.child(b.trace.stacks.child(0, outer), other);
    // A recorded module frame's line stays out of its text.
    const uint32_t module = b.trace.stacks.internFrame({"M.x", "m.cpp", 7, FrameKind::Module});
    const uint32_t s3 = b.trace.stacks.child(0, module);
    b.alloc(1, 64, s1);
    b.alloc(2, 16, s2);
    b.alloc(3, 8, s3);
    b.trace.finalize();
    const StackTree tree = StackTree::build(b.trace);
    QCOMPARE(childNames(tree, 0), (std::vector<std::string>{"forward (model.py:12)", "M.x"}));
    QCOMPARE(QString::fromStdString(tree.folded()),
             QStringLiteral("forward (model.py:12);forward (attn.py:40) 64\n"
                            "forward (model.py:12);a,b 16\n"
                            "M.x 8\n"));
}

void TestStackTree::mergedLinesMakeOneNodePerFunction() {
    // A worker function calling at three lines: one root when lines are merged, three when not.
    TraceBuilder b;
    uint32_t stacks[3] = {};
    for (int i = 0; i < 3; ++i) {
        const uint32_t worker =
            b.trace.stacks.internFrame({"worker", "train.py", 10 + i, FrameKind::Other});
        const uint32_t op = b.trace.stacks.internFrame({"aten::empty", "", 0, FrameKind::Operator});
        stacks[i] = b.trace.stacks.child(b.trace.stacks.child(0, worker), op);
        b.alloc(uint64_t(i + 1), 8 << i, stacks[i]);
    }
    b.trace.finalize();
    QCOMPARE(childNames(StackTree::build(b.trace), 0).size(), size_t(3));
    StackTreeOptions merged;
    merged.merge_lines = true;
    const StackTree tree = StackTree::build(b.trace, merged);
    QCOMPARE(childNames(tree, 0), (std::vector<std::string>{"worker (train.py)"}));
    QCOMPARE(QString::fromStdString(tree.folded()),
             QStringLiteral("worker (train.py);aten::empty 56\n"));
}

void TestStackTree::differenceOfTwoRuns() {
    AnalysisFixture f;  // at its peak: addmm 1000, M 30, mm 400, no stack 7
    TraceBuilder b;
    // Interned in another order, so node and frame ids differ from the fixture's.
    const uint32_t add = b.stack({"M", "aten::add_"});
    const uint32_t mm = b.stack({"backward of M", "MmBackward0", "aten::mm"});
    const uint32_t addmm = b.stack({"M", "aten::linear", "aten::addmm"});
    b.alloc(1, 64, add);
    b.alloc(2, 100, mm);
    b.alloc(3, 1500, addmm);
    b.alloc(4, 10, addmm);
    b.free(4, 10);  // after B's peak
    b.trace.finalize();

    const StackDiff diff = StackDiff::compare(f.trace, b.trace);
    QCOMPARE(diff.atA(), int64_t(5));
    QCOMPARE(diff.atB(), int64_t(3));
    QCOMPARE(diff.totalA(), int64_t(1437));
    QCOMPARE(diff.totalB(), int64_t(1674));
    const auto& rows = diff.rows();
    QCOMPARE(rows.size(), size_t(5));
    QCOMPARE(StackDiff::describe(rows[0].frames), std::string("M > aten::linear > aten::addmm"));
    QCOMPARE(rows[0].delta(), int64_t(510));
    QCOMPARE(rows[0].bytes_a, int64_t(1000));
    QCOMPARE(rows[0].bytes_b, int64_t(1510));
    QCOMPARE(StackDiff::describe(rows[1].frames),
             std::string("backward of M > MmBackward0 > aten::mm"));
    QCOMPARE(rows[1].delta(), int64_t(-300));
    QCOMPARE(StackDiff::describe(rows[2].frames), std::string("M > aten::add_"));
    QCOMPARE(rows[2].delta(), int64_t(64));
    QCOMPARE(StackDiff::describe(rows[3].frames), std::string("M"));
    QCOMPARE(rows[3].delta(), int64_t(-30));
    QCOMPARE(StackDiff::describe(rows[4].frames), std::string(StackTree::kNoStack));
    QCOMPARE(rows[4].delta(), int64_t(-7));

    const StackTree& tree = diff.tree();
    QCOMPARE(tree.root().bytes, int64_t(510 + 300 + 64 + 30 + 7));  // changed bytes
    QCOMPARE(tree.root().delta(), int64_t(1674 - 1437));
    const int32_t m = findPath(tree, {"M"});
    QCOMPARE(tree.node(m).bytes_a, int64_t(1030));
    QCOMPARE(tree.node(m).bytes_b, int64_t(1574));
    QCOMPARE(tree.node(m).bytes, int64_t(510 + 64 + 30));
    QCOMPARE(tree.node(m).kind, FrameKind::Module);
    QCOMPARE(tree.node(findPath(tree, {"backward of M"})).delta(), int64_t(-300));
    QCOMPARE(childNames(tree, 0),
             (std::vector<std::string>{"M", "backward of M", StackTree::kNoStack}));

    // A run against itself: no rows, nothing changed.
    const StackDiff same = StackDiff::compare(f.trace, f.trace);
    QVERIFY(same.rows().empty());
    QCOMPARE(same.tree().root().bytes, int64_t(0));
    QCOMPARE(same.totalA(), same.totalB());
}

void TestStackTree::randomTracesAgreeWithBruteForce() {
    std::mt19937_64 rng(11);
    const std::vector<std::string> names{"M.a",       "M.b",       "aten::mm",
                                         "aten::add", "aten::cat", "MulBackward0"};
    for (int round = 0; round < 20; ++round) {
        TraceBuilder b;
        std::vector<uint32_t> stacks{0};
        for (int i = 0; i < 12; ++i) {
            std::vector<std::string> path;
            const int depth = int(rng() % 5);
            for (int d = 0; d < depth; ++d) {
                path.push_back(names[rng() % names.size()]);
            }
            stacks.push_back(b.stack(path));
        }
        std::map<uint64_t, int64_t> live;  // addr -> size
        uint64_t next_addr = 1;
        for (int i = 0; i < 300; ++i) {
            if (!live.empty() && rng() % 3 == 0) {
                auto it = live.begin();
                std::advance(it, long(rng() % live.size()));
                b.free(it->first, it->second);
                live.erase(it);
            } else {
                const int64_t size = int64_t(1 + rng() % 5000);
                b.alloc(next_addr, size, stacks[rng() % stacks.size()]);
                live[next_addr++] = size;
            }
        }
        b.trace.finalize();
        const Trace& t = b.trace;
        const auto& allocations = t.allocations();

        // Heaptrack's temporaries by brute force: the next alloc/free event is the own free.
        int64_t temporaries = 0;
        for (const Allocation& a : allocations) {
            temporaries += a.free_event == a.alloc_event + 1 ? 1 : 0;
        }
        for (int probe = 0; probe < 6; ++probe) {
            StackTreeOptions options;
            options.at_event = probe == 0 ? -1 : int64_t(rng() % t.events.count());
            for (Direction direction : {Direction::TopDown, Direction::BottomUp}) {
                options.direction = direction;
                const StackTree tree = StackTree::build(t, options);
                const int64_t at = tree.atEvent();
                if (probe == 0) {
                    QCOMPARE(at, t.peakEvent());
                }
                int64_t alive = 0;
                for (const Allocation& a : allocations) {
                    if (a.alloc_event <= at && (a.free_event < 0 || a.free_event > at)) {
                        alive += a.size;
                    }
                }
                QCOMPARE(tree.root().bytes, alive);
                QCOMPARE(tree.root().bytes, t.events.allocated[size_t(at)]);
                QCOMPARE(tree.root().allocations, int64_t(allocations.size()));
                QCOMPARE(tree.root().temporaries, temporaries);
                // Every node: its bytes are those of the allocations under it, and its children
                // never hold more than it.
                for (size_t n = 0; n < tree.size(); ++n) {
                    const StackTreeNode& node = tree.node(int32_t(n));
                    int64_t under = 0;
                    for (int64_t k : tree.allocationsAt(t, int32_t(n))) {
                        under += allocations[size_t(k)].size;
                    }
                    QCOMPARE(under, node.bytes);
                    int64_t children = 0;
                    for (int32_t c : node.children) {
                        children += tree.node(c).bytes;
                        QCOMPARE(tree.node(c).parent, int32_t(n));
                    }
                    QVERIFY(children <= node.bytes);
                }
                if (direction == Direction::TopDown) {
                    // By path prefix, straight from the stack table.
                    for (size_t n = 1; n < tree.size(); ++n) {
                        const std::vector<std::string> path = tree.path(int32_t(n));
                        int64_t expected = 0;
                        for (const Allocation& a : allocations) {
                            if (!(a.alloc_event <= at && (a.free_event < 0 || a.free_event > at)))
                                continue;
                            std::vector<std::string> frames;
                            for (uint32_t fr : t.stacks.framesOf(t.events.stack[a.alloc_event]))
                                frames.push_back(t.stacks.frame(fr).name);
                            if (frames.empty())
                                frames.push_back(StackTree::kNoStack);
                            if (frames.size() >= path.size() &&
                                std::equal(path.begin(), path.end(), frames.begin()))
                                expected += a.size;
                        }
                        QCOMPARE(tree.node(int32_t(n)).bytes, expected);
                    }
                }
            }
        }
    }
}

void TestStackTree::emptyTrace() {
    Trace t;
    t.finalize();
    const StackTree tree = StackTree::build(t);
    QCOMPARE(tree.atEvent(), int64_t(-1));
    QCOMPARE(tree.size(), size_t(1));
    QVERIFY(tree.folded().empty());
    QVERIFY(tree.allocationsAt(t, 0).empty());
    const StackDiff diff = StackDiff::compare(t, t);
    QVERIFY(diff.rows().empty());
}

void TestStackTree::eventAtParsesAndResolves() {
    AnalysisFixture f;  // events at 50, 200, 310, 320, 390, 530, 590 ns
    QCOMPARE(EventAt::parse("3").resolve(f.trace), int64_t(3));
    QCOMPARE(EventAt::parse("0.3us").resolve(f.trace), int64_t(1));  // last event at or before
    QCOMPARE(EventAt::parse("310ns").resolve(f.trace), int64_t(2));
    QCOMPARE(EventAt::parse("10ns").resolve(f.trace), int64_t(0));
    const EventAt seconds = EventAt::parse(" 1.25s ");
    QVERIFY(seconds.is_time);
    QCOMPARE(seconds.value, int64_t(1250000000));
    QCOMPARE(EventAt::parse("2min").value, int64_t(120000000000));
    for (const char* bad : {"", "x", "1.5", "-3", "5 kb", "1e3s", "99999999999999999999"}) {
        QVERIFY_THROWS_EXCEPTION(InputError, EventAt::parse(bad));
    }
    try {
        EventAt::parse("7").resolve(f.trace);
        QFAIL("event 7 of 7 events resolved");
    } catch (const InputError& e) {
        QCOMPARE(std::string(e.what()), std::string("the run has events 0 to 6 only"));
    }
    try {
        EventAt::parse("1s").resolve(f.trace);
        QFAIL("a time after the run resolved");
    } catch (const InputError& e) {
        QCOMPARE(std::string(e.what()), std::string("the run ends at 0.000 s"));
    }
}

QTEST_GUILESS_MAIN(TestStackTree)
#include "test_stack_tree.moc"
