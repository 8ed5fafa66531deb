#!/usr/bin/env python3
"""CTest driver for `memscope-cli record --python` (tests/CMakeLists.txt, label cli).

    test_python_record.py --cli MEMSCOPE_CLI --python-exe PY MODE

MODE program: records small_program.py and checks operator frames, module paths, Python frames,
  phases, steps, categories, backward attribution, the named region and the program's thread.
MODE faults: the program raises, exits non-zero, is killed, is interrupted (SIGINT to
  memscope-cli), forks; the script is missing; an interpreter without torch and one with another
  torch version; a program that never touches a tensor. Each: the exit status, one clear line,
  the recording kept (or recovered), no hang.
MODE processes: tests/python/ddp_program.py, 2 workers started with torch.multiprocessing.spawn
  (Gloo, hand-written all-reduce, AdamW), and under torchrun where its torch runs torchrun: a run
  directory of 2 ranks, each rank's steady peak LibTorch's own running total, parameters equal on
  both ranks; with a ZeRO-1-style sharded optimizer each rank's optimizer state is its shard's;
  a worker that raises and one that dies without saving keep every rank's recording.
MODE optimizers: tests/python/optimizer_program.py with a hand-written momentum class (no
  torch.optim.Optimizer) and AdamW's foreach and fused variants where this torch has them: the
  optimizer state at the peak is the program's own count, every step an optimizer phase; and
  deep_stack_program.py: a stack 5,000 frames deep records, is cut once, keeps its root.
MODE compiled: tests/python/compiled_program.py with torch.compile (torch 2.x; skipped on 1.13):
  its losses to the printed digit with and without the recorder, the steps, each step's peak the
  allocator's own running total, the compiled region's allocations under the model's module and
  named by their generated kernels, and every stack rooted at <module>.
MODE llama: records tests/python/tiny_llama_v1.py and the built-in trainer with the same tiny
  configuration and checks that the recorded steady peak is LibTorch's own running total at that
  moment, to the byte, and that the bytes by category at the peak agree within 1% (the labels
  of the Python script's loss are the one expected difference, see below).
Only the standard library: it runs under any interpreter.
"""

import argparse
import csv
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FAILURES = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        FAILURES.append(what)


def record(cli, python, out, program, extra=(), env=None, timeout=600):
    cmd = [cli, "record", "--out", out, "--python-exe", python, *extra, "--python", *program]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    return p.returncode, p.stdout, p.stderr


def info(cli, run):
    p = subprocess.run([cli, "info", "--json", run], capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        raise RuntimeError(f"info {run}: {p.stderr}")
    return json.loads(p.stdout)


def allocations(cli, run, tmp):
    csv_path = os.path.join(tmp, os.path.basename(run) + ".csv")
    p = subprocess.run([cli, "export", run, "--table", "allocations", "--to", csv_path],
                       capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        raise RuntimeError(f"export {run}: {p.stderr}")
    with open(csv_path, newline="") as f:
        return list(csv.DictReader(f))


def rank_allocations(a, run, rank, tmp):
    csv_path = os.path.join(tmp, f"{os.path.basename(run)}.rank{rank}.csv")
    p = subprocess.run([a.cli, "export", run, "--rank", str(rank), "--table", "allocations",
                        "--to", csv_path], capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        raise RuntimeError(f"export {run} --rank {rank}: {p.stderr}")
    with open(csv_path, newline="") as f:
        return list(csv.DictReader(f))


def summary_of(doc):
    # info --json: the stored summary (a multi-rank run would nest it; this is one rank)
    return doc.get("summary", doc)


def mode_program(a, tmp):
    out = os.path.join(tmp, "small.memscope")
    rc, so, se = record(a.cli, a.python_exe, out, [os.path.join(HERE, "small_program.py")])
    check(rc == 0, f"small_program exits 0 (got {rc}: {se.strip()[-300:]})")
    check(os.path.exists(out) and not os.path.exists(out + ".journal"),
          "the run file is written and its journal removed")
    rows = allocations(a.cli, out, tmp)
    stacks = [r["stack"] for r in rows]
    check(any("aten::addmm" in s or "aten::mm" in s for s in stacks), "operator frames (aten::addmm)")
    modules = {r["module"] for r in rows}
    check("Net.blocks.1.proj" in modules, f"module paths (Net.blocks.1.proj in {sorted(modules)[:8]})")
    check(not any(m.startswith("Optimizer.") for m in modules) and
          any("Optimizer.step#AdamW.step" in s for s in stacks),
          "the optimizer's record_function range is a frame, not a module")
    scratch = [r for r in rows if int(r["size_bytes"]) == 4099 * 4]
    check(len(scratch) == 6, f"make_scratch's allocation once per block and step ({len(scratch)})")
    check(all(r["stack"].startswith("<module> > main > Net.forward > Block.forward > make_scratch > "
                                    "Net > Net.blocks.") and r["stack"].endswith("aten::empty")
              for r in scratch),
          "read from the program down: the program's Python frames outermost (nn.Module's and "
          "runpy's machinery folded), then the module path, then the operators "
          f"({scratch[0]['stack'] if scratch else ''})")
    check(all(r["module"].startswith("Net.blocks.") for r in scratch),
          "the Python frames sit under the module that ran them")
    phases = {r["phase"] for r in rows}
    check({"forward", "backward", "optimizer"} <= phases, f"phases recorded ({sorted(phases)})")
    steps = {int(r["step"]) for r in rows}
    check({1, 2, 3} <= steps, f"steps 1-3 ({sorted(steps)})")
    by_cat = {}
    for r in rows:
        by_cat.setdefault(r["category"], []).append(r)
    params = 16 * 32 + 32 + 2 * (32 * 32 + 32) + 32 * 4 + 4
    param_bytes = sum(int(r["size_bytes"]) for r in by_cat.get("PARAMETER", []))
    check(param_bytes == params * 4, f"PARAMETER bytes = the model's parameters ({param_bytes} vs {params * 4})")
    grad_bytes = sum(int(r["size_bytes"]) for r in by_cat.get("GRADIENT", []))
    check(grad_bytes == params * 4, f"GRADIENT bytes = one gradient per parameter ({grad_bytes})")
    state = [r for r in by_cat.get("OPTIMIZER_STATE", [])]
    state_bytes = sum(int(r["size_bytes"]) for r in state)
    check(state_bytes >= 2 * params * 4, f"OPTIMIZER_STATE: AdamW's two moments ({state_bytes})")
    check(all(r["phase"] == "optimizer" for r in state), "optimizer state made in the optimizer phase")
    inputs = [int(r["size_bytes"]) for r in by_cat.get("INPUT", [])]
    check(sorted(inputs) == sorted([8 * 16 * 4, 8 * 4 * 4] * 3),
          f"INPUT: the batch given to the model and the target given to the loss module ({inputs})")
    check(len(by_cat.get("ACTIVATION", [])) > 0, "ACTIVATION allocations")
    backward = [r for r in rows if r["phase"] == "backward"]
    check(any("backward of Net.blocks.1.proj" in r["stack"] for r in backward),
          "backward allocations carry the forward module (backward of Net.blocks.1.proj)")
    thread = [r for r in rows if int(r["size_bytes"]) == 3001 * 4]
    check(len(thread) == 1, "the program's own thread is recorded")
    summary = summary_of(info(a.cli, out))
    regions = [x["name"] for x in summary.get("annotations", [])]
    check(regions.count("data") == 3, f"memscope.region annotations ({regions})")
    checks = summary.get("program", {}).get("peak_checks", [])
    check(len(checks) == 3, f"three optimizer steps ({len(checks)})")
    check_modules(a, out, params)

    # A hand-written optimizer (no torch.optim.Optimizer) ends no step by itself: each forward
    # after a backward begins the next one, and the last closes when the program ends.
    script = os.path.join(tmp, "own_sgd.py")
    with open(script, "w") as f:
        f.write("import torch\n"
                "class MySGD:\n"
                "    def __init__(self, params, lr):\n"
                "        self.params = list(params)\n"
                "        self.lr = lr\n"
                "        self.momentum = [torch.zeros_like(p) for p in self.params]\n"
                "    def step(self):\n"
                "        with torch.no_grad():\n"
                "            for p, m in zip(self.params, self.momentum):\n"
                "                m.mul_(0.9).add_(p.grad)\n"
                "                p.sub_(self.lr * m)\n"
                "model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(),\n"
                "                            torch.nn.Linear(32, 4))\n"
                "opt = MySGD(model.parameters(), 0.01)\n"
                "for step in range(4):\n"
                "    x = torch.randn(8, 16)\n"
                "    loss = model(x).pow(2).mean()\n"
                "    model.zero_grad(set_to_none=True)\n"
                "    loss.backward()\n"
                "    opt.step()\n")
    out = os.path.join(tmp, "own_sgd.memscope")
    rc, so, se = record(a.cli, a.python_exe, out, [script])
    summary = summary_of(info(a.cli, out)) if rc == 0 else {}
    checks = summary.get("program", {}).get("peak_checks", [])
    check(rc == 0 and len(checks) == 4 and
          all(c["recorded_peak_bytes"] == c["allocator_total_at_peak_bytes"] for c in checks),
          f"a hand-written optimizer: four steps, each peak LibTorch's own ({rc}: {checks})")
    rows = allocations(a.cli, out, tmp) if rc == 0 else []
    steps = sorted({int(r["step"]) for r in rows if r["phase"] == "forward"})
    check(steps == [1, 2, 3, 4], f"each iteration's forward in its own step ({steps})")


def check_modules(a, run, params):
    """info --modules (issue 41): parameters, gradients and optimizer state belong to the module
    of their parameter, and the top rows sum to the bytes alive at the peak."""
    p = subprocess.run([a.cli, "info", run, "--modules", "--json"], capture_output=True,
                       text=True, timeout=120)
    check(p.returncode == 0, f"info --modules reads a Python program's run ({p.stderr.strip()})")
    if p.returncode != 0:
        return
    table = json.loads(p.stdout)
    rows = {r["path"]: r for r in table["rows"]}
    tops = sum(r["held"] for r in table["rows"] if r["depth"] == 0)
    check(tops == table["alive_bytes"], f"module rows sum to the bytes alive ({tops} vs {table['alive_bytes']})")
    net = rows.get("Net", {}).get("total", {})
    check(net.get("parameters") == params * 4 and net.get("gradients") == params * 4,
          f"the model's row owns every parameter and gradient byte ({net})")
    check(net.get("optimizer_state", 0) >= 2 * params * 4,
          f"and AdamW's state of its parameters ({net.get('optimizer_state')})")
    proj = rows.get("Net.blocks.1.proj", {}).get("total", {})
    check(proj.get("parameters") == (32 * 32 + 32) * 4,
          f"a Linear's row owns its weight and bias ({proj})")


def interrupt_when(cmd, ready, timeout_s, what, settle_s=0.0):
    """Starts `cmd`, waits for a stdout line that `ready` accepts (at most `timeout_s`), sends it
    SIGINT and waits for it to end; returns (process, stdout, stderr). `what` fails when it
    does not end within `timeout_s` (it is killed then)."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t0 = time.time()
    while time.time() - t0 < timeout_s:
        line = p.stdout.readline()
        if not line or ready(line):
            break
    time.sleep(settle_s)
    p.send_signal(signal.SIGINT)
    try:
        so, se = p.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        p.kill()
        so, se = p.communicate()
        check(False, what)
    return p, so, se


def expect_line(stderr, needle, what):
    lines = [l for l in stderr.splitlines() if needle in l]
    check(len(lines) >= 1, f"{what}: says '{needle}' ({stderr.strip()[-200:]!r})")


def mode_faults(a, tmp):
    def write(name, text):
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    step = ("import torch\nm = torch.nn.Linear(8, 8)\nopt = torch.optim.SGD(m.parameters(), lr=0.1)\n"
            "m(torch.randn(4, 8)).sum().backward(); opt.step()\n")
    # raises
    out = os.path.join(tmp, "raises.memscope")
    rc, so, se = record(a.cli, a.python_exe, out, [write("raises.py", step + "raise ValueError('boom')\n")])
    check(rc == 1, f"a program that raises: status 1 ({rc})")
    expect_line(se, "ValueError: boom", "raises")
    check(os.path.exists(out), "raises: the recording is kept")
    if os.path.exists(out):
        s = summary_of(info(a.cli, out))
        check("raised ValueError" in s.get("program", {}).get("ending", ""), "raises: the run says how it ended")
    # exits non-zero
    out = os.path.join(tmp, "exit3.memscope")
    rc, so, se = record(a.cli, a.python_exe, out, [write("exit3.py", step + "import sys; sys.exit(3)\n")])
    check(rc == 3 and os.path.exists(out), f"sys.exit(3): status 3, recording kept ({rc})")
    # killed
    out = os.path.join(tmp, "killed.memscope")
    rc, so, se = record(a.cli, a.python_exe, out, [write(
        "killed.py", step + "import os, signal, time\nx = torch.ones(1 << 16)\ntime.sleep(0.5)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n")])
    check(rc == 128 + 9, f"killed: status 137 ({rc})")
    expect_line(se, "recovered", "killed")
    check(os.path.exists(out) and not os.path.exists(out + ".journal"), "killed: the run recovered from its journal")
    if os.path.exists(out):
        rows = allocations(a.cli, out, tmp)
        check(any(int(r["size_bytes"]) == (1 << 16) * 4 for r in rows), "killed: what it made before is in the run")
    # a journal left by an earlier run that died is not overwritten
    stale = os.path.join(tmp, "stale.memscope")
    with open(stale + ".journal", "wb") as f:
        f.write(b"MSJOURNL")
    rc, so, se = record(a.cli, a.python_exe, stale, [write("p0.py", "print(1)\n")])
    check(rc == 2 and "not recovered" in se and os.path.getsize(stale + ".journal") == 8,
          f"an earlier run's journal: status 2, kept ({se.strip()})")
    # interrupted: SIGINT sent to memscope-cli goes on to the program
    out = os.path.join(tmp, "sigint.memscope")
    loop = write("loop.py", step + "import time\nprint('ready', flush=True)\nwhile True:\n"
                 "    m(torch.randn(4, 8)).sum().backward(); opt.step(); time.sleep(0.01)\n")
    p, so, se = interrupt_when([a.cli, "record", "--out", out, "--python-exe", a.python_exe,
                                "--python", loop], lambda line: "ready" in line, 60,
                               "SIGINT: memscope-cli ends", settle_s=0.5)
    check(p.returncode == 130, f"SIGINT: status 130 ({p.returncode})")
    check(os.path.exists(out) and not os.path.exists(out + ".journal"), "SIGINT: the recording is saved")
    if os.path.exists(out):
        s = summary_of(info(a.cli, out))
        check(s.get("program", {}).get("ending") == "interrupted (SIGINT)" and
              len(s["program"]["peak_checks"]) >= 2, "SIGINT: the run keeps its steps")
    # script missing
    out = os.path.join(tmp, "missing.memscope")
    rc, so, se = record(a.cli, a.python_exe, out, [os.path.join(tmp, "no_such.py")])
    check(rc == 2 and not os.path.exists(out), f"missing script: status 2, nothing written ({rc})")
    expect_line(se, "no such file", "missing script")
    check(len(se.strip().splitlines()) == 1, f"missing script: one line ({se!r})")
    # an interpreter without torch, and one whose torch is another version: a torch that shadows
    # the real one on PYTHONPATH (memscope-cli keeps the caller's PYTHONPATH after its own)
    for name, body, needle in (("notorch", "raise ImportError(\"No module named 'torch'\")\n", "cannot import torch"),
                               ("othertorch", "__version__ = '2.99.0+fake'\n", "2.99.0+fake")):
        d = os.path.join(tmp, name)
        os.makedirs(d, exist_ok=True)
        write(os.path.join(name, "torch.py"), body)
        env = dict(os.environ, PYTHONPATH=d)
        out = os.path.join(tmp, name + ".memscope")
        rc, so, se = record(a.cli, a.python_exe, out, [write("plain.py", "print('hi')\n")], env=env)
        check(rc == 2 and not os.path.exists(out), f"{name}: status 2, nothing written ({rc})")
        expect_line(se, needle, name)
        check(len(se.strip().splitlines()) == 1, f"{name}: one line ({se!r})")
    # forks (a bare os.fork after import torch, the child leaving through os._exit) and starts
    # threads: the child is a process of its own, beginning with what the parent had alive
    out = os.path.join(tmp, "fork.memscope")
    rc, so, se = record(a.cli, a.python_exe, out, [os.path.join(HERE, "small_program.py"), "--fork"], timeout=120)
    check(rc == 0 and os.path.isdir(out) and "2 processes recorded" in se,
          f"a program that forks and starts a thread: status 0, its two processes recorded ({rc}: {se.strip()[-300:]})")
    if os.path.isdir(out):
        ranks = info(a.cli, out).get("ranks", [])
        roles = [r.get("process", {}).get("role") for r in ranks]
        check(roles == ["parent", "fork"], f"the first process, then the forked child ({roles})")
        rows = [rank_allocations(a, out, i, tmp) for i in range(len(ranks))]
        own = [[r for r in rr if int(r["step"]) >= 0] for rr in rows]
        check(len(rows) == 2 and not any(int(r["size_bytes"]) == 4000 for r in rows[0]) and
              any(int(r["size_bytes"]) == 4000 for r in own[1]),
              "the child's own allocation is in its rank, not the parent's")
        inherited = sum(int(r["size_bytes"]) for r in rows[1] if r["category"] == "BEFORE_RECORDING")
        s = summary_of(info(a.cli, out)["ranks"][1]) if len(ranks) == 2 else {}
        check(inherited > 0 and s.get("before_recording_bytes") == inherited,
              f"the child begins with its parent's live tensors as BEFORE_RECORDING ({inherited})")
    # -m MODULE, and a module that does not exist
    pkg = os.path.join(tmp, "modpkg")
    os.makedirs(pkg, exist_ok=True)
    write(os.path.join("modpkg", "__init__.py"), "")
    write(os.path.join("modpkg", "__main__.py"), step + "print('module ran')\n")
    out = os.path.join(tmp, "module.memscope")
    p = subprocess.run([a.cli, "record", "--out", out, "--python-exe", a.python_exe, "--python",
                        "-m", "modpkg"], capture_output=True, text=True, timeout=120, cwd=tmp)
    check(p.returncode == 0 and "module ran" in p.stdout and os.path.exists(out),
          f"-m MODULE runs and is recorded ({p.returncode}: {p.stderr.strip()[-200:]})")
    out = os.path.join(tmp, "nomodule.memscope")
    p = subprocess.run([a.cli, "record", "--out", out, "--python-exe", a.python_exe, "--python",
                        "-m", "no_such_module_here"], capture_output=True, text=True, timeout=120, cwd=tmp)
    # (torch itself may warn while it is imported, as 2.11 does without numpy: not ours)
    ours = [l for l in p.stderr.splitlines() if l.startswith("memscope")]
    check(p.returncode == 2 and not os.path.exists(out) and len(ours) == 1
          and "no module named 'no_such_module_here'" in ours[0],
          f"-m of a missing module: status 2, one line ({p.stderr.strip()!r})")
    # never touches a tensor
    out = os.path.join(tmp, "plain.memscope")
    rc, so, se = record(a.cli, a.python_exe, out, [write("hello.py", "print('hello')\n")])
    check(rc == 0 and os.path.exists(out) and "hello" in so, f"no tensors: status 0, a run written ({rc})")
    check("made no tensor in this process" in se and "no other Python process" in se,
          f"...and it says that no process made a tensor ({se.strip()[-200:]})")
    p = subprocess.run([a.cli, "info", out], capture_output=True, text=True, timeout=60)
    check(p.returncode == 0 and "No tensor was allocated in this run" in p.stdout and
          "At the peak" not in p.stdout and "Largest allocations" not in p.stdout,
          f"info on the empty run prints no empty fields ({p.stdout.strip()[-300:]})")
    # bad options
    rc, so, se = record(a.cli, a.python_exe, os.path.join(tmp, "x.memscope"), [], extra=())
    check(rc == 2 and "needs a program" in se, f"--python without a program: status 2 ({se.strip()})")
    rc, so, se = record(a.cli, "/nonexistent/python", os.path.join(tmp, "y.memscope"), [write("p.py", "")])
    check(rc == 2 and "cannot run it" in se, f"--python-exe that does not exist: status 2 ({se.strip()})")


def category_bytes(summary):
    return {k: int(v) for k, v in summary.get("bytes_by_category_at_peak", {}).items()}


def python_frame(frame):
    # Folded stacks name a Python frame "function (file:line)"; modules and operators have no file.
    return frame.endswith(")") and " (" in frame and ".py:" in frame


def check_program_down(a, run, tmp):
    """The folded stacks at the peak read from the program down, in the stacks that hold 95% of
    the bytes: Python frames present, none of PyTorch's own, and no operator or module frame
    outside (before) a Python frame."""
    folded = os.path.join(tmp, os.path.basename(run) + ".folded")
    p = subprocess.run([a.cli, "export", run, "--flamegraph", folded], capture_output=True,
                       text=True, timeout=120)
    check(p.returncode == 0, f"folded stacks at the peak exported ({p.stderr.strip()[-200:]})")
    stacks = []
    with open(folded) as f:
        for line in f:
            stack, _, size = line.rstrip("\n").rpartition(" ")
            stacks.append((int(size), stack.split(";")))
    stacks.sort(key=lambda s: -s[0])
    total = sum(s[0] for s in stacks)
    held, top = 0, []
    for size, frames in stacks:
        if held >= 0.95 * total:
            break
        held += size
        top.append(frames)
    with_python = [f for f in top if any(python_frame(x) for x in f)]
    check(len(with_python) > 0, f"Python frames in the stacks that hold 95% of the bytes "
                                f"({len(with_python)} of {len(top)})")
    torch_frames = [x for f in top for x in f if python_frame(x) and "-packages/torch/" in x]
    check(not torch_frames, f"no PyTorch-internal Python frame there ({torch_frames[:2]})")
    inside_out = []
    for f in top:
        kinds = [python_frame(x) for x in f]
        if True in kinds and False in kinds[:len(kinds) - kinds[::-1].index(True)]:
            inside_out.append(";".join(f))
    check(not inside_out, f"no operator or module frame outside a Python frame there "
                          f"({inside_out[:1]})")


def folded_stacks(a, run, tmp, extra=()):
    """(bytes, frames) of the folded stacks at the peak (export --flamegraph)."""
    folded = os.path.join(tmp, os.path.basename(run) + "".join(extra) + ".folded")
    p = subprocess.run([a.cli, "export", run, *extra, "--flamegraph", folded],
                       capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        raise RuntimeError(f"export {run} --flamegraph: {p.stderr}")
    stacks = []
    with open(folded) as f:
        for line in f:
            stack, _, size = line.rstrip("\n").rpartition(" ")
            stacks.append((int(size), stack.split(";")))
    return stacks


def phase_spans(a, run, tmp):
    """The names of the run's phase spans in its Chrome trace ("optimizer step 2", ...)."""
    path = os.path.join(tmp, os.path.basename(run) + ".trace.json")
    p = subprocess.run([a.cli, "export", run, "--to", path], capture_output=True, text=True,
                       timeout=120)
    if p.returncode != 0:
        raise RuntimeError(f"export {run} --to {path}: {p.stderr}")
    with open(path) as f:
        doc = json.load(f)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    return {e.get("name", "") for e in events if e.get("cat") == "phase"}


def check_roots(a, run, tmp, roots, label, extra=()):
    """Every stack that holds bytes at the peak starts at one of `roots` (a frame's name)."""
    stacks = [(n, f) for n, f in folded_stacks(a, run, tmp, extra) if n > 0]
    strays = [";".join(f[:3]) for n, f in stacks if not any(f[0].startswith(r + " (")
                                                             for r in roots)]
    check(stacks and not strays, f"{label}: every stack holding bytes starts at "
                                 f"{' or '.join(roots)} ({len(stacks)} stacks; {strays[:2]})")


def rank_summaries(a, run):
    doc = info(a.cli, run)
    return [r.get("summary", {}) for r in doc.get("ranks", [])]


def free_port():
    """A TCP port free now (the kernel's pick): two runs of these suites at once (two build
    trees, or a CI job beside a developer's) would meet on a fixed one (errno 98)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def check_ranks(a, run, label, world=2):
    ranks = rank_summaries(a, run)
    check(os.path.isdir(run) and len(ranks) == world,
          f"{label}: a run directory of {world} ranks ({len(ranks)})")
    for i, s in enumerate(ranks):
        checks = s.get("program", {}).get("peak_checks", [])
        steady = [c for c in checks if c["step"] >= 2]
        check(bool(steady) and all(c["recorded_peak_bytes"] == c["allocator_total_at_peak_bytes"]
                                   for c in steady),
              f"{label}: rank {i}'s steady peaks are its own LibTorch running total ({steady})")
    params = [category_bytes(s).get("PARAMETER", 0) for s in ranks]
    check(len(set(params)) == 1 and params[0] > 0, f"{label}: parameter bytes equal on every rank "
                                                   f"({params})")
    return ranks


def mode_processes(a, tmp):
    program = os.path.join(HERE, "ddp_program.py")
    out = os.path.join(tmp, "spawn.memscope")
    rc, so, se = record(a.cli, a.python_exe, out, [program, "--port", str(free_port())])
    check(rc == 0, f"mp.spawn program recorded ({rc}: {se.strip()[-300:]})")
    check("2 processes recorded into the run directory" in se,
          f"it says the processes were recorded ({se.strip()[-300:]})")
    check_ranks(a, out, "mp.spawn")
    check(not os.path.exists(out + ".procs"), "the staging folder is gone")

    # multiprocessing's fork start method: workers forked after the parent imported torch and
    # made the token corpus they read. Each begins with what the parent had alive at the fork.
    out = os.path.join(tmp, "forked.memscope")
    rc, so, se = record(a.cli, a.python_exe, out, [program, "--port", str(free_port()),
                                                    "--start-method", "fork"])
    check(rc == 0 and "3 processes recorded into the run directory" in se,
          f"forked workers recorded, beside the first process ({rc}: {se.strip()[-300:]})")
    corpus = int(re.search(r"corpus bytes: (\d+)", so).group(1)) if "corpus bytes" in so else 0
    doc = info(a.cli, out) if os.path.isdir(out) else {"ranks": []}
    roles = [(r.get("process", {}).get("role"), r.get("process", {}).get("group_rank"))
             for r in doc["ranks"]]
    check(roles == [("fork", 0), ("fork", 1), ("parent", None)],
          f"the two forked workers by group rank, then the first process ({roles})")
    workers = [r.get("summary", {}) for r in doc["ranks"][:2]]
    for i, s in enumerate(workers):
        checks = s.get("program", {}).get("peak_checks", [])
        check(len(checks) == 3 and all(c["recorded_peak_bytes"] == c["allocator_total_at_peak_bytes"]
                                       for c in checks),
              f"forked rank {i}: every step's peak is its own LibTorch running total, which "
              f"counts what it inherited ({checks})")
        inherited = s.get("before_recording_bytes", 0)
        check(inherited >= corpus > 0, f"forked rank {i} begins with the parent's corpus as "
                                       f"before recording ({inherited} >= {corpus})")
        if i < len(doc["ranks"]):
            rows = rank_allocations(a, out, i, tmp)
            corpus_rows = [r for r in rows if int(r["step"]) < 0 and int(r["size_bytes"]) == corpus]
            check(corpus_rows and all(r["stack"].startswith("<module> > main") for r in corpus_rows),
                  f"forked rank {i}: the inherited corpus carries the stack the parent recorded "
                  f"for it ({[r['stack'] for r in corpus_rows[:1]]})")
    params = [category_bytes(s).get("PARAMETER", 0) for s in workers]
    check(len(params) == 2 and params[0] == params[1] > 0,
          f"forked workers: parameter bytes equal ({params})")
    if len(doc["ranks"]) == 3:
        text = subprocess.run([a.cli, "info", out, "--rank", "0"], capture_output=True,
                              text=True, timeout=120).stdout
        check("inherited from the parent process" in text,
              f"info says where a forked worker's first bytes came from ({text[-400:]})")

    out = os.path.join(tmp, "ddp.memscope")
    rc, so, se = record(a.cli, a.python_exe, out, [program, "--port", str(free_port()), "--ddp-module"])
    check(rc == 0, f"torch's DDP module recorded ({rc}: {se.strip()[-300:]})")
    ranks = check_ranks(a, out, "DDP module")
    comm = [category_bytes(s).get("COMMUNICATION", 0) for s in ranks]
    params = [category_bytes(s).get("PARAMETER", 0) for s in ranks]
    activations = [category_bytes(s).get("ACTIVATION", 0) for s in ranks]
    print(f"DDP module at each rank's peak: COMMUNICATION {comm}, PARAMETER {params}, "
          f"ACTIVATION {activations}")
    check(all(c >= p > 0 for c, p in zip(comm, params)) and all(x > 0 for x in activations),
          f"DDP's reducer buckets are COMMUNICATION (at least the parameters' bytes), its "
          f"forward's activations stay ACTIVATION ({comm}, {activations})")

    out = os.path.join(tmp, "zero1.memscope")
    rc, so, se = record(a.cli, a.python_exe, out, [program, "--port", str(free_port()),
                                                    "--sharded-optimizer"])
    check(rc == 0, f"sharded optimizer recorded ({rc}: {se.strip()[-300:]})")
    ranks = check_ranks(a, out, "ZeRO-1")
    # The workers' lines may run into each other on the shared stdout.
    expected = {int(r): int(n) for r, n in
                re.findall(r"optimizer state bytes of rank (\d+): (\d+)", so)}
    state = [category_bytes(s).get("OPTIMIZER_STATE", 0) for s in ranks]
    print(f"ZeRO-1 optimizer state: recorded at each rank's peak {state}, shards {expected}")
    check(len(expected) == 2 and all(state[r] == expected[r] for r in expected) and
          state[0] != state[1],
          f"each rank's optimizer state is its shard's ({state} vs {expected})")

    # The ZeRO-1 wrapper (a torch.optim.Optimizer whose step calls an inner AdamW's, on views of
    # a flat buffer): one step, the inner AdamW's state each rank's OPTIMIZER_STATE, half of the
    # unsharded run's (each rank's step tensor aside).
    shards = {}
    for label, extra in (("zero1-flat", []), ("zero1-unsharded", ["--unsharded"])):
        out = os.path.join(tmp, f"{label}.memscope")
        rc, so, se = record(a.cli, a.python_exe, out, [program, "--port", str(free_port()), "--zero1",
                                                        *extra])
        check(rc == 0, f"{label} recorded ({rc}: {se.strip()[-300:]})")
        ranks = check_ranks(a, out, label)
        expected = {int(r): int(n) for r, n in
                    re.findall(r"optimizer state bytes of rank (\d+): (\d+)", so)}
        state = [category_bytes(s).get("OPTIMIZER_STATE", 0) for s in ranks]
        check(len(expected) == 2 and all(state[r] == expected[r] for r in expected),
              f"{label}: each rank's OPTIMIZER_STATE is its inner AdamW's state "
              f"({state} vs {expected})")
        names = [s.get("program", {}).get("optimizers", []) for s in ranks]
        check(all(n == ["ZeroOne > AdamW"] for n in names),
              f"{label}: the wrapper and its inner optimizer, one step ({names})")
        shards[label] = state
    if len(shards) == 2 and shards["zero1-flat"] and shards["zero1-unsharded"]:
        check(all(2 * (s - 4) == u - 4
                  for s, u in zip(shards["zero1-flat"], shards["zero1-unsharded"])),
              f"the sharded state is half the unsharded one, step tensors aside ({shards})")
    check_roots(a, os.path.join(tmp, "zero1-flat.memscope"), tmp, ["worker"], "spawned worker rank 0",
                extra=("--rank", "0"))

    out = os.path.join(tmp, "raises.memscope")
    rc, so, se = record(a.cli, a.python_exe, out, [program, "--port", str(free_port()),
                                                    "--raise-in-rank", "1"])
    check(rc != 0, f"a worker that raises fails the program ({rc})")
    ranks = rank_summaries(a, out) if os.path.isdir(out) else []
    check(len(ranks) == 2, f"...and every rank's recording is kept ({len(ranks)} ranks)")

    out = os.path.join(tmp, "killed.memscope")
    rc, so, se = record(a.cli, a.python_exe, out, [program, "--port", str(free_port()),
                                                    "--exit-in-rank", "0"])
    ranks = rank_summaries(a, out) if os.path.isdir(out) else []
    check(len(ranks) == 2 and any(s.get("recovered") for s in ranks),
          f"a worker that dies without saving is recovered from its journal "
          f"({[s.get('recovered', False) for s in ranks]}; {se.strip()[-200:]})")

    # SIGINT to memscope-cli (a GUI's Stop): the program's first process passes it on to its
    # workers, each saves its own recording, and the run directory holds them all.
    out = os.path.join(tmp, "interrupted.memscope")
    p, so, se = interrupt_when([a.cli, "record", "--out", out, "--python-exe", a.python_exe,
                                "--python", program, "--port", str(free_port()), "--steps", "100000"],
                               lambda line: line.startswith("step 5:"), 120,
                               "SIGINT to a program of two processes: memscope-cli ends")
    ranks = rank_summaries(a, out) if os.path.isdir(out) else []
    check(p.returncode == 130 and len(ranks) == 2 and
          all(len(s.get("program", {}).get("peak_checks", [])) >= 3 for s in ranks),
          f"SIGINT: status 130, both ranks saved with their steps ({p.returncode}, "
          f"{[len(s.get('program', {}).get('peak_checks', [])) for s in ranks]}; {se.strip()[-200:]})")

    # A rendezvous that never completes (rank 0 of 2, the other never starts): --comm-timeout
    # ends it with one line, no hang.
    out = os.path.join(tmp, "rendezvous.memscope")
    env = dict(os.environ, RANK="0", WORLD_SIZE="2", MASTER_ADDR="127.0.0.1",
               MASTER_PORT=str(free_port()))
    t0 = time.time()
    rc, so, se = record(a.cli, a.python_exe, out, [program], extra=("--comm-timeout", "4"),
                        env=env, timeout=120)
    took = time.time() - t0
    check(rc != 0 and took < 60 and
          "init_process_group did not complete within --comm-timeout 4 s" in se,
          f"a rendezvous that never completes ends after --comm-timeout with one line "
          f"({rc}, {took:.0f} s: {se.strip()[-300:]})")

    version = subprocess.run([a.python_exe, "-c", "import torch; print(torch.__version__)"],
                             capture_output=True, text=True).stdout.strip()
    if version.startswith("1."):
        # torch 1.13's torchrun fails on Python 3.11 by itself (its Std flags): not Memscope's.
        print(f"torchrun: skipped with torch {version}")
        return
    out = os.path.join(tmp, "torchrun.memscope")
    rc, so, se = record(a.cli, a.python_exe, out,
                        ["-m", "torch.distributed.run", "--nproc-per-node", "2",
                         "--master-port", str(free_port()), program])
    check(rc == 0, f"torchrun program recorded ({rc}: {se.strip()[-300:]})")
    check_ranks(a, out, "torchrun")


def check_device_memory_limit(a, tmp, cfg):
    """record --python --device-memory-limit: the program's allocation past the limit raises
    PyTorch's out-of-memory error, and the run file is kept with it (issue 41)."""
    script = os.path.join(HERE, "tiny_llama_v1.py")
    out = os.path.join(tmp, "oom.memscope")
    rc, so, se = record(a.cli, a.python_exe, out, [script, *cfg],
                        extra=("--device-memory-limit", "8MiB"))
    check(rc == 1 and "OutOfMemoryError" in se and "device-capacity limit of 8.0 MiB" in se,
          f"past --device-memory-limit the program sees PyTorch's out-of-memory error "
          f"({rc}: {se.strip()[-200:]})")
    p = subprocess.run([a.cli, "info", out], capture_output=True, text=True, timeout=60)
    check(p.returncode == 0 and "OUT OF MEMORY in step" in p.stdout,
          f"the run file is kept with the out-of-memory event ({p.stdout.strip()[-300:]})")
    check("Out of memory explained" in p.stdout and "Capacity" in p.stdout,
          f"info explains it: capacity or fragmentation ({p.stdout.strip()[-300:]})")
    p = subprocess.run([a.cli, "info", out, "--modules", "--at", "oom"], capture_output=True,
                       text=True, timeout=60)
    check(p.returncode == 0 and "when it ran out of memory" in p.stdout and "blocks" in p.stdout,
          f"info --modules --at oom: the modules that held the memory then ({p.stderr.strip()})")
    rc, so, se = record(a.cli, a.python_exe, os.path.join(tmp, "oom0.memscope"), [script, *cfg],
                        extra=("--device-memory-limit", "100KiB"))
    check(rc == 1 and "is below what the program holds before its first step" in se,
          f"a limit below what the program holds before its first step says so ({se[-300:]})")
    rc, so, se = record(a.cli, a.python_exe, os.path.join(tmp, "oombad.memscope"), [script],
                        extra=("--device-memory-limit", "12x"))
    check(rc == 2 and "--device-memory-limit: '12x' is not a size" in se and
          len(se.strip().splitlines()) == 1, f"a limit that is not a size: one line ({se})")
    rc, so, se = record(a.cli, a.python_exe, os.path.join(tmp, "nolimit.memscope"),
                        [os.path.join(HERE, "small_program.py")],
                        extra=("--device-memory-limit", "0"))
    check(rc == 0, f"a limit of 0 is no limit, as for the trainer ({rc}: {se.strip()[-200:]})")


def mode_llama(a, tmp):
    cfg = ["--batch-size", "4", "--seq-len", "32", "--hidden-dim", "64", "--num-layers", "2",
           "--num-steps", "4"]
    out = os.path.join(tmp, "llama_py.memscope")
    rc, so, se = record(a.cli, a.python_exe, out, [os.path.join(HERE, "tiny_llama_v1.py"), *cfg])
    check(rc == 0, f"tiny_llama_v1.py recorded ({rc}: {se.strip()[-300:]})")
    py = summary_of(info(a.cli, out))
    checks = py["program"]["peak_checks"]
    steady = [c for c in checks if c["step"] >= 2]
    check(len(steady) == 3 and all(c["recorded_peak_bytes"] == c["allocator_total_at_peak_bytes"]
                                   for c in steady),
          f"each steady step's recorded peak is LibTorch's running total at that moment ({steady})")
    check(max(c["recorded_peak_bytes"] for c in steady) == py["steady_peak_allocated_bytes_recorded"],
          "the run's steady peak is the highest of them")
    check_program_down(a, out, tmp)
    growth = growth_of(a, out)
    check(growth["verdict"] == "steady", f"the workshop's default does not grow ({growth['text']})")
    check_device_memory_limit(a, tmp, cfg)
    ref = os.path.join(tmp, "llama_cpp.memscope")
    p = subprocess.run([a.cli, "record", "--preset", "workshop-default", "--batch-size", "4",
                        "--seq-len", "32", "--hidden-dim", "64", "--num-layers", "2",
                        "--num-steps", "4", "--out", ref], capture_output=True, text=True, timeout=600)
    check(p.returncode == 0, f"the built-in trainer records the same configuration ({p.stderr.strip()[-200:]})")
    cpp = summary_of(info(a.cli, ref))
    pc, cc = category_bytes(py), category_bytes(cpp)
    print(f"steady peak: python {py['steady_peak_allocated_bytes_recorded']}, "
          f"trainer {cpp['steady_peak_allocated_bytes_recorded']}")
    for k in sorted(set(pc) | set(cc)):
        print(f"  {k:16s} python {pc.get(k, 0):>10} trainer {cc.get(k, 0):>10}")
    for k in ("PARAMETER", "GRADIENT", "INPUT", "ACTIVATION"):
        ref_bytes = cc.get(k, 0)
        check(ref_bytes > 0 and abs(pc.get(k, 0) - ref_bytes) <= 0.01 * ref_bytes,
              f"{k} at the peak within 1% of the trainer's ({pc.get(k, 0)} vs {ref_bytes})")
    # AdamW's state: the trainer's C++ AdamW keeps `step` as an integer, PyTorch's as a tensor
    # of one float per parameter (1.13 and 2.x): that many bytes more, nothing else.
    n_params = 1 + 2 * 9 + 1  # embedding, 9 per block, final norm
    diff = pc.get("OPTIMIZER_STATE", 0) - cc.get("OPTIMIZER_STATE", 0)
    check(diff in (0, 4 * n_params), f"OPTIMIZER_STATE differs only by AdamW's step tensors ({diff} bytes)")


def growth_of(a, run):
    p = subprocess.run([a.cli, "info", "--growth", "--json", run], capture_output=True, text=True,
                       timeout=120)
    if p.returncode != 0:
        raise RuntimeError(f"info --growth {run}: {p.stderr}")
    return json.loads(p.stdout)


def source_line(path, needle):
    with open(path) as f:
        for number, text in enumerate(f, 1):
            if needle in text:
                return number
    raise RuntimeError(f"{needle!r} is not in {path}")


def mode_growth(a, tmp):
    """Issue 53: a kept loss with its graph and a list of detached tensors grow, by the bytes the
    program counts, from the lines that made them; a cache filled over three steps stops; a
    loop that keeps nothing does not grow."""
    program = os.path.join(HERE, "growth_program.py")
    tanh_h = source_line(program, "h = torch.tanh(self.inp(x))")
    tanh_features = source_line(program, "self.features = torch.tanh(self.mid(h))")
    val_line = source_line(program, "val_loss = model(val_x)")
    largest = 8 * 16 * 48 * 4  # one hidden activation: the largest allocation of the program
    for keep in ("loss", "detached", "cache", "none"):
        out = os.path.join(tmp, f"growth_{keep}.memscope")
        rc, so, se = record(a.cli, a.python_exe, out, [program, "--keep", keep])
        check(rc == 0, f"growth --keep {keep} recorded ({rc}: {se.strip()[-300:]})")
        if rc != 0:
            continue
        truth = json.loads(so.strip().splitlines()[-1]) if "{" in so else {}
        g = growth_of(a, out)
        lines = {grp["made_at"] for grp in g["by_stack"] if grp["trend"] == "grows"}
        print(f"{keep}: {g['text']}")
        if keep in ("loss", "detached"):
            want = truth.get("bytes_per_step", -1)
            check(g["verdict"] == "grows" and abs(g["bytes_per_step"] - want) <= largest,
                  f"{keep}: grows by the program's own count a step, within one allocation "
                  f"({g['bytes_per_step']} vs {want})")
            check(f"growth_program.py:{tanh_features} Net.forward" in lines,
                  f"{keep}: names the line that made what is kept ({lines})")
        if keep == "loss":
            check(f"growth_program.py:{tanh_h} Net.forward" in lines,
                  f"loss: and the line of the other activation its graph saved ({lines})")
            callers = {grp["called_from"] for grp in g["by_stack"] if grp["trend"] == "grows"}
            check(f"growth_program.py:{val_line} main" in callers,
                  f"loss: and the program's line that made the kept loss ({callers})")
            check(g["from_step"] == 2, f"loss: from step 2, the first evaluation ({g['from_step']})")
            text = info_text(a, out)
            check("Growth across steps: grows" in text, "loss: info says that it grows")
            md = os.path.join(tmp, "growth_report.md")
            p = subprocess.run([a.cli, "report", out, "--out", md], capture_output=True,
                               text=True, timeout=120)
            report = open(md).read() if p.returncode == 0 else p.stderr
            check("## Does memory grow every step?" in report and
                  f"`growth_program.py:{tanh_features} Net.forward`" in report,
                  "loss: the report's growth chapter names the line")
        if keep == "cache":
            check(g["verdict"] == "stopped" and "stopped" in g["text"],
                  f"cache: says that it stops growing ({g['text']})")
        if keep == "none":
            check(g["verdict"] == "steady" and not lines,
                  f"none: does not grow ({g['text']})")
        floors = [row["floor_bytes"] for row in g["steps"]]
        if keep == "detached":
            check(all(b - f == largest for f, b in zip(floors, floors[1:])),
                  f"detached: each end-of-step floor is one kept tensor above the last ({floors})")


def mode_tables(a, tmp):
    """Issue 53: the course's peak-by-context table from the user's own runs. A sweep --python
    directory of a course-style program (full steps at four contexts) and six snapshots in
    PyTorch's format (forward passes recorded here and three of the sweep's full steps,
    exported), with their sizes given beside them: the report fills the table, forward and full
    step, with each run's recorded peak to the byte."""
    program = os.path.join(HERE, "student_lm.py")
    base = ["--d-model", "32", "--num-layers", "1", "--num-heads", "2", "--steps", "1",
            "--vocab-size", "200"]
    sweep = os.path.join(tmp, "sweep")
    p = subprocess.run([a.cli, "sweep", "--out", sweep, "--python-exe", a.python_exe, "--python",
                        program, *base, "--context-length", "{s}", "--batch-size", "{b}",
                        "--grid", "s=16,24,32,40", "b=2"],
                       capture_output=True, text=True, timeout=600)
    check(p.returncode == 0, f"sweep --python of the course-style program ({p.stderr.strip()[-300:]})")
    full_runs = {}
    for f in os.listdir(sweep) if os.path.isdir(sweep) else []:
        for ctx in (16, 24, 32, 40):
            if f.endswith(".memscope") and f"s{ctx}-" in f + "-":
                full_runs[ctx] = os.path.join(sweep, f)
    md = os.path.join(tmp, "tables.md")
    p = subprocess.run([a.cli, "report", sweep, "--out", md], capture_output=True, text=True,
                       timeout=300)
    text = open(md).read() if p.returncode == 0 else p.stderr
    for ctx in (16, 40):
        peak = summary_of(info(a.cli, full_runs[ctx]))["peak_allocated_bytes_recorded"] \
            if ctx in full_runs else -2
        check(f"| 2 | {ctx} | - | " in text and f"({peak:,} B)" in text,
              f"the sweep directory's point s={ctx}: its full-step peak to the byte ({peak})")

    pickles, sizes, peaks = [], [], {}
    for ctx in (16, 24, 32):
        for forward in (True, False):
            name = f"ctx{ctx}_{'fwd' if forward else 'full'}"
            run = full_runs.get(ctx, "")
            if forward:
                run = os.path.join(tmp, name + ".memscope")
                rc, so, se = record(a.cli, a.python_exe, run,
                                    [program, *base, "--batch-size", "2", "--context-length",
                                     str(ctx), "--forward-only"])
                check(rc == 0, f"{name} recorded ({rc}: {se.strip()[-200:]})")
            pickle_path = os.path.join(tmp, name + ".pickle")
            p = subprocess.run([a.cli, "export", run, "--to", pickle_path], capture_output=True,
                               text=True, timeout=120)
            check(p.returncode == 0, f"{name} exported as a snapshot ({p.stderr.strip()[-200:]})")
            pickles.append(pickle_path)
            sizes += ["--sizes", f"{name}.pickle:s={ctx},b=2"]
            peaks[(ctx, forward)] = summary_of(info(a.cli, pickle_path))["peak_allocated_bytes_recorded"]
    p = subprocess.run([a.cli, "report", *pickles, *sizes, "--out", md], capture_output=True,
                       text=True, timeout=300)
    check(p.returncode == 0, f"report over six snapshots with --sizes ({p.stderr.strip()[-300:]})")
    text = open(md).read() if p.returncode == 0 else ""
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[2].isdigit():
            rows[(cells[1], int(cells[2]))] = cells

    def exact(cell):
        return int(cell.split("(")[1].split(" B)")[0].replace(",", "")) if "(" in cell else -1

    for ctx in (16, 24, 32):
        row = rows.get(("2", ctx))
        check(row is not None and exact(row[3]) == peaks[(ctx, True)] and
              exact(row[4]) == peaks[(ctx, False)],
              f"context {ctx}: forward and full-step peaks to the byte ({row}, "
              f"{peaks[(ctx, True)]}, {peaks[(ctx, False)]})")
    check("No CS336 runs" not in text, "the report does not say that it has no runs for (b) or (e)")
    check("### (e) The largest allocations" in text and "ctx16_fwd.pickle" in
          text.split("### (e)")[1], "(e): the largest allocations of the user's runs")
    p = subprocess.run([a.cli, "report", *pickles, "--sizes", "nope.pickle:s=1", "--out", md],
                       capture_output=True, text=True, timeout=120)
    check(p.returncode == 2 and "nope.pickle is not one of the runs" in p.stderr,
          f"--sizes for a run not given: one line naming it ({p.stderr.strip()})")
    p = subprocess.run([a.cli, "report", pickles[0], "--sizes", "ctx16_fwd.pickle:s", "--out", md],
                       capture_output=True, text=True, timeout=120)
    check(p.returncode == 2 and "is not NAME=VALUE" in p.stderr,
          f"--sizes that is not NAME=VALUE: says so ({p.stderr.strip()})")


def info_text(a, run):
    p = subprocess.run([a.cli, "info", run], capture_output=True, text=True, timeout=120)
    return p.stdout


def program_output(python, program, args, env=None):
    p = subprocess.run([python, program, *args], capture_output=True, text=True, timeout=900,
                       env=env)
    return p.returncode, p.stdout, p.stderr


def mode_optimizers(a, tmp):
    program = os.path.join(HERE, "optimizer_program.py")
    for kind in ("momentum", "adamw-foreach", "adamw-fused"):
        out = os.path.join(tmp, f"{kind}.memscope")
        rc, so, se = record(a.cli, a.python_exe, out, [program, "--optimizer", kind])
        if rc != 0 and "has no" in se:
            print(f"skip {kind}: {se.strip().splitlines()[-1]}")
            continue
        check(rc == 0, f"{kind}: recorded ({rc}: {se.strip()[-300:]})")
        truth = int(re.search(r"optimizer state bytes: (\d+)", so).group(1))
        summary = summary_of(info(a.cli, out))
        state = category_bytes(summary).get("OPTIMIZER_STATE", 0)
        check(state == truth, f"{kind}: OPTIMIZER_STATE at the peak is the optimizer's own state "
                              f"({state} recorded, {truth} in the program)")
        checks = summary.get("program", {}).get("peak_checks", [])
        check(len(checks) == 3, f"{kind}: 3 steps ({len(checks)})")
        phases = phase_spans(a, out, tmp)
        check(all(f"optimizer step {s}" in phases for s in (1, 2, 3)),
              f"{kind}: an optimizer phase in every step ({sorted(phases)})")
        names = summary.get("program", {}).get("optimizers", [])
        check(names == (["Momentum"] if kind == "momentum" else ["AdamW"]),
              f"{kind}: the optimizer's class is named ({names})")

    # A stack 5,000 frames deep: recorded, cut to the safety limit once, rooted at <module>.
    out = os.path.join(tmp, "deep.memscope")
    rc, so, se = record(a.cli, a.python_exe, out, [os.path.join(HERE, "deep_stack_program.py")])
    check(rc == 0, f"a 5,000-frame recursion records ({rc}: {se.strip()[-300:]})")
    check(se.count("keep their outermost and innermost") == 1,
          f"...and says once that its stacks were cut ({se.strip()[-300:]})")
    stacks = folded_stacks(a, out, tmp)
    deep = [f for n, f in stacks if n in (4096, 8192) or any(x.startswith("[") for x in f)]
    check(deep and all(f[0].startswith("<module> (") and any(" frames] (" in x for x in f)
                       for f in deep),
          f"the cut stacks keep their root and mark what was left out "
          f"({[';'.join(f[:2] + f[126:130]) for f in deep[:1]]})")


def mode_compiled(a, tmp):
    probe = subprocess.run([a.python_exe, "-c", "import torch; print(hasattr(torch, 'compile'))"],
                           capture_output=True, text=True, timeout=300)
    if probe.stdout.strip() != "True":
        print("skip: this torch has no torch.compile")
        return
    program = os.path.join(HERE, "compiled_program.py")
    args = ["--compile", "model"]
    rc, plain, se = program_output(a.python_exe, program, args)
    if rc != 0 and "BackendCompilerFailed" in se:
        # This interpreter cannot compile at all, with or without Memscope (a torch whose inductor
        # lacks a dependency): nothing to compare.
        print(f"skip: torch.compile fails here without Memscope ({se.strip().splitlines()[-1]})")
        return
    check(rc == 0, f"compiled_program runs plainly ({rc}: {se.strip()[-300:]})")
    out = os.path.join(tmp, "compiled.memscope")
    rc, so, se = record(a.cli, a.python_exe, out, [program, *args])
    check(rc == 0, f"compiled_program records ({rc}: {se.strip()[-300:]})")
    losses = re.findall(r"step \d+: loss \S+", so)
    check(losses and losses == re.findall(r"step \d+: loss \S+", plain),
          f"the same losses with and without the recorder ({losses})")
    summary = summary_of(info(a.cli, out))
    checks = summary.get("program", {}).get("peak_checks", [])
    check(len(checks) == 4 and all(c["recorded_peak_bytes"] == c["allocator_total_at_peak_bytes"]
                                   for c in checks),
          f"4 steps, each step's peak the allocator's own running total ({checks})")
    truth = int(re.search(r"optimizer state bytes: (\d+)", so).group(1))
    state = category_bytes(summary).get("OPTIMIZER_STATE", 0)
    check(state == truth, f"OPTIMIZER_STATE is AdamW's state ({state} vs {truth})")
    rows = allocations(a.cli, out, tmp)
    compiled = [r for r in rows if "CompiledFunction" in r["stack"]]
    check(compiled and all(r["module"].startswith(("Net", "backward of Net")) for r in compiled),
          f"the compiled region's allocations carry the model's module "
          f"({sorted({r['module'] for r in compiled})[:3]})")
    kernels = [r for r in compiled if re.search(r"(cpp_fused_|extern_kernels\.|triton_)", r["stack"])]
    check(len(kernels) > 0, f"...and the generated kernel they were made for "
                            f"({compiled[0]['stack'] if compiled else ''})")
    check_roots(a, out, tmp, ["<module>"], "compiled model")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--python-exe", required=True)
    ap.add_argument("mode", choices=["program", "faults", "llama", "processes", "optimizers",
                                     "compiled", "growth", "tables"])
    a = ap.parse_args()
    a.cli = os.path.abspath(a.cli)
    with tempfile.TemporaryDirectory(prefix="memscope-py-") as tmp:
        {"program": mode_program, "faults": mode_faults, "llama": mode_llama,
         "processes": mode_processes, "optimizers": mode_optimizers,
         "compiled": mode_compiled, "growth": mode_growth,
         "tables": mode_tables}[a.mode](a, tmp)
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed", file=sys.stderr)
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
