"""Checks, before the extension is imported, that it can run in this interpreter.

The extension links one LibTorch; the interpreter's `import torch` must have loaded that same
one (same version, same library file). Each failure is one line, naming both sides and how to
build a matching recorder."""

import os
import re
import sys

from . import _build_info


class Refused(Exception):
    """Why the recorder cannot run here (one line)."""


def _rebuild_hint():
    if getattr(_build_info, "INSTALL", "cmake") == "pip":
        return (f"install the recorder again for this torch: {sys.executable} -m pip install "
                f"--no-build-isolation --force-reinstall {_build_info.SOURCE_DIR}")
    return (f"build Memscope against it: cmake -S {_build_info.SOURCE_DIR} -B build-py "
            f"-DCMAKE_PREFIX_PATH=$({sys.executable} -c 'import torch; "
            f"print(torch.utils.cmake_prefix_path)') -DMEMSCOPE_PYTHON_EXECUTABLE={sys.executable}"
            f" (or run with --python-exe {_build_info.PYTHON_EXECUTABLE})")


def check_torch(quiet=False):
    """Imports torch and returns it, or raises Refused. quiet: the warnings torch gives while it
    loads (a missing NumPy) are not shown; the supervisor's own import is not the program's, and
    a refusal stays one line. The runner imports torch for the program, so it shows them."""
    try:
        if quiet:
            import warnings
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                import torch
        else:
            import torch
    except Exception as e:  # ImportError, or a torch that fails while loading
        raise Refused(f"{sys.executable} cannot import torch ({type(e).__name__}: {e}); "
                      f"Memscope's recorder was built for {_build_info.PYTHON_EXECUTABLE} "
                      f"(torch {_build_info.TORCH_VERSION})") from None
    have = torch.__version__
    release = re.match(r"\d+\.\d+\.\d+", have)
    if release is None or release.group(0) != _build_info.TORCH_VERSION:
        raise Refused(f"this interpreter's torch is {have} ({os.path.dirname(torch.__file__)}), "
                      f"Memscope's recorder was built against torch "
                      f"{_build_info.TORCH_VERSION}; {_rebuild_hint()}")
    c10 = os.path.join(os.path.dirname(torch.__file__), "lib", "libc10.so")
    if _build_info.C10_FILE and os.path.exists(c10) and \
            os.path.realpath(c10) != os.path.realpath(_build_info.C10_FILE):
        raise Refused(f"this interpreter's torch {have} loads {os.path.realpath(c10)}, "
                      f"Memscope's recorder was built against {_build_info.C10_FILE} "
                      f"(another build of LibTorch {_build_info.TORCH_VERSION}); {_rebuild_hint()}")
    return torch


def load_extension():
    """Imports the extension (after check_torch) or raises Refused."""
    try:
        from . import _memscope
    except ImportError as e:
        raise Refused(f"cannot load Memscope's recorder in Python "
                      f"{sys.version_info.major}.{sys.version_info.minor} ({sys.executable}): "
                      f"{e}; it was built for {_build_info.PYTHON_EXECUTABLE}") from None
    return _memscope
