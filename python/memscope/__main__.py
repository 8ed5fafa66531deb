"""python -m memscope record [--out RUN.memscope] [--python-frames N] [--poll-ms N]
                         (SCRIPT.py | -m MODULE) [ARGS...]

Memscope's recorder, installed into a virtual environment with `pip install` (pyproject.toml).
`record` runs the program in a child interpreter and records every tensor allocation and free
into RUN.memscope, as `memscope-cli record --python` does; the GUI (memscope) and memscope-cli
open the run anywhere, without LibTorch.
"""

import sys

USAGE = ("usage: python -m memscope record [--out RUN.memscope] [--python-frames N] "
         "[--poll-ms N] (SCRIPT.py | -m MODULE) [ARGS...]\n"
         "       python -m memscope --version")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        print(USAGE, file=sys.stderr)
        return 2
    if argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if argv[0] == "--version":
        from . import _build_info
        print(f"memscope {_build_info.MEMSCOPE_VERSION} (recorder for torch "
              f"{_build_info.TORCH_VERSION}, {_build_info.PYTHON_EXECUTABLE})")
        return 0
    if argv[0] == "record":
        from . import _record
        return _record.main(argv[1:])
    print(f"memscope: unknown command '{argv[0]}'\n{USAGE}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
