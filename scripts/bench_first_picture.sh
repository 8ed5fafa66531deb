#!/usr/bin/env bash
# Time to the first picture (issue 31): opens each FILE (a .memscope run or a PyTorch memory
# snapshot) in the GUI, offscreen, with --quit-when-drawn, N times (default 3), and prints per
# file the median whole-process wall time, the median time from main() to the first picture (a big
# snapshot's preview of its first entries, issue 52; else the run drawn) and to the whole run drawn,
# beside memory_viz's figure on course snapshots of 3-4 MB (1.1-2.2 s in headless Chromium,
# measured side by side in issue 31; memory_viz itself cannot run here: no npm).
#
#   scripts/bench_first_picture.sh [-n N] FILE...      (MEMSCOPE_BUILD_DIR: default build/)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
gui=${MEMSCOPE_BUILD_DIR:-$root/build}/app/memscope
reps=3
if [ "${1:-}" = "-n" ]; then
  reps=$2
  shift 2
fi
[ $# -gt 0 ] || { echo "usage: $0 [-n N] FILE..." >&2; exit 2; }
[ -x "$gui" ] || { echo "bench_first_picture: $gui missing: build first" >&2; exit 1; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
printf '%-40s %10s %12s %16s %14s %s\n' file MB "process s" "first picture ms" "drawn at ms" \
  "memory_viz (3-4 MB course snapshots)"
for file in "$@"; do
  [ -r "$file" ] || { echo "bench_first_picture: cannot read $file" >&2; exit 1; }
  walls=() drawn=() first=()
  for _ in $(seq "$reps"); do
    start=$(date +%s.%N)
    out=$(QT_QPA_PLATFORM=offscreen "$gui" --open "$file" --quit-when-drawn 2>&1 || true)
    end=$(date +%s.%N)
    line=$(echo "$out" | grep -o 'drawn after [0-9.]* ms' || true)
    [ -n "$line" ] || { echo "bench_first_picture: $file was not drawn" >&2; exit 1; }
    preview=$(echo "$out" | grep -o 'first picture after [0-9.]* ms' || true)
    walls+=("$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.4f", b - a}')")
    drawn+=("$(echo "$line" | awk '{print $3}')")
    first+=("$(echo "${preview:-x x x $(echo "$line" | awk '{print $3}')}" | awk '{print $4}')")
  done
  size=$(awk -v b="$(stat -c %s "$file")" 'BEGIN {printf "%.1f", b / 1048576}')
  printf '%-40s %10s %12.3f %16.1f %14.1f %s\n' "$(basename "$file")" "$size" \
    "$(printf '%s\n' "${walls[@]}" | median)" "$(printf '%s\n' "${first[@]}" | median)" \
    "$(printf '%s\n' "${drawn[@]}" | median)" "1.1-2.2 s"
done
