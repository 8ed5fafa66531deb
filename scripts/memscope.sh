#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine:
#   scripts/memscope.sh run    install what is missing, build (Release), run the main job
#   scripts/memscope.sh test   install what is missing, build (Release), run the test suite
# With --torch pip[=VERSION] before the mode, LibTorch is the one inside PyTorch from PyPI
# (default 2.11.0, the GPU machines' version; a CUDA build), installed into a virtual environment
# (MEMSCOPE_VENV, default ~/.cache/memscope/venv-torch-VERSION), and the build goes to
# build-pip-VERSION; without it, Debian's libtorch-dev 1.13 and build/.
# MEMSCOPE_CMAKE_ARGS: more configure arguments, split at spaces (.ci/run's second build turns the
# benchmarks off with it: the first builds them).
# Works as root or through sudo. Packages already installed are left alone; apt-get update runs
# first whenever something has to be installed.
set -euo pipefail

usage() {
  echo "usage: $0 [--torch debian|pip[=VERSION]] run|test|setup [extra args for the program]" >&2
  exit 2
}
torch_source=debian
torch_version=2.11.0
while [ $# -ge 1 ]; do
  case "$1" in
    --torch) [ $# -ge 2 ] || usage; torch_source=$2; shift 2 ;;
    --torch=*) torch_source=${1#--torch=}; shift ;;
    *) break ;;
  esac
done
case "$torch_source" in
  debian) ;;
  pip) ;;
  pip=*) torch_version=${torch_source#pip=}; torch_source=pip ;;
  *) echo "memscope: --torch: '$torch_source' is neither debian nor pip[=VERSION]" >&2; exit 2 ;;
esac
[ $# -ge 1 ] || usage
mode=$1
shift
case "$mode" in run|test|setup) ;; *) usage ;; esac

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ "$torch_source" = pip ]; then
  build_dir=${MEMSCOPE_BUILD_DIR:-$root/build-pip-$torch_version}
else
  build_dir=${MEMSCOPE_BUILD_DIR:-$root/build}
fi

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
  # Python.h: the recorder of Python programs (python/, memscope-cli record --python)
  python3-dev
  # PyTorch from Python, for the side-by-side benchmark (scripts/bench_vs_pytorch.sh) and the
  # Python recorder's interpreter
  python3-torch
)
if [ "$torch_source" = pip ]; then
  # LibTorch comes from the wheel: not Debian's (its headers and libraries must not be mixed in;
  # cmake/MemscopeTorch.cmake refuses a mix), and a virtual environment to install it into.
  kept=()
  for p in "${packages[@]}"; do
    case "$p" in libtorch-dev|python3-torch) ;; *) kept+=("$p") ;; esac
  done
  packages=("${kept[@]}" python3-venv)
fi

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

# PyTorch VERSION from PyPI in its own virtual environment (pip's cache makes a second install
# quick); prints the folder of its CMake configs.
install_pip_torch() {
  local venv=${MEMSCOPE_VENV:-$HOME/.cache/memscope/venv-torch-$torch_version}
  local have=""
  if [ -x "$venv/bin/python" ]; then
    have=$("$venv/bin/python" -c 'import torch; print(torch.__version__.split("+")[0])' \
             2>/dev/null || true)
  fi
  if [ "$have" != "$torch_version" ]; then
    echo "memscope: installing PyTorch $torch_version from PyPI into $venv" >&2
    mkdir -p "$(dirname "$venv")"
    python3 -m venv "$venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
      "torch==$torch_version" >&2
  fi
  "$venv/bin/python" -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>/dev/null
}

build() {
  local extra=()
  if [ "$torch_source" = pip ]; then
    local prefix
    prefix=$(install_pip_torch)
    extra+=("-DCMAKE_PREFIX_PATH=$prefix")
    # A CUDA wheel's CMake config looks for the CUDA toolkit (nvcc) at configure time.
    if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
      export PATH=/usr/local/cuda/bin:$PATH
    fi
  fi
  local more=()
  read -r -a more <<<"${MEMSCOPE_CMAKE_ARGS:-}"
  cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "${extra[@]}" "${more[@]}"
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
    # As many suites at once as there are cores: most of their time is starting Python and
    # LibTorch, not computing (pip 2.11's suites: 383 s one at a time, 212 s two at a time on
    # 2 cores). OpenMP's spin-waiting would make the trainer's suites crawl beside another one.
    export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}
    exec ctest --output-on-failure --label-exclude bench --parallel "$(nproc)" "$@"
    ;;
esac
