#!/usr/bin/env python3
"""What recording costs a Python training program: tests/python/tiny_llama_v1.py run plainly and
under `memscope-cli record --python`, alternating, and the recorded/plain step time.

    bench_python_overhead.py --cli build-py/app/memscope-cli --python-exe /usr/bin/python3 \
        [--rounds 8] [--steps 12] [--skip 2] [--python-frames all[,4,...]] [-- SCRIPT ARGS...]
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
    ap.add_argument("--python-frames", default="all",
                    help="the recorder's --python-frames; several, comma-separated (all,4), are "
                         "each measured in every round")
    ap.add_argument("program", nargs=argparse.REMAINDER,
                    help="-- SCRIPT ARGS (default: tiny_llama_v1.py, workshop defaults)")
    a = ap.parse_args()
    program = a.program[1:] if a.program[:1] == ["--"] else a.program
    if not program:
        program = [os.path.join(HERE, "tiny_llama_v1.py")]
    program = program + ["--num-steps", str(a.steps)]
    settings = a.python_frames.split(",")
    ratios = {f: [] for f in settings}
    plain_all, rec_all = [], {f: [] for f in settings}
    with tempfile.TemporaryDirectory(prefix="memscope-bench-") as tmp:
        timing = os.path.join(tmp, "t.json")
        out = os.path.join(tmp, "r.memscope")
        plain_cmd = [a.python_exe, *program, "--timing-json", timing]

        def rec_cmd(frames):
            if os.path.exists(out):
                os.remove(out)
            if a.cli:
                return [a.cli, "record", "--out", out, "--python-exe", a.python_exe,
                        "--python-frames", frames, "--python", *program, "--timing-json", timing]
            return [a.python_exe, "-m", "memscope", "record", "--out", out,
                    "--python-frames", frames, *program, "--timing-json", timing]
        for r in range(a.rounds):
            result = {}
            kinds = ["plain"] + settings
            kinds = kinds if r % 2 == 0 else kinds[::-1]
            for kind in kinds:
                steps = run(plain_cmd if kind == "plain" else rec_cmd(kind), timing)[a.skip:]
                result[kind] = statistics.median(steps)
            plain_all.append(result["plain"])
            line = f"round {r + 1}: plain {result['plain'] * 1000:.1f} ms"
            for f in settings:
                ratios[f].append(result[f] / result["plain"])
                rec_all[f].append(result[f])
                line += (f", frames {f} {result[f] * 1000:.1f} ms (ratio "
                         f"{ratios[f][-1]:.3f})")
            print(line, flush=True)
    rng = random.Random(1)
    print(f"step time: plain {statistics.median(plain_all) * 1000:.1f} ms "
          f"(median of {a.rounds} rounds)")
    for f in settings:
        boot = sorted(statistics.median(rng.choices(ratios[f], k=len(ratios[f])))
                      for _ in range(2000))
        lo, hi = boot[int(0.025 * len(boot))], boot[int(0.975 * len(boot)) - 1]
        print(f"--python-frames {f}: recorded {statistics.median(rec_all[f]) * 1000:.1f} ms, "
              f"recorded/plain median {statistics.median(ratios[f]):.3f}, 95% interval "
              f"[{lo:.3f}, {hi:.3f}] (target <= 1.10)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
