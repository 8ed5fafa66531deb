"""The recorder's command line, read with the options the extension describes
(run/recorder_option_table.h, exported as _memscope.OPTIONS): `python -m memscope record` (the
supervisor, _record.py) and the runner it starts (run.py) read it the same way.

    [OPTION VALUE ...] [--] (SCRIPT.py | -m MODULE) [ARGS...]
"""


def usage(ext, command):
    options = " ".join(f"[{o['flag']} {o['metavar']}]" for o in ext.OPTIONS)
    return f"usage: {command} {options} (SCRIPT.py | -m MODULE) [ARGS...]"


def help_text(ext):
    lines = []
    for o in ext.OPTIONS:
        default = f" (default {o['default']})" if o["default"] else ""
        lines.append(f"  {o['flag']} {o['metavar']}\n      {o['help']}{default}")
    return "\n".join(lines)


def parse(argv, ext):
    """Returns (options by key, script or None, module or None, the program's arguments).
    ValueError with the line for the user."""
    rows = {o["flag"]: o for o in ext.OPTIONS}
    opts = {o["key"]: (ext.parse_option(o["flag"], o["default"]) if o["default"] else None)
            for o in ext.OPTIONS}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            i += 1
            break
        if a == "-m":
            break
        if not a.startswith("-") or a == "-":
            break
        row = rows.get(a)
        if row is None:
            raise ValueError(f"unknown option {a}")
        if i + 1 >= len(argv):
            raise ValueError(f"{a} needs a value")
        opts[row["key"]] = ext.parse_option(a, argv[i + 1])
        i += 2
    if i < len(argv) and argv[i] == "-m":
        if i + 1 >= len(argv):
            raise ValueError("-m needs a module name")
        return opts, None, argv[i + 1], argv[i + 2:]
    if i >= len(argv):
        raise ValueError("no program to run")
    return opts, argv[i], None, argv[i + 1:]


def words(opts, ext):
    """The options as words for another command line (the supervisor's runner)."""
    out = []
    for o in ext.OPTIONS:
        value = opts.get(o["key"])
        if value is None:
            continue
        if value == ext.ALL_FRAMES:
            value = "all"
        out += [o["flag"], str(value)]
    return out


def refusal(opts, script, module, ext):
    """Why the recording cannot start (one line), or None: what the supervisor checks before it
    starts the runner, and the runner again (it can be started by hand)."""
    import os
    out = opts["out"]
    if script is not None and not os.path.isfile(script):
        return f"{script}: no such file" if not os.path.exists(script) else f"{script}: not a file"
    if module is not None:
        import importlib.util
        try:
            spec = importlib.util.find_spec(module)
            why = "not found"
        except Exception as e:  # noqa: BLE001 - a package whose __init__ raises
            spec, why = None, f"{type(e).__name__}: {e}"
        if spec is None:
            return f"no module named '{module}' ({why})"
    out_dir = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(out_dir):
        return f"--out {out}: the folder {out_dir} does not exist"
    if not os.access(out_dir, os.W_OK) or (os.path.exists(out) and not os.access(out, os.W_OK)):
        return f"--out: cannot write '{out}'"
    staging = ext.staging_dir(os.path.abspath(out))
    if os.path.exists(staging):
        return (f"--out {out}: {staging} exists, left by an earlier run whose processes were not "
                f"put together: remove it")
    journal = ext.journal_path(out)
    if os.path.exists(journal):
        return (f"--out {out}: {journal} exists, from an earlier run that was not recovered: "
                f"`memscope-cli recover {journal}` first, or remove it")
    return None
