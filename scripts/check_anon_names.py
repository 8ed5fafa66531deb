#!/usr/bin/env python3
"""Finds a name defined in the anonymous namespace of two files of one library (issue 30).

Memscope's libraries compile as unity batches (MEMSCOPE_UNITY_BUILD): several .cpp files are
one translation unit, so their anonymous namespaces are one. Two files that each define a
helper `maxOf` compile only while the batches keep them apart, and two same-named helpers of
different signatures silently become overloads. So a name defined at the top of an anonymous
namespace (a function, a struct, class, union or enum, a variable or constant, a type alias)
must be unique within its library.

Libraries, by folder: core/ (memscope_base and memscope_core, taken as one), models/, widgets/,
app/gui/, app/cli/. Tests are not scanned.

A ratchet: scripts/anon_names_allowed.txt lists today's duplicates, one a line,
`library name file file ...`. The script fails (exit 1) on a duplicate that is not listed, or a
listed name defined in a file the line does not name, naming the files and lines of every
definition. A listed duplicate that is gone (or in fewer files) is a note: shrink the list.
`--write-allowed` rewrites the list from today's tree (review the diff: it must not grow).

The scan is a brace-aware reading of the source with comments, string and character literals
(raw strings too) and preprocessor lines blanked; it reads only what stands directly in an
anonymous namespace, not inside functions or classes. Python 3 standard library only.
"""

import argparse
import os
import re
import sys
from collections import defaultdict

from source_tree import source_files

LIBRARIES = ["core", "models", "widgets", "app/gui", "app/cli"]
SOURCE_EXTENSIONS = (".cpp", ".cc", ".cxx")

IDENT = r"[A-Za-z_]\w*"
TYPE_HEAD_RE = re.compile(r"^(?:(?:typedef|inline|alignas\s*\([^)]*\))\s+)*"
                          r"(struct|class|union|enum(?:\s+(?:class|struct))?)\s+"
                          r"(?:alignas\s*\([^)]*\)\s*|\[\[[^\]]*\]\]\s*)*(" + IDENT + r")\b")
USING_ALIAS_RE = re.compile(r"^using\s+(" + IDENT + r")\s*(?:\[\[[^\]]*\]\]\s*)?=")
KEYWORDS = {"const", "constexpr", "static", "inline", "volatile", "unsigned", "signed", "long",
            "short", "int", "char", "bool", "float", "double", "void", "auto", "struct", "class",
            "return", "operator", "noexcept", "override", "final", "template", "typename",
            "thread_local", "mutable", "decltype", "sizeof", "alignof", "new", "delete"}


def blank(text):
    """The source with comments, literals and preprocessor lines replaced by spaces; newlines are
    kept, so offsets still give line numbers."""
    out = []
    i = 0
    n = len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if c == "\n":
            out.append(c)
            i += 1
            at_line_start = True
            continue
        if at_line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if at_line_start and c == "#":
            # A preprocessor line, with its continuations.
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        at_line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        m = re.match(r'(?:u8|u|U|L)?R"([^()\\\s]{0,16})\(', text[i:i + 24])
        if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            close = ")" + m.group(1) + '"'
            end = text.find(close, i + m.end())
            end = n if end < 0 else end + len(close)
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        if c in "\"'":
            # A character literal or a digit separator (1'000'000)?
            if c == "'" and i > 0 and text[i - 1].isalnum() and not re.match(
                    r"(?:u8|u|U|L)$", text[max(0, i - 2):i]):
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j + 1, n) - i))
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def strip_template_prefix(head):
    """`template <typename T, int N> T maxOf(` -> `T maxOf(`."""
    while True:
        m = re.match(r"^\s*template\s*<", head)
        if not m:
            return head
        depth = 0
        for k in range(m.end() - 1, len(head)):
            if head[k] == "<":
                depth += 1
            elif head[k] == ">":
                depth -= 1
                if depth == 0:
                    head = head[k + 1:]
                    break
        else:
            return head


def depth0_index(text, chars):
    """The first index of one of `chars` outside (), [], <> and {} in `text`, or -1."""
    depth = 0
    for k, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch in chars and depth == 0:
            return k
    return -1


def paren_before(text):
    """The first `(` outside template brackets in a declaration's head, or -1."""
    angle = 0
    for k, ch in enumerate(text):
        if ch == "<":
            angle += 1
        elif ch == ">":
            angle = max(0, angle - 1)
        elif ch == "(" and angle == 0:
            return k
    return -1


def last_identifier(text):
    names = [m for m in re.finditer(IDENT, text) if m.group(0) not in KEYWORDS]
    return names[-1] if names else None


def name_of(statement, ends_with_brace):
    """(kind, name, offset of the name in statement) of what a statement at the top of an
    anonymous namespace defines, or None (a declaration only, using namespace, static_assert)."""
    # Attributes name nothing: __attribute__((target("sse4.2"))), [[nodiscard]], alignas(16).
    statement = re.sub(r"__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)|\[\[[^\]]*\]\]",
                       lambda m: " " * len(m.group(0)), statement)
    head = strip_template_prefix(statement)
    shift = len(statement) - len(head)
    stripped = head.lstrip()
    shift += len(head) - len(stripped)
    head = stripped
    if not head or re.match(r"^(using\s+namespace|static_assert|namespace|extern\s+\")", head):
        return None
    m = USING_ALIAS_RE.match(head)
    if m:
        return ("alias", m.group(1), shift + m.start(1))
    if re.match(r"^using\s", head):
        return None  # a using-declaration names what is declared elsewhere; repeating it is fine
    m = TYPE_HEAD_RE.match(head)
    if m and (ends_with_brace or head[m.end():].strip() in ("", ";")):
        # struct X { ... } or enum class E { ... }; a forward declaration defines nothing.
        if not ends_with_brace:
            return None
        return ("type", m.group(2), shift + m.start(2))
    if m:
        # struct X x = ...; struct X* p; : a variable of a named type.
        head_for_var = head
    else:
        head_for_var = head
    eq = depth0_index(head_for_var, "=")
    paren = paren_before(head_for_var[:eq] if eq >= 0 else head_for_var)
    # operator= and friends: a function named operator...
    op = re.search(r"\boperator\s*(?:[^\w\s(]+|\(\)|" + IDENT + r")\s*\(", head_for_var)
    if op:
        if not ends_with_brace:
            return None
        return ("function", re.sub(r"\s+", "", op.group(0)[:-1]), shift + op.start())
    if paren >= 0 and (eq < 0 or paren < eq):
        before = head_for_var[:paren]
        ident = last_identifier(before)
        if ident is None or before[ident.end():].strip():
            return None
        if "::" in before[max(0, ident.start() - 2):ident.start()]:
            return None  # a member defined out of its class: not a name of this namespace
        if ends_with_brace:
            return ("function", ident.group(0), shift + ident.start())
        # `int f(int);` declares; `Foo foo(1, 2);` defines a variable: tell by the arguments.
        args = head_for_var[paren + 1:]
        first = re.match(r"^\s*(" + IDENT + r")", args)
        if re.search(r"^\s*\)", args) or (first and first.group(1) in KEYWORDS) or re.match(
                r"^\s*" + IDENT + r"(?:\s*::\s*" + IDENT + r")*(?:\s*<[^()]*>)?[\s*&]*\s" + IDENT,
                args) or re.match(r"^\s*" + IDENT + r"(?:\s*::\s*" + IDENT + r")*\s*[*&<]", args):
            return None
        return ("variable", ident.group(0), shift + ident.start())
    end = eq if eq >= 0 else len(head_for_var)
    before = head_for_var[:end].rstrip()
    before = re.sub(r"\[[^\]]*\]\s*$", "", before)  # int table[4] = ...
    ident = last_identifier(before)
    if ident is None or ident.start() == 0 and eq < 0 and not ends_with_brace:
        return None
    if re.match(r"^(?:return|goto|break|continue|case|default)\b", head):
        return None
    if ident.start() == 0:
        return None  # a lone word: nothing defined
    return ("constant" if re.search(r"\b(?:constexpr|const)\b", before) else "variable",
            ident.group(0), shift + ident.start())


def anon_definitions(text):
    """(kind, name, line) for every name defined directly in an anonymous namespace."""
    src = blank(text)
    line_starts = [0]
    for k, ch in enumerate(src):
        if ch == "\n":
            line_starts.append(k + 1)

    def line_of(offset):
        lo, hi = 0, len(line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    found = []
    stack = []          # "anon" or "ns": the namespaces the scan is in
    start = 0           # where the statement in progress began
    paren = 0
    i = 0
    n = len(src)

    def past_block(k):
        """The index after the brace that closes the one at k."""
        depth = 0
        while k < n:
            if src[k] == "{":
                depth += 1
            elif src[k] == "}":
                depth -= 1
                if depth == 0:
                    return k + 1
            k += 1
        return n

    def record(statement, offset, ends_with_brace):
        if stack and stack[-1] == "anon":
            what = name_of(statement, ends_with_brace)
            if what:
                found.append((what[0], what[1], line_of(offset + what[2])))

    while i < n:
        ch = src[i]
        if ch in "([":
            paren += 1
        elif ch in ")]":
            paren = max(0, paren - 1)
        elif ch == "{" and paren > 0:
            i = past_block(i)  # a lambda or a braced list in an argument
            continue
        elif ch == "{":
            statement = src[start:i]
            if re.search(r"(?:^|[;}\s])namespace\s*$", statement):
                stack.append("anon")
                start = i + 1
            elif re.search(r"(?:^|[;}\s])namespace\s+" + IDENT + r"(?:\s*::\s*" + IDENT +
                           r")*\s*$", statement) or re.search(r'extern\s*$', statement):
                stack.append("ns")
                start = i + 1
            else:
                # A function or class body, an enum, a braced initializer: read its head, skip it.
                record(statement, start, True)
                i = past_block(i)
                start = i
                continue
        elif ch == "}":
            if stack:
                stack.pop()
            start = i + 1
        elif ch == ";" and paren == 0:
            record(src[start:i], start, False)
            start = i + 1
        i += 1
    return found




def read_allowed(path):
    allowed = {}
    problems = []
    if not os.path.exists(path):
        return allowed, problems
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            parts = text.split()
            if len(parts) < 3:
                problems.append(f"{path}:{number}: cannot read '{text}' (want: library name file ...)")
                continue
            allowed[(parts[0], parts[1])] = (set(parts[2:]), number)
    return allowed, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        help="repository root (default: this script's)")
    parser.add_argument("--allowed", help="the ratchet file (default: ROOT/scripts/anon_names_allowed.txt)")
    parser.add_argument("--write-allowed", action="store_true",
                        help="rewrite the ratchet file from today's tree and exit")
    parser.add_argument("--list", action="store_true",
                        help="also print every anonymous-namespace name found, by file")
    parser.add_argument("--quiet", action="store_true", help="print only failures and notes")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    allowed_path = args.allowed or os.path.join(root, "scripts", "anon_names_allowed.txt")
    rel_allowed = os.path.relpath(allowed_path, root)

    sites = defaultdict(lambda: defaultdict(list))   # (library, name) -> file -> [(kind, line)]
    files_scanned = 0
    names_found = 0
    per_library = defaultdict(int)
    for library in LIBRARIES:
        if not os.path.isdir(os.path.join(root, library)):
            continue
        for path in source_files(root, library, SOURCE_EXTENSIONS):
            files_scanned += 1
            with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                definitions = anon_definitions(f.read())
            for kind, name, line in definitions:
                sites[(library, name)][path].append((kind, line))
                names_found += 1
                per_library[library] += 1
                if args.list:
                    print(f"{path}:{line}: {kind} {name}")

    duplicates = {key: files for key, files in sites.items() if len(files) > 1}

    if args.write_allowed:
        with open(allowed_path, "w", encoding="utf-8") as f:
            f.write("# Names defined in the anonymous namespace of two or more files of one library today\n")
            f.write("# (scripts/check_anon_names.py). A ratchet: delete a line, or a file from it, once the\n")
            f.write("# duplicate is gone; never add one. Format: library name file file ...\n")
            for (library, name), files in sorted(duplicates.items()):
                f.write(f"{library} {name} {' '.join(sorted(files))}\n")
        print(f"check_anon_names: wrote {len(duplicates)} duplicates to {rel_allowed}")
        return 0

    allowed, failures = read_allowed(allowed_path)
    notes = []

    def where(files):
        return "; ".join(f"{path}:{line} ({kind})" for path in sorted(files)
                         for kind, line in files[path])

    for (library, name), files in sorted(duplicates.items()):
        listed = allowed.get((library, name))
        if listed is None:
            failures.append(f"'{name}' is defined in the anonymous namespace of {len(files)} files of "
                            f"{library}/ (its files compile in unity batches): {where(files)}")
        elif not set(files) <= listed[0]:
            new = sorted(set(files) - listed[0])
            failures.append(f"'{name}' ({library}/, listed in {rel_allowed}:{listed[1]}) is now also "
                            f"defined in {', '.join(new)}: {where(files)}")
    for (library, name), (files, number) in sorted(allowed.items()):
        now = set(duplicates.get((library, name), {}))
        if not now:
            notes.append(f"note: {rel_allowed}:{number}: '{name}' ({library}/) is no longer a "
                         f"duplicate; delete the line")
        elif now < files:
            notes.append(f"note: {rel_allowed}:{number}: '{name}' ({library}/) is no longer in "
                         f"{', '.join(sorted(files - now))}; drop it from the line")

    if not args.quiet:
        by_library = defaultdict(int)
        for library, _ in duplicates:
            by_library[library] += 1
        print(f"check_anon_names: {files_scanned} files, {names_found} anonymous-namespace names; "
              f"{len(duplicates)} defined in two or more files of one library ("
              + ", ".join(f"{lib}/: {by_library[lib]}" for lib in LIBRARIES if lib in by_library)
              + f"); {len(allowed)} listed in {rel_allowed}")
        for (library, name), files in sorted(duplicates.items()):
            print(f"  {library}/ {name}: {where(files)}")
    for n in notes:
        print(n)
    if failures:
        for f in failures:
            print("error: " + f, file=sys.stderr)
        print(f"check_anon_names: {len(failures)} error(s). A name in a file's anonymous namespace "
              "must be unique within its library (unity batches): share the helper or rename it.",
              file=sys.stderr)
        return 1
    if not args.quiet:
        print("check_anon_names: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
