#!/usr/bin/env bash
# Memscope on Debian 13 (trixie) from a Debian 12 host, without touching the host: a debootstrap
# root made once and cached (MEMSCOPE_TRIXIE_ROOT, default ~/.cache/memscope/trixie-root), with
# trixie's Qt 6.8, GCC 14, CLI11 2.5 and LibTorch 2.6 (libtorch-dev, CPU) installed in it; the
# repository is bind-mounted at /src inside and built in build-trixie/.
#   scripts/debian13.sh run    make the root if needed, build, run the headless main job
#   scripts/debian13.sh test   make the root if needed, build, run the test suite
#   scripts/debian13.sh setup  make the root (and install what is missing in it) only
# Needs root (debootstrap, chroot, mount). Nothing downloads at build or run time.
set -euo pipefail

usage() { echo "usage: $0 run|test|setup [extra args]" >&2; exit 2; }
[ $# -ge 1 ] || usage
mode=$1
shift
case "$mode" in run|test|setup) ;; *) usage ;; esac
[ "$(id -u)" -eq 0 ] || { echo "memscope: $0 needs root (debootstrap, chroot, mount)" >&2; exit 1; }

src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
target=${MEMSCOPE_TRIXIE_ROOT:-$HOME/.cache/memscope/trixie-root}
mirror=${MEMSCOPE_DEBIAN_MIRROR:-http://deb.debian.org/debian}

# What the root needs: the build (Debian 12's list in scripts/memscope.sh, with trixie's names).
packages=(
  g++ cmake ninja-build pkg-config python3
  qt6-base-dev qt6-charts-dev qt6-svg-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
  # trixie splits the SVG image and icon plugins out of libqt6svg6 (a recommendation only):
  # without them the window has no icon and SVG images do not load
  qt6-svg-plugins
  libgl-dev libvulkan-dev libxkbcommon-dev
  libtorch-dev libopenblas0-openmp libgloo-dev
  nlohmann-json3-dev libyaml-cpp-dev libcli11-dev libzstd-dev
  # the recorder of Python programs: Python.h, and trixie's own PyTorch (2.6, the LibTorch above)
  # for the interpreter whose `import torch` it records; setuptools for torch.compile's inductor
  python3-dev python3-torch python3-setuptools
)

if ! command -v debootstrap >/dev/null; then
  echo "memscope: installing debootstrap on the host"
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends debootstrap
fi

if [ ! -f "$target/.memscope-root-done" ]; then
  echo "memscope: making a Debian 13 root in $target (once)"
  mkdir -p "$target"
  debootstrap --variant=minbase trixie "$target" "$mirror"
  touch "$target/.memscope-root-done"
fi

mounted=()
cleanup() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[$i]}" 2>/dev/null || true; done
}
trap cleanup EXIT
bind() {  # bind FROM TO (TO inside the root)
  mkdir -p "$target$2"
  if ! mountpoint -q "$target$2"; then
    mount --bind "$1" "$target$2"
    mounted+=("$target$2")
  fi
}
bind /proc /proc
bind /dev /dev
bind /sys /sys
bind "$src" /src
cp /etc/resolv.conf "$target/etc/resolv.conf" 2>/dev/null || true

in_root() { chroot "$target" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }

missing=()
for p in "${packages[@]}"; do
  in_root dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "memscope: installing in the Debian 13 root: ${missing[*]}"
  in_root apt-get update
  # nvidia-cudnn (pulled by CUDA builds) downloads at install time: never asked for here.
  in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi
[ "$mode" = setup ] && exit 0

in_root cmake -S /src -B /src/build-trixie -G Ninja -DCMAKE_BUILD_TYPE=Release
in_root cmake --build /src/build-trixie --parallel "$(nproc)"
case "$mode" in
  run)
    in_root /src/build-trixie/app/memscope-cli train --preset workshop-default "$@"
    ;;
  test)
    in_root sh -c "cd /src/build-trixie && ctest --output-on-failure --label-exclude bench $*"
    ;;
esac
