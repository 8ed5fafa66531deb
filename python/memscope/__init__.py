"""Memscope inside a Python program recorded with `memscope-cli record --python`.

    import memscope
    with memscope.region("data loading"):
        batch = next(loader)

region() marks a named interval on the run's timeline (an annotation); outside a recording it
does nothing, so a script keeps working when run plainly (`import memscope` then needs this
folder on PYTHONPATH; `try: import memscope` keeps it optional).
"""

import contextlib

_recording = None  # the extension while memscope.run records this process


def recording():
    """True while this process is being recorded."""
    return _recording is not None


@contextlib.contextmanager
def region(name):
    """A named region of the run: `with memscope.region("evaluation"): ...`."""
    ext = _recording
    if ext is None:
        yield
        return
    begin = ext.now_ns()
    try:
        yield
    finally:
        if _recording is ext:
            ext.add_region(str(name), begin, ext.now_ns())
