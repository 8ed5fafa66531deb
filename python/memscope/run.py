"""python -m memscope.run [OPTIONS] (SCRIPT.py | -m MODULE) [ARGS...]

The runner: runs a Python program as `python SCRIPT.py ARGS` would, recording every tensor
allocation and free into RUN.memscope (and RUN.memscope.journal while it runs). `python -m
memscope record` (the supervisor, _record.py) starts it, and memscope-cli record --python starts
that; the options are the recorder's (run/recorder_option_table.h, _command.py). The recording
is always finished and saved: when the program returns, exits (sys.exit), raises, or is
interrupted (SIGINT). The exit status is the program's: its sys.exit code, 1 when it raised, 130
on SIGINT; 2 when Memscope refused to start (one line on stderr says why; nothing was recorded).
"""

import json
import os
import runpy
import signal
import sys
import threading
import traceback

from . import _child, _command, _guard, _torch_state


def _refuse(message):
    print(f"memscope: {message}", file=sys.stderr)
    return 2


def _join_threads():
    # As the interpreter does at exit, before the recording ends: what the program's own
    # (non-daemon) threads allocate until they end is part of the run.
    for t in threading.enumerate():
        if t is not threading.main_thread() and not t.daemon and t.is_alive():
            t.join()


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


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    try:
        torch = _guard.check_torch()
        ext = _guard.load_extension()
    except _guard.Refused as e:
        return _refuse(str(e))
    try:
        opts, script, module, args = _command.parse(argv, ext)
    except ValueError as e:
        print(f"memscope: {e}\n{_command.usage(ext, 'python -m memscope.run')}", file=sys.stderr)
        return 2
    why = _command.refusal(opts, script, module, ext)
    if why is not None:
        return _refuse(why)
    limit = opts["device_memory_limit"] or 0
    frames = opts["python_frames"]
    if frames > 0 and not ext.PYTHON_FRAMES_SUPPORTED:
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
        ext.start(os.path.abspath(opts["out"]), frames, opts["poll_ms"],
                  json.dumps(program), torch.__version__, "cpu", limit)
    except RuntimeError as e:
        return _refuse(str(e))
    for code in _hooks.wrapper_codes():
        ext.skip_code(code)
    pid = os.getpid()
    # The Python processes the program starts record themselves (memscope/_child.py).
    _child.arm_children(opts["out"], frames, opts["poll_ms"], opts["comm_timeout"] or 0, limit)
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
        summary = json.loads(ext.finish(ending, status, _torch_state.device(torch),
                                        json.dumps(_torch_state.cuda_allocator(torch))))
    except RuntimeError as e:
        print(f"memscope: the recording could not be saved: {e}", file=sys.stderr)
        return status if status != 0 else 1
    cut = summary.get("program", {}).get("python_stack_cut")
    if isinstance(cut, dict):
        print(f"memscope: Python stacks deeper than {ext.MAX_STACK_FRAMES} frames (the deepest: "
              f"{cut.get('deepest_frames', 0):,}) keep their outermost and innermost "
              f"{ext.MAX_STACK_FRAMES // 2} frames", file=sys.stderr)
    oom = summary.get("oom")
    if limit and isinstance(oom, dict) and oom.get("step", 1) == 0:
        # Out of memory before the first step: the limit is below what the program holds.
        print(f"memscope: --device-memory-limit {limit:,} bytes is below what the program holds "
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
