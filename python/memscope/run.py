"""python -m memscope.run [--out RUN.memscope] [--python-frames N] [--poll-ms N] [--comm-timeout S]
                         [--device-memory-limit SIZE]
                         (SCRIPT.py | -m MODULE) [ARGS...]

Runs a Python program as `python SCRIPT.py ARGS` would, recording every tensor allocation and free
into RUN.memscope (and RUN.memscope.journal while it runs). The recording is always finished and
saved: when the program returns, exits (sys.exit), raises, or is interrupted (SIGINT). The exit
status is the program's: its sys.exit code, 1 when it raised, 130 on SIGINT; 2 when Memscope
refused to start (one line on stderr says why; nothing was recorded). memscope-cli record
--python runs this.
"""

import json
import os
import runpy
import signal
import sys
import threading
import traceback

from . import _child, _guard

USAGE = ("usage: python -m memscope.run [--out RUN.memscope] [--python-frames N] [--poll-ms N] "
         "[--comm-timeout S] [--device-memory-limit SIZE] "
         "(SCRIPT.py | -m MODULE) [ARGS...]")


def _refuse(message):
    print(f"memscope: {message}", file=sys.stderr)
    return 2


def _parse(argv):
    opts = {"out": "run.memscope", "frames": 4, "poll_ms": 50, "comm_timeout": 0, "limit": None,
            "module": None, "script": None}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--out", "--python-frames", "--poll-ms", "--comm-timeout",
                 "--device-memory-limit"):
            if i + 1 >= len(argv):
                raise ValueError(f"{a} needs a value")
            value = argv[i + 1]
            if a == "--out":
                opts["out"] = value
            elif a == "--device-memory-limit":
                opts["limit"] = value  # a size: read by the extension (run/byte_size.h)
            else:
                try:
                    n = int(value)
                except ValueError:
                    raise ValueError(f"{a}: '{value}' is not a whole number") from None
                if n < 0 or (a in ("--poll-ms", "--comm-timeout") and n == 0) or n > 100000:
                    raise ValueError(f"{a}: {n} is out of range")
                opts[{"--python-frames": "frames", "--poll-ms": "poll_ms",
                      "--comm-timeout": "comm_timeout"}[a]] = n
            i += 2
        elif a == "--":
            i += 1
            break
        elif a == "-m":
            if i + 1 >= len(argv):
                raise ValueError("-m needs a module name")
            opts["module"] = argv[i + 1]
            return opts, argv[i + 2:]
        elif a.startswith("-"):
            raise ValueError(f"unknown option {a}")
        else:
            break
    if i < len(argv) and argv[i] == "-m":
        if i + 1 >= len(argv):
            raise ValueError("-m needs a module name")
        opts["module"] = argv[i + 1]
        return opts, argv[i + 2:]
    if i >= len(argv):
        raise ValueError("no program to run")
    opts["script"] = argv[i]
    return opts, argv[i + 1:]


def _join_threads():
    # As the interpreter does at exit, before the recording ends: what the program's own
    # (non-daemon) threads allocate until they end is part of the run.
    for t in threading.enumerate():
        if t is not threading.main_thread() and not t.daemon and t.is_alive():
            t.join()


def _cuda_allocator(torch):
    """What the CUDA caching allocator itself counted, for the summary beside the recorded peak
    (only where the program used CUDA: asking would initialize it)."""
    try:
        if torch.cuda.is_initialized():
            return {"max_memory_allocated": torch.cuda.max_memory_allocated(),
                    "max_memory_reserved": torch.cuda.max_memory_reserved()}
    except Exception:
        pass
    return {}


def _stop_children(grace_s=20.0):
    """After an interrupt: the program's multiprocessing children (torch.multiprocessing.spawn's
    workers) get SIGINT too, so that each saves its own recording, and are waited for; one that
    has not ended after `grace_s` is terminated (its journal is recovered)."""
    mp = sys.modules.get("multiprocessing")
    if mp is None:
        return
    children = mp.active_children()
    for child in children:
        try:
            os.kill(child.pid, signal.SIGINT)
        except (ProcessLookupError, TypeError):
            pass
    import time
    deadline = time.monotonic() + grace_s
    for child in children:
        child.join(max(0.0, deadline - time.monotonic()))
        if child.is_alive():
            child.terminate()
            child.join(5)


def _device(torch):
    try:
        if torch.cuda.is_initialized():
            return f"cuda:{torch.cuda.current_device()}"
    except Exception:
        pass
    return "cpu"


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    try:
        opts, args = _parse(argv)
    except ValueError as e:
        print(f"memscope: {e}\n{USAGE}", file=sys.stderr)
        return 2
    script, module = opts["script"], opts["module"]
    if script is not None and not os.path.isfile(script):
        return _refuse(f"{script}: no such file" if not os.path.exists(script)
                       else f"{script}: not a file")
    try:
        torch = _guard.check_torch()
        ext = _guard.load_extension()
    except _guard.Refused as e:
        return _refuse(str(e))
    if module is not None:
        import importlib.util
        try:
            spec = importlib.util.find_spec(module)
        except Exception as e:
            spec = None
            why = f"{type(e).__name__}: {e}"
        else:
            why = "not found"
        if spec is None:
            return _refuse(f"no module named '{module}' ({why})")
    out_dir = os.path.dirname(os.path.abspath(opts["out"]))
    if not os.path.isdir(out_dir):
        return _refuse(f"--out {opts['out']}: the folder {out_dir} does not exist")
    staging = os.path.abspath(opts["out"]) + ".procs"
    if os.path.exists(staging):
        return _refuse(f"--out {opts['out']}: {staging} exists, left by an earlier run whose "
                       f"processes were not put together: remove it")
    limit = 0
    if opts["limit"] is not None:
        limit = ext.parse_size(opts["limit"]) or 0
        if limit <= 0:
            return _refuse(f"--device-memory-limit: '{opts['limit']}' is not a size "
                           f"(try 512MiB or 2GiB)")
    if opts["frames"] > 0 and not ext.PYTHON_FRAMES_SUPPORTED:
        print(f"memscope: Python {sys.version_info.major}.{sys.version_info.minor}: no Python "
              f"frames (supported on 3.11 to 3.13); operator and module frames are recorded",
              file=sys.stderr)
    program = {"python": sys.executable, "python_version": sys.version.split()[0],
               "torch": torch.__version__, "argv": args, "cwd": os.getcwd()}
    if script is not None:
        program["script"] = os.path.abspath(script)
    else:
        program["module"] = module

    from . import _hooks
    import memscope
    try:
        ext.start(os.path.abspath(opts["out"]), opts["frames"], opts["poll_ms"],
                  json.dumps(program), torch.__version__, "cpu", limit)
    except RuntimeError as e:
        return _refuse(str(e))
    for code in _hooks.wrapper_codes():
        ext.skip_code(code)
    pid = os.getpid()
    # The Python processes the program starts record themselves (memscope/_child.py).
    _child.arm_children(opts["out"], opts["frames"], opts["poll_ms"], opts["comm_timeout"], limit)
    _hooks.install(ext)
    memscope._recording = ext
    status, ending = 0, "exit status 0"
    saved_argv, saved_path0 = sys.argv[:], sys.path[0] if sys.path else None
    try:
        if script is not None:
            sys.argv = [script] + args
            sys.path[0] = os.path.dirname(os.path.abspath(script))
            runpy.run_path(script, run_name="__main__")
        else:
            sys.argv = [module] + args
            sys.path[0] = os.getcwd()
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        _join_threads()
    except SystemExit as e:
        if e.code is None:
            status = 0
        elif isinstance(e.code, int):
            status = e.code
        else:
            print(e.code, file=sys.stderr)
            status = 1
        ending = f"exit status {status}"
        if os.getpid() == pid:
            _join_threads()
    except KeyboardInterrupt:
        status, ending = 130, "interrupted (SIGINT)"
        if os.getpid() == pid:
            _stop_children()
    except BaseException as e:
        traceback.print_exc()
        status = 1
        ending = f"raised {type(e).__name__}: {e}".splitlines()[0][:300]
        if os.getpid() == pid:
            _join_threads()
    finally:
        sys.argv = saved_argv
        if saved_path0 is not None and sys.path:
            sys.path[0] = saved_path0
    if os.getpid() != pid:  # a forked child that returned here: the parent owns the run
        return status
    # A second Ctrl-C must not stop the recording half-saved.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _hooks.uninstall()
    memscope._recording = None
    try:
        summary = json.loads(ext.finish(ending, status, _device(torch),
                                        json.dumps(_cuda_allocator(torch))))
    except RuntimeError as e:
        print(f"memscope: the recording could not be saved: {e}", file=sys.stderr)
        return status if status != 0 else 1
    oom = summary.get("oom")
    if limit and isinstance(oom, dict) and oom.get("step", 1) == 0:
        # Out of memory before the first step: the limit is below what the program holds.
        print(f"memscope: --device-memory-limit {opts['limit']} is below what the program holds "
              f"before its first step ({oom.get('allocated_bytes', 0):,} bytes in use, "
              f"{oom.get('requested_bytes', 0):,} more requested)", file=sys.stderr)
    try:
        directory, processes = ext.assemble(os.path.abspath(opts["out"]), pid)
    except RuntimeError as e:
        print(f"memscope: the program's processes could not be put together: {e}",
              file=sys.stderr)
        return status if status != 0 else 1
    if directory:
        print(f"memscope: {ending}; {processes}", file=sys.stderr)
        return status
    peak = summary.get("peak_allocated_bytes_recorded", 0)
    steps = len(summary.get("program", {}).get("peak_checks", []))
    if summary.get("events", 0) == 0:
        # An empty run says why: nothing here, and whether other processes had the tensors.
        others = (f"; {processes}" if processes else
                  "; it started no other Python process that imported torch")
        print(f"memscope: {ending}; the program made no tensor in this process (pid {pid})"
              f"{others} -> {opts['out']}", file=sys.stderr)
        return status
    print(f"memscope: {ending}; recorded {steps} optimizer step{'s' if steps != 1 else ''}, "
          f"peak {peak:,} bytes -> {opts['out']}"
          + (f" ({processes})" if processes else ""), file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
