#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine:
#   scripts/memscope.sh run    install what is missing, build (Release), run the main job
#   scripts/memscope.sh test   install what is missing, build (Release), run the test suite
# Works as root or through sudo. Packages already installed are left alone; apt-get update runs
# first whenever something has to be installed.
set -euo pipefail

usage() { echo "usage: $0 run|test|setup [extra args for the program]" >&2; exit 2; }
[ $# -ge 1 ] || usage
mode=$1
shift
case "$mode" in run|test|setup) ;; *) usage ;; esac

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${MEMSCOPE_BUILD_DIR:-$root/build}

packages=(
  # toolchain
  g++ cmake ninja-build git python3 pkg-config
  # static analysis for scripts/sanitize.sh
  cppcheck
  # Qt 6 (widgets, charts, SVG, tests, translations); Charts needs the OpenGL module's CMake files
  qt6-base-dev qt6-charts-dev qt6-svg-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
  libqt6opengl6-dev libgl-dev libvulkan-dev libxkbcommon-dev
  # LibTorch 1.13 (CPU) and a fast BLAS: without OpenBLAS fp32 matmuls run 27x slower here
  libtorch-dev libopenblas0-openmp
  # Gloo headers for LibTorch's c10d ProcessGroupGloo (multi-process training)
  libgloo-dev
  # other libraries
  nlohmann-json3-dev libyaml-cpp-dev libcli11-dev libamdhip64-dev libzstd-dev
  # PyTorch from Python, for the side-by-side benchmark (scripts/bench_vs_pytorch.sh)
  python3-torch
)

install_packages() {
  local missing=() p
  for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  if [ ${#missing[@]} -eq 0 ]; then
    echo "memscope: all ${#packages[@]} packages already installed"
    return
  fi
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "memscope: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
  fi
  echo "memscope: installing ${missing[*]}"
  "${sudo[@]}" apt-get update
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

build() {
  cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release
  cmake --build "$build_dir" --parallel "$(nproc)"
}

install_packages
build

case "$mode" in
  setup) ;;
  run)
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
      exec "$build_dir/app/memscope" "$@"
    fi
    echo "memscope: no display; running the workshop-default configuration headless"
    exec "$build_dir/app/memscope-cli" train --preset workshop-default "$@"
    ;;
  test)
    cd "$build_dir"
    exec ctest --output-on-failure --label-exclude bench "$@"
    ;;
esac
