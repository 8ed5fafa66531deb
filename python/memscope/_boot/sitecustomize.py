"""Put first on PYTHONPATH by Memscope's runner for the processes a recorded program starts
(memscope/_child.py): a Python process that has MEMSCOPE_CHILD_DIR set records itself once it
imports torch. Any other sitecustomize on the path is run after this one, as if this one were
not there."""

import os
import sys


def _chain():
    here = os.path.dirname(os.path.abspath(__file__))
    import importlib.machinery
    import importlib.util
    path = [p for p in sys.path if os.path.abspath(p or ".") != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
    if spec is not None and spec.loader is not None:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)


if os.environ.get("MEMSCOPE_CHILD_DIR"):
    try:
        from memscope import _child
        _child.arm()
    except Exception as e:  # noqa: BLE001 - the program runs, unrecorded, and says so
        print(f"memscope: process {os.getpid()} is not recorded ({type(e).__name__}: {e})",
              file=sys.stderr)
_chain()
