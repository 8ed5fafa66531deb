#include "interchange/frame_cleaner.h"

#include <cctype>
#include <string_view>

namespace memscope {

namespace {

// An internal bit beside the Evidence ones: the cleaned stack holds a user Python frame.
constexpr uint8_t kUserFrameKept = 0x80;
// And: the frame is a C++ symbol read as an operator (at::_ops::X::call, at::native::X), which
// may repeat the operator of the frame outside it. Memscope's own exported "aten::" frames are
// each a call of their own (aten::add inside aten::add is two calls).
constexpr uint8_t kOperatorSymbol = 0x40;
// And: the frame is where a thread or the process starts running its own code (isEntry).
constexpr uint8_t kEntry = 0x20;

bool startsWith(std::string_view s, std::string_view prefix) {
    return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

bool endsWith(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool hasPart(std::string_view s, std::string_view part) {
    return s.find(part) != std::string_view::npos;
}

// The qualified name of a demangled C++ symbol: without its parameter list, a return type in front
// (templates: "void at::native::f<float>(...)") and template arguments at the end.
std::string_view symbolOf(std::string_view name) {
    int depth = 0;
    size_t end = name.size();
    size_t start = 0;
    for (size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (c == '<') {
            ++depth;
        } else if (c == '>') {
            depth = depth > 0 ? depth - 1 : 0;
        } else if (c == '(' && depth == 0) {
            // "(anonymous namespace)" is part of the name, not a parameter list.
            if (name.compare(i, 21, "(anonymous namespace)") == 0) {
                i += 20;
                continue;
            }
            end = i;
            break;
        } else if (c == ' ' && depth == 0) {
            start = i + 1;
        }
    }
    std::string_view s = name.substr(start, end - start);
    // Template arguments at the end: "f<float>" -> "f".
    if (!s.empty() && s.back() == '>') {
        int d = 0;
        for (size_t i = s.size(); i-- > 0;) {
            if (s[i] == '>') {
                ++d;
            } else if (s[i] == '<' && --d == 0) {
                s = s.substr(0, i);
                break;
            }
        }
    }
    return s;
}

bool isIdentifier(std::string_view s) {
    if (s.empty() || !(std::islower(static_cast<unsigned char>(s[0])) || s[0] == '_')) {
        return false;
    }
    for (const char c : s) {
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) {
            return false;
        }
    }
    return true;
}

bool isNodeName(std::string_view s) {
    if (s.empty()) {
        return false;
    }
    for (const char c : s) {
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) {
            return false;
        }
    }
    return true;
}

// "add_Tensor" -> "add", "empty_memory_format" -> "empty", "zeros_cuda" -> "zeros": without the
// overload (an upper-case part, or a common lower-case one) and the kernel's suffixes.
std::string operatorName(std::string_view op) {
    for (size_t i = 1; i + 1 < op.size(); ++i) {
        if (op[i] == '_' && std::isupper(static_cast<unsigned char>(op[i + 1]))) {
            op = op.substr(0, i);
            break;
        }
    }
    // Overload names in lower case that ATen's operators use most ("empty.memory_format" is
    // at::_ops::empty_memory_format), and the backend and out-variant suffixes of kernels.
    for (bool changed = true; changed;) {
        changed = false;
        for (const std::string_view suffix :
             {"_cuda", "_cpu", "_symint", "_out", "_memory_format", "_names", "_self", "_dim",
              "_int", "_default", "_input", "_other", "_src", "_value", "_vec", "_dimname"}) {
            if (op.size() > suffix.size() + 1 && endsWith(op, suffix)) {
                op = op.substr(0, op.size() - suffix.size());
                changed = true;
            }
        }
    }
    return "aten::" + std::string(op);
}

bool isPythonFile(std::string_view file) {
    return endsWith(file, ".py") || endsWith(file, ".pyw") ||
           (startsWith(file, "<") && endsWith(file, ">"));
}

bool isTorchPython(std::string_view file) {
    return startsWith(file, "torch/") || hasPart(file, "/torch/");
}

bool isInterpreterFile(std::string_view file) {
    if (hasPart(file, "libpython")) {
        return true;
    }
    if (!endsWith(file, ".c") && !endsWith(file, ".h")) {
        return false;
    }
    for (const std::string_view dir :
         {"Python/", "Objects/", "Modules/", "Programs/", "Parser/", "Include/"}) {
        if (startsWith(file, dir) || hasPart(file, std::string("/") + std::string(dir))) {
            return true;
        }
    }
    return hasPart(file, "python3") || hasPart(file, "cpython");
}

bool isInterpreterName(std::string_view s) {
    if (startsWith(s, "_Py") || startsWith(s, "Py_") || startsWith(s, "pymain_") ||
        startsWith(s, "cfunction_") || startsWith(s, "method_vectorcall") ||
        startsWith(s, "slot_tp_") || startsWith(s, "vectorcall_") || startsWith(s, "builtin_") ||
        startsWith(s, "run_mod") || startsWith(s, "run_eval_code") || s == "_start" ||
        startsWith(s, "__libc_") || s == "start_thread" || s == "clone" || s == "clone3" ||
        s == "__clone" || s == "execute_native_thread_routine") {
        return true;
    }
    // PyObject_Call, PyEval_EvalCode, PyMethod_New, ...: "Py" and an upper-case letter.
    return s.size() > 2 && s[0] == 'P' && s[1] == 'y' &&
           std::isupper(static_cast<unsigned char>(s[2]));
}

// Where a thread or the process starts: the C runtime's and libstdc++'s thread starts, the
// autograd engine's and c10's thread pool's thread functions, the process's _start, the C
// library's start of main, and main. What the raw list puts outward of one of them is start-up
// code, whatever it is called: a stripped C library's local functions are symbolized as the
// nearest exported name ("__xmknodat", "pthread_condattr_setpshared" for start_thread and
// clone3), so no list of names can catch them all.
bool isEntry(std::string_view s) {
    for (const std::string_view entry :
         {"execute_native_thread_routine", "start_thread", "clone", "clone3", "__clone", "__clone3",
          "__clone_internal", "thread_start", "_start", "__libc_start_main",
          "__libc_start_call_main", "main", "Py_BytesMain", "Py_Main", "pymain_main",
          "torch::autograd::Engine::thread_init", "c10::ThreadPool::main_loop"}) {
        if (s == entry) {
            return true;
        }
    }
    return startsWith(s, "std::thread::_State_impl") && endsWith(s, "::_M_run");
}

}  // namespace

bool FrameCleaner::isThreadEntry(const Frame& raw) {
    if (isPythonFile(raw.file) || raw.name.empty() || raw.name == "??") {
        return false;
    }
    return isEntry(symbolOf(raw.name));
}

FrameCleaner::FrameInfo FrameCleaner::classify(const Frame& raw) {
    FrameInfo info;
    const std::string_view file = raw.file;
    const std::string_view name = raw.name;
    if (isPythonFile(file)) {
        if (startsWith(file, "<frozen")) {
            return info;  // the interpreter's own modules (runpy)
        }
        if (name == "forward") {
            info.evidence |= kForward;
        }
        if (isTorchPython(file)) {
            info.cls = FrameClass::TorchPython;
            // Module.zero_grad frees the gradients as the optimizer's zero_grad does: both
            // end a step's use of them (the gradient lifetime rule, trace/categorizer.h).
            if (hasPart(file, "torch/optim/") || hasPart(file, "torch/distributed/optim/") ||
                (endsWith(file, "torch/nn/modules/module.py") && name == "zero_grad")) {
                info.evidence |= kOptimizer;
            } else if ((hasPart(file, "torch/autograd/") &&
                        (name == "backward" || name == "grad" || name == "_engine_run_backward")) ||
                       (endsWith(file, "torch/_tensor.py") && name == "backward")) {
                info.evidence |= kBackward;
            } else if (endsWith(file, "torch/nn/modules/module.py") &&
                       (name == "_call_impl" || name == "_wrapped_call_impl")) {
                info.evidence |= kForward;
            }
            return info;
        }
        info.cls = FrameClass::UserPython;
        return info;
    }

    // Native frames.
    if (name.empty() || name == "??" || isInterpreterFile(file)) {
        return info;
    }
    const std::string_view s = symbolOf(name);
    // The interpreter's main() (Programs/python.c); a C++ program's own main() is kept.
    const bool interpreter_main =
        s == "main" && (file.empty() || file == "??" || endsWith(file, ".c"));
    if (interpreter_main || isInterpreterName(s) || startsWith(s, "std::") ||
        startsWith(s, "__gnu_cxx::") || startsWith(s, "pybind11::") || startsWith(s, "__cxx")) {
        return info;
    }
    // Memscope's own exported frames: operators and autograd nodes by their names.
    if (startsWith(s, "aten::") && name.size() > 6) {
        info.cls = FrameClass::Operator;
        info.name = std::string(name);
        return info;
    }
    // The unwinder and the allocators (their frames sit at the leaves of every stack).
    if (hasPart(s, "unwind::") || hasPart(s, "CapturedTraceback") ||
        hasPart(s, "gather_with_cpp") || hasPart(s, "CachingAllocator") ||
        startsWith(s, "c10::alloc_cpu") || startsWith(s, "at::detail::empty") ||
        (s.size() > 3 && s[0] == 'c' && s[1] == 'u' &&
         (std::isupper(static_cast<unsigned char>(s[2])) || startsWith(s, "cuda"))) ||
        hasPart(file, "libcuda")) {
        return info;
    }
    if (hasPart(s, "torch::autograd::Engine::") || hasPart(s, "PythonEngine::") ||
        hasPart(s, "THPEngine_run_backward")) {
        info.evidence |= kBackward;
        return info;
    }
    if (hasPart(s, "AccumulateGrad::accumulateGrad")) {
        info.evidence |= kBackward | kAccumulateGrad;
        return info;
    }
    // Autograd nodes: torch::autograd::generated::SelectBackward0::apply and the hand-written ones.
    constexpr std::string_view generated = "torch::autograd::generated::";
    if (startsWith(s, generated) && endsWith(s, "::apply")) {
        const std::string_view node = s.substr(generated.size(), s.size() - generated.size() - 7);
        if (isNodeName(node)) {
            info.cls = FrameClass::AutogradNode;
            info.evidence |= kBackward;
            info.name = std::string(node);
            return info;
        }
    }
    for (const std::string_view node : {"AccumulateGrad", "CopySlices", "PyNode"}) {
        if (s == std::string("torch::autograd::") + std::string(node) + "::apply") {
            info.cls = FrameClass::AutogradNode;
            info.evidence |= kBackward;
            if (node == "AccumulateGrad") {
                info.evidence |= kAccumulateGrad;
            }
            info.name = std::string(node);
            return info;
        }
    }
    if (startsWith(s, "torch::optim::")) {
        info.evidence |= kOptimizer;
        return info;
    }
    // Operators: at::_ops::zeros::call (the dispatcher's entry) and at::native::zeros (the
    // kernel); at::_ops::X::redispatch is the dispatcher passing the call on.
    constexpr std::string_view ops = "at::_ops::";
    if (startsWith(s, ops) && endsWith(s, "::call")) {
        const std::string_view op = s.substr(ops.size(), s.size() - ops.size() - 6);
        if (isIdentifier(op)) {
            info.cls = FrameClass::Operator;
            info.name = operatorName(op);
            return info;
        }
    }
    // at::native also holds the kernels' helpers: templates (a return type in front, template
    // arguments after) and launchers are not operators.
    constexpr std::string_view native = "at::native::";
    const std::string_view kernel = s.size() > native.size() ? s.substr(native.size()) : "";
    const bool helper = !startsWith(name, native) || hasPart(kernel, "kernel") ||
                        hasPart(kernel, "impl") || hasPart(kernel, "launch") ||
                        endsWith(kernel, "_stub");
    if (startsWith(s, native) && !helper && isIdentifier(kernel) && name.size() > s.size() &&
        name[s.size()] == '(') {
        info.cls = FrameClass::Operator;
        info.name = operatorName(s.substr(native.size()));
        return info;
    }
    // The rest of PyTorch (dispatcher, boxing, registration wrappers, VariableType, bindings,
    // TensorIterator, kernels' helpers) and anything in an anonymous namespace of it.
    if (startsWith(s, "at::") || startsWith(s, "c10::") || startsWith(s, "torch::") ||
        startsWith(s, "caffe2::") || startsWith(s, "THP") ||
        hasPart(s, "wrap_kernel_functor_unboxed_")) {
        return info;
    }
    info.cls = FrameClass::Native;
    return info;
}

uint32_t FrameCleaner::frameId(const StackTable& raw, uint32_t frame, StackTable& clean) {
    if (frame >= m_frameDone.size()) {
        m_frameDone.resize(raw.frameCount(), 0);
        m_cleanFrameOf.resize(raw.frameCount(), 0);
        m_frameEvidence.resize(raw.frameCount(), 0);
    }
    if (m_frameDone[frame]) {
        return m_cleanFrameOf[frame];
    }
    const Frame& f = raw.frame(frame);
    FrameInfo info = classify(f);
    uint32_t id = 0;
    Frame out;
    switch (info.cls) {
        case FrameClass::UserPython:
        case FrameClass::Native:
            out = f;
            out.kind = FrameKind::Other;
            if (out.file == "??") {
                out.file.clear();  // unresolved: memory_viz's and Memscope's exports write "??"
            }
            id = clean.internFrame(out) + 1;
            break;
        case FrameClass::Operator:
            out.name = std::move(info.name);
            out.kind = FrameKind::Operator;
            id = clean.internFrame(out) + 1;
            break;
        case FrameClass::AutogradNode:
            out.name = std::move(info.name);
            out.kind = FrameKind::BackwardNode;
            id = clean.internFrame(out) + 1;
            break;
        case FrameClass::TorchPython:
        case FrameClass::Folded:
            break;
    }
    m_frameDone[frame] = 1;
    m_cleanFrameOf[frame] = id;
    const bool symbol = info.cls == FrameClass::Operator && f.name.rfind("aten::", 0) != 0;
    m_frameEvidence[frame] = static_cast<uint8_t>(
        info.evidence | (info.cls == FrameClass::UserPython ? kUserFrameKept : 0) |
        (symbol ? kOperatorSymbol : 0) | (isThreadEntry(f) ? kEntry : 0));
    return id;
}

uint32_t FrameCleaner::clean(const StackTable& raw, uint32_t raw_node, StackTable& clean) {
    if (raw_node < m_cleanOfRaw.size() && m_cleanOfRaw[raw_node] != kNotDone) {
        return m_cleanOfRaw[raw_node];
    }
    if (raw_node >= m_cleanOfRaw.size()) {
        m_cleanOfRaw.resize(raw.nodeCount(), kNotDone);
        m_evidence.resize(raw.nodeCount(), 0);
    }
    // The nodes from raw_node up to the first one cleaned before, then each from its parent.
    std::vector<uint32_t> path;
    for (uint32_t n = raw_node; m_cleanOfRaw[n] == kNotDone; n = raw.parent(n)) {
        path.push_back(n);
    }
    for (size_t k = path.size(); k-- > 0;) {
        const uint32_t n = path[k];
        const uint32_t parent = raw.parent(n);
        uint32_t node = m_cleanOfRaw[parent];
        uint8_t evidence = m_evidence[parent];
        const uint32_t frame = raw.frameOf(n);
        const uint32_t id = frameId(raw, frame, clean);
        const uint8_t frame_evidence = m_frameEvidence[frame];
        if ((frame_evidence & kEntry) && node != StackTable::kEmpty) {
            // A thread's or the process's start: the native frames outward of it go. Python
            // frames stay: the raw list puts a Python thread's leftover frames outermost,
            // though they ran inside the thread.
            std::vector<uint32_t> keep;
            for (uint32_t c = node; c != StackTable::kEmpty; c = clean.parent(c)) {
                const Frame& outer = clean.frame(clean.frameOf(c));
                if (outer.kind != FrameKind::Other || isPythonFile(outer.file)) {
                    keep.push_back(clean.frameOf(c));
                }
            }
            node = StackTable::kEmpty;
            for (size_t i = keep.size(); i-- > 0;) {
                node = clean.child(node, keep[i]);
            }
        }
        if (id != 0) {
            const Frame& f = clean.frame(id - 1);
            const bool user = (frame_evidence & kUserFrameKept) != 0;
            if (user && !(evidence & kUserFrameKept)) {
                // The outermost user Python frame is the root: native frames the raw list put
                // outside it (the process's start) go, operators and autograd nodes stay.
                std::vector<uint32_t> keep;
                for (uint32_t c = node; c != StackTable::kEmpty; c = clean.parent(c)) {
                    if (clean.frame(clean.frameOf(c)).kind != FrameKind::Other) {
                        keep.push_back(clean.frameOf(c));
                    }
                }
                node = StackTable::kEmpty;
                for (size_t i = keep.size(); i-- > 0;) {
                    node = clean.child(node, keep[i]);
                }
            }
            const bool repeat = node != StackTable::kEmpty && f.kind == FrameKind::Operator &&
                                (frame_evidence & kOperatorSymbol) && clean.frameOf(node) == id - 1;
            if (!repeat) {
                node = clean.child(node, id - 1);
            }
        }
        m_cleanOfRaw[n] = node;
        m_evidence[n] =
            static_cast<uint8_t>(evidence | (frame_evidence & ~(kOperatorSymbol | kEntry)));
    }
    return m_cleanOfRaw[raw_node];
}

std::vector<Frame> FrameCleaner::cleanList(const std::vector<Frame>& innermost_first) {
    StackTable raw;
    uint32_t node = StackTable::kEmpty;
    for (size_t i = innermost_first.size(); i-- > 0;) {
        node = raw.child(node, raw.internFrame(innermost_first[i]));
    }
    StackTable clean;
    FrameCleaner cleaner;
    const uint32_t cleaned = cleaner.clean(raw, node, clean);
    std::vector<Frame> out;
    for (const uint32_t f : clean.framesOf(cleaned)) {
        out.push_back(clean.frame(f));
    }
    return out;
}

}  // namespace memscope
