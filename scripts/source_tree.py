"""What the check scripts (check_layers.py, check_anon_names.py, check_errors.py,
check_options.py) share: the repository root, the walk over a folder's source files and the
reading of C++ source with its comments and literals apart. Python 3 standard library only."""

import argparse
import os
import re


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


def read(root, path):
    """The text of ROOT/PATH (UTF-8; undecodable bytes replaced)."""
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        return f.read()


def check_arguments(doc):
    """A check's command line: --root (default: this repository) and --quiet. Returns the
    parsed arguments with `root` made absolute."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--root", default=repo_root(), help="repository root (default: this script's)")
    parser.add_argument("--quiet", action="store_true", help="print only failures")
    args = parser.parse_args()
    args.root = os.path.abspath(args.root)
    return args


# Comments, raw strings, string literals and character literals, in the order they can start.
TOKEN_RE = re.compile(r"""//[^\n]*"""
                      r"""|/\*.*?(?:\*/|\Z)"""
                      r"""|(?<![\w])(?:u8|u|U|L)?R"(?P<delim>[^()\\ \t\n]{0,16})\((?P<raw>.*?)\)(?P=delim)\""""
                      r"""|"(?P<str>(?:[^"\\\n]|\\.)*)"?"""
                      r"""|(?<![\w])'(?:[^'\\\n]|\\.)*'?""", re.S)


def blank(piece):
    return re.sub(r"[^\n]", " ", piece)


def scan(text):
    """Returns (code, literals): the source with comments blanked and the contents of string and
    character literals blanked (up to their opening quote kept), newlines kept so offsets give
    line numbers; and each string literal as (line, contents)."""
    out = []
    literals = []
    last = 0
    line = 1
    for m in TOKEN_RE.finditer(text):
        out.append(text[last:m.start()])
        line += text.count("\n", last, m.start())
        token = m.group(0)
        if token.startswith("/"):
            out.append(blank(token))
        else:
            body = m.group("raw") if m.group("raw") is not None else m.group("str")
            if body is not None:
                literals.append((line, body))
            quote = min(i for i in (token.find('"'), token.find("'")) if i >= 0) + 1
            out.append(token[:quote] + blank(token[quote:]))
        line += token.count("\n")
        last = m.end()
    out.append(text[last:])
    return "".join(out), literals
