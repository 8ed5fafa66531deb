"""`python -m memscope record`: the supervisor. The program runs in a child interpreter under the
runner (memscope.run), and this process waits for it; memscope-cli record --python and sweep
--python start this same supervisor:

- the options are read and checked here first (_command.py, with the extension's table), so a
  refusal is one line before anything runs;
- a SIGINT or SIGTERM that another process sends here (a GUI's Stop, `kill`) goes on to the
  program; one the terminal sent (Ctrl-C) has reached the program's process group already;
- when the program dies before its recording is saved (kill -9, a crash), its run file is
  rebuilt from the journal it left (RUN.memscope.journal), and the run directory from what its
  other processes staged;
- the exit status is the program's (128 + N when a signal N ended it); 2 when the recording
  could not start (one line says why).
"""

import os
import signal
import subprocess
import sys

from . import _command, _guard

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
        _guard.check_torch(quiet=True)
        ext = _guard.load_extension()
    except _guard.Refused as e:
        _say(str(e))
        return 2
    try:
        opts, script, module, args = _command.parse(argv, ext)
    except ValueError as e:
        print(f"memscope: {e}\n{_command.usage(ext, 'python -m memscope record')}",
              file=sys.stderr)
        return 2
    why = _command.refusal(opts, script, module, ext)
    if why is not None:
        _say(why)
        return 2
    out = opts["out"]
    journal = ext.journal_path(out)
    staging = ext.staging_dir(os.path.abspath(out))
    command = [sys.executable, "-m", "memscope.run", *_command.words(opts, ext)]
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
