#!/bin/bash
# A long fuzzing campaign: every reader's fuzzer for N executions under the asan build, at the
# lowest CPU priority, one log per fuzzed reader and a summary line each (executions, wall time,
# rate, result).
#
#   scripts/fuzz_campaign.sh [--build DIR] [--iterations N] [--seed S] [--jobs J]
#                            [--logs PREFIX] [READER...]
#
# READER: run_file journal pickle_reader sweep_spec plan_request device_database chrome_trace_names
# cli_options (default: all of them that DIR has built).
# DIR defaults to build-asan, N to 1000000, J to 1, PREFIX to DIR/fuzz-logs/. Exit status 1
# when any reader failed or left a sanitizer report, 0 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."

build=build-asan
iterations=1000000
seed=""
jobs=1
logs=""
readers=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --iterations) iterations=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --logs) logs=$2; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    -*) echo "fuzz_campaign.sh: error: unknown option $1" >&2; exit 2 ;;
    *) readers+=("$1"); shift ;;
  esac
done
[ -d "$build" ] || { echo "fuzz_campaign.sh: error: no build directory $build" >&2; exit 2; }
build=$(cd "$build" && pwd)
[ -n "$logs" ] || logs=$build/fuzz-logs/
mkdir -p "$(dirname "${logs}x")"

# reader -> executable (relative to the build) and Qt Test function
declare -A exe=(
  [run_file]=tests/core/fuzz_run_file [journal]=tests/core/fuzz_journal
  [pickle_reader]=tests/core/fuzz_pickle_reader
  [sweep_spec]=tests/core/fuzz_yaml_readers [plan_request]=tests/core/fuzz_yaml_readers
  [device_database]=tests/core/fuzz_yaml_readers
  [chrome_trace_names]=tests/core/fuzz_chrome_trace_names [cli_options]=tests/cli/fuzz_cli_options)
declare -A fn=(
  [run_file]=mutations [journal]=mutations [pickle_reader]=mutations [sweep_spec]=sweepSpec [plan_request]=planRequest
  [device_database]=deviceDatabase [chrome_trace_names]=randomNames
  [cli_options]=randomArgumentVectors)
all=(run_file journal pickle_reader sweep_spec plan_request device_database chrome_trace_names cli_options)
if [ ${#readers[@]} -eq 0 ]; then
  for r in "${all[@]}"; do
    [ -x "$build/${exe[$r]}" ] && readers+=("$r")
  done
fi
for r in "${readers[@]}"; do
  [ -n "${exe[$r]:-}" ] || { echo "fuzz_campaign.sh: error: unknown reader $r" >&2; exit 2; }
  [ -x "$build/${exe[$r]}" ] || { echo "fuzz_campaign.sh: error: $build/${exe[$r]} is not built" >&2; exit 2; }
done

# The sanitizer options CTest gives the asan preset's tests (cmake/MemscopeSanitizers.cmake), with
# the reports in the log directory, and a 16 MiB quarantine instead of 256: freed blocks are
# still held back for over a hundred inputs (one input frees well under 1 MiB), so a use after
# free within an input is caught as before, but the allocator reuses memory that is still mapped
# instead of faulting in fresh pages all the time (half the CPU time per input here).
supp=$PWD/tests/sanitizers
reports=${logs}sanitizer-report
export ASAN_OPTIONS="log_path=$reports:log_exe_name=1:suppressions=$supp/asan.supp:halt_on_error=1:strict_string_checks=1:check_initialization_order=1:quarantine_size_mb=16"
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="log_path=$reports:log_exe_name=1:suppressions=$supp/ubsan.supp:print_stacktrace=1:halt_on_error=1"
# The run file and plan fuzzers write each input to a file: in memory where there is a tmpfs.
[ -d /dev/shm ] && [ -w /dev/shm ] && export TMPDIR=/dev/shm
export QT_QPA_PLATFORM=offscreen
# Qt Test's watchdog ends a test function after 5 minutes; a campaign's takes an hour. A hang on
# one input still shows: its progress lines stop.
export QTEST_FUNCTION_TIMEOUT=${QTEST_FUNCTION_TIMEOUT:-86400000}

one() {
  local r=$1 log=${logs}$1.log start end rc result done
  start=$(date +%s.%N)
  nice -n 19 "$build/${exe[$r]}" "${fn[$r]}" --iterations "$iterations" --progress 60 \
    ${seed:+--seed "$seed"} >"$log" 2>&1
  rc=$?
  end=$(date +%s.%N)
  if [ $rc -eq 0 ] && ! ls "$reports".*"$(basename "${exe[$r]}")"* >/dev/null 2>&1; then
    result=passed
  else
    result="FAILED (exit $rc): $(grep -m1 -E 'FAIL!|ERROR: |runtime error' "$log" | cut -c1-200)"
  fi
  # Executions done: all of them, or as far as the last progress line got.
  done=$iterations
  # (a failure names its iteration, counted from 0, else the last progress line).
  [ "$result" = passed ] ||
    done=$(grep -m1 -oE 'iteration [0-9]+ \(seed' "$log" | awk '{print $2}')
  [ "$result" = passed ] || [ -n "$done" ] ||
    done=$(grep -oE '^[^:]+: [0-9]+ / [0-9]+ executions' "$log" | tail -1 | awk '{print $(NF-3)}')
  awk -v r="$r" -v n="${done:-0}" -v s="$start" -v e="$end" -v res="$result" 'BEGIN {
    printf "%-20s %9d executions %8.0f s %8.1f per s  %s\n", r, n, e - s, n / (e - s), res }' |
    tee -a "${logs}summary.txt"
  [ "$result" = passed ]
}

status=0
running=0
for r in "${readers[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n || status=1
    running=$((running - 1))
  fi
  one "$r" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || status=1
  running=$((running - 1))
done
exit $status
