#!/usr/bin/env python3
"""The measured parts of scripts/gpu-check.sh (run by it after the build; see its usage).

Writes to OUTDIR: gpu-check.md (the table, rewritten after every part, so a run cut short
still leaves what it measured), gpu-check.json (the same rows), runs/*.memscope and the snapshot,
json/*.json (Memscope's --summary-json, pytorch_baseline.py's --json, the planner's output) and
logs/*.log (one per command). Exit status: 0 when the build succeeded and no part that ran
missed its target or failed; 1 otherwise.

Parts:
  (a) recorded steady peak vs torch.cuda.max_memory_allocated of the same run (exact) and vs
      scripts/pytorch_baseline.py on the same model (within 1%)
  (b) reserved peak vs max_memory_reserved (same run: exact; the Python run: within 5%), and the
      segment events in the run file (more than 0)
  (c) step time vs PyTorch, eager and sdpa, interleaved rounds, median ratio (<= 1.0)
  (d) a snapshot PyTorch dumps with stacks='all' (scripts/gpu_check_snapshot.py), imported with
      `memscope-cli import`: its peaks vs the snapshot's own (exact)
  (e) the planner (`memscope-cli predict`) vs the recorded GPU steady peaks, 6 configurations
      (within 3%)
  (f) CS336's 2.7B model, forward at context 128/256/512 and a full step at 128: runs, or
      exits 3 (does not fit)

Verdicts: PASS, FAIL (ran, missed its target), FAILED (the part broke: see its log), GAP (what
it needs is not in Memscope's output: the table says which field), SKIPPED (no GPU, or no time
left in the budget), INFO (no target).
"""

import argparse
import json
import os
import pickle
import shlex
import statistics
import subprocess
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
BASELINE = os.path.join(HERE, "pytorch_baseline.py")
SNAPSHOT = os.path.join(HERE, "gpu_check_snapshot.py")

PART_TITLES = {
    "a": "steady peak vs max_memory_allocated and PyTorch",
    "b": "reserved peak and segments",
    "c": "step time vs PyTorch",
    "d": "PyTorch snapshot (stacks='all') imported",
    "e": "planner vs recorded GPU peaks",
    "f": "CS336 2.7B",
}
# Execution order: cheap and essential first; the budget cuts the tail.
PART_ORDER = ["a", "b", "d", "e", "c", "f"]

E_CONFIGS = [
    ("fp32-eager", "fp32 eager", []),
    ("bf16", "bf16 autocast", ["--dtype", "bf16"]),
    ("sdpa", "sdpa", ["--attention", "sdpa"]),
    ("memory-efficient", "memory-efficient attention", ["--attention", "memory-efficient"]),
    ("checkpointing", "checkpointing per-block", ["--checkpointing", "per-block"]),
    ("batch32", "batch 32", ["--batch-size", "32"]),
]

# Where the allocator's own figures of the same run may sit in Memscope's summary JSON.
# None of these exists yet (the check reports a gap); the first found is used.
ALLOCATOR_KEYS = {
    "steady_allocated": ["allocator_steady_peak_allocated_bytes",
                         ("allocator", "steady_peak_allocated_bytes"),
                         ("allocator", "steady_max_memory_allocated_bytes")],
    "peak_allocated": ["allocator_peak_allocated_bytes", "max_memory_allocated_bytes",
                       "cuda_max_memory_allocated_bytes",
                       ("allocator", "peak_allocated_bytes"),
                       ("allocator", "max_memory_allocated_bytes")],
    "peak_reserved": ["allocator_peak_reserved_bytes", "max_memory_reserved_bytes",
                      "cuda_max_memory_reserved_bytes",
                      ("allocator", "peak_reserved_bytes"),
                      ("allocator", "max_memory_reserved_bytes")],
}


class Skip(Exception):
    pass


class PartError(Exception):
    pass


def mib(n):
    return f"{n / 2**20:,.2f} MiB"


def gib(n):
    return f"{n / 2**30:,.2f} GiB"


def bytes_cell(n, unit=mib):
    if n is None:
        return "n/a"
    return f"{unit(n)} ({int(n):,} B)"


def err_pct(value, reference):
    if value is None or not reference:
        return None
    return 100.0 * (value - reference) / reference


def lookup(summary, kind):
    for key in ALLOCATOR_KEYS[kind]:
        if isinstance(key, tuple):
            obj = summary.get(key[0])
            if isinstance(obj, dict) and obj.get(key[1]) is not None:
                return obj[key[1]], ".".join(key)
        elif summary.get(key) is not None:
            return summary[key], key
    return None, None


class Check:
    def __init__(self, a):
        self.a = a
        self.out = os.path.abspath(a.out)
        for sub in ("logs", "runs", "json"):
            os.makedirs(os.path.join(self.out, sub), exist_ok=True)
        self.cli = os.path.abspath(a.cli) if a.cli else None
        self.py = a.python
        self.deadline = a.deadline
        self.rows = []
        self.part_times = {}
        self.gaps = []
        self.notes = []
        self.torch = {}
        self.quick = a.quick
        self.dev = a.device
        self.started = time.time()

    # ---- running commands ----------------------------------------------------------------
    def remaining(self):
        return self.deadline - time.time() if self.deadline else 1e9

    def run(self, name, cmd, timeout, need=10, stdout_file=None):
        """Runs cmd with its output in logs/NAME.log; returns (rc, seconds). Skips when less
        than `need` seconds of the budget are left; rc 124 when it ran out of time."""
        left = self.remaining()
        if left < need:
            raise Skip(f"skipped: time budget ({left:.0f} s left, {name} needs ~{need} s)")
        timeout = max(5, min(timeout, left - 5))
        log = os.path.join(self.out, "logs", name + ".log")
        t0 = time.time()
        with open(log, "w") as f:
            f.write("$ " + " ".join(shlex.quote(str(c)) for c in cmd) + "\n")
            f.flush()
            out = open(stdout_file, "w") if stdout_file else f
            try:
                p = subprocess.run([str(c) for c in cmd], stdout=out, stderr=f,
                                   timeout=timeout, env=self.env(), cwd=self.out)
                rc = p.returncode
            except subprocess.TimeoutExpired:
                rc = 124
                f.write(f"\n[gpu-check] timed out after {timeout:.0f} s\n")
            finally:
                if stdout_file:
                    out.close()
            dt = time.time() - t0
            f.write(f"\n[gpu-check] exit status {rc}, {dt:.1f} s\n")
        print(f"    {name}: exit {rc}, {dt:.1f} s", flush=True)
        return rc, dt

    def env(self):
        e = dict(os.environ)
        e.setdefault("PYTHONUNBUFFERED", "1")
        return e

    def path(self, sub, name):
        return os.path.join(self.out, sub, name)

    def load(self, sub, name):
        with open(self.path(sub, name)) as f:
            return json.load(f)

    def must(self, rc, name, ok=(0,)):
        if rc not in ok:
            raise PartError(f"{name} exited {rc} (logs/{name}.log)")

    # ---- table ---------------------------------------------------------------------------
    def row(self, part, measurement, memscope, reference, error, target, verdict):
        self.rows.append({"part": part, "measurement": measurement, "memscope": memscope,
                          "reference": reference, "error": error, "target": target,
                          "verdict": verdict})
        print(f"  ({part}) {measurement}: {memscope} | {reference} | {error} | {target} | "
              f"{verdict}", flush=True)

    def write_table(self):
        t = self.torch
        lines = ["# Memscope GPU check", ""]
        lines.append(f"- date: {time.strftime('%Y-%m-%d %H:%M:%S %Z')}")
        lines.append(f"- device: {t.get('device_name') or 'none'} "
                     f"(torch.cuda.is_available(): {t.get('cuda')})")
        lines.append(f"- PyTorch: {t.get('version', '?')} ({self.py}); CUDA {t.get('cuda_version')}")
        lines.append(f"- build: {self.a.build_note}")
        lines.append(f"- memscope-cli: {self.cli}")
        lines.append("")
        lines.append("| part | measurement | Memscope | PyTorch / reference | ratio or error "
                     "| target | verdict |")
        lines.append("|---|---|---|---|---|---|---|")
        order = {p: i for i, p in enumerate(["build"] + list("abcdef"))}
        for r in sorted(self.rows, key=lambda r: order.get(r["part"], 99)):
            cells = [r["part"], r["measurement"], r["memscope"], r["reference"], r["error"],
                     r["target"], r["verdict"]]
            lines.append("| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |")
        lines.append("")
        if self.part_times:
            lines.append("Wall time per part: " + ", ".join(
                f"({p}) {s:.1f} s" for p, s in self.part_times.items()) +
                f"; parts in all {time.time() - self.started:.1f} s.")
            lines.append("")
        if self.gaps:
            lines.append("Gaps (what the check needs and Memscope's output lacks):")
            lines.extend(f"- {g}" for g in dict.fromkeys(self.gaps))
            lines.append("")
        if self.notes:
            lines.append("Notes:")
            lines.extend(f"- {n}" for n in dict.fromkeys(self.notes))
            lines.append("")
        lines.append("Files: runs/ (run files, snapshot), json/ (summaries, baselines, plans), "
                     "logs/ (one per command).")
        with open(os.path.join(self.out, "gpu-check.md"), "w") as f:
            f.write("\n".join(lines) + "\n")
        with open(os.path.join(self.out, "gpu-check.json"), "w") as f:
            json.dump({"torch": t, "build": self.a.build_note, "rows": self.rows,
                       "part_times_s": self.part_times, "gaps": list(dict.fromkeys(self.gaps)),
                       "notes": self.notes}, f, indent=2)
            f.write("\n")

    # ---- helpers -------------------------------------------------------------------------
    def probe_torch(self):
        code = ("import json, torch\n"
                "c = torch.cuda.is_available()\n"
                "print(json.dumps({'version': torch.__version__, 'cuda': c,"
                " 'cuda_version': torch.version.cuda,"
                " 'device_name': torch.cuda.get_device_name(0) if c else None,"
                " 'total_memory': torch.cuda.get_device_properties(0).total_memory if c else None,"
                " 'cmake_prefix_path': torch.utils.cmake_prefix_path}))\n")
        out = self.path("json", "torch.json")
        rc, _ = self.run("torch-probe", [self.py, "-c", code], 120, need=0, stdout_file=out)
        if rc != 0:
            raise PartError(f"{self.py} cannot import torch (logs/torch-probe.log)")
        with open(out) as f:
            self.torch = json.loads(f.read().strip().splitlines()[-1])

    def record(self, name, extra, steps, warmup=0, timeout=180, need=20):
        cmd = [self.cli, "record", "--device", self.dev, "--num-steps", steps,
               "--warmup-steps", warmup, "--out", self.path("runs", name + ".memscope"),
               "--summary-json", self.path("json", name + ".json")] + extra
        return self.run(name, cmd, timeout, need=need)

    def baseline(self, name, extra, steps, warmup=0, timeout=180, need=20):
        cmd = [self.py, BASELINE, "--device", self.dev, "--num-steps", steps,
               "--warmup-steps", warmup, "--json", self.path("json", name + ".json")] + extra
        return self.run(name, cmd, timeout, need=need)

    # ---- parts ---------------------------------------------------------------------------
    def part_a(self):
        steps = self.a.steps or (5 if self.quick else 10)
        rc, _ = self.record("a-memscope", ["--preset", "workshop-default"], steps)
        self.must(rc, "a-memscope")
        ms = self.load("json", "a-memscope.json")
        self.a_summary = ms
        recorded = ms.get("steady_peak_allocated_bytes_recorded")
        alloc, key = lookup(ms, "steady_allocated")
        what = "steady"
        if alloc is None:
            alloc, key = lookup(ms, "peak_allocated")
            what = "whole-run"
            recorded_cmp = ms.get("peak_allocated_bytes_recorded")
        else:
            recorded_cmp = recorded
        if alloc is None:
            self.gaps.append("summary JSON has no torch.cuda.max_memory_allocated of the run "
                             "(e.g. allocator.steady_peak_allocated_bytes / "
                             "allocator.peak_allocated_bytes from getDeviceStats, peaks reset "
                             "at each step start like the hook)")
            self.row("a", "recorded steady peak vs max_memory_allocated (same run)",
                     bytes_cell(recorded), "not in --summary-json", "gap", "exact", "GAP")
        else:
            # The allocator counts what it held before the recording began (the cuBLAS
            # workspace and blocks of the peak-FLOPs GEMMs); the run's summary says how much.
            before = (ms.get("allocator") or {}).get("allocated_at_start_bytes") or 0
            before = max(before, 0)
            e = (recorded_cmp or 0) + before - alloc
            self.row("a", f"recorded {what} peak + {before:,} B held before the run vs "
                     f"max_memory_allocated (same run, {key})",
                     bytes_cell(recorded_cmp), bytes_cell(alloc), f"{e:+,} B", "exact",
                     "PASS" if e == 0 else "FAIL")
        hook = ms.get("steady_peak_allocated_bytes")
        if hook is not None and recorded is not None and hook != recorded:
            self.notes.append(f"(a) the trainer's hook says steady peak {hook:,} B, the "
                              f"recorded events {recorded:,} B")

        rc, _ = self.baseline("a-pytorch", [], steps)
        self.must(rc, "a-pytorch")
        py = self.load("json", "a-pytorch.json")
        self.a_pytorch = py
        ref = py.get("steady_peak_allocated_bytes")
        e = err_pct(recorded, ref)
        self.row("a", "recorded steady peak vs PyTorch run (pytorch_baseline.py, same model)",
                 bytes_cell(recorded), bytes_cell(ref),
                 "n/a" if e is None else f"{e:+.3f}%", "within 1%",
                 "FAIL" if e is None or abs(e) > 1.0 else "PASS")
        s1, r1 = ms.get("step1_peak_allocated_bytes_recorded"), py.get("step1_peak_allocated_bytes")
        e1 = err_pct(s1, r1)
        self.row("a", "step 1 peak vs PyTorch run (info)", bytes_cell(s1), bytes_cell(r1),
                 "n/a" if e1 is None else f"{e1:+.3f}%", "-", "INFO")

    def part_b(self):
        ms = getattr(self, "a_summary", None)
        py = getattr(self, "a_pytorch", None)
        if ms is None:
            raise PartError("needs part (a)'s run, which did not finish")
        res = ms.get("reserved") or {}
        if not res.get("caching_allocator"):
            self.row("b", "reserved peak", "no caching allocator in the run", "-", "-",
                     "reserved totals recorded", "FAIL")
            peak_res = None
        else:
            peak_res = res.get("peak_reserved_bytes")
        same, key = lookup(ms, "peak_reserved")
        if same is None:
            self.gaps.append("summary JSON has no torch.cuda.max_memory_reserved of the run "
                             "(e.g. allocator.peak_reserved_bytes)")
            self.row("b", "reserved peak vs max_memory_reserved (same run)", bytes_cell(peak_res),
                     "not in --summary-json", "gap", "exact", "GAP")
        else:
            e = (peak_res or 0) - same
            self.row("b", f"reserved peak vs max_memory_reserved (same run, {key})",
                     bytes_cell(peak_res), bytes_cell(same), f"{e:+,} B", "exact",
                     "PASS" if e == 0 else "FAIL")
        if py is not None:
            ref = py.get("peak_reserved_bytes")
            e = err_pct(peak_res, ref)
            self.row("b", "reserved peak vs PyTorch run's max_memory_reserved",
                     bytes_cell(peak_res), bytes_cell(ref), "n/a" if e is None else f"{e:+.2f}%",
                     "within 5%", "FAIL" if e is None or abs(e) > 5.0 else "PASS")
        # Segment events: the summary has no count; the memory_viz export passes recorded
        # segment events through as segment_* trace entries (it makes one-block segments up
        # only for runs without any), so they are counted there.
        at_peak = res.get("at_peak") or {}
        live_segments = at_peak.get("segments")
        if ms.get("segment_events") is None:
            self.gaps.append("summary JSON has no count of segment events (e.g. segment_events: "
                             "{reserve, release, map, unmap}); counted from an export instead")
        if live_segments is None:
            self.row("b", "segment events recorded", "0 (no segments in the run)", "-", "-",
                     "> 0", "FAIL")
            return
        pickle_path = self.path("runs", "a-memscope-export.pickle")
        rc, _ = self.run("b-export", [self.cli, "export", self.path("runs", "a-memscope.memscope"),
                                      "--to", pickle_path], 120)
        self.must(rc, "b-export")
        with open(pickle_path, "rb") as f:
            snap = pickle.load(f)
        counts = {}
        for trace in snap.get("device_traces", []):
            for entry in trace:
                act = entry.get("action", "")
                if act.startswith("segment"):
                    counts[act] = counts.get(act, 0) + 1
        os.remove(pickle_path)
        n = sum(counts.values())
        detail = ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "none"
        self.row("b", "segment events recorded (run file, via export)",
                 f"{n} ({detail}); {live_segments} segments at the peak", "-", "-", "> 0",
                 "PASS" if n > 0 else "FAIL")

    def part_c(self):
        rounds = 3 if self.quick else 5
        steps = self.a.steps or (10 if self.quick else 20)
        warmup = 1 if self.a.steps else 3
        for attn in ("eager", "sdpa"):
            ratios, ms_t, py_t = [], [], []
            for r in range(1, rounds + 1):
                order = ["ms", "py"] if r % 2 else ["py", "ms"]
                got = {}
                for side in order:
                    name = f"c-{attn}-{side}-{r}"
                    if side == "ms":
                        cmd = [self.cli, "train", "--device", self.dev, "--preset",
                               "workshop-default", "--attention", attn, "--num-steps", steps,
                               "--warmup-steps", warmup, "--summary-json",
                               self.path("json", name + ".json")]
                        rc, _ = self.run(name, cmd, 120, need=15)
                    else:
                        rc, _ = self.baseline(name, ["--attention", attn], steps, warmup,
                                              timeout=120, need=15)
                    self.must(rc, name)
                    d = self.load("json", name + ".json")
                    if d.get("error") or not d.get("avg_step_s"):
                        raise PartError(f"{name}: no step time ({d.get('error')})")
                    got[side] = d["avg_step_s"]
                ms_t.append(got["ms"])
                py_t.append(got["py"])
                ratios.append(got["ms"] / got["py"])
            med = statistics.median(ratios)
            self.row("c", f"step time, {attn}, workshop-default fp32, median of {rounds} "
                          f"interleaved rounds ({steps} steps + {warmup} warmup)",
                     f"{statistics.median(ms_t) * 1e3:.3f} ms",
                     f"{statistics.median(py_t) * 1e3:.3f} ms",
                     f"{med:.3f} (rounds: {', '.join(f'{x:.3f}' for x in ratios)})",
                     "<= 1.0", "PASS" if med <= 1.0 else "FAIL")

    def part_d(self):
        steps = 3
        snap = self.path("runs", "d-snapshot.pickle")
        figures = self.path("json", "d-snapshot.json")
        cmd = [self.py, SNAPSHOT, "--out", snap, "--json", figures,
               "--baseline-json", self.path("json", "d-pytorch.json"), "--",
               "--num-steps", steps]
        rc, _ = self.run("d-snapshot", cmd, 240, need=30)
        self.must(rc, "d-snapshot")
        own = self.load("json", "d-snapshot.json")
        imported = self.path("runs", "d-imported.memscope")
        rc, secs = self.run("d-import", [self.cli, "import", snap, "--out", imported], 180)
        self.must(rc, "d-import")
        info_json = self.path("json", "d-imported.json")
        rc, _ = self.run("d-info", [self.cli, "info", imported, "--json"], 120,
                         stdout_file=info_json)
        self.must(rc, "d-info")
        s = self.load("json", "d-imported.json")
        peak = s.get("peak_allocated_bytes_recorded", s.get("peak_allocated_bytes"))
        ref = own.get("peak_allocated_bytes")
        e = None if peak is None or ref is None else peak - ref
        self.row("d", f"imported peak vs the snapshot's own (stacks={own.get('stacks')}, "
                      f"{own.get('entries'):,} entries, {own.get('pickle_bytes', 0) / 2**20:.1f} "
                      f"MiB, import {secs:.1f} s)",
                 bytes_cell(peak), bytes_cell(ref), "n/a" if e is None else f"{e:+,} B",
                 "exact", "PASS" if e == 0 else "FAIL")
        mx = own.get("max_memory_allocated_bytes")
        if mx is not None and ref is not None and mx != ref:
            self.notes.append(f"(d) the snapshot's replayed peak {ref:,} B differs from "
                              f"torch.cuda.max_memory_allocated {mx:,} B")
        res = (s.get("reserved") or {}).get("peak_reserved_bytes")
        rref = own.get("peak_reserved_bytes")
        e = None if res is None or rref is None else res - rref
        self.row("d", "imported reserved peak vs the snapshot's segments",
                 bytes_cell(res), bytes_cell(rref), "n/a" if e is None else f"{e:+,} B",
                 "exact", "PASS" if e == 0 else "FAIL")

    def part_e(self):
        steps = self.a.steps or (2 if self.quick else 3)
        for slug, title, extra in E_CONFIGS:
            name = f"e-{slug}"
            try:
                if slug == "fp32-eager" and getattr(self, "a_summary", None):
                    ms = self.a_summary
                    source = "part (a)'s run"
                else:
                    rc, _ = self.record(name, ["--preset", "workshop-default"] + extra, steps)
                    self.must(rc, name)
                    ms = self.load("json", name + ".json")
                    source = f"runs/{name}.memscope"
                plan_name = name + "-plan"
                rc, _ = self.run(plan_name, [self.cli, "predict", "--preset", "workshop-default",
                                             "--device", self.dev, "--output",
                                             self.path("json", plan_name + ".json")] + extra, 60)
                self.must(rc, plan_name)
                plan = self.load("json", plan_name + ".json")
                mem = plan.get("memory", {})
                pred = (mem.get("steady_step") or {}).get("peak_bytes")
                pred1 = (mem.get("first_step") or {}).get("peak_bytes")
                got = ms.get("steady_peak_allocated_bytes_recorded")
                got1 = ms.get("step1_peak_allocated_bytes_recorded")
                e, e1 = err_pct(pred, got), err_pct(pred1, got1)
                self.row("e", f"planner steady peak, {title} ({source})", bytes_cell(got),
                         f"predicted {bytes_cell(pred)}",
                         "n/a" if e is None else
                         f"{e:+.2f}% (step 1: {'n/a' if e1 is None else f'{e1:+.2f}%'})",
                         "within 3%", "FAIL" if e is None or abs(e) > 3.0 else "PASS")
            except Skip as s:
                self.row("e", f"planner steady peak, {title}", "-", "-", "-", "within 3%",
                         f"SKIPPED ({s})")
            except PartError as x:
                self.row("e", f"planner steady peak, {title}", "-", "-", str(x), "within 3%",
                         "FAILED")

    def part_f(self):
        steps = 1 if self.quick else 2
        cases = [(f"f-2.7B-forward-{c}", f"2.7B forward, batch 4, context {c}",
                  ["--profile-type", "forward", "--context-length", str(c)]) for c in (128, 256, 512)]
        cases.append(("f-2.7B-training-128", "2.7B full training step (AdamW), batch 4, "
                      "context 128", ["--profile-type", "training", "--context-length", "128"]))
        for name, title, extra in cases:
            opts = ["--model-size", "2.7B", "--batch-size", "4"] + extra
            st = 2 if "training" in extra else steps
            try:
                rc, secs = self.record(name, opts, st, timeout=240, need=45)
                if rc == 3:
                    self.row("f", title, "does not fit (out of memory, exit 3)", "-", "-",
                             "runs, or exits 3", "PASS (does not fit)")
                    continue
                self.must(rc, name)
                ms = self.load("json", name + ".json")
                training = "training" in extra
                got = ms.get("steady_peak_allocated_bytes_recorded" if training else
                             "peak_allocated_bytes_recorded")
                pred = None
                plan_name = name + "-plan"
                try:
                    rc, _ = self.run(plan_name, [self.cli, "predict", "--device", self.dev,
                                                 "--output", self.path("json", plan_name + ".json")]
                                     + opts, 60)
                    if rc == 0:
                        mem = self.load("json", plan_name + ".json").get("memory", {})
                        pred = ((mem.get("steady_step") or {}).get("peak_bytes") if training
                                else mem.get("peak_bytes"))
                except Skip:
                    pass
                e = err_pct(pred, got)
                what = "steady peak" if training else "peak"
                self.row("f", f"{title}: {what} ({secs:.0f} s)", bytes_cell(got, gib),
                         f"predicted {bytes_cell(pred, gib)}",
                         "n/a" if e is None else f"{e:+.2f}% (planner)", "runs, or exits 3",
                         "PASS")
            except Skip as s:
                self.row("f", title, "-", "-", "-", "runs, or exits 3", f"SKIPPED ({s})")
            except PartError as x:
                self.row("f", title, "-", "-", str(x), "runs, or exits 3", "FAILED")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True)
    p.add_argument("--cli", help="memscope-cli (absent: the build failed)")
    p.add_argument("--python", default="python3")
    p.add_argument("--quick", action="store_true")
    p.add_argument("--deadline", type=float, default=0,
                   help="seconds since the epoch after which no command is started")
    p.add_argument("--build-ok", type=int, default=1)
    p.add_argument("--build-note", default="")
    p.add_argument("--parts", default="abcdef", help="which parts to run (default all)")
    p.add_argument("--device", default="cuda",
                   help=argparse.SUPPRESS)  # cpu: rehearse the parts' code on the CPU
    p.add_argument("--steps", type=int, default=0, help=argparse.SUPPRESS)
    a = p.parse_args()
    check = Check(a)
    check.row("build", "configure and build memscope-cli", a.build_note or "-", "-", "-",
              "builds", "PASS" if a.build_ok else "FAILED")
    check.write_table()
    failed = not a.build_ok
    gpu = False
    try:
        check.probe_torch()
        cuda = bool(check.torch.get("cuda"))
        print(f"torch {check.torch.get('version')}, CUDA available: {cuda}"
              + (f" ({check.torch.get('device_name')})" if cuda else ""), flush=True)
        gpu = cuda or a.device == "cpu"
        if a.device == "cpu":
            print("rehearsal: the parts run on the CPU (--device cpu)", flush=True)
    except Exception as e:  # noqa: BLE001
        print(f"error: {e}", flush=True)
        failed = True
    check.write_table()
    for part in PART_ORDER:
        if part not in a.parts:
            continue
        title = PART_TITLES[part]
        t0 = time.time()
        print(f"part ({part}) {title}:", flush=True)
        if not a.build_ok or not check.cli:
            check.row(part, title, "-", "-", "-", "-", "SKIPPED (build failed)")
            print(f"part ({part}): skipped: build failed", flush=True)
        elif not gpu:
            check.row(part, title, "-", "-", "-", "-", "skipped: no GPU")
            print(f"part ({part}): skipped: no GPU", flush=True)
        else:
            try:
                getattr(check, "part_" + part)()
            except Skip as s:
                check.row(part, title, "-", "-", "-", "-", f"SKIPPED ({s})")
                print(f"part ({part}): {s}", flush=True)
            except Exception as e:  # noqa: BLE001
                with open(check.path("logs", f"part-{part}-error.log"), "w") as f:
                    traceback.print_exc(file=f)
                check.row(part, title, "-", "-", str(e).replace("\n", " ")[:200], "-", "FAILED")
                print(f"part ({part}): FAILED: {e} (logs/part-{part}-error.log)", flush=True)
        check.part_times[part] = time.time() - t0
        print(f"part ({part}) wall time: {check.part_times[part]:.1f} s", flush=True)
        check.write_table()
    bad = [r for r in check.rows if r["verdict"].startswith(("FAIL", "SKIPPED (build"))]
    failed = failed or bool(bad)
    skipped_budget = [r for r in check.rows if "time budget" in r["verdict"]]
    if skipped_budget:
        print(f"warning: {len(skipped_budget)} measurement(s) skipped for lack of time",
              flush=True)
    if check.gaps:
        print("gaps: " + "; ".join(dict.fromkeys(check.gaps)), flush=True)
    print(f"table: {os.path.join(check.out, 'gpu-check.md')}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
