"""`python -m memscope record`: the program runs in a child interpreter under memscope.run, and
this process waits for it, as memscope-cli record --python does (app/cli/python_record.cpp):

- a SIGINT or SIGTERM that another process sends here (a GUI's Stop, `kill`) goes on to the
  program; one the terminal sent (Ctrl-C) has reached the program's process group already;
- when the program dies before its recording is saved (kill -9, a crash), its run file is
  rebuilt from the journal it left (RUN.memscope.journal);
- the exit status is the program's (128 + N when a signal N ended it); 2 when the recording
  could not start (one line says why).
"""

import os
import signal
import subprocess
import sys

from . import run as _run

_JOURNAL_SUFFIX = ".journal"  # io/run_journal.h: RunJournal::pathFor
_FORWARDED = {signal.SIGINT, signal.SIGTERM}
_SI_USER, _SI_QUEUE = 0, -1  # siginfo si_code of kill(2) and sigqueue(3)


def _say(message):
    print(f"memscope: {message}", file=sys.stderr, flush=True)


def _mtime(path):
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None


def _wait(child):
    """Waits for the child, forwarding the signals other processes send here."""
    while True:
        try:
            info = signal.sigtimedwait(_FORWARDED, 0.1)
        except InterruptedError:
            info = None
        if info is not None and info.si_code in (_SI_USER, _SI_QUEUE):
            try:
                child.send_signal(info.si_signo)
            except ProcessLookupError:
                pass
        code = child.poll()
        if code is not None:
            return code


def main(argv):
    try:
        opts, args = _run._parse(argv)
    except ValueError as e:
        print(f"memscope: {e}\n{_run.USAGE.replace('python -m memscope.run', 'python -m memscope record')}",
              file=sys.stderr)
        return 2
    script, module, out = opts["script"], opts["module"], opts["out"]
    if script is not None and not os.path.isfile(script):
        _say(f"{script}: no such file" if not os.path.exists(script) else f"{script}: not a file")
        return 2
    out_dir = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(out_dir):
        _say(f"--out {out}: the folder {out_dir} does not exist")
        return 2
    if not os.access(out_dir, os.W_OK) or (os.path.exists(out) and not os.access(out, os.W_OK)):
        _say(f"--out: cannot write '{out}'")
        return 2
    journal = out + _JOURNAL_SUFFIX
    staging = os.path.abspath(out) + ".procs"
    if os.path.exists(staging):
        _say(f"--out {out}: {staging} exists, left by an earlier run whose processes were not "
             f"put together: remove it")
        return 2
    if os.path.exists(journal):
        _say(f"--out {out}: {journal} exists, from an earlier run that was not recovered: "
             f"`memscope-cli recover {journal}` first, or remove it")
        return 2

    command = [sys.executable, "-m", "memscope.run", "--out", out,
               "--python-frames", str(opts["frames"]), "--poll-ms", str(opts["poll_ms"])]
    if opts["comm_timeout"]:
        command += ["--comm-timeout", str(opts["comm_timeout"])]
    if opts["limit"] is not None:
        command += ["--device-memory-limit", opts["limit"]]
    command += ["--", script] if script is not None else ["-m", module]
    command += args
    print(f"Recording {script if script is not None else '-m ' + module} with {sys.executable} "
          f"into {out}...", flush=True)
    before = _mtime(out)
    # Blocked here (sigtimedwait takes them with their sender), not in the program.
    signal.pthread_sigmask(signal.SIG_BLOCK, _FORWARDED)
    try:
        child = subprocess.Popen(
            command, preexec_fn=lambda: signal.pthread_sigmask(signal.SIG_UNBLOCK, _FORWARDED))
    except OSError as e:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _FORWARDED)
        _say(f"cannot start {sys.executable}: {e}")
        return 2
    try:
        returncode = _wait(child)
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _FORWARDED)
    if returncode < 0:
        code = 128 - returncode
        try:
            how = f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            how = f"killed by signal {-returncode}"
    else:
        code, how = returncode, f"exit status {returncode}"

    if os.path.exists(journal) or os.path.isdir(staging):
        # The program's first process ended before it saved (and put its processes together):
        # rebuild its run from the journal, and the run directory from what the others staged.
        from . import _guard
        try:
            _guard.check_torch()
            ext = _guard.load_extension()
        except _guard.Refused as e:
            _say(f"the program ended ({how}); its recording could not be recovered: {e}")
            return code if code != 0 else 1
        if os.path.exists(journal):
            try:
                described = ext.recover(journal, out, how, code)
            except RuntimeError as e:
                _say(f"the program ended ({how}); its journal could not be recovered: {e} "
                     f"(kept: {journal})")
                return code if code != 0 else 1
            _say(f"the program ended ({how}) before its recording was saved; {described} "
                 f"into {out}")
        if os.path.isdir(staging):
            try:
                _, processes = ext.assemble(os.path.abspath(out), child.pid)
                if processes:
                    _say(processes)
            except RuntimeError as e:
                _say(f"the program's processes could not be put together: {e}")
        return code
    if os.path.isdir(out):
        return code  # a run directory of the program's processes
    if _mtime(out) in (None, before):
        # The runner refused before it recorded (it said why) or died before it began.
        if code == 0:
            _say(f"the program ended ({how}) and nothing was recorded")
            return 1
        if code != 2:
            _say(f"nothing was recorded ({how})")
    return code
