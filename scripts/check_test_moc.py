#!/usr/bin/env python3
"""The suites' moc runs without include directories (memscope_suite_moc, tests/CMakeLists.txt):
Q_OBJECT and slots are moc's own words, so a suite's class needs no header, and moc takes 0.01 s
instead of the 5-8 s it spends reading LibTorch's and Qt's headers. What would make its output
differ from the compiler's view is a preprocessor conditional at class level: a slot inside
`#if SOME_HEADER_MACRO` exists for the compiler and not for moc (or the other way), and the test
silently does not run. This check refuses such conditionals in every suite that includes its own
.moc; a condition belongs inside the slot, with QSKIP.

usage: scripts/check_test_moc.py [--quiet] [FILE...]   (default: tests/*/*.cpp)
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CONDITIONAL = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else)\b")


def strip_code(line, in_comment):
    """The line without comments, string and character literals; whether a block comment
    continues past it."""
    out = []
    i = 0
    while i < len(line):
        if in_comment:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out), True
            i, in_comment = end + 2, False
            continue
        c = line[i]
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            in_comment = True
            i += 2
            continue
        if c in "\"'":
            j = i + 1
            while j < len(line) and line[j] != c:
                j += 2 if line[j] == "\\" else 1
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out), in_comment


def problems(path):
    text = path.read_text(encoding="utf-8", errors="replace")
    if not re.search(r'^#include "%s\.moc"' % re.escape(path.stem), text, re.M):
        return []
    found = []
    depth = 0
    class_depths = []  # brace depth inside each open class body
    pending_class = False
    in_comment = False
    for number, raw in enumerate(text.splitlines(), 1):
        if not in_comment and CONDITIONAL.match(raw):
            if class_depths and depth == class_depths[-1]:
                found.append(f"{path.relative_to(ROOT)}:{number}: '{raw.strip()}' at class level: "
                             "moc sees no header's macros here (put the condition inside the "
                             "slot and QSKIP)")
            continue
        code, in_comment = strip_code(raw, in_comment)
        if code.lstrip().startswith("#"):
            continue
        for token in re.finditer(r"\bclass\b|\{|\}|;", code):
            t = token.group(0)
            if t == "class":
                pending_class = True
            elif t == "{":
                depth += 1
                if pending_class:
                    class_depths.append(depth)
                    pending_class = False
            elif t == "}":
                if class_depths and class_depths[-1] == depth:
                    class_depths.pop()
                depth -= 1
            elif t == ";":
                pending_class = False  # a declaration: class X;
    return found


def main(argv):
    quiet = "--quiet" in argv
    files = [pathlib.Path(a).resolve() for a in argv if a != "--quiet"]
    if not files:
        files = sorted(ROOT.glob("tests/*/*.cpp"))
    found = [p for f in files for p in problems(f)]
    for p in found:
        print(p, file=sys.stderr)
    if not quiet or found:
        print(f"check_test_moc: {len(files)} files, {len(found)} conditionals at class level")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
