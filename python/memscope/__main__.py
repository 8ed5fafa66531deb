"""python -m memscope record [OPTIONS] (SCRIPT.py | -m MODULE) [ARGS...]

Memscope's recorder, installed into a virtual environment with `pip install` (pyproject.toml).
`record` runs the program in a child interpreter and records every tensor allocation and free
into RUN.memscope, as `memscope-cli record --python` does; the GUI (memscope) and memscope-cli
open the run anywhere, without LibTorch.
"""

import sys

USAGE = ("usage: python -m memscope record [OPTIONS] (SCRIPT.py | -m MODULE) [ARGS...]\n"
         "       python -m memscope --help | --version")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        print(USAGE, file=sys.stderr)
        return 2
    if argv[0] in ("-h", "--help") or argv[:2] in (["record", "--help"], ["record", "-h"]):
        print(__doc__.strip())
        from . import _command, _guard
        try:
            _guard.check_torch(quiet=True)
            print("\nOPTIONS (record):\n" + _command.help_text(_guard.load_extension()))
        except _guard.Refused as e:
            print(f"\n(the options are listed by the recorder, which cannot load here: {e})")
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
