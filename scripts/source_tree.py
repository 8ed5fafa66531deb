"""What the check scripts (check_layers.py, check_anon_names.py, check_errors.py) share: the
repository root and the walk over a folder's source files. Python 3 standard library only."""

import os


def repo_root():
    """The repository root: the folder above scripts/."""
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def source_files(root, top, extensions):
    """The files under ROOT/TOP whose names end with one of `extensions`, as paths relative to
    ROOT with "/" separators, in a stable (sorted) order."""
    base = os.path.join(root, top)
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(extensions):
                yield os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")
