"""The other Python processes of a recorded program (core/io/program_processes.h).

The runner (run.py) arms them before the program runs: MEMSCOPE_CHILD_DIR names the staging
folder (OUT.procs) and memscope/_boot goes first on PYTHONPATH, so that every Python process the
program starts (torch.multiprocessing.spawn and multiprocessing's spawn and forkserver children,
torchrun's workers, subprocess children) runs its sitecustomize. A process records from the
moment it imports torch (one that never does is no rank), into OUT.procs/proc-PID.memscope with
its journal, and describes itself in proc-PID.json: role, pid, parent pid, its rank in a process
group once init_process_group ran (else RANK and WORLD_SIZE from its environment), and when it
saved, how many allocations and frees it recorded. It saves at exit (atexit): a process that is
killed leaves its journal, which the first process recovers when it puts the run together.

A child made by fork() after its parent imported torch (multiprocessing's fork start method,
DataLoader workers, a bare os.fork) starts recording in the fork handler (_hooks.py) with role
"fork": what its parent had alive at the fork opens its run as allocated before recording. It
saves at exit and at os._exit, which is how multiprocessing's fork children leave.
"""

import atexit
import importlib.abc
import importlib.machinery
import json
import os
import sys

ENV_DIR = "MEMSCOPE_CHILD_DIR"
ENV_FRAMES = "MEMSCOPE_CHILD_FRAMES"
ENV_POLL = "MEMSCOPE_CHILD_POLL_MS"
# --comm-timeout: how long init_process_group may wait for the other ranks (every process).
ENV_COMM_TIMEOUT = "MEMSCOPE_COMM_TIMEOUT_S"
ENV_LIMIT = "MEMSCOPE_CHILD_DEVICE_MEMORY_LIMIT"  # bytes, each process its own device

_state = {"ext": None, "sidecar": None, "info": None}


def arm_children(out, frames, poll_ms, comm_timeout_s=0, limit_bytes=0):
    """In the program's first process, before it runs: its children record themselves."""
    if limit_bytes:
        os.environ[ENV_LIMIT] = str(limit_bytes)
    if comm_timeout_s:
        os.environ[ENV_COMM_TIMEOUT] = str(comm_timeout_s)
    from . import _guard
    staging = _guard.load_extension().staging_dir(os.path.abspath(out))
    boot = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_boot")
    os.environ[ENV_DIR] = staging
    os.environ[ENV_FRAMES] = str(frames)
    os.environ[ENV_POLL] = str(poll_ms)
    old = os.environ.get("PYTHONPATH", "")
    os.environ["PYTHONPATH"] = boot + (os.pathsep + old if old else "")
    return staging


def _sidecar_path(staging, pid):
    return os.path.join(staging, f"proc-{pid}.json")


def write_sidecar(staging, info):
    os.makedirs(staging, exist_ok=True)
    path = _sidecar_path(staging, info["pid"])
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(info, f)
    os.replace(tmp, path)


def note_group(rank, size):
    """init_process_group returned (in any recorded process): its rank, for the sidecar."""
    staging = os.environ.get(ENV_DIR)
    if not staging:
        return
    info = _state["info"] or {"pid": os.getpid(), "ppid": os.getppid(), "role": "parent"}
    info["group_rank"], info["group_size"] = int(rank), int(size)
    _state["info"] = info
    try:
        write_sidecar(staging, info)
    except OSError:
        pass


def _role():
    # A multiprocessing child (spawn, forkserver): the parent named it before running its main
    # module again (sys.argv is the parent's by then).
    process = sys.modules.get("multiprocessing.process")
    if process is not None and process.current_process().name != "MainProcess":
        return "spawn"
    if "TORCHELASTIC_RUN_ID" in os.environ or "LOCAL_RANK" in os.environ:
        return "worker"
    return "subprocess"


class _TorchWatch(importlib.abc.MetaPathFinder):
    """Starts the recording right after `import torch` completes."""

    def find_spec(self, name, path=None, target=None):
        if name != "torch":
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        exec_module = loader.exec_module

        def exec_and_record(module):
            exec_module(module)
            _start()
        loader.exec_module = exec_and_record
        return spec


def arm():
    """In a child (sitecustomize): record once torch is imported."""
    if "torch" in sys.modules:
        _start()
    else:
        sys.meta_path.insert(0, _TorchWatch())


def records_forks():
    """Whether a child made by fork() records itself: the program's processes are recorded."""
    return bool(os.environ.get(ENV_DIR))


def _skip_entry_shim(ext):
    """A multiprocessing child (spawn, forkserver) starts in `python -c "from multiprocessing.spawn
    import spawn_main; spawn_main(...)"`: that frame (file "<string>") is plumbing, like the
    multiprocessing frames below it, so the worker's stacks start at its target function. Only
    that outermost frame: code a program exec()s itself keeps its frames."""
    frame = sys._getframe()
    while frame.f_back is not None:
        frame = frame.f_back
    if frame.f_code.co_filename == "<string>" and "multiprocessing" in sys.modules:
        ext.skip_code(frame.f_code)


def _start():
    if _state["ext"] is not None:
        return
    from . import _guard, _hooks
    torch = _guard.check_torch()
    ext = _guard.load_extension()
    _skip_entry_shim(ext)
    _begin(ext, torch, _role(), {})
    for code in _hooks.wrapper_codes():
        ext.skip_code(code)
    _hooks.install(ext)


def start_forked(blocks, inherited_bytes):
    """In a child made by fork(), from the fork handler: the hooks are its parent's, already
    installed; its recording begins with the `blocks` (`inherited_bytes`) the parent had alive."""
    from . import _guard
    import torch
    _begin(_guard.load_extension(), torch, "fork",
           {"inherited_blocks": int(blocks), "inherited_bytes": int(inherited_bytes)})
    if not getattr(os._exit, "_memscope", False):
        real_exit = os._exit

        def _exit(code):
            try:
                _finish(f"os._exit({code})", code if isinstance(code, int) else 1)
            finally:
                real_exit(code)
        _exit._memscope = True
        os._exit = _exit


def _begin(ext, torch, role, extra):
    import memscope
    staging = os.environ[ENV_DIR]
    pid = os.getpid()
    os.makedirs(staging, exist_ok=True)
    out = os.path.join(staging, f"proc-{pid}.memscope")
    info = {"pid": pid, "ppid": os.getppid(), "role": role, "argv": sys.argv}
    info.update(extra)
    # (a forked child's RANK, where set, is its parent's)
    if role != "fork" and "RANK" in os.environ and "WORLD_SIZE" in os.environ:
        try:
            info["group_rank"] = int(os.environ["RANK"])
            info["group_size"] = int(os.environ["WORLD_SIZE"])
        except ValueError:
            pass
    program = {"python": sys.executable, "python_version": sys.version.split()[0],
               "torch": torch.__version__, "argv": sys.argv, "cwd": os.getcwd(),
               "process": dict({"pid": pid, "ppid": info["ppid"], "role": info["role"]}, **extra)}
    if sys.argv and sys.argv[0] and os.path.isfile(sys.argv[0]):
        program["script"] = os.path.abspath(sys.argv[0])
    frames = os.environ.get(ENV_FRAMES)
    ext.start(out, int(frames) if frames else ext.ALL_FRAMES, int(os.environ.get(ENV_POLL, "50")),
              json.dumps(program), torch.__version__, "cpu",
              int(os.environ.get(ENV_LIMIT, "0") or 0))
    memscope._recording = ext
    _state.update(ext=ext, info=info, staging=staging, pid=pid)
    write_sidecar(staging, info)
    atexit.register(_finish)


def _finish(ending="process ended", status=0):
    ext = _state["ext"]
    if ext is None or os.getpid() != _state["pid"]:
        return
    _state["ext"] = None
    from . import _hooks, _torch_state
    import memscope
    import torch
    _hooks.uninstall()
    memscope._recording = None
    info = _state["info"]
    try:
        summary = json.loads(ext.finish(ending, status, _torch_state.device(torch),
                                        json.dumps(_torch_state.cuda_allocator(torch))))
        # What it did itself: a forked child's inheritance is not its own.
        info["events"] = int(summary.get("events", 0)) - int(info.get("inherited_blocks", 0))
        info["ending"] = "saved at exit"
    except RuntimeError as e:
        print(f"memscope: process {info['pid']}: the recording could not be saved: {e}",
              file=sys.stderr)
    write_sidecar(_state["staging"], info)
