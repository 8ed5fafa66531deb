"""The build backend of `pip install --no-build-isolation .` (pyproject.toml).

Before scikit-build-core configures anything, it checks what the recorder's build needs and
stops at the first thing missing with one line that names it, so nothing is half built or half
installed:
  - the environment's torch: importable (so the build runs without isolation, in the venv that
    has it) and 2.x (Debian's 1.13 is built with CMake, README);
  - Python's headers (Python.h);
  - scikit-build-core, CMake and ninja in the environment (PyPI's);
  - a C++ compiler that can compile against nlohmann/json and zstd (Debian: g++,
    nlohmann-json3-dev, libzstd-dev);
  - for a CUDA build of torch, the CUDA toolkit its CMake files look for (nvcc).
Then it hands every hook to scikit_build_core.build.
"""

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile


class _Missing(Exception):
    pass


def _fail(message):
    # pip prints the backend's output under its own error; this line is what to read there.
    print(f"memscope: cannot build the recorder: {message}", file=sys.stderr, flush=True)
    raise SystemExit(1)


def _check_torch():
    try:
        import torch
    except Exception as e:
        raise _Missing(
            f"{sys.executable} cannot import torch ({type(e).__name__}: {e}); install the "
            f"recorder into the environment that has torch, without build isolation: "
            f"{sys.executable} -m pip install --no-build-isolation .") from None
    version = torch.__version__.split("+")[0]
    try:
        major = int(version.split(".")[0])
    except ValueError:
        major = 0
    if major < 2:
        raise _Missing(
            f"torch {torch.__version__} is too old: pip install builds the recorder for torch "
            f"2.x; for torch 1.13 (Debian's) build Memscope with CMake (README, \"Recording a "
            f"Python program with memscope-cli\")")
    return torch


def _check_python_headers():
    include = sysconfig.get_paths().get("include", "")
    if not os.path.isfile(os.path.join(include, "Python.h")):
        raise _Missing(
            f"no Python.h in {include} (Python {sys.version_info.major}."
            f"{sys.version_info.minor}'s development headers; Debian: "
            f"python{sys.version_info.major}.{sys.version_info.minor}-dev)")


def _check_build_tools():
    try:
        import scikit_build_core  # noqa: F401
    except ImportError:
        raise _Missing(
            f"scikit-build-core is not installed in this environment; {sys.executable} -m pip "
            f"install scikit-build-core cmake ninja, then install again") from None
    scripts = sysconfig.get_paths().get("scripts", "")
    for tool in ("cmake", "ninja"):
        if shutil.which(tool) is None and shutil.which(tool, path=scripts) is None:
            raise _Missing(
                f"no {tool} on PATH or in {scripts}; {sys.executable} -m pip install "
                f"scikit-build-core cmake ninja, then install again")


def _compiler():
    for candidate in (os.environ.get("CXX", ""), "c++", "g++", "clang++"):
        if candidate and shutil.which(candidate.split()[0]):
            return candidate.split()
    raise _Missing("no C++ compiler (set CXX, or install one; Debian: g++)")


def _check_headers(cxx):
    # One header at a time, so the line names the one that is missing.
    needed = [("nlohmann/json.hpp", "nlohmann-json3-dev"), ("zstd.h", "libzstd-dev")]
    missing = []
    with tempfile.TemporaryDirectory() as tmp:
        for header, package in needed:
            source = os.path.join(tmp, "probe.cpp")
            with open(source, "w") as f:
                f.write(f"#include <{header}>\nint main() {{ return 0; }}\n")
            probe = subprocess.run(cxx + ["-std=c++17", "-fsyntax-only", source],
                                   capture_output=True, text=True)
            if probe.returncode != 0:
                missing.append(f"{header} (Debian: {package})")
    if missing:
        raise _Missing(f"the C++ compiler ({' '.join(cxx)}) finds no " + ", no ".join(missing))


def _check_cuda(torch):
    if getattr(torch.version, "cuda", None) is None:
        return
    if shutil.which("nvcc") or os.path.exists("/usr/local/cuda/bin/nvcc") or \
            os.environ.get("CUDACXX") or os.environ.get("CUDAToolkit_ROOT"):
        return
    raise _Missing(
        f"torch {torch.__version__} is a CUDA {torch.version.cuda} build, and its CMake files "
        f"need the CUDA toolkit (nvcc) at configure time: put its bin/ on PATH, or set "
        f"CUDAToolkit_ROOT (no GPU is needed to build)")


def _preflight():
    try:
        torch = _check_torch()
        _check_python_headers()
        _check_build_tools()
        _check_headers(_compiler())
        _check_cuda(torch)
    except _Missing as e:
        _fail(str(e))
    # torch's CMake config finds nvcc through PATH or CUDACXX: the usual place, when it is there.
    if shutil.which("nvcc") is None and os.path.exists("/usr/local/cuda/bin/nvcc"):
        os.environ["PATH"] = "/usr/local/cuda/bin" + os.pathsep + os.environ.get("PATH", "")


def _backend():
    try:
        from scikit_build_core import build
    except ImportError:
        _fail(f"scikit-build-core is not installed in this environment; {sys.executable} -m pip "
              f"install scikit-build-core cmake ninja, then install again")
    return build


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    _preflight()
    return _backend().build_wheel(wheel_directory, config_settings, metadata_directory)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    _preflight()
    return _backend().build_editable(wheel_directory, config_settings, metadata_directory)


def build_sdist(sdist_directory, config_settings=None):
    return _backend().build_sdist(sdist_directory, config_settings)


def get_requires_for_build_wheel(config_settings=None):
    return _backend().get_requires_for_build_wheel(config_settings)


def get_requires_for_build_editable(config_settings=None):
    return _backend().get_requires_for_build_editable(config_settings)


def get_requires_for_build_sdist(config_settings=None):
    return _backend().get_requires_for_build_sdist(config_settings)


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    return _backend().prepare_metadata_for_build_wheel(metadata_directory, config_settings)


def prepare_metadata_for_build_editable(metadata_directory, config_settings=None):
    return _backend().prepare_metadata_for_build_editable(metadata_directory, config_settings)
