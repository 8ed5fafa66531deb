#pragma once

#include "trace/stack_table.h"

#include <cstdint>
#include <string>
#include <vector>

namespace memscope {

// Turns the frame lists of a PyTorch memory snapshot into the stacks a person reads, and notes
// what the frames say about the training phase. Snapshots recorded with stacks='all' (PyTorch 2.x)
// list C++ and Python frames together, innermost first, as CapturedTraceback symbolizes them: the
// C++ frames in order, each Python frame put in before a `_PyEval_EvalFrameDefault` frame, and the
// Python frames left over when there are more of them than such C++ frames (Python 3.11 runs
// nested Python calls in one) appended last, after `_start`. Read outermost first (a StackTable's
// order), the raw list therefore starts with those leftover, outermost Python frames, then the
// process's real root (`_start`, `__libc_start_main`, the interpreter), then the rest.
//
// The cleaned stack keeps, outermost first:
//   - user Python frames (a `.py` file, `<string>`, `<stdin>`, not under torch/): kind Other,
//     with file and line. The outermost of them is the root, since everything outside them is
//     folded away;
//   - operators: `at::_ops::zeros::call`, `at::native::zeros` (and `_cuda`/`_cpu`/`_out`/
//     `_symint` variants) -> "aten::zeros" (kind Operator), an overload suffix
//     (`add_Tensor`) dropped; such a frame naming the same operator as the kept frame just
//     outside it is the same call and is not repeated; Memscope's own exported "aten::..."
//     frames stay operators, each one (a recording's aten::add inside aten::add is two calls);
//   - autograd nodes: `torch::autograd::generated::SelectBackward0::apply` -> "SelectBackward0",
//     `torch::autograd::AccumulateGrad::apply` -> "AccumulateGrad", CopySlices and PyNode alike
//     (kind BackwardNode);
//   - any other native frame (a C++ extension, a library outside PyTorch and Python), as it is.
// Folded away (kept only in the raw stacks):
//   - the interpreter: `_PyEval_EvalFrameDefault`, `PyMethod_New`, `Py_BytesMain`,
//     `_PyRun_SimpleFileObject` and every `Py*`/`_Py*` function, `cfunction_call`,
//     `method_vectorcall*`, `slot_tp_*`, `pymain_*`, anything in Python's own .c files or in
//     libpython, and the frozen modules (`<frozen runpy>`);
//   - the C and C++ runtime: `_start`, `__libc_start_main`, `start_thread`, `clone`, `std::`,
//     `__gnu_cxx::`, `pybind11::`, unresolved frames ("??");
//   - every native frame the raw list puts outward of a thread's or the process's entry
//     (isThreadEntry: `execute_native_thread_routine`, `start_thread`, `clone`, `clone3`, the
//     autograd engine's `thread_init`, `_start`, `__libc_start_main`, `main`, ...), whatever its
//     name: a stripped libc symbolizes its local start-up functions as unrelated exported names
//     (`__xmknodat > pthread_condattr_setpshared > BmmBackward0` cleans to `BmmBackward0`).
//     Python frames there stay: they are a Python thread's leftover frames (see above);
//   - the unwinder: `torch::unwind::`, `CapturedTraceback::gather`, `gather_with_cpp`;
//   - the allocators: anything named `...CachingAllocator...`, `c10::alloc_cpu`,
//     `at::detail::empty_*`, the CUDA driver and runtime (`cudaMalloc`, `cuMemCreate`);
//   - the dispatcher: `wrap_kernel_functor_unboxed_`, `at::_ops::X::redispatch`,
//     `c10::Dispatcher`, `c10::impl::` (boxing), `c10::KernelFunction`, the registration
//     wrappers (`wrapper_CUDA_zeros`), VariableType, ADInplaceOrView, the Python bindings
//     (`THPVariable_zeros`) and every other `at::`, `c10::` and `torch::` frame that is none of
//     the above (PyTorch's own plumbing: TensorIterator, the autograd engine, the kernels'
//     helpers);
//   - PyTorch's own Python frames (a path with torch/ in it): module.py's `_wrapped_call_impl`
//     and `_call_impl`, functional.py, the optimizers' and autograd's Python code.
//
// Evidence (what the raw frames say, folded ones included):
//   kBackward  the autograd engine (`torch::autograd::Engine::`, `PythonEngine`,
//              `THPEngine_run_backward`), an autograd node, torch/autograd's `backward`/`grad`/
//              `_engine_run_backward`, torch/_tensor.py's `backward`
//   kOptimizer a Python frame under torch/optim/ (or torch/distributed/optim/), module.py's
//              `zero_grad`, C++ `torch::optim::`
//   kForward   a Python frame named `forward`, or module.py's `_call_impl`/`_wrapped_call_impl`
//   kAccumulateGrad  AccumulateGrad's apply or accumulateGrad: the node that keeps a leaf's grad
// The phase a stack implies: backward over optimizer over forward (a checkpointed block's forward
// re-run inside backward is backward).
//
// Cleaning is per raw stack node and memoized, from the node's parent: a raw trie node costs O(1)
// once its frame is classified (once per raw frame).
class FrameCleaner {
  public:
    enum Evidence : uint8_t {
        kForward = 1,
        kBackward = 2,
        kOptimizer = 4,
        kAccumulateGrad = 8,
    };

    // What one raw frame is.
    enum class FrameClass : uint8_t {
        UserPython,
        TorchPython,  // folded; evidence only
        Folded,       // interpreter, runtime, unwinder, allocator, dispatcher, PyTorch plumbing
        Operator,
        AutogradNode,
        Native,  // kept as it is
    };
    struct FrameInfo {
        FrameClass cls = FrameClass::Folded;
        uint8_t evidence = 0;
        std::string name;  // the operator or node name (Operator, AutogradNode)
    };
    static FrameInfo classify(const Frame& raw);
    // Whether a raw frame is where a thread or the process starts running (execute_native_
    // thread_routine, start_thread, clone3, the autograd engine's thread_init, _start,
    // __libc_start_main, main, ...): the native frames outward of it are folded.
    static bool isThreadEntry(const Frame& raw);

    // The cleaned stack of raw node `raw_node` of `raw`, interned into `clean`. `raw` must be the
    // same table on every call (it may grow between calls); so must `clean`.
    uint32_t clean(const StackTable& raw, uint32_t raw_node, StackTable& clean);
    // The Evidence bits of a raw node cleaned before.
    uint8_t evidence(uint32_t raw_node) const {
        return raw_node < m_evidence.size() ? uint8_t(m_evidence[raw_node] & 0x0F) : uint8_t(0);
    }
    // The cleaned stack of a whole frame list, innermost first as snapshots list them (tests and
    // one-off uses; the importer goes through clean()).
    static std::vector<Frame> cleanList(const std::vector<Frame>& innermost_first);

  private:
    static constexpr uint32_t kNotDone = UINT32_MAX;
    uint32_t frameId(const StackTable& raw, uint32_t frame, StackTable& clean);

    std::vector<uint32_t> m_cleanOfRaw{0};  // raw node -> cleaned node (node 0 -> 0)
    std::vector<uint8_t> m_evidence{0};     // raw node -> Evidence bits
    std::vector<uint32_t> m_cleanFrameOf;   // raw frame -> cleaned frame id + 1, 0: folded
    std::vector<uint8_t> m_frameEvidence;   // raw frame -> Evidence bits
    std::vector<uint8_t> m_frameDone;       // raw frame classified
};

}  // namespace memscope
