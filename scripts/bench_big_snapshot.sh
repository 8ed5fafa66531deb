#!/usr/bin/env bash
# Large snapshots (issue 52): generates synthetic PyTorch memory snapshot pickles of 0.3 and 1 GB
# (and 10 GB with --10g) with scripts/gen_snapshot.py into a temporary folder, then prints for
# each the generator's seconds and bench_big_snapshot's line: the seconds until the file is
# parsed, loaded and summarized as `memscope-cli info` summarizes it, the peak resident set and
# its ratio to the file, and the summary's digest (equal digests: the same summary to the byte).
# With memscope-cli built, `memscope-cli info FILE` is timed too (wall seconds, peak RSS).
# --base BUILD runs another build's bench_big_snapshot (e.g. of main) on the same files,
# alternating with this one, so that before and after are measured side by side.
#
#   scripts/bench_big_snapshot.sh [--10g] [--keep DIR] [--sizes "300M 1G"] [--base BUILD]
#   (MEMSCOPE_BUILD_DIR: default build/; --keep writes the files to DIR and leaves them there)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${MEMSCOPE_BUILD_DIR:-$root/build}
bench=$build/tests/bench/bench_big_snapshot
cli=$build/app/memscope-cli
sizes="300M 1G"
keep=""
base=""
while [ $# -gt 0 ]; do
  case "$1" in
    --10g) sizes="$sizes 10G"; shift ;;
    --keep) keep=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --base) base=$2/tests/bench/bench_big_snapshot; shift 2 ;;
    *) echo "usage: $0 [--10g] [--keep DIR] [--sizes \"300M 1G\"] [--base BUILD]" >&2; exit 2 ;;
  esac
done
[ -x "$bench" ] || { echo "bench_big_snapshot: $bench missing: build the target first" >&2; exit 1; }
if [ -n "$keep" ]; then
  dir=$keep
  mkdir -p "$dir"
else
  dir=$(mktemp -d "${TMPDIR:-/tmp}/memscope-big.XXXXXX")
  trap 'rm -rf "$dir"' EXIT
fi
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GB", $2 / 1048576}' /proc/meminfo); load $(cut -d' ' -f1-3 /proc/loadavg)"
for size in $sizes; do
  file=$dir/snapshot-$size.pickle
  if [ ! -s "$file" ]; then
    /usr/bin/python3 "$root/scripts/gen_snapshot.py" --size "$size" --out "$file"
  fi
  if [ -n "$base" ]; then
    for _ in 1 2; do
      echo -n "base: "; "$base" "$file"
      echo -n "this: "; "$bench" "$file"
    done
  else
    "$bench" "$file"
  fi
  if [ -x "$cli" ]; then
    /usr/bin/time -f "memscope-cli info: %e s wall, peak RSS %M KB" "$cli" info "$file" >/dev/null
  fi
  [ -n "$keep" ] || rm -f "$file"
done
