// The rules that make an imported snapshot read like a recording: FrameCleaner (cleaned stacks
// from PyTorch 2.x stacks='all' frames), PhaseInference (phases and steps from frames and
// annotations) and Categorizer's inferred categories. Tiny hand-made frame lists; the whole
// import of a fixture with these frames is in test_pickle_import (pt2_all).

#include "interchange/frame_cleaner.h"
#include "interchange/phase_inference.h"
#include "phase_event.h"
#include "trace/categorizer.h"
#include "trace/trace.h"

#include <QtTest>

using namespace memscope;

namespace {

Frame py(const std::string& file, int line, const std::string& name) {
    Frame f;
    f.file = file;
    f.line = line;
    f.name = name;
    return f;
}

Frame cpp(const std::string& name, const std::string& file = "??") {
    Frame f;
    f.name = name;
    f.file = file;
    return f;
}

// "name" for operators and nodes, "file:line:name" for the rest, outermost first.
QStringList texts(const std::vector<Frame>& frames) {
    QStringList out;
    for (const Frame& f : frames) {
        if (f.kind == FrameKind::Operator || f.kind == FrameKind::BackwardNode) {
            out << QString::fromStdString(f.name);
        } else {
            out << QString::fromStdString(f.file + ":" + std::to_string(f.line) + ":" + f.name);
        }
    }
    return out;
}

const std::string kModule = "/usr/lib/python3/dist-packages/torch/nn/modules/module.py";

// An allocation's frames as CapturedTraceback writes them for torch.zeros in a module's forward:
// innermost first, C++ and Python interleaved, the leftover outer Python frames after _start.
std::vector<Frame> zerosInForward() {
    return {
        cpp("torch::unwind::unwind()"),
        cpp("torch::CapturedTraceback::gather(bool, bool, bool)"),
        cpp("c10::cuda::CUDACachingAllocator::Native::NativeCachingAllocator::malloc(void**, "
            "signed char, unsigned long, CUstream_st*)"),
        cpp("at::detail::empty_generic(c10::ArrayRef<long>, c10::Allocator*)"),
        cpp("at::native::empty_cuda(c10::ArrayRef<long>)"),
        cpp("c10::impl::wrap_kernel_functor_unboxed_<F, at::Tensor (c10::ArrayRef<long>)>::call("
            "c10::OperatorKernel*)"),
        cpp("at::_ops::empty_memory_format::redispatch(c10::DispatchKeySet)"),
        cpp("at::_ops::empty_memory_format::call(c10::ArrayRef<c10::SymInt>)"),
        cpp("at::native::zeros(c10::ArrayRef<long>)"),
        cpp("c10::Dispatcher::call<at::Tensor>(c10::TypedOperatorHandle const&)"),
        cpp("at::_ops::zeros::call(c10::ArrayRef<c10::SymInt>)"),
        cpp("torch::autograd::THPVariable_zeros(_object*, _object*, _object*)"),
        cpp("cfunction_call", "Objects/methodobject.c"),
        py("model.py", 20, "forward"),
        cpp("_PyEval_EvalFrameDefault", "/usr/src/python3.11/Python/ceval.c"),
        cpp("PyMethod_New"),
        py(kModule, 1527, "_call_impl"),
        cpp("_PyEval_EvalFrameDefault", "/usr/src/python3.11/Python/ceval.c"),
        cpp("PyEval_EvalCode"),
        cpp("_PyRun_SimpleFileObject"),
        cpp("Py_BytesMain"),
        cpp("__libc_start_main"),
        cpp("_start"),
        py(kModule, 1518, "_wrapped_call_impl"),
        py("train.py", 30, "memory_profile"),
        py("train.py", 249, "<module>"),
    };
}

// The autograd engine's thread: C++ only.
std::vector<Frame> selectBackward() {
    return {
        cpp("torch::unwind::unwind()"),
        cpp("at::native::zeros(c10::ArrayRef<long>)"),
        cpp("at::_ops::zeros::call(c10::ArrayRef<c10::SymInt>)"),
        cpp("torch::autograd::generated::details::select_backward(at::Tensor const&)"),
        cpp("torch::autograd::generated::SelectBackward0::apply(std::vector<at::Tensor, "
            "std::allocator<at::Tensor> >&&)"),
        cpp("torch::autograd::Node::operator()(std::vector<at::Tensor>&&)"),
        cpp("torch::autograd::Engine::evaluate_function(std::shared_ptr<torch::autograd::"
            "GraphTask>&, torch::autograd::Node*)"),
        cpp("torch::autograd::Engine::thread_main(std::shared_ptr<torch::autograd::GraphTask> "
            "const&)"),
        cpp("start_thread"),
        cpp("clone3"),
    };
}

using test::phaseEvent;

}  // namespace

class TestFrameCleaner : public QObject {
    Q_OBJECT

  private slots:
    // Root = the outermost user Python frame (the leftovers after _start come first, in their
    // order); interpreter, libc, unwinder, allocator, dispatcher and PyTorch's Python frames
    // fold away; the operator frames read as operators, each call once.
    void cleanedForwardStack() {
        const auto cleaned = FrameCleaner::cleanList(zerosInForward());
        QCOMPARE(texts(cleaned),
                 QStringList({"train.py:249:<module>", "train.py:30:memory_profile",
                              "model.py:20:forward", "aten::zeros", "aten::empty"}));
        QCOMPARE(int(cleaned[0].kind), int(FrameKind::Other));
        QCOMPARE(int(cleaned[3].kind), int(FrameKind::Operator));
    }

    // The autograd node stays (SelectBackward0), its helpers and the engine go.
    void cleanedBackwardStack() {
        const auto cleaned = FrameCleaner::cleanList(selectBackward());
        QCOMPARE(texts(cleaned), QStringList({"SelectBackward0", "aten::zeros"}));
        QCOMPARE(int(cleaned[0].kind), int(FrameKind::BackwardNode));
    }

    // Each class of frame by itself.
    void classifies_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("cls");
        QTest::addColumn<QString>("cleaned");
        QTest::addColumn<int>("evidence");
        using C = FrameCleaner::FrameClass;
        auto row = [](const char* tag, const char* name, const char* file, C cls,
                      const char* cleaned, int evidence) {
            QTest::newRow(tag) << name << file << int(cls) << cleaned << evidence;
        };
        row("interpreter", "_PyEval_EvalFrameDefault", "??", C::Folded, "", 0);
        row("PyMethod_New", "PyMethod_New", "??", C::Folded, "", 0);
        row("python .c", "slot_tp_call", "/build/python3.11/Objects/typeobject.c", C::Folded, "",
            0);
        row("libpython", "some_helper", "/usr/lib/libpython3.11.so.1.0", C::Folded, "", 0);
        row("frozen", "_run_module_as_main", "<frozen runpy>", C::Folded, "", 0);
        row("libc", "__libc_start_main", "??", C::Folded, "", 0);
        row("_start", "_start", "??", C::Folded, "", 0);
        row("unresolved", "??", "??", C::Folded, "", 0);
        row("unwinder", "torch::unwind::unwind()", "??", C::Folded, "", 0);
        row("gather", "torch::CapturedTraceback::gather(bool, bool, bool)", "??", C::Folded, "", 0);
        row("allocator",
            "c10::cuda::CUDACachingAllocator::Native::NativeCachingAllocator::malloc(void**)", "??",
            C::Folded, "", 0);
        row("cpu allocator", "c10::alloc_cpu(unsigned long)", "??", C::Folded, "", 0);
        row("cudaMalloc", "cudaMalloc", "/usr/local/cuda/lib64/libcudart.so", C::Folded, "", 0);
        row("boxing", "c10::impl::make_boxed_from_unboxed_functor<F, false>::call()", "??",
            C::Folded, "", 0);
        row("redispatch", "at::_ops::zeros::redispatch(c10::DispatchKeySet)", "??", C::Folded, "",
            0);
        row("dispatcher", "c10::Dispatcher::callBoxed(c10::OperatorHandle const&) const", "??",
            C::Folded, "", 0);
        row("wrapper", "at::(anonymous namespace)::wrapper_CUDA_zeros(c10::ArrayRef<long>)", "??",
            C::Folded, "", 0);
        row("template return type", "void at::native::gpu_kernel<F>(at::TensorIteratorBase&)", "??",
            C::Folded, "", 0);
        row("ops call", "at::_ops::zeros::call(c10::ArrayRef<c10::SymInt>)", "??", C::Operator,
            "aten::zeros", 0);
        row("overload", "at::_ops::add_Tensor::call(at::Tensor const&)", "??", C::Operator,
            "aten::add", 0);
        row("lower-case overload", "at::_ops::sum_dim_IntList::call(at::Tensor const&)", "??",
            C::Operator, "aten::sum", 0);
        row("native kernel", "at::native::empty_cuda(c10::ArrayRef<long>)", "??", C::Operator,
            "aten::empty", 0);
        row("exported operator", "aten::mm", "??", C::Operator, "aten::mm", 0);
        row("autograd node",
            "torch::autograd::generated::SelectBackward0::apply(std::vector<at::Tensor>&&)", "??",
            C::AutogradNode, "SelectBackward0", FrameCleaner::kBackward);
        row("accumulate grad", "torch::autograd::AccumulateGrad::apply(std::vector<at::Tensor>&&)",
            "??", C::AutogradNode, "AccumulateGrad",
            FrameCleaner::kBackward | FrameCleaner::kAccumulateGrad);
        row("engine",
            "torch::autograd::Engine::evaluate_function(std::shared_ptr<GraphTask>&, Node*)", "??",
            C::Folded, "", FrameCleaner::kBackward);
        row("user python", "forward", "model.py", C::UserPython, "", FrameCleaner::kForward);
        row("user script", "<module>", "train.py", C::UserPython, "", 0);
        row("module call", "_call_impl", kModule.c_str(), C::TorchPython, "",
            FrameCleaner::kForward);
        row("torch functional", "linear", "/x/site-packages/torch/nn/functional.py", C::TorchPython,
            "", 0);
        row("optimizer", "_init_group", "/x/site-packages/torch/optim/adamw.py", C::TorchPython, "",
            FrameCleaner::kOptimizer);
        row("tensor backward", "backward", "/x/site-packages/torch/_tensor.py", C::TorchPython, "",
            FrameCleaner::kBackward);
        row("extension", "my_ext::fused_kernel(at::Tensor const&)", "ext.cpp", C::Native, "", 0);
    }
    void classifies() {
        QFETCH(QString, name);
        QFETCH(QString, file);
        QFETCH(int, cls);
        QFETCH(QString, cleaned);
        QFETCH(int, evidence);
        const auto info = FrameCleaner::classify(cpp(name.toStdString(), file.toStdString()));
        QCOMPARE(int(info.cls), cls);
        QCOMPARE(QString::fromStdString(info.name), cleaned);
        QCOMPARE(int(info.evidence), evidence);
    }

    // Through the memoized path: raw nodes cleaned from their parents give the same stacks as
    // one list at a time, and the evidence of the whole raw stack.
    void memoizedCleaningMatches() {
        StackTable raw;
        StackTable clean;
        FrameCleaner cleaner;
        std::vector<uint32_t> raw_nodes;
        for (const auto& list : {zerosInForward(), selectBackward(), zerosInForward()}) {
            uint32_t node = StackTable::kEmpty;
            for (size_t i = list.size(); i-- > 0;) {
                node = raw.child(node, raw.internFrame(list[i]));
            }
            raw_nodes.push_back(node);
        }
        const uint32_t forward = cleaner.clean(raw, raw_nodes[0], clean);
        const uint32_t backward = cleaner.clean(raw, raw_nodes[1], clean);
        QCOMPARE(cleaner.clean(raw, raw_nodes[2], clean), forward);  // the same raw node
        std::vector<Frame> frames;
        for (const uint32_t f : clean.framesOf(forward)) {
            frames.push_back(clean.frame(f));
        }
        QCOMPARE(texts(frames), texts(FrameCleaner::cleanList(zerosInForward())));
        QCOMPARE(int(cleaner.evidence(raw_nodes[0])), int(FrameCleaner::kForward));
        QCOMPARE(int(cleaner.evidence(raw_nodes[1])), int(FrameCleaner::kBackward));
        QVERIFY(backward != forward);
        // A prefix of a raw stack cleans to a prefix of its cleaned stack.
        const uint32_t parent = raw.parent(raw_nodes[0]);
        QCOMPARE(cleaner.clean(raw, parent, clean), forward);  // the unwinder frame folds away
    }

    // Frames as PyTorch 2.11 (CPU wheel, Python 3.11) really symbolized them: a tensor hook
    // called by the autograd engine during loss.backward() in train_step, gathered with
    // torch._C._profiler.gather_traceback(python=True, script=True, cpp=True) and
    // symbolize_tracebacks (the pybind11 name cut at 150 characters, build paths shortened).
    // The Python frames of torch/autograd and torch/_tensor.py are left over after _start.
    void realCapturedTraceback() {
        struct Raw {
            const char* name;
            const char* file;
            int line;
        };
        const Raw raw[] = {
            {"torch::unwind::unwind()", "??", 0},
            {"torch::CapturedTraceback::gather(bool, bool, bool)", "??", 0},
            {"pybind11::cpp_function::initialize<std::shared_ptr<torch::CapturedTraceback> "
             "(*&)(bool, bool, bool), std::shared_ptr<torch::CapturedTraceback>, bool, ",
             "", 0},
            {"pybind11::cpp_function::dispatcher(_object*, _object*, _object*)", "", 0},
            {"cfunction_call", "/tmp/python-build/Python-3.11.7/Objects/methodobject.c", 542},
            {"_PyObject_MakeTpCall", "/tmp/python-build/Python-3.11.7/Objects/call.c", 214},
            {"grab", "gen.py", 5},
            {"_PyEval_EvalFrameDefault", "/tmp/python-build/Python-3.11.7/Python/ceval.c", 4769},
            {"<lambda>", "gen.py", 19},
            {"_PyEval_EvalFrame",
             "/tmp/python-build/Python-3.11.7/./Include/internal/pycore_ceval.h", 73},
            {"torch::autograd::(anonymous namespace)::_call_hooks(_object*, _object*)",
             "python_hook.cpp", 0},
            {"torch::autograd::PyFunctionTensorPreHook::operator()(std::vector<at::Tensor, "
             "std::allocator<at::Tensor> > const&)",
             "", 0},
            {"torch::autograd::call_tensor_pre_hooks(torch::autograd::Node&, "
             "std::vector<at::Tensor, std::allocator<at::Tensor> >)",
             "engine.cpp", 0},
            {"torch::autograd::Engine::evaluate_function(std::shared_ptr<torch::autograd::"
             "GraphTask>&, torch::autograd::Node*, torch::autograd::InputBuffer&, std::s",
             "??", 0},
            {"torch::autograd::Engine::thread_main(std::shared_ptr<torch::autograd::GraphTask> "
             "const&)",
             "??", 0},
            {"torch::autograd::Engine::execute_with_graph_task(std::shared_ptr<torch::autograd::"
             "GraphTask> const&, std::shared_ptr<torch::autograd::Node>, torch::au",
             "??", 0},
            {"torch::autograd::python::PythonEngine::execute_with_graph_task(std::shared_ptr<torch:"
             ":autograd::GraphTask> const&, std::shared_ptr<torch::autograd::No",
             "", 0},
            {"torch::autograd::Engine::execute(std::vector<torch::autograd::Edge, "
             "std::allocator<torch::autograd::Edge> > const&, std::vector<at::Tensor, std::alloc",
             "??", 0},
            {"torch::autograd::python::PythonEngine::execute(std::vector<torch::autograd::Edge, "
             "std::allocator<torch::autograd::Edge> > const&, std::vector<at::Tens",
             "", 0},
            {"THPEngine_run_backward(_object*, _object*, _object*)", "python_engine.cpp", 0},
            {"cfunction_call", "/tmp/python-build/Python-3.11.7/Objects/methodobject.c", 542},
            {"_PyObject_Call", "/tmp/python-build/Python-3.11.7/Objects/call.c", 343},
            {"do_call_core", "/tmp/python-build/Python-3.11.7/Python/ceval.c", 7352},
            {"_engine_run_backward", "/venv/lib/python3.11/site-packages/torch/autograd/graph.py",
             869},
            {"_PyEval_EvalFrame",
             "/tmp/python-build/Python-3.11.7/./Include/internal/pycore_ceval.h", 73},
            {"run_eval_code_obj", "/tmp/python-build/Python-3.11.7/Python/pythonrun.c", 1710},
            {"pyrun_file", "/tmp/python-build/Python-3.11.7/Python/pythonrun.c", 1626},
            {"_PyRun_AnyFileObject", "/tmp/python-build/Python-3.11.7/Python/pythonrun.c", 79},
            {"pymain_run_file_obj", "/tmp/python-build/Python-3.11.7/Modules/main.c", 360},
            {"pymain_main", "/tmp/python-build/Python-3.11.7/Modules/main.c", 710},
            {"__libc_start_call_main", "./csu/../sysdeps/x86/libc-start.c", 58},
            {"__libc_start_main_impl", "./csu/../csu/libc-start.c", 360},
            {"_start", "??", 0},
            {"backward", "/venv/lib/python3.11/site-packages/torch/autograd/__init__.py", 381},
            {"backward", "/venv/lib/python3.11/site-packages/torch/_tensor.py", 631},
            {"train_step", "gen.py", 20},
            {"<module>", "gen.py", 25},
        };
        std::vector<Frame> frames;
        for (const Raw& r : raw) {
            Frame f = cpp(r.name, r.file);
            f.line = r.line;
            frames.push_back(f);
        }
        QCOMPARE(texts(FrameCleaner::cleanList(frames)),
                 QStringList({"gen.py:25:<module>", "gen.py:20:train_step", "gen.py:19:<lambda>",
                              "gen.py:5:grab"}));
        StackTable table;
        uint32_t node = StackTable::kEmpty;
        for (size_t i = frames.size(); i-- > 0;) {
            node = table.child(node, table.internFrame(frames[i]));
        }
        StackTable clean;
        FrameCleaner cleaner;
        cleaner.clean(table, node, clean);
        QCOMPARE(int(cleaner.evidence(node)), int(FrameCleaner::kBackward));
    }

    // Memscope's own exported operator frames are calls each: aten::add inside aten::add stays
    // two frames, while the C++ symbols of one call fold into one.
    void exportedOperatorsAreNotMerged() {
        const auto cleaned = FrameCleaner::cleanList(
            {cpp("aten::empty"), cpp("aten::add"), cpp("aten::add"), cpp("TinyLlama.norm")});
        QCOMPARE(texts(cleaned),
                 QStringList({":0:TinyLlama.norm", "aten::add", "aten::add", "aten::empty"}));
        QCOMPARE(texts(FrameCleaner::cleanList({cpp("at::native::add(at::Tensor const&)"),
                                                cpp("at::_ops::add_Tensor::call(at::Tensor)")})),
                 QStringList({"aten::add"}));
    }

    // Native frames the raw list puts outside the outermost user Python frame go; operators and
    // nodes stay.
    void userFrameIsTheRoot() {
        const auto cleaned = FrameCleaner::cleanList({cpp("at::_ops::mm::call(at::Tensor const&)"),
                                                      py("model.py", 3, "forward"),
                                                      cpp("some_launcher(int)", "launcher.cpp")});
        QCOMPARE(texts(cleaned), QStringList({"model.py:3:forward", "aten::mm"}));
        // Without Python frames a native frame is kept where it is.
        QCOMPARE(texts(FrameCleaner::cleanList({cpp("at::_ops::mm::call(at::Tensor const&)"),
                                                cpp("some_launcher(int)", "launcher.cpp")})),
                 QStringList({"launcher.cpp:0:some_launcher(int)", "aten::mm"}));
    }

    void regionMeanings() {
        auto phase = [](const char* name) {
            const auto m = PhaseInference::meaningOf(name);
            return m.phase ? int(*m.phase) : -1;
        };
        auto step = [](const char* name) {
            const auto m = PhaseInference::meaningOf(name);
            return m.step ? *m.step : -1;
        };
        QCOMPARE(phase("Optimizer.step#AdamW.step"), int(Phase::Optimizer));
        QCOMPARE(phase("Optimizer.zero_grad#AdamW.zero_grad"), int(Phase::Optimizer));
        QCOMPARE(phase("## forward ##"), int(Phase::Forward));
        QCOMPARE(phase("backward_pass"), int(Phase::Backward));
        QCOMPARE(phase("forward and backward"), -1);  // two phases: nothing to go by
        QCOMPARE(phase("data loading"), -1);
        QCOMPARE(phase("ProfilerStep#4"), -1);
        QCOMPARE(step("ProfilerStep#4"), 5);
        QCOMPARE(step("ProfilerStep#x"), -1);
        QCOMPARE(phase("backward step 3"), int(Phase::Backward));  // Memscope's export
        QCOMPARE(step("backward step 3"), 3);
    }

    // Phases: frames over regions, forward frames under them, neighbours that agree; steps from
    // optimizer boundaries when no step region is given.
    void phasesFromEvidence() {
        EventColumns events;
        const std::vector<std::pair<int64_t, uint8_t>> rows = {
            {10, FrameCleaner::kForward},   // 0 forward
            {11, 0},                        // 1 between two forwards: forward
            {12, FrameCleaner::kForward},   // 2 forward
            {20, FrameCleaner::kBackward},  // 3 backward
            {21, 0},                        // 4 backward (neighbours agree)
            {22, FrameCleaner::kBackward | FrameCleaner::kForward},  // 5 backward wins
            {30, 0},                       // 6 inside Optimizer.step: optimizer
            {31, FrameCleaner::kForward},  // 7 forward frames, optimizer region: optimizer
            {40, FrameCleaner::kForward},  // 8 forward: step 2 begins
            {50, 0},                       // 9 after: nothing tells
        };
        std::vector<uint8_t> evidence;
        for (const auto& [t, e] : rows) {
            Event x;
            x.time_ns = t;
            events.append(x);
            evidence.push_back(e);
        }
        const auto intervals =
            PhaseInference::apply(events, evidence, {{"Optimizer.step#SGD.step", 29, 35}});
        const std::vector<Phase> phases = {
            Phase::Forward,  Phase::Forward,   Phase::Forward,   Phase::Backward, Phase::Backward,
            Phase::Backward, Phase::Optimizer, Phase::Optimizer, Phase::Forward,  Phase::Other};
        const std::vector<int32_t> steps = {1, 1, 1, 1, 1, 1, 1, 1, 2, 2};
        for (size_t i = 0; i < rows.size(); ++i) {
            QCOMPARE(int(events.phase[i]), int(phases[i]));
            QCOMPARE(events.step[i], steps[i]);
        }
        QCOMPARE(intervals.size(), size_t(4));
        QCOMPARE(int(intervals[0].phase), int(Phase::Forward));
        QCOMPARE(intervals[0].begin_ns, int64_t(10));
        QCOMPARE(intervals[0].end_ns, int64_t(20));
        QCOMPARE(int(intervals[2].phase), int(Phase::Optimizer));
        QCOMPARE(intervals[3].step, 2);
    }

    // Nothing to go by: unknown phase, step 0; step regions number steps; step -1 untouched.
    void nothingIsGuessed() {
        EventColumns events;
        for (int i = 0; i < 4; ++i) {
            Event x;
            x.time_ns = i * 10;
            x.step = i == 0 ? -1 : 0;
            x.phase = Phase::Other;
            events.append(x);
        }
        PhaseInference::apply(events, std::vector<uint8_t>(4, 0), {});
        for (size_t i = 0; i < 4; ++i) {
            QCOMPARE(int(events.phase[i]), int(Phase::Other));
            QCOMPARE(events.step[i], i == 0 ? -1 : 0);
        }
        PhaseInference::apply(events, std::vector<uint8_t>(4, 0),
                              {{"ProfilerStep#0", 5, 12}, {"ProfilerStep#1", 18, 40}});
        QCOMPARE(events.step[0], -1);
        QCOMPARE(events.step[1], 1);  // at 10
        QCOMPARE(events.step[2], 2);  // at 20
        QCOMPARE(events.step[3], 2);  // at 30
    }

    // The inferred rules, each by itself.
    void inferredCategories() {
        // Stack 1: made under AccumulateGrad.
        Trace base;
        Frame node;
        node.name = "AccumulateGrad";
        node.kind = FrameKind::BackwardNode;
        const uint32_t grad_stack = base.stacks.child(0, base.stacks.internFrame(node));
        const std::vector<Event> events = {
            phaseEvent(EventKind::Alloc, 0x100, 10, Phase::Other, -1),   // 0 before recording
            phaseEvent(EventKind::Alloc, 0x200, 20, Phase::Forward, 1),  // 1 activation
            phaseEvent(EventKind::Alloc, 0x300, 30, Phase::Forward, 1),  // 2 forward temporary
            phaseEvent(EventKind::Free, 0x300, -30, Phase::Forward, 1),  // 3
            phaseEvent(EventKind::Alloc, 0x400, 40, Phase::Backward, 1, grad_stack),  // 4 gradient
            phaseEvent(EventKind::Alloc, 0x500, 50, Phase::Backward,
                       1),  // 5 autograd detail (freed
                            //   in step 2's forward)
            phaseEvent(EventKind::Alloc, 0x600, 60, Phase::Backward, 1),   // 6 backward temporary
            phaseEvent(EventKind::Free, 0x600, -60, Phase::Backward, 1),   // 7
            phaseEvent(EventKind::Free, 0x200, -20, Phase::Backward, 1),   // 8 (activation freed)
            phaseEvent(EventKind::Alloc, 0x700, 70, Phase::Optimizer, 1),  // 9 optimizer state
            phaseEvent(EventKind::Alloc, 0x800, 80, Phase::Optimizer, 1),  // 10 optimizer temporary
            phaseEvent(EventKind::Free, 0x800, -80, Phase::Optimizer, 1),  // 11
            phaseEvent(EventKind::Free, 0x900, -90, Phase::Optimizer, 1),  // 12 before recording
            phaseEvent(EventKind::Alloc, 0xA00, 100, Phase::Other, 1),     // 13 unknown phase
            phaseEvent(EventKind::Free, 0xA00, -100, Phase::Other, 1),     // 14
            phaseEvent(EventKind::Free, 0x500, -50, Phase::Forward, 2),    // 15
        };
        Trace t = base;
        t.meta.categories_inferred = true;
        for (const Event& e : events) {
            t.events.append(e);
        }
        t.finalize();
        auto category = [&](uint64_t addr) {
            for (const Allocation& a : t.allocations()) {
                if (a.addr == addr) {
                    return int(a.category);
                }
            }
            return -1;
        };
        QCOMPARE(category(0x100), int(Category::BeforeRecording));
        QCOMPARE(category(0x200), int(Category::Activation));
        QCOMPARE(category(0x300), int(Category::Temporary));
        QCOMPARE(category(0x400), int(Category::Gradient));
        QCOMPARE(category(0x500), int(Category::AutogradDetail));
        QCOMPARE(category(0x600), int(Category::Temporary));
        QCOMPARE(category(0x700), int(Category::OptimizerState));
        QCOMPARE(category(0x800), int(Category::Temporary));
        QCOMPARE(category(0x900), int(Category::BeforeRecording));
        QCOMPARE(category(0xA00), int(Category::Unknown));  // made and freed where nothing tells

        auto rule = [&](uint64_t addr) {
            for (const Allocation& a : t.allocations()) {
                if (a.addr == addr) {
                    return int(a.rule);
                }
            }
            return -1;
        };
        QCOMPARE(rule(0x100), int(CategoryRule::BeforeRecording));
        QCOMPARE(rule(0x200), int(CategoryRule::FreedInBackward));
        QCOMPARE(rule(0x400), int(CategoryRule::MadeByAccumulateGrad));
        QCOMPARE(rule(0x500), int(CategoryRule::KeptAfterBackward));
        QCOMPARE(rule(0x600), int(CategoryRule::FreedInPhase));
        QCOMPARE(rule(0x700), int(CategoryRule::KeptByOptimizer));
        QCOMPARE(rule(0xA00), int(CategoryRule::NothingTells));

        // A recording takes its gradients from Role events; without one, a block made in
        // backward and kept to the end has a gradient's lifetime there too. Made-and-freed in
        // one phase is temporary whatever the phase.
        Trace recorded = base;
        for (const Event& e : events) {
            recorded.events.append(e);
        }
        recorded.finalize();
        for (const Allocation& a : recorded.allocations()) {
            if (a.addr == 0x400) {
                QCOMPARE(int(a.category), int(Category::Gradient));
                QCOMPARE(int(a.rule), int(CategoryRule::AliveAfterBackward));
            }
            if (a.addr == 0x500) {
                QCOMPARE(int(a.category), int(Category::AutogradDetail));
            }
            if (a.addr == 0xA00) {
                QCOMPARE(int(a.category), int(Category::Temporary));
            }
            if (a.addr == 0x100) {  // made at step -1: a forked child's inheritance
                QCOMPARE(int(a.category), int(Category::BeforeRecording));
                QCOMPARE(int(a.rule), int(CategoryRule::BeforeRecording));
            }
        }
        // The names round trip.
        QCOMPARE(toString(Category::BeforeRecording), std::string("BEFORE_RECORDING"));
        QCOMPARE(int(*parseCategory("BEFORE_RECORDING")), int(Category::BeforeRecording));
    }

    // Issue 39: a gradient is what backward makes and the step keeps: alive when its backward
    // pass ends, then freed at the next zero_grad (an optimizer-phase free), by a later backward
    // or never, whoever made it (BmmBackward0's output that AccumulateGrad keeps without a
    // copy). Freed in the pass, it is a temporary; kept and freed elsewhere, autograd detail.
    void gradientsByTheirLifetime() {
        const std::vector<Event> events = {
            phaseEvent(EventKind::Alloc, 0x10, 10, Phase::Forward, 1),   // 0 activation
            phaseEvent(EventKind::Alloc, 0x20, 20, Phase::Backward, 1),  // 1 freed at zero_grad
            phaseEvent(EventKind::Alloc, 0x30, 30, Phase::Backward,
                       1),  // 2 freed by the next backward
            phaseEvent(EventKind::Alloc, 0x40, 40, Phase::Backward, 1),  // 3 never freed
            phaseEvent(EventKind::Alloc, 0x50, 50, Phase::Backward,
                       1),  // 4 freed in the next forward
            phaseEvent(EventKind::Alloc, 0x60, 60, Phase::Backward, 1),  // 5 freed in its pass
            phaseEvent(EventKind::Free, 0x60, -60, Phase::Other,
                       1),  // 6 (unknown, inside the pass)
            phaseEvent(EventKind::Free, 0x10, -10, Phase::Backward, 1),   // 7
            phaseEvent(EventKind::Alloc, 0x70, 70, Phase::Optimizer, 1),  // 8 the pass has ended
            phaseEvent(EventKind::Free, 0x20, -20, Phase::Optimizer, 1),  // 9 zero_grad
            phaseEvent(EventKind::Free, 0x50, -50, Phase::Forward, 2),    // 10
            phaseEvent(EventKind::Free, 0x30, -30, Phase::Backward, 2),   // 11
            phaseEvent(EventKind::Alloc, 0x80, 80, Phase::Backward,
                       2),  // 12 the trace ends in backward
        };
        for (const bool inferred : {true, false}) {
            Trace t;
            t.meta.categories_inferred = inferred;
            for (const Event& e : events) {
                t.events.append(e);
            }
            t.finalize();
            auto of = [&](uint64_t addr) {
                for (const Allocation& a : t.allocations()) {
                    if (a.addr == addr) {
                        return std::make_pair(int(a.category), int(a.rule));
                    }
                }
                return std::make_pair(-1, -1);
            };
            const auto gradient =
                std::make_pair(int(Category::Gradient), int(CategoryRule::AliveAfterBackward));
            QCOMPARE(of(0x20), gradient);
            QCOMPARE(of(0x30), gradient);
            QCOMPARE(of(0x40), gradient);
            QCOMPARE(of(0x50), std::make_pair(int(Category::AutogradDetail),
                                              int(CategoryRule::KeptAfterBackward)));
            QCOMPARE(of(0x60),
                     std::make_pair(int(Category::Temporary), int(CategoryRule::FreedInPhase)));
            QCOMPARE(of(0x80), std::make_pair(int(Category::AutogradDetail),
                                              int(CategoryRule::KeptAfterBackward)));
            QCOMPARE(of(0x10).first, int(Category::Activation));
        }
        // The rules read as a person reads them.
        QCOMPARE(describe(CategoryRule::AliveAfterBackward, true),
                 std::string("made in backward, alive after it"));
        QCOMPARE(describe(CategoryRule::Named, true), std::string("named by the snapshot"));
    }

    // Issue 39: everything native the raw list puts outward of a thread's entry folds away,
    // whatever it is called: a stripped libc names start_thread and clone3 after unrelated
    // exported symbols. What is inward of the entry stays; a Python thread's leftover frames,
    // which the raw list puts outermost, stay too.
    void threadStartFramesFold() {
        std::vector<Frame> bmm = {
            cpp("torch::unwind::unwind()"),
            cpp("at::detail::empty_generic(c10::ArrayRef<long>, c10::Allocator*)"),
            cpp("at::_ops::bmm::call(at::Tensor const&, at::Tensor const&)"),
            cpp("torch::autograd::generated::BmmBackward0::apply(std::vector<at::Tensor, "
                "std::allocator<at::Tensor> >&&)"),
            cpp("torch::autograd::Engine::evaluate_function(std::shared_ptr<torch::autograd::"
                "GraphTask>&, torch::autograd::Node*)"),
            cpp("torch::autograd::Engine::thread_init(int, std::shared_ptr<torch::autograd::"
                "ReadyQueue> const&, bool)"),
            cpp("execute_native_thread_routine"),
            cpp("pthread_condattr_setpshared"),
            cpp("__xmknodat"),
        };
        QCOMPARE(texts(FrameCleaner::cleanList(bmm)), QStringList({"BmmBackward0", "aten::bmm"}));
        // The entry itself misnamed too: the engine's thread_init is an entry.
        bmm[6] = cpp("__nss_database_lookup");
        QCOMPARE(texts(FrameCleaner::cleanList(bmm)), QStringList({"BmmBackward0", "aten::bmm"}));
        // Every name of a thread's start is an entry.
        for (const char* entry :
             {"start_thread", "clone", "clone3", "__clone", "execute_native_thread_routine",
              "_start", "__libc_start_main", "main"}) {
            QVERIFY2(FrameCleaner::isThreadEntry(cpp(entry)), entry);
            const auto cleaned = FrameCleaner::cleanList(
                {cpp("at::_ops::mm::call(at::Tensor const&)"), cpp("my_worker(int)", "w.cpp"),
                 cpp(entry), cpp("getaddrinfo"), cpp("__libc_freeres", "libc.so.6")});
            QCOMPARE(texts(cleaned), QStringList({"w.cpp:0:my_worker(int)", "aten::mm"}));
        }
        QVERIFY(!FrameCleaner::isThreadEntry(py("train.py", 3, "main")));
        QVERIFY(!FrameCleaner::isThreadEntry(cpp("getaddrinfo")));
        // A Python thread: its leftover Python frames come first in the raw list, then the
        // thread's start; they stay.
        const auto python_thread = FrameCleaner::cleanList(
            {cpp("at::_ops::mm::call(at::Tensor const&)"), py("worker.py", 9, "work"),
             cpp("_PyEval_EvalFrameDefault", "Python/ceval.c"),
             cpp("thread_run", "Modules/_threadmodule.c"), cpp("start_thread"),
             cpp("pthread_condattr_init"), py("worker.py", 2, "run")});
        QCOMPARE(texts(python_thread),
                 QStringList({"worker.py:2:run", "worker.py:9:work", "aten::mm"}));
        // The forward stack of a process's main thread is as it was.
        QCOMPARE(texts(FrameCleaner::cleanList(zerosInForward())),
                 QStringList({"train.py:249:<module>", "train.py:30:memory_profile",
                              "model.py:20:forward", "aten::zeros", "aten::empty"}));
    }

    // Issue 39: in a training step, what runs after the model's forward and before backward
    // (the loss in the user's own code, no forward frame) is forward; elsewhere nothing is
    // guessed.
    void lossIsForward() {
        EventColumns events;
        const std::vector<std::pair<int64_t, uint8_t>> rows = {
            {10, FrameCleaner::kForward},    // 0 the model's forward
            {11, 0},                         // 1 log_softmax in nn_utils.py: forward
            {12, 0},                         // 2 nll_loss: forward
            {20, FrameCleaner::kBackward},   // 3 backward
            {21, 0},                         // 4 after backward, before the optimizer: unknown
            {30, FrameCleaner::kOptimizer},  // 5 optimizer
            {31, 0},                         // 6 after the optimizer, before forward: unknown
            {40, FrameCleaner::kForward},    // 7 forward of step 2
            {41, 0},                         // 8 after forward, nothing after: unknown
        };
        std::vector<uint8_t> evidence;
        for (const auto& [t, e] : rows) {
            Event x;
            x.time_ns = t;
            events.append(x);
            evidence.push_back(e);
        }
        PhaseInference::apply(events, evidence, {});
        using P = Phase;
        const std::vector<Phase> phases = {P::Forward,  P::Forward, P::Forward,
                                           P::Backward, P::Other,   P::Optimizer,
                                           P::Other,    P::Forward, P::Other};
        for (size_t i = 0; i < rows.size(); ++i) {
            QCOMPARE(int(events.phase[i]), int(phases[i]));
        }
    }

    // The raw stacks swap in and out.
    void swapsRawStacks() {
        Trace t;
        const uint32_t clean = t.stacks.child(0, t.stacks.internFrame(py("a.py", 1, "f")));
        const uint32_t raw = t.raw_stacks.child(0, t.raw_stacks.internFrame(py("b.py", 2, "g")));
        t.events.append(phaseEvent(EventKind::Alloc, 1, 8, Phase::Other, 0, clean));
        QVERIFY(!t.hasRawStacks());
        t.swapRawStacks();  // nothing to swap with
        QCOMPARE(t.events.stack[0], clean);
        t.raw_stack = {raw};
        QVERIFY(t.hasRawStacks());
        t.swapRawStacks();
        QCOMPARE(t.events.stack[0], raw);
        QCOMPARE(t.stacks.frame(t.stacks.frameOf(raw)).file, std::string("b.py"));
        t.swapRawStacks();
        QCOMPARE(t.events.stack[0], clean);
    }
};

QTEST_GUILESS_MAIN(TestFrameCleaner)
#include "test_frame_cleaner.moc"
