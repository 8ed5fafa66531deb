#!/usr/bin/env bash
# The recorder as a course's students get it (README, "Record on the GPU machine, look on your
# laptop"): a fresh virtual environment of CPython 3.13 with torch 2.11 from PyPI, the recorder
# installed into it with `pip install --no-build-isolation`, a program recorded with
# `python -m memscope record`, and memscope-cli (any build: the run file is the same) reading it.
#
#   scripts/check_pip_recorder.sh [--cli MEMSCOPE_CLI] [--python PYTHON3.13] [--torch VERSION]
#
# Checks that the run has steps, phases and the program's Python frames (read from the program
# down), and that a bad install says what is wrong in one line: torch missing, build isolation on.
# The venv is made anew each time in ~/.cache/memscope/venv-pip-recorder (pip's cache makes the
# torch install quick the second time); the recorder's build folder (build-recorder/) is kept.
# Prints each stage's time; exits non-zero on any failure.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cli=$root/build/app/memscope-cli
python=""
torch_version=2.11.0
while [ $# -ge 1 ]; do
  case "$1" in
    --cli) cli=$2; shift 2 ;;
    --python) python=$2; shift 2 ;;
    --torch) torch_version=$2; shift 2 ;;
    *) echo "usage: $0 [--cli MEMSCOPE_CLI] [--python PYTHON] [--torch VERSION]" >&2; exit 2 ;;
  esac
done
if [ -z "$python" ]; then
  # pyenv's own 3.13 first: its shim on PATH answers only where 3.13 is the version selected.
  for candidate in $(ls -d "$HOME"/.pyenv/versions/3.13*/bin/python3.13 2>/dev/null) \
                   "$(command -v python3.13 || true)"; do
    if [ -n "$candidate" ] && "$candidate" -c 'import sys' 2>/dev/null; then
      python=$candidate
      break
    fi
  done
fi
if [ -z "$python" ] || ! "$python" -c 'import sys' 2>/dev/null; then
  echo "check_pip_recorder: no CPython 3.13 interpreter (give one with --python)" >&2
  exit 1
fi
[ -x "$cli" ] || { echo "check_pip_recorder: no memscope-cli at $cli (build it, or --cli)" >&2; exit 1; }

failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
ok() { echo "ok   $*"; }
stage() { echo "--- $1 ($(($(date +%s) - t0)) s so far)"; }
t0=$(date +%s)
venv=${MEMSCOPE_PIP_RECORDER_VENV:-$HOME/.cache/memscope/venv-pip-recorder}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

stage "fresh venv ($("$python" --version)) with torch $torch_version"
rm -rf "$venv"
mkdir -p "$(dirname "$venv")"
"$python" -m venv "$venv" || { echo "check_pip_recorder: cannot make a venv with $python" >&2; exit 1; }
vpy=$venv/bin/python

# Before torch is there: the one line that says so, and nothing installed.
stage "pip install without torch (must refuse)"
"$vpy" -m pip install --quiet scikit-build-core cmake ninja || { echo "pip failed" >&2; exit 1; }
out=$("$vpy" -m pip install --no-build-isolation "$root" 2>&1)
if grep -q "memscope: cannot build the recorder: .*cannot import torch" <<<"$out" &&
   ! "$vpy" -c 'import memscope' 2>/dev/null; then
  ok "without torch: one line names it, nothing installed"
else
  fail "without torch: $(tail -n 5 <<<"$out")"
fi

"$vpy" -m pip install --quiet "torch==$torch_version" || { echo "pip install torch failed" >&2; exit 1; }
stage "pip install --no-build-isolation $root"
if "$vpy" -m pip install --quiet --no-build-isolation "$root"; then
  ok "the recorder installs into the venv"
else
  fail "pip install --no-build-isolation of the recorder"
  exit 1
fi

stage "python -m memscope record tests/python/small_program.py"
run=$work/small.memscope
if (cd "$work" && "$vpy" -m memscope record --out "$run" "$root/tests/python/small_program.py"); then
  ok "recorded"
else
  fail "python -m memscope record exited $?"
fi

stage "memscope-cli info and allocations"
if "$cli" info "$run" >"$work/info.txt"; then
  head -n 12 "$work/info.txt"
  grep -q "^Peak by phase: forward" "$work/info.txt" && ok "phases" || fail "no phases in info"
else
  fail "memscope-cli info"
fi
if "$cli" export "$run" --table allocations --to "$work/allocations.csv" >/dev/null; then
  # The program's frames outermost, then the module path, then the operators.
  if grep -q "main > Net.forward > Block.forward > make_scratch > Net > Net.blocks" "$work/allocations.csv"; then
    ok "Python frames present, read from the program down"
  else
    fail "no Python frames in the order main > Net.forward > ... > Net.blocks ($(grep -m1 make_scratch "$work/allocations.csv"))"
  fi
  grep -q "PARAMETER" "$work/allocations.csv" && ok "categories" || fail "no PARAMETER allocations"
else
  fail "memscope-cli export --table allocations"
fi

echo "check_pip_recorder: $(($(date +%s) - t0)) s; $([ $failures -eq 0 ] && echo passed || echo "$failures FAILED")"
[ $failures -eq 0 ]
