#!/usr/bin/env python3
"""What recording costs a Python training program: tests/python/tiny_llama_v1.py run plainly and
under `memscope-cli record --python`, alternating, and the recorded/plain step time.

    bench_python_overhead.py --cli build-py/app/memscope-cli --python-exe /usr/bin/python3 \
        [--rounds 8] [--steps 12] [--skip 2] [--python-frames 4] [-- SCRIPT ARGS...]
    bench_python_overhead.py --python-exe venv/bin/python ...   (no --cli: the recorder pip
        installed into that venv, `python -m memscope record`)

Each round runs both (the order alternates from round to round), each a fresh process; a run's
step time is the median of its steps after the first --skip (allocator and autograd warm-up).
Prints each round's ratio, their median and a 95% bootstrap interval of that median (resampling
the rounds), and the plain and recorded medians. Only the standard library.
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd, timing):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr[-2000:]}")
    with open(timing) as f:
        return json.load(f)["step_s"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", help="memscope-cli (default: python -m memscope record)")
    ap.add_argument("--python-exe", default=sys.executable)
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--steps", type=int, default=12)
    ap.add_argument("--skip", type=int, default=2)
    ap.add_argument("--python-frames", type=int, default=4)
    ap.add_argument("program", nargs=argparse.REMAINDER,
                    help="-- SCRIPT ARGS (default: tiny_llama_v1.py, workshop defaults)")
    a = ap.parse_args()
    program = a.program[1:] if a.program[:1] == ["--"] else a.program
    if not program:
        program = [os.path.join(HERE, "tiny_llama_v1.py")]
    program = program + ["--num-steps", str(a.steps)]
    ratios, plain_all, rec_all = [], [], []
    with tempfile.TemporaryDirectory(prefix="memscope-bench-") as tmp:
        timing = os.path.join(tmp, "t.json")
        out = os.path.join(tmp, "r.memscope")
        plain_cmd = [a.python_exe, *program, "--timing-json", timing]
        if a.cli:
            rec_cmd = [a.cli, "record", "--out", out, "--python-exe", a.python_exe,
                       "--python-frames", str(a.python_frames), "--python", *program,
                       "--timing-json", timing]
        else:
            rec_cmd = [a.python_exe, "-m", "memscope", "record", "--out", out,
                       "--python-frames", str(a.python_frames), *program, "--timing-json", timing]
        for r in range(a.rounds):
            result = {}
            for kind in (("plain", "recorded") if r % 2 == 0 else ("recorded", "plain")):
                steps = run(plain_cmd if kind == "plain" else rec_cmd, timing)[a.skip:]
                result[kind] = statistics.median(steps)
            ratio = result["recorded"] / result["plain"]
            ratios.append(ratio)
            plain_all.append(result["plain"])
            rec_all.append(result["recorded"])
            print(f"round {r + 1}: plain {result['plain'] * 1000:.1f} ms, recorded "
                  f"{result['recorded'] * 1000:.1f} ms, ratio {ratio:.3f}", flush=True)
    rng = random.Random(1)
    boot = sorted(statistics.median(rng.choices(ratios, k=len(ratios))) for _ in range(2000))
    lo, hi = boot[int(0.025 * len(boot))], boot[int(0.975 * len(boot)) - 1]
    print(f"step time: plain {statistics.median(plain_all) * 1000:.1f} ms, recorded "
          f"{statistics.median(rec_all) * 1000:.1f} ms (medians of {a.rounds} rounds)")
    print(f"recorded/plain: median {statistics.median(ratios):.3f}, 95% interval "
          f"[{lo:.3f}, {hi:.3f}] (target <= 1.10)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
