#!/usr/bin/python3
"""Streams a synthetic PyTorch memory snapshot pickle of any size, for benchmarks (issue 52).

    scripts/gen_snapshot.py --size 1G --out big.pickle [--protocol 4] [--layers 32]
    scripts/gen_snapshot.py --entries 17400000 --out big.pickle

The file is what torch.cuda.memory._dump_snapshot() writes (the dict of
shared/reference/memory-viz-format.md, pickled the way CPython's pickler does it): "segments"
first (the parameters and the optimizer state, alive before the trace began, as
active_allocated blocks with their frames), then "device_traces" (one list, device 0) of
trace-entry dicts {action, addr, size, stream, time_us, frames}, then "allocator_settings" and
"external_annotations" (each optimizer step and zero_grad's START/END).

The trace is one training step of a GPT-shaped model of --layers layers (forward activations
and temporaries, backward gradients and frees, an AdamW step's temporaries, zero_grad freeing
the gradients), with frame lists as PyTorch 2.x records them with stacks='all' (C++ frames
innermost first, Python frames among the interpreter's, the autograd engine's thread without
Python frames). Addresses come from a caching-allocator-like free list, so blocks reuse
addresses. That step is repeated until the file has the size asked for, each repeat with its
addresses shifted and its times one step later; frame lists and frame dicts are shared through
the pickle memo exactly as the pickler shares objects it has already written (each list written
once, then BINGET/LONG_BINGET). Every repeat frees all it allocates, so the peak is the same in
every step and the total at the end is the level at the start.

Nothing is held in memory but one step: entries are encoded and written opcode by opcode into
64 KiB frames (protocol 4 and 5; protocol 2 writes BINPUT/LONG_BINPUT instead of MEMOIZE and has
no frames). Standard library only; prints the entries, bytes and seconds it took.
"""

import argparse
import struct
import sys
import time

T0 = 1_700_000_000_000_000 & ~((1 << 20) - 1)  # 2023-11-14, microseconds, a step boundary
STEP_US = 1 << 20  # one training step, about a second
ADDR_BASE = 0x7E0000000000  # below 2**47: every address is a 6-byte LONG1, as in real files
ADDR_SPAN = 1 << 40  # repeats shift addresses around inside [base, base + span)
PARAM_BASE = 0x7C0000000000  # the blocks alive before the trace (parameters, optimizer state)
BATCH = 1000  # CPython's pickler appends and sets items in batches of 1000
FRAME_TARGET = 64 * 1024  # and commits a frame once it holds 64 KiB

# Opcodes (CPython's Lib/pickle.py names).
MARK, STOP, BININT, BININT1, BININT2 = b"(", b".", b"J", b"K", b"M"
NONE, NEWTRUE, NEWFALSE, LONG1 = b"N", b"\x88", b"\x89", b"\x8a"
EMPTY_DICT, EMPTY_LIST, SETITEM, SETITEMS = b"}", b"]", b"s", b"u"
APPEND, APPENDS, TUPLE2 = b"a", b"e", b"\x86"
SHORT_BINUNICODE, BINUNICODE = b"\x8c", b"X"
BINGET, LONG_BINGET, BINPUT, LONG_BINPUT, MEMOIZE = b"h", b"j", b"q", b"r", b"\x94"
PROTO, FRAME = b"\x80", b"\x95"


def encode_int(v):
    """An int as CPython's pickler writes it with protocol 2 or later."""
    if 0 <= v <= 0xFF:
        return BININT1 + bytes((v,))
    if 0 <= v <= 0xFFFF:
        return BININT2 + struct.pack("<H", v)
    if -(1 << 31) <= v < (1 << 31):
        return BININT + struct.pack("<i", v)
    n = (v.bit_length() >> 3) + 1  # two's complement with room for the sign
    data = v.to_bytes(n, "little", signed=True)
    if v < 0 and n > 1 and data[-1] == 0xFF and data[-2] & 0x80:
        data = data[:-1]
    return LONG1 + bytes((len(data),)) + data


class Ref:
    """An object the pickler memoizes once and refers to afterwards (a str, list or dict that
    is one Python object shared by several containers)."""

    __slots__ = ("value", "memo")

    def __init__(self, value):
        self.value = value
        self.memo = None


class Writer:
    def __init__(self, out, protocol):
        self.out = out
        self.protocol = protocol
        self.framed = protocol >= 4
        self.buf = bytearray()
        self.memo_count = 0
        self.strings = {}  # text -> memo index: the snapshot's strings are shared objects
        self.written = 0
        self.write(PROTO + bytes((protocol,)))
        if self.framed:
            self.flush()  # PROTO comes before the first frame

    def write(self, data):
        self.buf += data

    def boundary(self):
        """An opcode boundary: where the pickler may close a frame."""
        if len(self.buf) >= FRAME_TARGET:
            self.flush()

    def flush(self):
        if not self.buf:
            return
        if self.framed and self.written > 0:
            self.out.write(FRAME + struct.pack("<Q", len(self.buf)))
            self.written += 9
        self.out.write(self.buf)
        self.written += len(self.buf)
        self.buf = bytearray()

    def memoize(self):
        index = self.memo_count
        self.memo_count += 1
        if self.framed:
            self.write(MEMOIZE)
        elif index < 256:
            self.write(BINPUT + bytes((index,)))
        else:
            self.write(LONG_BINPUT + struct.pack("<I", index))
        return index

    def memo_put_bytes(self):
        """What memoize() writes for the next index, without writing it (for encoded
        entries)."""
        if self.framed:
            return MEMOIZE
        index = self.memo_count
        return BINPUT + bytes((index,)) if index < 256 else LONG_BINPUT + struct.pack("<I", index)

    @staticmethod
    def get_bytes(index):
        return BINGET + bytes((index,)) if index < 256 else LONG_BINGET + struct.pack("<I", index)

    def text(self, s):
        if s in self.strings:
            self.write(self.get_bytes(self.strings[s]))
            return
        data = s.encode("utf-8")
        if len(data) < 256 and self.protocol >= 4:
            self.write(SHORT_BINUNICODE + bytes((len(data),)) + data)
        else:
            self.write(BINUNICODE + struct.pack("<I", len(data)) + data)
        self.strings[s] = self.memoize()

    def text_ref(self, s):
        """The bytes that refer to s, written once first if it is new."""
        if s not in self.strings:
            self.text(s)
        return self.get_bytes(self.strings[s])

    def value(self, v):
        if isinstance(v, Ref):
            if v.memo is not None:
                self.write(self.get_bytes(v.memo))
                return
            self.value_new(v.value, v)
            return
        self.value_new(v, None)

    def value_new(self, v, ref):
        if v is None:
            self.write(NONE)
        elif v is True or v is False:
            self.write(NEWTRUE if v else NEWFALSE)
        elif isinstance(v, int):
            self.write(encode_int(v))
        elif isinstance(v, str):
            self.text(v)
        elif isinstance(v, tuple):  # two ints (segment_pool_id): no MARK needed
            for item in v:
                self.value(item)
            self.write(TUPLE2)
            self.memoize()
        elif isinstance(v, list):
            self.write(EMPTY_LIST)
            index = self.memoize()
            if ref is not None:
                ref.memo = index
            self.items(v)
        elif isinstance(v, dict):
            self.write(EMPTY_DICT)
            index = self.memoize()
            if ref is not None:
                ref.memo = index
            pairs = list(v.items())
            for i in range(0, len(pairs), BATCH):
                batch = pairs[i:i + BATCH]
                if len(batch) > 1:
                    self.write(MARK)
                for key, value in batch:
                    self.text(key)
                    self.value(value)
                self.write(SETITEMS if len(batch) > 1 else SETITEM)
        else:
            raise TypeError(type(v))
        self.boundary()

    def items(self, seq):
        for i in range(0, len(seq), BATCH):
            batch = seq[i:i + BATCH]
            if len(batch) > 1:
                self.write(MARK)
            for item in batch:
                self.value(item)
            self.write(APPENDS if len(batch) > 1 else APPEND)


# ---- Frames, as PyTorch 2.x symbolizes a stacks='all' CapturedTraceback ----

TORCH = "/opt/conda/lib/python3.11/site-packages/torch/"
_frames = {}


def frame(filename, line, name):
    key = (filename, line, name)
    if key not in _frames:
        _frames[key] = Ref({"filename": filename, "line": line, "name": name})
    return _frames[key]


def cpp(name, file="??", line=0):
    return frame(file, line, name)


ALLOCATOR = [
    cpp("torch::unwind::unwind()"),
    cpp("torch::CapturedTraceback::gather(bool, bool, bool)"),
    cpp("gather_with_cpp()"),
    cpp("c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc(signed char, "
        "unsigned long, CUstream_st*)", "CUDACachingAllocator.cpp", 0),
    cpp("c10::cuda::CUDACachingAllocator::Native::NativeCachingAllocator::malloc(void**, "
        "signed char, unsigned long, CUstream_st*)", "CUDACachingAllocator.cpp", 0),
    cpp("c10::cuda::CUDACachingAllocator::Native::NativeCachingAllocator::allocate(unsigned "
        "long)", "CUDACachingAllocator.cpp", 0),
    cpp("at::detail::empty_generic(c10::ArrayRef<long>, c10::Allocator*, c10::DispatchKeySet, "
        "c10::ScalarType, std::optional<c10::MemoryFormat>)"),
    cpp("at::detail::empty_cuda(c10::ArrayRef<long>, c10::ScalarType, std::optional<c10::Device>, "
        "std::optional<c10::MemoryFormat>)"),
]
INTERPRETER_TAIL = [
    cpp("PyEval_EvalCode", "Python/ceval.c", 1148),
    cpp("_PyRun_SimpleFileObject", "Python/pythonrun.c", 440),
    cpp("Py_RunMain", "Modules/main.c", 680),
    cpp("Py_BytesMain", "Modules/main.c", 720),
    cpp("__libc_start_main"),
    cpp("_start"),
]
ENGINE = [
    cpp("torch::autograd::Node::operator()(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)"),
    cpp("torch::autograd::Engine::evaluate_function(std::shared_ptr<torch::autograd::GraphTask>&, "
        "torch::autograd::Node*, torch::autograd::InputBuffer&)"),
    cpp("torch::autograd::Engine::thread_main(std::shared_ptr<torch::autograd::GraphTask> const&)"),
    cpp("torch::autograd::Engine::thread_init(int, std::shared_ptr<torch::autograd::ReadyQueue> "
        "const&, bool)"),
    cpp("torch::autograd::python::PythonEngine::thread_init(int, "
        "std::shared_ptr<torch::autograd::ReadyQueue> const&, bool)"),
    cpp("execute_native_thread_routine"),
    cpp("start_thread"),
    cpp("clone3"),
]


def op_cpp(op):
    return [
        cpp(f"at::native::{op}_cuda(at::Tensor const&)", "RegisterCUDA.cpp", 0),
        cpp("c10::impl::wrap_kernel_functor_unboxed_<...>::call(c10::OperatorKernel*, "
            "c10::DispatchKeySet, at::Tensor const&)"),
        cpp(f"at::_ops::{op}::redispatch(c10::DispatchKeySet, at::Tensor const&)"),
        cpp(f"at::_ops::{op}::call(at::Tensor const&)", "Functions.cpp", 0),
    ]


def python_stack(op, py):
    """A Python thread's allocation: the allocator and op frames, then each Python frame
    before an interpreter frame, then the interpreter's start."""
    out = ALLOCATOR + op_cpp(op) + [cpp("cfunction_call", "Objects/methodobject.c", 537)]
    for p in py:
        out += [p, cpp("_PyEval_EvalFrameDefault", "Python/ceval.c", 4760),
                cpp("_PyObject_MakeTpCall", "Objects/call.c", 240)]
    return Ref(out + INTERPRETER_TAIL)


def engine_stack(op, node):
    return Ref(ALLOCATOR + op_cpp(op) + [
        cpp(f"torch::autograd::generated::{node}::apply(std::vector<at::Tensor, "
            "std::allocator<at::Tensor> >&&)", "Functions.cpp", 0)] + ENGINE)


def loop_frames(line, name):
    return [frame("train.py", line, name), frame("train.py", 120, "main"),
            frame("train.py", 130, "<module>")]


def module_frames(model_line, model_name, module_file):
    module_py = TORCH + "nn/modules/module.py"
    return [frame("model.py", model_line, model_name),
            frame(module_py, 1747, "_call_impl"), frame(module_py, 1736, "_wrapped_call_impl"),
            frame(module_file, 40, "forward"),
            frame(module_py, 1747, "_call_impl"), frame(module_py, 1736, "_wrapped_call_impl"),
            frame("model.py", 210, "forward"),
            frame(module_py, 1747, "_call_impl"), frame(module_py, 1736, "_wrapped_call_impl"),
            ] + loop_frames(98, "train_step")


# ---- One training step ----

class Allocator:
    """Blocks as a caching allocator hands them out: a freed block's address is reused by the
    next request of the same rounded size."""

    def __init__(self, base):
        self.next = base
        self.free = {}

    @staticmethod
    def rounded(size):
        return (size + 511) & ~511

    def alloc(self, size):
        r = self.rounded(size)
        if self.free.get(r):
            return self.free[r].pop()
        addr = self.next
        self.next += r
        return addr

    def release(self, addr, size):
        self.free.setdefault(self.rounded(size), []).append(addr)


def training_step(layers, hidden, seq_tokens):
    """The entries of one step: (action, addr offset, size, time offset, stack). Returns them,
    the parameter sizes (alive before the trace) and the step's optimizer and zero_grad times."""
    entries = []
    heap = Allocator(0)
    t = [0]

    def tick(us):
        t[0] += us

    def alloc(size, stack):
        addr = heap.alloc(size)
        entries.append(("alloc", addr, size, t[0], stack))
        tick(3)
        return (addr, size)

    def free(block, stack):
        addr, size = block
        entries.append(("free_requested", addr, size, t[0], stack))
        entries.append(("free_completed", addr, size, t[0] + 1, stack))
        heap.release(addr, size)
        tick(2)

    act = seq_tokens * hidden * 2  # bf16 activations
    ff = 4 * act
    scores = seq_tokens * 2048 * 2 * 2  # a head group's scores
    linear = TORCH + "nn/modules/linear.py"
    norm = TORCH + "nn/modules/normalization.py"
    sp = {}
    for name, line, module_file, op in [
            ("ln1", 150, norm, "native_layer_norm"), ("qkv", 160, linear, "mm"),
            ("scores", 165, linear, "bmm"), ("softmax", 166, linear, "_softmax"),
            ("attn", 167, linear, "bmm"), ("proj", 170, linear, "mm"),
            ("add1", 171, linear, "add"), ("ln2", 175, norm, "native_layer_norm"),
            ("up", 180, linear, "mm"), ("gelu", 181, linear, "gelu"),
            ("down", 182, linear, "mm"), ("add2", 183, linear, "add")]:
        sp[name] = python_stack(op, module_frames(line, "forward", module_file))
    sp["tmp"] = python_stack("empty_strided", module_frames(168, "forward", linear))
    sp["loss"] = python_stack("log_softmax", loop_frames(100, "train_step"))
    backward_nodes = {n: engine_stack("mm", n) for n in
                      ["MmBackward0", "BmmBackward0", "SoftmaxBackward0", "GeluBackward0",
                       "NativeLayerNormBackward0", "AddBackward0"]}
    grad_stack = engine_stack("clone", "AccumulateGrad")
    engine_free = Ref(list(ENGINE))
    adamw = TORCH + "optim/adamw.py"
    optimizer_py = TORCH + "optim/optimizer.py"
    optim_stack = python_stack("_foreach_mul", [
        frame(adamw, 520, "_multi_tensor_adamw"), frame(adamw, 230, "step"),
        frame(optimizer_py, 485, "wrapper")] + loop_frames(104, "train_step"))
    zero_grad_stack = Ref([frame(optimizer_py, 950, "zero_grad")] + loop_frames(106, "train_step"))

    # Parameters per layer: qkv, proj, up, down (and two norms), alive before the trace.
    layer_params = [3 * hidden * hidden * 4, hidden * hidden * 4, 4 * hidden * hidden * 4,
                    4 * hidden * hidden * 4, hidden * 4, hidden * 4]
    params = layer_params * layers

    saved = []
    for _ in range(layers):
        kept = [alloc(act, sp["ln1"]), alloc(3 * act, sp["qkv"])]
        s = alloc(scores, sp["scores"])
        tmp = alloc(scores // 4, sp["tmp"])
        free(tmp, sp["tmp"])
        kept.append(alloc(scores, sp["softmax"]))
        free(s, sp["softmax"])
        kept += [alloc(act, sp["attn"]), alloc(act, sp["proj"]), alloc(act, sp["add1"]),
                 alloc(act, sp["ln2"]), alloc(ff, sp["up"]), alloc(ff, sp["gelu"]),
                 alloc(act, sp["down"]), alloc(act, sp["add2"])]
        saved.append(kept)
        tick(200)
    logits = alloc(seq_tokens * 50304 * 2, sp["loss"])
    tick(1000)

    grads = []
    grad_out = alloc(act, backward_nodes["AddBackward0"])
    free(logits, engine_free)
    for layer in reversed(range(layers)):
        for i, node in enumerate(["MmBackward0", "GeluBackward0", "MmBackward0",
                                  "NativeLayerNormBackward0", "AddBackward0", "MmBackward0",
                                  "BmmBackward0", "SoftmaxBackward0", "BmmBackward0",
                                  "MmBackward0", "NativeLayerNormBackward0"]):
            g = alloc(ff if node == "GeluBackward0" else act, backward_nodes[node])
            free(grad_out, engine_free)
            grad_out = g
            if i in (0, 2, 5, 9):  # a weight's gradient, kept until zero_grad
                grads.append(alloc(layer_params[[3, 2, 1, 0][[0, 2, 5, 9].index(i)]], grad_stack))
        grads += [alloc(layer_params[4], grad_stack), alloc(layer_params[5], grad_stack)]
        for block in reversed(saved[layer]):
            free(block, engine_free)
        tick(400)
    free(grad_out, engine_free)
    tick(5000)

    optimizer_begin = t[0]
    chunk = 24
    for i in range(0, len(grads), chunk):
        group = grads[i:i + chunk]
        temps = [alloc(size, optim_stack) for _, size in group]
        for block in temps:
            free(block, optim_stack)
        tick(100)
    optimizer_end = t[0]
    tick(50)
    zero_grad_begin = t[0]
    for block in grads:
        free(block, zero_grad_stack)
    zero_grad_end = t[0]
    if t[0] >= STEP_US:
        sys.exit("gen_snapshot: the step takes longer than STEP_US; use fewer layers")
    return entries, params, [(optimizer_begin, optimizer_end), (zero_grad_begin, zero_grad_end)], \
        heap.next


def parse_size(text):
    units = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
    text = text.strip().upper().rstrip("B").rstrip("I")
    number = text.rstrip("KMGT")
    return int(float(number) * units[text[len(number):]])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True, help="the pickle to write")
    parser.add_argument("--size", help="the file's size: 300M, 1G, 10G (about)")
    parser.add_argument("--entries", type=int, help="or the number of trace entries (about)")
    parser.add_argument("--protocol", type=int, default=4, choices=[2, 3, 4, 5])
    parser.add_argument("--layers", type=int, default=32)
    parser.add_argument("--hidden", type=int, default=2560)
    parser.add_argument("--tokens", type=int, default=4 * 512, help="tokens per batch")
    args = parser.parse_args()
    if not args.size and not args.entries:
        parser.error("give --size or --entries")
    started = time.monotonic()

    step, params, regions, step_span = training_step(args.layers, args.hidden, args.tokens)
    shift_period = max(1, (ADDR_SPAN - step_span) // (1 << 32))

    with open(args.out, "wb", buffering=1 << 20) as out:
        w = Writer(out, args.protocol)
        w.write(EMPTY_DICT)
        w.memoize()
        w.write(MARK)

        # segments: the parameters, then AdamW's two states per parameter, 2 GiB segments
        w.text("segments")
        param_stack = python_stack("empty", [frame(TORCH + "nn/modules/linear.py", 106,
                                                   "__init__"),
                                             frame("model.py", 140, "__init__")] +
                                   loop_frames(80, "main"))
        state_stack = python_stack("zeros_like", [frame(TORCH + "optim/adamw.py", 120,
                                                        "_init_group")] +
                                   loop_frames(104, "train_step"))
        blocks = [(size, param_stack) for size in params] + \
                 [(size, state_stack) for size in params for _ in range(2)]
        segments = []
        addr = PARAM_BASE
        current = None
        for size, stack in blocks:
            rounded = Allocator.rounded(size)
            if current is None or current["total_size"] + rounded > 2 << 30:
                current = {"device": 0, "address": addr, "total_size": 0, "allocated_size": 0,
                           "active_size": 0, "requested_size": 0, "stream": 0,
                           "segment_type": "large", "segment_pool_id": (0, 0),
                           "is_expandable": False, "frames": [], "blocks": []}
                segments.append(current)
            current["blocks"].append({"address": addr, "size": rounded, "requested_size": size,
                                      "state": "active_allocated", "frames": stack})
            for key in ("total_size", "allocated_size", "active_size"):
                current[key] += rounded
            current["requested_size"] += size
            addr += rounded
        w.value(segments)

        # device_traces: [[entries...]]
        w.text("device_traces")
        w.write(EMPTY_LIST)
        w.memoize()
        w.write(EMPTY_LIST)
        w.memoize()
        # Repeat 0 writes each new frame list and string; afterwards an entry's bytes are
        # constant but for its address and time, which are 6 and 7 byte LONG1s.
        written_entries = 0
        target_bytes = parse_size(args.size) if args.size else None
        target_entries = args.entries
        repeat = 0
        in_batch = 0
        encoded = None
        annotations = []

        def done():
            if target_entries is not None:
                return written_entries >= target_entries
            return w.written + len(w.buf) >= target_bytes

        while not done():
            shift = (repeat % shift_period) << 32
            base_time = T0 + repeat * STEP_US
            for begin, end in regions:
                annotations.append((base_time + begin, base_time + end))
            for i, (action, offset, size, t, stack) in enumerate(step):
                if in_batch == 0:
                    w.write(MARK)
                if encoded is None or i >= len(encoded):
                    # first repeat: through the writer, remembering each entry's pieces
                    if encoded is None:
                        encoded = []
                    w.write(EMPTY_DICT)
                    w.memoize()
                    w.write(MARK)
                    w.text("action")
                    w.text(action)
                    w.text("addr")
                    w.write(encode_int(ADDR_BASE + offset + shift))
                    w.text("size")
                    w.write(encode_int(size))
                    w.text("stream")
                    w.write(encode_int(0))
                    w.text("time_us")
                    w.write(encode_int(base_time + t))
                    w.text("frames")
                    w.value(stack)
                    w.write(SETITEMS)
                    pre = (EMPTY_DICT, MARK + w.text_ref("action") + w.text_ref(action) +
                           w.text_ref("addr") + LONG1 + b"\x06")
                    mid = (w.text_ref("size") + encode_int(size) + w.text_ref("stream") +
                           encode_int(0) + w.text_ref("time_us") + LONG1 + b"\x07")
                    post = w.text_ref("frames") + Writer.get_bytes(stack.memo) + SETITEMS
                    encoded.append((pre, ADDR_BASE + offset, mid, t, post))
                else:
                    pre, addr_base, mid, t, post = encoded[i]
                    w.write(pre[0])
                    w.write(w.memo_put_bytes())
                    w.memo_count += 1
                    w.write(pre[1])
                    w.write((addr_base + shift).to_bytes(6, "little"))
                    w.write(mid)
                    w.write((base_time + t).to_bytes(7, "little"))
                    w.write(post)
                written_entries += 1
                in_batch += 1
                if in_batch == BATCH:
                    w.write(APPENDS)
                    in_batch = 0
                w.boundary()
                if done():
                    break
            repeat += 1
        if in_batch:
            w.write(APPENDS if in_batch > 1 else APPEND)
        w.write(APPEND)  # the device's list into device_traces

        w.text("allocator_settings")
        w.value({"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:False"})
        w.text("external_annotations")
        w.write(EMPTY_LIST)
        w.memoize()
        marks = []
        for n, (begin, end) in enumerate(annotations):
            name = "Optimizer.step#AdamW.step" if n % 2 == 0 else \
                "Optimizer.zero_grad#AdamW.zero_grad"
            marks.append({"name": name, "stage": "START", "device": 0, "time_us": begin})
            marks.append({"name": name, "stage": "END", "device": 0, "time_us": end})
        w.items(marks)
        w.write(SETITEMS)
        w.write(STOP)
        w.flush()
    seconds = time.monotonic() - started
    print(f"gen_snapshot: {args.out}: {w.written} bytes ({w.written / 1e9:.2f} GB), "
          f"{written_entries} trace entries ({repeat} steps of {len(step)}), protocol "
          f"{args.protocol}, {seconds:.1f} s ({w.written / 1e6 / max(seconds, 1e-9):.0f} MB/s)")


if __name__ == "__main__":
    main()
