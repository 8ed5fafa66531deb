#!/usr/bin/env bash
# Compares Memscope's average training step time with the same Tiny LLaMA trained from Python
# (scripts/pytorch_baseline.py on Debian's python3-torch, the LibTorch Memscope links), at
# workshop-default with 2 threads. Runs are interleaved (A B A B ...) so that drift in the
# machine's speed hits both sides alike.
#
# Usage: scripts/bench_vs_pytorch.sh BUILD_DIR [ROUNDS]
#   BUILD_DIR  build tree holding app/memscope-cli
#   ROUNDS     interleaved pairs to run (default 3)
# Env: PYTHON (default /usr/bin/python3), THREADS (2), NUM_STEPS (30), WARMUP_STEPS (3)
#
# Prints per-round averages, the median of each side and the median of the per-round ratios
# (memscope / pytorch; <= 1.0 means Memscope is no slower). Exits non-zero if any run fails.
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 || "$1" == "-h" || "$1" == "--help" ]]; then
    echo "usage: $0 BUILD_DIR [ROUNDS]" >&2
    exit 2
fi

build_dir=$1
rounds=${2:-3}
python=${PYTHON:-/usr/bin/python3}
threads=${THREADS:-2}
num_steps=${NUM_STEPS:-30}
warmup_steps=${WARMUP_STEPS:-3}
script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
baseline="$script_dir/pytorch_baseline.py"
cli="$build_dir/app/memscope-cli"

if [[ ! -d "$build_dir" ]]; then
    echo "error: build directory '$build_dir' does not exist" >&2
    exit 2
fi
if ! [[ "$rounds" =~ ^[1-9][0-9]*$ ]]; then
    echo "error: ROUNDS must be a positive integer, got '$rounds'" >&2
    exit 2
fi
if ! "$python" -c 'import torch' 2>/dev/null; then
    echo "error: $python cannot import torch (install python3-torch)" >&2
    exit 1
fi

export OMP_NUM_THREADS=$threads

# Other CPU-heavy work (a build) makes OpenMP threads wait on preempted peers; step times then
# balloon, by an order of magnitude on a 2-core machine, and say nothing about either side.
# Samples how busy the CPUs are for 2 s before a round (none of ours running) and warns.
warn_if_busy() {
    "$python" - "$1" <<'PY' >&2
import sys, time
def sample():
    v = [int(x) for x in open("/proc/stat").readline().split()[1:9]]
    return v[3] + v[4], sum(v)  # idle + iowait, total
i0, t0 = sample()
time.sleep(2)
i1, t1 = sample()
busy = 1.0 - (i1 - i0) / max(t1 - t0, 1)
if busy > 0.15:
    print(f"warning: CPUs {busy:.0%} busy with other work before round {sys.argv[1]}; "
          "timings are unreliable while it runs")
PY
}

tmp_dir=$(mktemp -d "${TMPDIR:-/tmp}/bench_vs_pytorch.XXXXXX")
trap 'rm -rf "$tmp_dir"' EXIT

# Reads avg_step_s from a summary JSON; fails if the run recorded an error or timed nothing.
avg_step() {
    "$python" - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
if d.get("error") or d.get("cancelled") or not d.get("avg_step_s", 0) > 0:
    sys.exit(f"error: {sys.argv[1]}: run failed or timed no steps "
             f"(error={d.get('error')!r}, avg_step_s={d.get('avg_step_s')!r})")
print(d["avg_step_s"])
PY
}

# Waits (up to 2 minutes) for the CLI if a concurrent rebuild has it momentarily missing.
wait_for_cli() {
    local _
    for _ in $(seq 1 24); do
        [[ -x "$cli" ]] && return 0
        sleep 5
    done
    echo "error: $cli not found or not executable" >&2
    return 1
}

run_memscope() {
    local json=$1 log=$2
    wait_for_cli
    if ! "$cli" train --preset workshop-default --threads "$threads" --num-steps "$num_steps" \
        --warmup-steps "$warmup_steps" --summary-json "$json" >"$log" 2>&1; then
        echo "error: memscope-cli failed; its output:" >&2
        cat "$log" >&2
        return 1
    fi
}

run_pytorch() {
    local json=$1 log=$2
    if ! "$python" "$baseline" --threads "$threads" --num-steps "$num_steps" \
        --warmup-steps "$warmup_steps" --batch-size 8 --seq-len 128 --hidden-dim 256 \
        --num-layers 4 --num-heads 8 --num-kv-heads 4 --intermediate-dim 512 \
        --vocab-size 1000 --seed 42 --json "$json" >"$log" 2>&1; then
        echo "error: pytorch_baseline.py failed; its output:" >&2
        cat "$log" >&2
        return 1
    fi
}

echo "workshop-default, threads $threads, $num_steps timed steps (+$warmup_steps warmup)," \
    "$rounds interleaved rounds"
echo "memscope: $cli"
echo "pytorch:  $python $baseline ($("$python" -c 'import torch; print(torch.__version__)'))"
echo
printf '%-6s %14s %14s %8s\n' round "memscope s" "pytorch s" ratio

ms_all=()
py_all=()
for r in $(seq 1 "$rounds"); do
    ms_json="$tmp_dir/memscope_$r.json"
    py_json="$tmp_dir/pytorch_$r.json"
    warn_if_busy "$r"
    run_memscope "$ms_json" "$tmp_dir/memscope_$r.log"
    run_pytorch "$py_json" "$tmp_dir/pytorch_$r.log"
    ms=$(avg_step "$ms_json")
    py=$(avg_step "$py_json")
    ms_all+=("$ms")
    py_all+=("$py")
    "$python" -c 'import sys; r, m, p = sys.argv[1:]; m, p = float(m), float(p)
print(f"{r:<6} {m:14.4f} {p:14.4f} {m / p:8.3f}")' "$r" "$ms" "$py"
done

"$python" - "${ms_all[@]}" "${py_all[@]}" <<'EOF'
import statistics, sys
vals = [float(v) for v in sys.argv[1:]]
n = len(vals) // 2
ms, py = vals[:n], vals[n:]
ratios = [m / p for m, p in zip(ms, py)]
print(f"{'median':<6} {statistics.median(ms):14.4f} {statistics.median(py):14.4f} "
      f"{statistics.median(ratios):8.3f}")
verdict = "no slower" if statistics.median(ratios) <= 1.0 else "SLOWER"
print(f"\nmedian ratio memscope/pytorch = {statistics.median(ratios):.3f} "
      f"(<= 1.0: Memscope is no slower) -> Memscope is {verdict}")
EOF
