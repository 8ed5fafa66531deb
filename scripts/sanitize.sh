#!/usr/bin/env bash
# The sanitizer and static-analysis pass of CI (.ci/run runs it after the README's test command):
#   1. cppcheck over core/ (tests/sanitizers/cppcheck.supp): any warning or error fails
#   2. asan-full (AddressSanitizer + LeakSanitizer + UBSan): builds core/ (memscope_base and the
#      LibTorch part, memscope_core), memscope-cli, every core and CLI suite, the reader fuzzers
#      and fuzz_cli_options, and the Python recorder's module, then runs every core and CLI suite
#      (ctest --preset asan-full), the recorder's inside python3 with the runtimes preloaded
#   3. tsan-full (ThreadSanitizer): the suites of the threaded code, built the same way: the
#      recorder and its consumer thread, the live session, the run journal, run files encoded and
#      decoded on two threads, a snapshot's trace entries packed and unpacked on a second thread
#      (EntryList, in test_packed_column)
# LibTorch, OpenMP and Qt are Debian's, not instrumented (tests/sanitizers/*.supp). The GUI's
# run controller is not run under TSan: its threads hand work over through QtConcurrent, whose
# synchronisation inside libQt6Core TSan cannot see (docs/development.md says what that looked like).
# asan and tsan are the LibTorch-free subsets (memscope_base, its suites and the fuzzers: a few
# minutes), for a quick pass by hand.
# Any sanitizer report fails the pass, also one from a memscope-cli that a CLI suite started and
# whose exit status the suite did not look at: the runtimes write their reports to
# BUILD/sanitizer-reports/ (log_path, see cmake/MemscopeSanitizers.cmake), which must stay empty.
# Prints the time of each part. Uses ccache when it is installed (or CMAKE_CXX_COMPILER_LAUNCHER
# when set); needs cppcheck.
#
#   scripts/sanitize.sh [static|asan|tsan|asan-full|tsan-full ...]
#                                      (default: static asan-full tsan-full, in that order: what
#                                      CI runs)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
jobs=${MEMSCOPE_JOBS:-$(nproc)}
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(static asan-full tsan-full)

if [ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ] && command -v ccache >/dev/null; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache
fi
# OpenMP's spin-waiting makes training 10x slower when the cores are shared (and CI's are).
export OMP_WAIT_POLICY=PASSIVE

timings=()
failed=""
step() {  # step NAME COMMAND...: runs and times one part
  local name=$1 start end status=0
  shift
  echo "=== sanitize: $name"
  start=$(date +%s)
  "$@" || status=$?
  end=$(date +%s)
  timings+=("$(printf '%-28s %5d s  %s' "$name" $((end - start)) "$([ $status -eq 0 ] && echo ok || echo FAILED)")")
  if [ $status -ne 0 ]; then
    failed="$failed $name"
  fi
  return 0
}
summary() {
  echo "=== sanitize: times"
  printf '%s\n' "${timings[@]}"
  if [ -n "$failed" ]; then
    echo "sanitize: FAILED:$failed" >&2
    exit 1
  fi
  echo "sanitize: all passed"
}

static_analysis() {
  command -v cppcheck >/dev/null || { echo "sanitize: cppcheck is not installed (apt-get install cppcheck)" >&2; return 1; }
  # Errors and warnings (portability too) over Memscope's own core; system and LibTorch headers
  # are not read (-I core only), which keeps the pass at seconds.
  cppcheck --std=c++17 --language=c++ --enable=warning,portability --inline-suppr \
    --suppressions-list=tests/sanitizers/cppcheck.supp --error-exitcode=1 --quiet \
    -j "$jobs" -I core core/
}

configure_build() {  # configure_build PRESET: asan-full and tsan-full share asan's, tsan's build
  cmake --preset "${1%-full}" && cmake --build --preset "$1" --parallel "$jobs"
}

run_tests() {  # run_tests PRESET: the suites, then no report may have been written
  local reports="$root/build-${1%-full}/sanitizer-reports" status=0
  rm -rf "$reports"
  mkdir -p "$reports"
  ctest --preset "$1" --parallel "$jobs" || status=$?
  if [ -n "$(ls -A "$reports")" ]; then
    echo "sanitize: $1 reports in $reports:" >&2
    for f in "$reports"/*; do
      echo "--- $f" >&2
      head -c 20000 "$f" >&2
    done
    status=1
  fi
  return $status
}

for part in "${parts[@]}"; do
  case "$part" in
    static) step "cppcheck core/" static_analysis ;;
    asan|tsan|asan-full|tsan-full)
      step "$part: configure + build" configure_build "$part"
      if [[ " $failed " == *" $part: configure + build "* ]]; then
        continue
      fi
      step "$part: tests" run_tests "$part"
      ;;
    *) echo "usage: $0 [static|asan|tsan|asan-full|tsan-full ...]" >&2; exit 2 ;;
  esac
done
summary
