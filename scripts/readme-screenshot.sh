#!/usr/bin/env bash
# Regenerates docs/memscope-window.png, the README's picture of the main window, with Memscope
# itself: a three-step workshop-default recording opened in the GUI, rendered offscreen at
# 1600x1000. Uses the Release build in build/ (or MEMSCOPE_BUILD_DIR).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${MEMSCOPE_BUILD_DIR:-$root/build}
for exe in "$build/app/memscope-cli" "$build/app/memscope"; do
  [ -x "$exe" ] || { echo "readme-screenshot: $exe missing: build first (scripts/memscope.sh setup)" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/app/memscope-cli" record --preset workshop-default --num-steps 3 --seed 42 \
  --out "$work/ws3.memscope" >/dev/null
QT_QPA_PLATFORM=offscreen "$build/app/memscope" --lang en --open "$work/ws3.memscope" \
  --screenshot "window=$root/docs/memscope-window.png" --size 1600x1000 2>/dev/null
echo "Wrote $root/docs/memscope-window.png"
