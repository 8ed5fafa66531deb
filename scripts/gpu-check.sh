#!/usr/bin/env bash
# The GPU check: builds memscope-cli against the machine's own PyTorch (its LibTorch, CUDA) and
# measures Memscope on the GPU against PyTorch, in one call on a lent GPU machine (README.md,
# "GPU check (lent GPU machines)").
#
#   scripts/gpu-check.sh --prepare DIR
#       Here, on Debian 12: fills DIR with what a GPU machine (PyTorch, nvcc, CMake, ninja; no
#       Qt, no package registry) lacks to build core and the CLI: the headers of nlohmann/json,
#       CLI11, yaml-cpp, Gloo and zstd and the shared yaml-cpp and zstd libraries, in a prefix
#       layout (DIR/include, DIR/lib) that cmake/MemscopeDeps.cmake finds through
#       CMAKE_PREFIX_PATH without CMake configs or pkg-config. Prints DIR's size (under 30 MB).
#
#   scripts/gpu-check.sh [--deps DIR] [--build-dir B] [--python PY] [--quick] [--budget S]
#                        [--bundle DIR2] [--configure-only] [--cmake-arg ARG]... OUTDIR
#       From the repository root on the GPU machine: configures (unless B already holds a
#       configured build with a memscope-cli target: then only `cmake --build B --target
#       memscope-cli`, a no-op when up to date) and builds memscope-cli in B (default build-gpu)
#       against PY's torch (default python3), then runs scripts/gpu_check_parts.py, which
#       measures parts (a)-(f) and writes OUTDIR/gpu-check.md (the table), the run files, the
#       JSON summaries and one log per command. Parts print "skipped: no GPU" where
#       torch.cuda.is_available() is false. Exit status 0 only when the build succeeded and
#       every part that ran met its target.
#         --quick           fewer steps and rounds (step time: 3 rounds of 10 steps)
#         --parts LIST      only these parts (default abcdef)
#         --budget S        seconds for the whole run, build included (default 525); commands
#                           that would start after it are skipped and the table says so
#         --bundle DIR2     also copy gpu-check.md and a gpu-check.tar.gz of OUTDIR to DIR2
#                           (the device tool brings back only 8 files of 16 MiB: use $OUT)
#         --configure-only  configure into B and stop (no build, no measurements)
#         --cmake-arg ARG   one more argument for the configure step (repeatable)
set -uo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(cd "$script_dir/.." && pwd)
start_epoch=$(date +%s)

usage() {
    sed -n '2,/^set -uo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'
    exit "${1:-2}"
}

die() {
    echo "gpu-check: error: $*" >&2
    exit 2
}

# ---- --prepare DIR -----------------------------------------------------------------------
prepare() {
    local dir=$1 inc=/usr/include lib=/usr/lib/x86_64-linux-gnu
    local missing=()
    [[ -f $inc/nlohmann/json.hpp ]] || missing+=(nlohmann-json3-dev)
    [[ -f $inc/CLI/CLI.hpp ]] || missing+=(libcli11-dev)
    [[ -f $inc/yaml-cpp/yaml.h && -f $lib/libyaml-cpp.so ]] || missing+=(libyaml-cpp-dev)
    [[ -f $inc/gloo/algorithm.h ]] || missing+=(libgloo-dev)
    [[ -f $inc/zstd.h && -f $lib/libzstd.so ]] || missing+=(libzstd-dev)
    if ((${#missing[@]})); then
        die "--prepare needs Debian's ${missing[*]} (apt-get install ${missing[*]})"
    fi
    mkdir -p "$dir/include" "$dir/lib" || die "cannot create '$dir'"
    local d
    for d in nlohmann CLI yaml-cpp gloo; do
        rm -rf "${dir:?}/include/$d"
        cp -rL "$inc/$d" "$dir/include/$d" || die "copying $inc/$d failed"
    done
    cp -L "$inc/zstd.h" "$inc/zdict.h" "$inc/zstd_errors.h" "$dir/include/" || die "copying zstd's headers failed"
    # The shared libraries, under their link names and their sonames: Debian's static archives
    # are not position-independent, and the CLI's LibTorch part is a shared module (the GPU
    # machine's linker refused them, 2026-11-29). The build's RPATH finds them in DIR/lib.
    rm -f "$dir/lib/"*
    local so soname
    for so in libyaml-cpp.so libzstd.so; do
        soname=$(objdump -p "$lib/$so" 2>/dev/null | awk '/SONAME/ {print $2}')
        [[ -n $soname ]] || die "no SONAME in $lib/$so"
        cp -L "$lib/$so" "$dir/lib/$so" && cp -L "$lib/$so" "$dir/lib/$soname" ||
            die "copying $lib/$so failed"
    done
    {
        echo "Memscope GPU-check dependencies, made by scripts/gpu-check.sh --prepare on $(date -u +%F)"
        echo "from $(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME") packages:"
        dpkg-query -W -f='  ${Package} ${Version}\n' nlohmann-json3-dev libcli11-dev \
            libyaml-cpp-dev libgloo-dev libzstd-dev 2>/dev/null
        echo "Give this folder in CMAKE_PREFIX_PATH (scripts/gpu-check.sh --deps DIR)."
    } >"$dir/MANIFEST.txt"
    local kib
    kib=$(du -sk "$dir" | cut -f1)
    echo "gpu-check: prepared $dir: $(du -sh "$dir" | cut -f1) ($kib KiB; limit 30 MB)"
    ((kib * 1024 < 30000000)) || die "'$dir' is over 30 MB"
}

# ---- options -------------------------------------------------------------------------------
deps="" build_dir="" python=python3 quick=0 budget=525 bundle="" configure_only=0 outdir=""
parts=abcdef
cmake_args=()
while (($#)); do
    case $1 in
        --prepare)
            [[ $# -ge 2 ]] || die "--prepare needs DIR"
            prepare "$2"
            exit 0
            ;;
        --deps) [[ $# -ge 2 ]] || die "--deps needs DIR"; deps=$2; shift 2 ;;
        --build-dir) [[ $# -ge 2 ]] || die "--build-dir needs B"; build_dir=$2; shift 2 ;;
        --python) [[ $# -ge 2 ]] || die "--python needs PY"; python=$2; shift 2 ;;
        --budget) [[ $# -ge 2 && $2 =~ ^[0-9]+$ ]] || die "--budget needs seconds"; budget=$2; shift 2 ;;
        --bundle) [[ $# -ge 2 ]] || die "--bundle needs DIR"; bundle=$2; shift 2 ;;
        --cmake-arg) [[ $# -ge 2 ]] || die "--cmake-arg needs ARG"; cmake_args+=("$2"); shift 2 ;;
        --parts) [[ $# -ge 2 && $2 =~ ^[a-f]+$ ]] || die "--parts needs letters a-f"; parts=$2; shift 2 ;;
        --quick) quick=1; shift ;;
        --configure-only) configure_only=1; shift ;;
        -h|--help) usage 0 ;;
        -*) die "unknown option '$1' (--help)" ;;
        *) [[ -z $outdir ]] || die "one OUTDIR only"; outdir=$1; shift ;;
    esac
done
[[ -n $outdir || $configure_only == 1 ]] || usage 2
if [[ -n $bundle && -n $outdir ]] && [[ $(realpath -m "$bundle") == "$(realpath -m "$outdir")" ]]; then
    die "--bundle must be another folder than OUTDIR"
fi

cd "$repo_root" || die "cannot enter $repo_root"
build_dir=${build_dir:-build-gpu}
abspath() { [[ $1 == /* ]] && echo "$1" || echo "$repo_root/$1"; }
build_dir=$(abspath "$build_dir")
if [[ -n $deps ]]; then
    deps=$(abspath "$deps")
    [[ -f $deps/include/zstd.h ]] || die "--deps $deps: no include/zstd.h (make it with --prepare)"
fi
if [[ -n $outdir ]]; then
    outdir=$(abspath "$outdir")
    mkdir -p "$outdir/logs" || die "cannot create '$outdir'"
    logs=$outdir/logs
else
    logs=$(mktemp -d "${TMPDIR:-/tmp}/gpu-check-logs.XXXXXX")
fi
command -v "$python" >/dev/null 2>&1 || [[ -x $python ]] || die "no Python '$python' (--python PY)"

elapsed() { echo $(($(date +%s) - start_epoch)); }
step_time() { echo "gpu-check: $1: $2 s"; }

# ---- configure and build -------------------------------------------------------------------
build_ok=1
build_note=""
t0=$(date +%s)
torch_prefix=$("$python" -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>"$logs/torch-prefix.log" | tail -n 1)
if [[ -z $torch_prefix || ! -d $torch_prefix ]]; then
    echo "gpu-check: $python cannot import torch (see $logs/torch-prefix.log)" >&2
    build_ok=0
    build_note="no torch in $python"
fi

# CUDA's compiler, for LibTorch's CMake config: on the PATH or in /usr/local/cuda.
if ! command -v nvcc >/dev/null 2>&1 && [[ -x /usr/local/cuda/bin/nvcc ]]; then
    export PATH=/usr/local/cuda/bin:$PATH
fi
# NCCL's header (c10d's ProcessGroupNCCL.hpp includes it): the CUDA toolkit's, else the one
# pip's nvidia-nccl wheel puts beside torch.
if ((build_ok)); then
    cuda_inc=""
    command -v nvcc >/dev/null 2>&1 && cuda_inc=$(dirname "$(dirname "$(command -v nvcc)")")/include
    if [[ ! -f $cuda_inc/nccl.h && ! -f /usr/include/nccl.h ]]; then
        nccl_inc=$("$python" -c 'import os, torch; print(os.path.join(os.path.dirname(os.path.dirname(torch.__file__)), "nvidia", "nccl", "include"))' 2>/dev/null | tail -n 1)
        if [[ -f $nccl_inc/nccl.h ]]; then
            export CPATH=$nccl_inc${CPATH:+:$CPATH}
            echo "gpu-check: nccl.h from $nccl_inc"
        fi
    fi
fi

prefix_path=$torch_prefix${deps:+;$deps}
configured=0
if ((build_ok)); then
    if [[ -f $build_dir/CMakeCache.txt ]] &&
        grep -qs 'memscope-cli' "$build_dir/build.ninja" "$build_dir/Makefile" 2>/dev/null &&
        ((!configure_only)); then
        echo "gpu-check: $build_dir is configured already: building memscope-cli only (no reconfigure)"
        grep -s '^Torch_DIR:' "$build_dir/CMakeCache.txt" | sed 's/^/gpu-check:   its /'
        build_note="reused $build_dir"
    else
        echo "gpu-check: configuring $build_dir against $torch_prefix${deps:+ and $deps}"
        generator=()
        command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
        if cmake -S "$repo_root" -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
            -DMEMSCOPE_BUILD_GUI=OFF -DMEMSCOPE_BUILD_TESTS=OFF -DMEMSCOPE_BUILD_BENCHMARKS=OFF \
            "-DCMAKE_PREFIX_PATH=$prefix_path" "${cmake_args[@]}" >"$logs/configure.log" 2>&1; then
            configured=1
            build_note="configured"
        else
            echo "gpu-check: configure FAILED; the end of $logs/configure.log:" >&2
            tail -n 25 "$logs/configure.log" >&2
            build_ok=0
            build_note="configure FAILED (logs/configure.log)"
        fi
        step_time "configure" $(($(date +%s) - t0))
    fi
fi
if ((configure_only)); then
    ((build_ok)) || exit 1
    echo "gpu-check: configured $build_dir (log: $logs/configure.log); --configure-only: stopping"
    exit 0
fi
if ((build_ok)); then
    tb=$(date +%s)
    if cmake --build "$build_dir" --target memscope-cli --parallel "$(nproc)" >"$logs/build.log" 2>&1; then
        build_note="$build_note, memscope-cli built in $(($(date +%s) - tb)) s"
    else
        echo "gpu-check: build FAILED; the end of $logs/build.log:" >&2
        grep -m 20 -E 'error|Error' "$logs/build.log" >&2
        tail -n 15 "$logs/build.log" >&2
        build_ok=0
        build_note="$build_note, build FAILED (logs/build.log)"
    fi
    step_time "build" $(($(date +%s) - tb))
fi
cli=$build_dir/app/memscope-cli
[[ -x $cli ]] || { ((build_ok)) && { build_ok=0; build_note="$build_note, no $cli"; }; }
step_time "configure + build" $(($(date +%s) - t0))

# ---- measurements --------------------------------------------------------------------------
parts_args=(--out "$outdir" --python "$python" --build-ok "$build_ok" --build-note "$build_note"
            --deadline $((start_epoch + budget)) --parts "$parts")
((build_ok)) && parts_args+=(--cli "$cli")
((quick)) && parts_args+=(--quick)
"$python" "$script_dir/gpu_check_parts.py" "${parts_args[@]}"
status=$?
echo "gpu-check: whole run $(elapsed) s (budget $budget s), exit status $status"

if [[ -n $bundle ]]; then
    mkdir -p "$bundle" && cp "$outdir/gpu-check.md" "$bundle/" 2>/dev/null
    # Files over 15 MiB stay out of the archive (the device tool's limit is 16 MiB a file).
    big=$(cd "$outdir" && find . -type f -size +15728640c -print)
    [[ -n $big ]] && echo "gpu-check: left out of the bundle (over 15 MiB): $big"
    (cd "$outdir" && find . -type f -size -15728641c -print0 | tar --null -czf "$bundle/gpu-check.tar.gz" -T -) &&
        echo "gpu-check: bundle $bundle/gpu-check.tar.gz ($(du -h "$bundle/gpu-check.tar.gz" | cut -f1))"
    if [[ $(stat -c %s "$bundle/gpu-check.tar.gz" 2>/dev/null || echo 0) -gt $((16 * 1024 * 1024)) ]]; then
        echo "gpu-check: warning: the bundle is over 16 MiB; the device tool will not bring it back"
    fi
fi
exit $status
