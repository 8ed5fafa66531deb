// ProgramStackOrder and PythonFrameRule: a Python program's recorded stacks (scope chain, then
// the Python frames below it) read from the program down, library frames folded, the recorded
// stacks kept as raw stacks (issue 38).
#include <QtTest>

#include "trace/program_stack_order.h"
#include "trace/python_frame_rule.h"
#include "trace/trace.h"

namespace {

using memscope::Frame;
using memscope::FrameKind;

Frame frame(const char* name, FrameKind kind, const char* file = "", int line = 0) {
    Frame f;
    f.name = name;
    f.kind = kind;
    f.file = file;
    f.line = line;
    return f;
}

Frame python(const char* name, const char* file, int line) {
    return frame(name, FrameKind::Other, file, line);
}

uint32_t chain(memscope::StackTable& t, const std::vector<Frame>& frames) {
    uint32_t node = memscope::StackTable::kEmpty;
    for (const auto& f : frames) {
        node = t.child(node, t.internFrame(f));
    }
    return node;
}

void addEvent(memscope::Trace& t, uint32_t stack, uint64_t addr, int64_t size) {
    memscope::Event e;
    e.time_ns = int64_t(t.events.count());
    e.addr = addr;
    e.size = size;
    e.allocated = size;
    e.stack = stack;
    e.kind = memscope::EventKind::Alloc;
    t.events.append(e);
}

}  // namespace

class TestProgramStackOrder : public QObject {
    Q_OBJECT

  private slots:
    void libraryFramesByTheirFile() {
        using memscope::PythonFrameRule;
        QVERIFY(PythonFrameRule::isLibrary(
            "/venv/lib/python3.13/site-packages/torch/nn/modules/module.py"));
        QVERIFY(PythonFrameRule::isLibrary("/usr/lib/python3/dist-packages/torch/_tensor.py"));
        QVERIFY(PythonFrameRule::isLibrary("<frozen runpy>"));
        QVERIFY(PythonFrameRule::isLibrary("/usr/lib/python3.11/runpy.py"));
        QVERIFY(PythonFrameRule::isLibrary("/build/python/memscope/_hooks.py"));
        QVERIFY(PythonFrameRule::isLibrary(
            "/root/.pyenv/versions/3.13.0/lib/python3.13/multiprocessing/process.py"));
        QVERIFY(PythonFrameRule::isLibrary("/usr/lib/python3.11/threading.py"));
        QVERIFY(!PythonFrameRule::isLibrary("/home/me/multiprocessing/worker.py"));
        QVERIFY(!PythonFrameRule::isLibrary("/home/me/torch/train.py"));  // a user's folder
        QVERIFY(!PythonFrameRule::isLibrary("/home/me/course/model.py"));
        QVERIFY(!PythonFrameRule::isLibrary("<string>"));
    }

    void readsFromTheProgramDown() {
        memscope::Trace t;
        t.meta.config = {{"program", {{"script", "train.py"}}}};
        const std::string torch_file = "/venv/lib/python3.12/site-packages/torch/_tensor.py";
        // Recorded: scope chain (module path, backward-of, node, operator), then the Python
        // frames below it, outermost first, PyTorch's own among them.
        const uint32_t forward = chain(
            t.stacks, {frame("Model", FrameKind::Module, "model.py", 10),
                       frame("Model.layers.0", FrameKind::Module, "model.py", 20),
                       frame("aten::mm", FrameKind::Operator), python("<module>", "train.py", 40),
                       python("train_step", "train.py", 30),
                       python("_call_impl",
                              "/venv/lib/python3.12/site-packages/torch/nn/"
                              "modules/module.py",
                              1500),
                       python("Layer.forward", "model.py", 22)});
        const uint32_t backward = chain(
            t.stacks,
            {frame("backward of Model.layers.0", FrameKind::BackwardOf),
             frame("MmBackward0", FrameKind::BackwardNode), frame("aten::mm", FrameKind::Operator),
             python("<module>", "train.py", 40), python("train_step", "train.py", 31),
             python("Tensor.backward", torch_file.c_str(), 520)});
        const uint32_t scope_only =
            chain(t.stacks, {frame("Model", FrameKind::Module, "model.py", 10),
                             frame("aten::empty", FrameKind::Operator)});
        addEvent(t, forward, 0x1000, 64);
        addEvent(t, backward, 0x2000, 32);
        addEvent(t, scope_only, 0x3000, 16);
        memscope::Span span;
        span.stack = scope_only;
        t.spans.push_back(span);
        const memscope::StackTable recorded = t.stacks;

        QVERIFY(memscope::ProgramStackOrder::applies(t));
        memscope::ProgramStackOrder::apply(t);
        QVERIFY(t.hasRawStacks());
        QCOMPARE(t.stacks.describe(t.events.stack[0]),
                 std::string("<module> > train_step > Layer.forward > Model > Model.layers.0 > "
                             "aten::mm"));
        QCOMPARE(t.stacks.describe(t.events.stack[1]),
                 std::string("<module> > train_step > backward of Model.layers.0 > MmBackward0 > "
                             "aten::mm"));
        QCOMPARE(t.stacks.describe(t.events.stack[2]), std::string("Model > aten::empty"));
        QCOMPARE(t.stacks.describe(t.spans[0].stack), std::string("Model > aten::empty"));
        // The recorded stacks are kept as they were.
        QCOMPARE(t.raw_stacks.describe(t.raw_stack[0]), recorded.describe(forward));
        QCOMPARE(t.raw_stacks.describe(t.raw_stack[1]), recorded.describe(backward));
        // Applying again changes nothing (the trace has its raw stacks now).
        const auto cleaned = t.events.stack;
        memscope::ProgramStackOrder::apply(t);
        QCOMPARE(t.events.stack, cleaned);
    }

    // Made inside a collective: COMMUNICATION (issue 40). The innermost Python frame that is the
    // program's or torch.distributed's decides; nn.Module's machinery is passed over.
    void collectivesBuffersAreCommunication() {
        memscope::Trace t;
        t.meta.config = {{"program", {{"script", "ddp.py"}}}};
        const char* ddp = "/venv/lib/python3.12/site-packages/torch/nn/parallel/distributed.py";
        const char* module_py = "/venv/lib/python3.12/site-packages/torch/nn/modules/module.py";
        const uint32_t allreduce = chain(t.stacks, {frame("c10d::allreduce_", FrameKind::Operator),
                                                    python("worker", "ddp.py", 50)});
        const uint32_t bucket = chain(
            t.stacks, {frame("aten::empty", FrameKind::Operator), python("worker", "ddp.py", 40),
                       python("DistributedDataParallel.__init__", ddp, 800)});
        const uint32_t activation = chain(
            t.stacks,
            {frame("LM", FrameKind::Module, "ddp.py", 20), frame("aten::mm", FrameKind::Operator),
             python("worker", "ddp.py", 60), python("DistributedDataParallel.forward", ddp, 1600),
             python("Module._call_impl", module_py, 1500), python("LM.forward", "ddp.py", 25)});
        addEvent(t, allreduce, 0x1000, 64);
        addEvent(t, bucket, 0x2000, 128);
        addEvent(t, activation, 0x3000, 256);
        memscope::ProgramStackOrder::apply(t);
        t.finalize();
        QCOMPARE(t.allocations().size(), size_t(3));
        QVERIFY(t.allocations()[0].category == memscope::Category::Communication);
        QVERIFY(t.allocations()[1].category == memscope::Category::Communication);
        QVERIFY(t.allocations()[2].category != memscope::Category::Communication);
        QVERIFY(t.allocations()[0].rule == memscope::CategoryRule::MadeInCollective);
    }

    void notForOtherRuns() {
        memscope::Trace t;  // the built-in trainer's run: no program in its configuration
        const uint32_t node =
            chain(t.stacks, {frame("TinyLlama", FrameKind::Module), python("forward", "x.py", 1)});
        addEvent(t, node, 0x1000, 8);
        QVERIFY(!memscope::ProgramStackOrder::applies(t));
        memscope::ProgramStackOrder::apply(t);
        QVERIFY(!t.hasRawStacks());
        QCOMPARE(t.events.stack[0], node);
    }
};

QTEST_APPLESS_MAIN(TestProgramStackOrder)
#include "test_program_stack_order.moc"
