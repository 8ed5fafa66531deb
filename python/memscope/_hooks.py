"""The hooks that tell the recorder what a PyTorch program is doing, without changing it.

- nn.Module.__call__ is wrapped: each call opens a module scope named by the module's path
  ("TinyLlama.blocks.2.attention.q_proj": the class of the outermost module, then the
  attribute names of named_modules()), closed in a finally (a forward that raises leaves no scope
  open). The outermost call on a thread starts the forward phase, names the storages of every
  parameter of that module PARAMETER (once a step) and its tensor arguments without autograd
  history INPUT.
  A wrapper and not the global forward pre/post hooks: a post hook never runs when forward raises,
  and the scope stack would stay open.
- torch.autograd.backward and torch.autograd.grad (Tensor.backward calls the former): the
  backward phase; afterwards every .grad of the parameters seen is named GRADIENT.
- every torch.optim.Optimizer subclass's step (wrapped once per class when its first instance is
  made): the optimizer phase; afterwards its state tensors are named OPTIMIZER_STATE, and the
  step ends.
- optimizers that are no torch.optim.Optimizer (a hand-written class with a step() method): at
  the end of the first backward of a program that made no torch.optim optimizer, the objects
  that hold the model's parameters (in an attribute, or a list, tuple or dict of one) and have
  a step() method are taken for its optimizers, and their class's step is wrapped like a
  torch.optim one's; afterwards every tensor they hold (but the parameters and gradients) is
  named OPTIMIZER_STATE. What this cannot tell: an update written as a plain function, or
  state kept outside the object (a global, a closure).
- an optimizer whose step() calls another's (a wrapper: ZeRO-1 over an inner AdamW, a
  lookahead): one optimizer step; the state of every optimizer that stepped inside it is named.
- threading.Thread._bootstrap_inner: threads the program starts are recorded too.
- os.register_at_fork: a child made by fork() (multiprocessing's fork start method, a DataLoader
  worker, a bare os.fork) records itself from where its parent was when the program's processes
  are recorded (memscope/_child.py): the parent's recording is drained and held across the fork,
  and the child starts its own, with what the parent had alive as allocated before recording.
  Otherwise the child records nothing.
- torch.distributed.init_process_group: the process's rank in its group, for the run directory
  of a program of several processes (memscope/_child.py).
- torch.cuda._lazy_call: when the program initializes CUDA, the caching allocator's trace
  tracker is attached (segments and the reserved line, as for the built-in trainer's GPU runs);
  a program that never uses CUDA never initializes it.
"""

import functools
import gc
import os
import threading
import types
import weakref

import torch

# The numbers the extension takes (ProgramRecording::Event, trace/category.h): set by install()
# from the extension's own constants.
FORWARD = BACKWARD = BACKWARD_DONE = OPTIMIZER = OPTIMIZER_DONE = None
PARAMETER = OPTIMIZER_STATE = INPUT = GRADIENT = None

_m = None
_installed = []  # (owner, attribute, original)
_tls = threading.local()
_paths = weakref.WeakKeyDictionary()  # module -> path
_roots = weakref.WeakSet()  # outermost modules called so far
_announced = weakref.WeakKeyDictionary()  # root -> step its parameters were last named in
_optimizers = weakref.WeakSet()
_plain_optimizers = weakref.WeakSet()  # hand-written optimizers found (see above)
_searched_plain = [False]
_noted = set()  # the optimizers' names told to the extension
_input_step = [-1]
# id(parameter) -> the path of the module that owns it, for the roles of its storages, its
# gradient's and its optimizer state's (explain/module_table.h). Kept up to date each step the
# parameters are named; a parameter's id is stable while the model holds it.
_owners = {}


def _compiling_check():
    """torch.compiler.is_compiling (2.3+), dynamo's own before it; never compiling on 1.13."""
    compiler = getattr(torch, "compiler", None)
    check = getattr(compiler, "is_compiling", None)
    if check is not None:
        return check
    dynamo = getattr(torch, "_dynamo", None)
    external = getattr(dynamo, "external_utils", None)
    check = getattr(external, "is_compiling", None)
    return check if check is not None else (lambda: False)


_is_compiling = _compiling_check()
_get_mode = getattr(torch._C, "_get_dispatch_mode", None)
_mode_keys = tuple(getattr(torch._C._TorchDispatchModeKey, name)
                   for name in ("FAKE", "PROXY", "FUNCTIONAL")
                   if _get_mode is not None and hasattr(torch._C, "_TorchDispatchModeKey")
                   and hasattr(torch._C._TorchDispatchModeKey, name))


def _tracing():
    """True while PyTorch traces the program rather than runs it: dynamo compiling a frame
    (it inlines these wrappers: the check comes first and is a constant to it, so that nothing
    of the recorder is traced, mutated or breaks a graph), and AOTAutograd or dynamo running
    modules and autograd.grad on fake, functional or proxy tensors. Then the hooks only call
    through: what is traced is not what runs, and the compiled code's allocations are recorded
    when it runs."""
    if _is_compiling():
        return True
    for key in _mode_keys:
        if _get_mode(key) is not None:
            return True
    return False


def _storage_ptr(t):
    try:
        storage = t.untyped_storage()  # 2.x
    except AttributeError:
        storage = t.storage()  # 1.13
    return storage.data_ptr()


def _name(t, category, owner=None):
    if isinstance(t, torch.Tensor) and t.layout == torch.strided and not t.is_meta:
        ptr = _storage_ptr(t)
        if ptr:
            _m.role(ptr, category, str(t.device), owner)


def _name_parameters(root):
    """Names every parameter of a root module PARAMETER, with the module that owns it."""
    _path_of(root, [])
    seen = set()
    for sub in root.modules():
        path = _paths.get(sub)
        for p in sub.parameters(recurse=False):
            if id(p) in seen:  # a tied weight belongs to the first module that has it
                continue
            seen.add(id(p))
            _owners[id(p)] = path
            _name(p, PARAMETER, path)


def _stack():
    s = getattr(_tls, "stack", None)
    if s is None:
        s = _tls.stack = []
    return s


def _path_of(module, stack):
    path = _paths.get(module)
    if path is not None:
        return path
    if not stack:
        # torch.compile(model) returns an OptimizedModule holding the model as _orig_mod: the
        # path is the model's, as in eager mode.
        inner = module
        while type(inner).__name__ == "OptimizedModule" and isinstance(
                getattr(inner, "_orig_mod", None), torch.nn.Module):
            inner = inner._orig_mod
        root = type(inner).__name__
        if inner is not module:
            _paths[module] = root
        for name, sub in inner.named_modules():
            if sub not in _paths:
                _paths[sub] = root + "." + name if name else root
        return _paths[module]
    path = stack[-1] + "." + type(module).__name__
    _paths[module] = path
    return path


def _call(original):
    @functools.wraps(original)
    def __call__(self, *args, **kwargs):
        if _tracing():
            return original(self, *args, **kwargs)
        stack = _stack()
        depth = len(stack)
        if depth == 0:
            _m.event(FORWARD, 0.0)
            step = _m.step()
            if _announced.get(self) != step:
                _announced[self] = step
                _roots.add(self)
                _name_parameters(self)
            # Inputs: tensors without autograd history given to an outermost module (the model,
            # a loss module's labels). Under no_grad an activation has no history either (layers
            # called one by one at the top): then only the first outermost call of a step.
            if torch.is_grad_enabled() or _input_step[0] != step:
                _input_step[0] = step
                for a in list(args) + list(kwargs.values()):
                    if isinstance(a, torch.Tensor) and a.grad_fn is None and not a.requires_grad:
                        _name(a, INPUT)
        path = _path_of(self, stack)
        code = getattr(type(self).forward, "__code__", None)
        _m.module_enter(path, code.co_filename if code else "", code.co_firstlineno if code else 0)
        stack.append(path)
        try:
            return original(self, *args, **kwargs)
        finally:
            del stack[depth:]
            _m.module_exit(depth)
    return __call__


def _loss_of(tensors):
    t = tensors[0] if isinstance(tensors, (tuple, list)) and len(tensors) == 1 else tensors
    if isinstance(t, torch.Tensor) and t.dim() == 0 and t.device.type == "cpu":
        return float(t.detach())
    return 0.0


def _name_gradients():
    params = set()
    for root in list(_roots):
        for p in root.parameters():
            params.add(p)
    for opt in list(_optimizers):
        for group in opt.param_groups:
            params.update(group["params"])
    for p in params:
        if p.grad is not None:
            _name(p.grad, GRADIENT, _owners.get(id(p)))


def _backward(original):
    @functools.wraps(original)
    def wrapper(*args, **kwargs):
        if _tracing() or getattr(_tls, "in_backward", False):
            return original(*args, **kwargs)
        _tls.in_backward = True
        _m.event(BACKWARD, _loss_of(args[0]) if args else 0.0)
        try:
            return original(*args, **kwargs)
        finally:
            _tls.in_backward = False
            _name_gradients()
            if not _searched_plain[0] and not _optimizers and _roots:
                _searched_plain[0] = True
                try:
                    _find_plain_optimizers()
                except Exception:  # noqa: BLE001 - the search must never change the program
                    pass
            _m.event(BACKWARD_DONE, 0.0)
    return wrapper


def _tensors_in(value, depth=0):
    """The tensors an optimizer holds: in its attribute values, lists, tuples and dicts."""
    if isinstance(value, torch.Tensor):
        yield value
    elif depth < 3 and isinstance(value, (list, tuple)):
        for v in value:
            yield from _tensors_in(v, depth + 1)
    elif depth < 3 and isinstance(value, dict):
        for v in value.values():
            yield from _tensors_in(v, depth + 1)


def _name_state(optimizer):
    """Names an optimizer's long-lived tensors OPTIMIZER_STATE: a torch.optim one's `state`; a
    hand-written one's attributes, but the parameters and their gradients."""
    if isinstance(optimizer, torch.optim.Optimizer):
        for param, state in list(optimizer.state.items()):
            owner = _owners.get(id(param))
            for value in state.values():
                _name(value, OPTIMIZER_STATE, owner)
        return
    params = set()
    for root in list(_roots):
        for p in root.parameters():
            params.add(id(p))
            if p.grad is not None:
                params.add(id(p.grad))
    for value in list(getattr(optimizer, "__dict__", {}).values()):
        for t in _tensors_in(value):
            if id(t) not in params and not isinstance(t, torch.nn.Parameter):
                _name(t, OPTIMIZER_STATE)


def _wrap_step(cls):
    step = cls.__dict__.get("step")
    if step is None or not callable(step) or getattr(step, "_memscope", False):
        return

    @functools.wraps(step)
    def wrapper(self, *args, **kwargs):
        if _tracing():
            return step(self, *args, **kwargs)
        stepped = getattr(_tls, "stepped", None)
        if stepped is not None:
            # Inside another optimizer's step (a wrapper's inner optimizer, a subclass calling
            # super().step()): the same step; this one's state is named with the outer one's.
            stepped.append(self)
            return step(self, *args, **kwargs)
        _tls.stepped = [self]
        _m.event(OPTIMIZER, 0.0)
        try:
            return step(self, *args, **kwargs)
        finally:
            stepped, _tls.stepped = _tls.stepped, None
            named, classes = set(), []
            for optimizer in stepped:
                if id(optimizer) not in named:
                    named.add(id(optimizer))
                    try:
                        _name_state(optimizer)
                    except Exception:  # noqa: BLE001 - naming must never change the program
                        pass
                    if type(optimizer).__qualname__ not in classes:
                        classes.append(type(optimizer).__qualname__)
            what = " > ".join(classes)
            if what not in _noted:
                _noted.add(what)
                _m.note_optimizer(what)
            _m.event(OPTIMIZER_DONE, 0.0)
    wrapper._memscope = True
    cls.step = wrapper


def _find_plain_optimizers():
    """A program that made no torch.optim optimizer, at the end of its first backward: the
    objects that hold the model's parameters and have a step() method (see the module's
    docstring) get their class's step wrapped."""
    params = [p for root in list(_roots) for p in root.parameters()]
    if not params:
        return
    wanted = {id(p) for p in params}
    own = {id(params), id(wanted)}
    found = []
    frontier = [params[0]]
    seen = set()
    for _ in range(4):  # parameter <- list <- dict <- list <- object, at most
        above = []
        referrers = gc.get_referrers(*frontier)
        own.add(id(referrers))
        own.add(id(frontier))
        for r in referrers:
            if id(r) in own or id(r) in seen:
                continue
            seen.add(id(r))
            if isinstance(r, (types.FrameType, types.ModuleType, torch.nn.Module,
                              torch.optim.Optimizer, type)):
                continue
            if isinstance(r, (list, tuple, dict)):
                above.append(r)
                continue
            step = getattr(type(r), "step", None)
            if callable(step) and hasattr(r, "__dict__"):
                found.append(r)
            else:
                above.append(r)
        if not above:
            break
        frontier = above
    for optimizer in found:
        _plain_optimizers.add(optimizer)
        for cls in type(optimizer).__mro__:
            if cls is object:
                break
            if isinstance(cls.__dict__.get("step"), types.FunctionType):
                _wrap_step(cls)
                break


def _optimizer_init(original):
    @functools.wraps(original)
    def __init__(self, *args, **kwargs):
        original(self, *args, **kwargs)
        _optimizers.add(self)
        for cls in type(self).__mro__:
            if cls is torch.optim.Optimizer:
                break
            _wrap_step(cls)
    return __init__


def _bootstrap(original):
    @functools.wraps(original)
    def _bootstrap_inner(self):
        _m.thread_enter()
        try:
            original(self)
        finally:
            _m.thread_exit()
    return _bootstrap_inner


def _patch(owner, attribute, make):
    original = getattr(owner, attribute)
    _installed.append((owner, attribute, original))
    setattr(owner, attribute, make(original))


def install(extension):
    global _m, FORWARD, BACKWARD, BACKWARD_DONE, OPTIMIZER, OPTIMIZER_DONE
    global PARAMETER, OPTIMIZER_STATE, INPUT, GRADIENT
    _m = extension
    FORWARD, BACKWARD = extension.EVENT_FORWARD, extension.EVENT_BACKWARD
    BACKWARD_DONE = extension.EVENT_BACKWARD_DONE
    OPTIMIZER, OPTIMIZER_DONE = extension.EVENT_OPTIMIZER, extension.EVENT_OPTIMIZER_DONE
    PARAMETER, OPTIMIZER_STATE = extension.CATEGORY_PARAMETER, extension.CATEGORY_OPTIMIZER_STATE
    INPUT, GRADIENT = extension.CATEGORY_INPUT, extension.CATEGORY_GRADIENT
    _patch(torch.nn.Module, "__call__", _call)
    _patch(torch.autograd, "backward", _backward)
    _patch(torch.autograd, "grad", _backward)
    _patch(torch.optim.Optimizer, "__init__", _optimizer_init)
    _patch(threading.Thread, "_bootstrap_inner", _bootstrap)
    os.register_at_fork(before=extension.before_fork, after_in_parent=extension.after_fork_parent,
                        after_in_child=_after_fork_child)
    dist = getattr(torch, "distributed", None)
    if dist is not None and dist.is_available() and hasattr(dist, "init_process_group"):
        _patch(dist, "init_process_group", _init_group)
    lazy_call = getattr(torch.cuda, "_lazy_call", None)
    if lazy_call is not None and getattr(torch.version, "cuda", None) is not None:
        lazy_call(_attach_cuda_segments)


def _after_fork_child():
    # Runs in the child right after fork(), before the program goes on: an exception here
    # would be printed as the program's.
    try:
        from . import _child
        inherited = _m.after_fork_child(_child.records_forks())
        # The child's steps count from 0 again: its roots are named again in its first step.
        _announced.clear()
        _noted.clear()
        _input_step[0] = -1
        if inherited is not None:
            _child.start_forked(*inherited)
    except Exception as e:  # noqa: BLE001
        import sys
        print(f"memscope: forked process {os.getpid()} is not recorded "
              f"({type(e).__name__}: {e})", file=sys.stderr)


def _init_group(original):
    @functools.wraps(original)
    def init_process_group(*args, **kwargs):
        # --comm-timeout: a rendezvous that never completes ends the process after that long,
        # with one line that says so, instead of PyTorch's 30 minutes.
        from . import _child
        limit = int(os.environ.get(_child.ENV_COMM_TIMEOUT, "0") or 0)
        if limit > 0 and "timeout" not in kwargs and len(args) < 3:
            import datetime
            kwargs["timeout"] = datetime.timedelta(seconds=limit)
        try:
            result = original(*args, **kwargs)
        except Exception as e:
            if limit > 0:
                import sys
                where = (f"{os.environ.get('MASTER_ADDR', '?')}:"
                         f"{os.environ.get('MASTER_PORT', '?')}")
                print(f"memscope: process {os.getpid()}: init_process_group did not complete "
                      f"within --comm-timeout {limit} s (rendezvous at {where}): "
                      f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}",
                      file=sys.stderr, flush=True)
            raise
        try:
            from . import _child
            _child.note_group(torch.distributed.get_rank(), torch.distributed.get_world_size())
        except Exception:  # noqa: BLE001 - naming the rank must never break the program
            pass
        return result
    return init_process_group


def _attach_cuda_segments():
    # Runs inside torch.cuda's lazy initialization: an exception here would be the program's.
    try:
        _m.attach_cuda_segments()
    except Exception as e:  # noqa: BLE001
        import sys
        print(f"memscope: no segment events on this GPU run ({type(e).__name__}: {e})",
              file=sys.stderr)


def wrapper_codes():
    """The code objects the recorder leaves out of Python frames: the wrappers above and
    nn.Module's call machinery."""
    def code(f):
        return f.__code__
    codes = [code(_call(lambda *a: None)), code(_backward(lambda *a: None)),
             code(_optimizer_init(lambda *a: None)), code(_bootstrap(lambda *a: None)),
             _wrap_step_code()]
    # nn.Module's own call machinery between a forward and the next: not the program's code
    for name in ("_call_impl", "_wrapped_call_impl"):
        f = getattr(torch.nn.Module, name, None)
        if hasattr(f, "__code__"):
            codes.append(f.__code__)
    return codes


def _wrap_step_code():
    class Probe:
        def step(self):
            pass
    _wrap_step(Probe)
    return Probe.step.__code__


def uninstall():
    while _installed:
        owner, attribute, original = _installed.pop()
        setattr(owner, attribute, original)
