#!/usr/bin/env python3
"""Dumps a PyTorch CUDA memory snapshot of the Tiny LLaMA that Memscope trains (part (d) of
scripts/gpu-check.sh) and works out the snapshot's own figures, for `memscope-cli import` to be
held to.

The memory history is switched on before anything is allocated on the device, with
stacks='all' (Python and C++ frames) where this PyTorch accepts it, then scripts/pytorch_baseline.py
trains the model (its options are passed on: `-- --num-steps 3 --attention sdpa`), and the
snapshot is written as torch.cuda.memory._dump_snapshot() writes it (a pickle).

Its figures, written to --json:
  * peak_allocated_bytes: the live bytes replayed from the trace (alloc adds the block's size,
    free_completed takes it away), starting from the blocks that were live before the trace began
    (those in the snapshot's segments minus what the trace adds up to); what memory_viz draws
  * peak_reserved_bytes: the same for the segments (segment_alloc / segment_map add,
    segment_free / segment_unmap take away)
  * max_memory_allocated_bytes / max_memory_reserved_bytes: the allocator's own peaks over the
    recorded run, as pytorch_baseline.py reads them (its peak_allocated_bytes and
    peak_reserved_bytes: the largest of the initialisation's and each step's, since it resets
    the peaks at every step)
  * entries, actions (count per action), stacks (the mode that was accepted), torch_version
"""

import argparse
import json
import os
import pickle
import sys
import time

# C++ frames are symbolized when the snapshot is taken; the "fast" mode (PyTorch 2.3+) reads the
# ELF symbols itself instead of running addr2line per frame, which took minutes on long traces.
os.environ.setdefault("TORCH_SYMBOLIZE_MODE", "fast")

import torch  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pytorch_baseline  # noqa: E402


def start_history(max_entries):
    """Switches the memory history on; returns the stacks mode accepted."""
    mem = torch.cuda.memory
    for stacks in ("all", "python"):
        try:
            mem._record_memory_history(enabled="all", context="all", stacks=stacks,
                                       max_entries=max_entries)
            return stacks
        except (TypeError, ValueError, RuntimeError) as e:
            print(f"note: _record_memory_history(stacks={stacks!r}) refused: {e}",
                  file=sys.stderr)
    # PyTorch 2.0's form
    mem._record_memory_history(True, trace_alloc_max_entries=max_entries,
                               trace_alloc_record_context=True)
    return "legacy"


def stop_history():
    try:
        torch.cuda.memory._record_memory_history(enabled=None)
    except TypeError:
        torch.cuda.memory._record_memory_history(False)


def replay(snapshot, device):
    """The snapshot's own allocated and reserved peaks on `device` (see the module's doc)."""
    traces = snapshot.get("device_traces") or []
    trace = traces[device] if device < len(traces) else []
    live_end = 0
    reserved_end = 0
    for seg in snapshot.get("segments", []):
        if seg.get("device", device) != device:
            continue
        reserved_end += int(seg.get("total_size", 0))
        for block in seg.get("blocks", []):
            # Blocks freed but waiting on a stream have no free_completed yet: still live.
            if block.get("state") in ("active_allocated", "active_pending_free"):
                live_end += int(block.get("size", 0))
    actions = {}
    alloc_delta = []
    reserved_delta = []
    for entry in trace:
        action = entry.get("action", "")
        actions[action] = actions.get(action, 0) + 1
        size = int(entry.get("size", 0))
        if action == "alloc":
            alloc_delta.append(size)
        elif action == "free_completed":
            alloc_delta.append(-size)
        elif action in ("segment_alloc", "segment_map"):
            reserved_delta.append(size)
        elif action in ("segment_free", "segment_unmap"):
            reserved_delta.append(-size)

    def peak(deltas, end):
        start = end - sum(deltas)  # what was there before the trace's first entry
        now = best = max(start, 0)
        for d in deltas:
            now += d
            best = max(best, now)
        return best, start

    peak_alloc, start_alloc = peak(alloc_delta, live_end)
    peak_res, start_res = peak(reserved_delta, reserved_end)
    return {"entries": len(trace), "actions": actions,
            "peak_allocated_bytes": peak_alloc, "allocated_before_trace_bytes": start_alloc,
            "allocated_at_end_bytes": live_end,
            "peak_reserved_bytes": peak_res, "reserved_before_trace_bytes": start_res,
            "reserved_at_end_bytes": reserved_end}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="the snapshot pickle to write")
    p.add_argument("--json", required=True, help="the snapshot's own figures, as JSON")
    p.add_argument("--baseline-json", help="pytorch_baseline.py's own --json (default: OUT.baseline.json)")
    p.add_argument("--max-entries", type=int, default=2_000_000)
    p.add_argument("baseline_args", nargs=argparse.REMAINDER,
                   help="after --: pytorch_baseline.py's options (--device cuda is added)")
    a = p.parse_args()
    extra = [x for x in a.baseline_args if x != "--"]
    if not torch.cuda.is_available():
        print("skipped: no GPU (torch.cuda.is_available() is false)")
        return 2
    device = torch.cuda.current_device()
    torch.cuda.reset_peak_memory_stats(device)
    stacks = start_history(a.max_entries)
    print(f"memory history on (stacks={stacks}, max_entries={a.max_entries})", flush=True)
    baseline_json = a.baseline_json or a.out + ".baseline.json"
    argv = ["--device", f"cuda:{device}"] + extra + ["--json", baseline_json]
    rc = pytorch_baseline.main(argv)
    if rc:
        print(f"error: pytorch_baseline.py exited {rc}", file=sys.stderr)
        return 1
    torch.cuda.synchronize(device)
    with open(baseline_json) as f:
        baseline = json.load(f)
    max_alloc = baseline.get("peak_allocated_bytes")
    max_res = baseline.get("peak_reserved_bytes")
    t0 = time.perf_counter()
    snapshot = torch.cuda.memory._snapshot()
    snap_s = time.perf_counter() - t0
    stop_history()
    with open(a.out, "wb") as f:
        pickle.dump(snapshot, f)
    figures = replay(snapshot, device)
    figures.update({"stacks": stacks, "torch_version": torch.__version__,
                    "device": device, "device_name": torch.cuda.get_device_name(device),
                    "max_memory_allocated_bytes": max_alloc,
                    "max_memory_reserved_bytes": max_res,
                    "snapshot_s": snap_s, "pickle_bytes": os.path.getsize(a.out),
                    "baseline_args": argv})
    with open(a.json, "w") as f:
        json.dump(figures, f, indent=2)
        f.write("\n")
    print(f"snapshot: {figures['entries']} trace entries, peak allocated "
          f"{figures['peak_allocated_bytes']} bytes (max_memory_allocated {max_alloc}), peak "
          f"reserved {figures['peak_reserved_bytes']} bytes (max_memory_reserved {max_res}); "
          f"taken in {snap_s:.1f} s, {figures['pickle_bytes']} bytes written to {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
