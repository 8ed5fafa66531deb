#!/usr/bin/env python3
"""Holds the include order of Memscope's layers (issue 30: "core is a tower").

Reads every #include "..." of core/, models/, widgets/ and app/ and checks:

1. Inside core/: the folder-to-folder include graph (core/torch_compat.h counts as the root
   folder "") against the declared bottom-up order below. An include may point down the order
   (or stay in its folder). An edge that points up is allowed only while it is listed in
   scripts/layers_allowed.txt (a ratchet: the list may only shrink). Prints the graph, its
   strongly connected components (the cycles) and a bottom-up order the graph allows today.
2. Between the top folders: core/ includes nothing of models/, widgets/ or app/, and no Qt
   header; models/ includes only core/ (and itself); widgets/ only core/ and models/ (and
   itself); app/ may include anything.
3. widgets/ opens and saves runs through models/ (RunSession): of core/io/ it includes only the
   exports' headers and the rank controller's journal reader and run-directory names
   (WIDGETS_IO_ALLOWED).
4. widgets/ is rooms (issue 42): every file lives in one of WIDGETS_ORDER, and an include points
   down that order or stays in its room; widgets/runs/ is non-visual (RUNS_QT_ALLOWED).
5. No folder of core/, widgets/ (a room) or app/ holds more than ROOM_LINE_LIMIT lines, except
   the rooms OVERSIZED_ROOMS holds at their size until they are split.

Exit status 0 when everything holds, 1 on a new upward include (each one named with its file,
line and include), 2 on a usage error. A listed edge that no longer exists is a note, not a
failure: delete its line. `--write-allowed` rewrites the list from today's tree (to shrink it
after a fix; review the diff, it must not grow).

Python 3 standard library only. Run from anywhere: paths are relative to the repository root.
"""

import argparse
import os
import re
import sys
from collections import defaultdict

from source_tree import repo_root, source_files

# The intended bottom-up order of core's folders (docs/DESIGN.md, "Rules": the layers of core/).
# "" is core/ itself (torch_compat.h): the ground floor, below model/. A folder in this list that
# does not exist yet (run/) is skipped; a folder that exists and is not in it is reported.
DECLARED_ORDER = ["", "model", "run", "trace", "explain", "layout", "predict", "io", "pickle",
                  "interchange", "source", "device", "train", "capture", "analysis", "studies",
                  "torchpart", "report"]

# The rooms of widgets/ (issue 42), bottom up: a room includes only rooms at or below it.
#   common      small shared widgets and helpers (byte formats, search bar, stack pane, option fields)
#   runs        the non-visual run controllers (one run, a rank group, the LibTorch part's loader)
#   itemmodels  Qt item models over a run's tables and trees
#   painters    the timeline's painters
#   timeline    the timeline view and page, its minimap, colours, tooltips and rank lanes
#   pages       the analysis pages of one run
#   studies     the pages across runs and plans: compare, sweeps, planner, a program's fit
#   shell       the main window, its docks, dialogs and menus
WIDGETS_ORDER = ["common", "runs", "itemmodels", "painters", "timeline", "pages", "studies", "shell"]

# runs/ is non-visual: of Qt it includes only these Qt Core and Qt Concurrent headers.
RUNS_QT_ALLOWED = {"QCoreApplication", "QDateTime", "QDir", "QElapsedTimer", "QFile", "QFileInfo",
                   "QFuture", "QLocale", "QMetaObject", "QObject", "QPointer", "QProcess",
                   "QProcessEnvironment", "QString", "QStringList", "QThreadPool", "QTimer",
                   "QVector", "QtConcurrent/QtConcurrentRun"}

# No room (a folder of widgets/, and the folders that core/io was split into) holds more than this
# many lines (headers and sources, as wc -l counts them).
ROOM_LINE_LIMIT = 5000
# Every folder of core/, widgets/ and app/ is held to ROOM_LINE_LIMIT (issue 54). A room that
# outgrows it is split; while it is not, OVERSIZED_ROOMS may hold it at its size (a ratchet: the
# figure may only fall). Empty since core/trace and core/analysis were split.
OVERSIZED_ROOMS = {}

# Which top folders a top folder may include (beside itself). app/ may include anything.
TOP_ALLOWED = {
    "core": {"core"},
    "models": {"core", "models"},
    "widgets": {"core", "models", "widgets"},
    "app": {"core", "models", "widgets", "app"},
}

# The core/io/ headers widgets/ may include (rule 3): the exports' (atomic_file) and
# the rank controller's journal reader and run-directory names.
WIDGETS_IO_ALLOWED = {"core/io/atomic_file.h", "core/io/journal_reader.h",
                      "core/io/run_directory.h"}

# The directories the build puts on the include path, searched in this order after the
# including file's own folder (core: memscope_base, models: memscope_models, widgets:
# memscope_widgets, app/cli: memscope_cli_base).
INCLUDE_ROOTS = ["core", "models", "widgets", "app/cli"]

SOURCE_EXTENSIONS = (".h", ".hpp", ".cpp", ".cc", ".cxx")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
QT_INCLUDE_RE = re.compile(r"^\s*#\s*include\s*<(Q[A-Za-z][^>]*)>")
ALLOWED_LINE_RE = re.compile(r"^\s*(\S*)\s*->\s*(\S*)\s*(?:#.*)?$")





def strip_block_comments(lines):
    """The lines with /* ... */ comments blanked, so a commented-out include does not count."""
    out = []
    in_comment = False
    for line in lines:
        result = ""
        i = 0
        while i < len(line):
            if in_comment:
                end = line.find("*/", i)
                if end < 0:
                    i = len(line)
                else:
                    in_comment = False
                    i = end + 2
            else:
                start = line.find("/*", i)
                line_comment = line.find("//", i)
                if start < 0 or (0 <= line_comment < start):
                    result += line[i:]
                    i = len(line)
                else:
                    result += line[i:start]
                    in_comment = True
                    i = start + 2
        out.append(result)
    return out


def read_includes(root, path):
    """(line number, quoted include, Qt angle include or None) for each include of a file."""
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        lines = strip_block_comments(f.read().splitlines())
    found = []
    for number, line in enumerate(lines, 1):
        m = INCLUDE_RE.match(line)
        if m:
            found.append((number, m.group(1), None))
            continue
        m = QT_INCLUDE_RE.match(line)
        if m:
            found.append((number, None, m.group(1)))
    return found


def resolve(root, including, target):
    """The repository path an include names, or None (a generated header, a system header)."""
    candidates = [os.path.join(os.path.dirname(including), target)]
    candidates += [os.path.join(r, target) for r in INCLUDE_ROOTS]
    for c in candidates:
        c = os.path.normpath(c)
        if os.path.isfile(os.path.join(root, c)):
            return c
    return None


def top_of(path):
    return path.split(os.sep)[0]


def core_folder(path):
    """core/trace/trace.h -> "trace"; core/torch_compat.h -> "" (the root folder)."""
    parts = path.split(os.sep)
    return parts[1] if len(parts) > 2 else ""


def widgets_room(path):
    """widgets/timeline/timeline_view.h -> "timeline"; widgets/x.h -> "" (no room)."""
    parts = path.split(os.sep)
    return parts[1] if len(parts) > 2 else ""


def count_lines(root, path):
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        return sum(1 for _ in f)


def label(folder):
    return folder if folder else '""'


def unlabel(text):
    return "" if text in ('""', "(root)") else text


def tarjan(nodes, edges):
    """Strongly connected components of the graph, each a sorted list."""
    index = {}
    low = {}
    stack = []
    on_stack = set()
    components = []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            components.append(sorted(component))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return components


def bottom_up_order(nodes, edges, rank):
    """A bottom-up order of the components (what a folder includes comes before it), ties broken
    by the declared order. Members of one component are kept together, in declared order."""
    components = tarjan(nodes, edges)
    of = {}
    for i, c in enumerate(components):
        for v in c:
            of[v] = i
    needs = defaultdict(set)  # component -> components it includes
    for a, targets in edges.items():
        for b in targets:
            if of[a] != of[b]:
                needs[of[a]].add(of[b])
    done = set()
    order = []
    remaining = set(range(len(components)))
    key = lambda i: min(rank.get(v, len(rank)) for v in components[i])
    while remaining:
        ready = sorted((i for i in remaining if needs[i] <= done), key=key)
        i = ready[0]
        remaining.discard(i)
        done.add(i)
        order.append(sorted(components[i], key=lambda v: rank.get(v, len(rank))))
    return components, order


def read_allowed(path):
    allowed = {}
    problems = []
    if not os.path.exists(path):
        return allowed, problems
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            m = ALLOWED_LINE_RE.match(text)
            if not m:
                problems.append(f"{path}:{number}: cannot read '{text}' (want: from -> to  # n files)")
                continue
            allowed[(unlabel(m.group(1)), unlabel(m.group(2)))] = number
    return allowed, problems


def write_allowed(path, upward, edge_files):
    with open(path, "w", encoding="utf-8") as f:
        f.write("# Folder edges of core/ that point up the declared order today (scripts/check_layers.py).\n")
        f.write("# A ratchet: a line may be deleted once its edge is gone, never added. \"\" is core/ itself.\n")
        f.write("# Every include cycle of core's folders has at least one edge here.\n")
        for a, b in upward:
            n = len(edge_files[(a, b)])
            f.write(f"{label(a)} -> {label(b)}  # {n} file{'s' if n != 1 else ''}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=repo_root(), help="repository root (default: this script's)")
    parser.add_argument("--allowed", help="the ratchet file (default: ROOT/scripts/layers_allowed.txt)")
    parser.add_argument("--write-allowed", action="store_true",
                        help="rewrite the ratchet file from today's tree and exit")
    parser.add_argument("--quiet", action="store_true", help="print only failures and notes")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    allowed_path = args.allowed or os.path.join(root, "scripts", "layers_allowed.txt")
    if not os.path.isdir(os.path.join(root, "core")):
        print(f"check_layers: no core/ under {root}", file=sys.stderr)
        return 2

    failures = []
    notes = []
    edge_files = defaultdict(set)          # (from, to) -> files
    edge_sites = defaultdict(list)         # (from, to) -> [(file, line, include)]
    present = set()
    room_lines = defaultdict(int)          # limited room -> lines

    for top in ("core", "models", "widgets", "app"):
        if not os.path.isdir(os.path.join(root, top)):
            continue
        for path in source_files(root, top, SOURCE_EXTENSIONS):
            if top == "core":
                present.add(core_folder(path))
            room = widgets_room(path) if top == "widgets" else None
            if top == "widgets" and room not in WIDGETS_ORDER:
                failures.append(f"{path}: widgets/ files live in a room ({', '.join(WIDGETS_ORDER)}); "
                                f"add a new room to WIDGETS_ORDER in scripts/check_layers.py")
            if top in ("core", "widgets", "app"):
                folder = os.path.dirname(path)
                key = ("widgets/" + room) if top == "widgets" else folder
                room_lines[key] += count_lines(root, path)
            for number, quoted, qt in read_includes(root, path):
                if qt is not None:
                    if top == "core":
                        failures.append(f"{path}:{number}: #include <{qt}>: core/ includes no Qt header")
                    elif room == "runs" and qt not in RUNS_QT_ALLOWED:
                        failures.append(f"{path}:{number}: #include <{qt}>: widgets/runs/ is "
                                        f"non-visual; it includes only Qt Core and Qt Concurrent "
                                        f"headers (RUNS_QT_ALLOWED in scripts/check_layers.py)")
                    continue
                target = resolve(root, path, quoted)
                if target is None:
                    continue  # generated (memscope_version.h) or outside the tree
                target_top = top_of(target)
                if target_top not in TOP_ALLOWED[top]:
                    failures.append(f"{path}:{number}: #include \"{quoted}\" ({target}): "
                                    f"{top}/ may include only {', '.join(sorted(TOP_ALLOWED[top]))}")
                    continue
                if top == "widgets" and target.startswith("core/io/") and \
                        target not in WIDGETS_IO_ALLOWED:
                    failures.append(f"{path}:{number}: #include \"{quoted}\": widgets/ open and "
                                    f"save runs through models/ (RunSession); of core/io/ they "
                                    f"include only {', '.join(sorted(WIDGETS_IO_ALLOWED))}")
                    continue
                if room in WIDGETS_ORDER and target_top == "widgets":
                    target_room = widgets_room(target)
                    if target_room in WIDGETS_ORDER and \
                            WIDGETS_ORDER.index(target_room) > WIDGETS_ORDER.index(room):
                        failures.append(f"{path}:{number}: #include \"{quoted}\": widgets/{room} -> "
                                        f"widgets/{target_room} points up the rooms' order "
                                        f"({' < '.join(WIDGETS_ORDER)})")
                if top == "core" and target_top == "core":
                    a, b = core_folder(path), core_folder(target)
                    if a != b:
                        edge_files[(a, b)].add(path)
                        edge_sites[(a, b)].append((path, number, quoted))

    for key, lines in sorted(room_lines.items()):
        limit = OVERSIZED_ROOMS.get(key, ROOM_LINE_LIMIT)
        if lines > limit:
            failures.append(f"{key}/ holds {lines} lines (more than {limit}): split the room")

    order = [f for f in DECLARED_ORDER if f in present]
    rank = {f: i for i, f in enumerate(order)}
    unranked = sorted(present - set(rank))
    for f in unranked:
        failures.append(f"core/{f}/ is not in the declared order: add it to DECLARED_ORDER in "
                        f"scripts/check_layers.py")

    edges = defaultdict(set)
    for a, b in edge_files:
        edges[a].add(b)
    upward = sorted(e for e in edge_files
                    if e[0] not in rank or e[1] not in rank or rank[e[1]] >= rank[e[0]])

    if args.write_allowed:
        write_allowed(allowed_path, upward, edge_files)
        print(f"check_layers: wrote {len(upward)} upward edges to {os.path.relpath(allowed_path, root)}")
        return 0

    allowed, problems = read_allowed(allowed_path)
    failures += problems
    for e in upward:
        if e not in allowed:
            for path, number, quoted in edge_sites[e]:
                failures.append(f"{path}:{number}: #include \"{quoted}\": core/{label(e[0])} -> "
                                f"core/{label(e[1])} points up the layer order and is not "
                                f"in {os.path.relpath(allowed_path, root)}")
    for e, number in sorted(allowed.items()):
        if e not in edge_files:
            notes.append(f"note: {os.path.relpath(allowed_path, root)}:{number}: {label(e[0])} -> "
                         f"{label(e[1])} no longer exists; delete the line")
        elif e not in upward:
            notes.append(f"note: {os.path.relpath(allowed_path, root)}:{number}: {label(e[0])} -> "
                         f"{label(e[1])} points down the order now; the line is not needed")

    if not args.quiet:
        print("Declared order, bottom up: " + " < ".join(label(f) for f in order) +
              ("  (absent: " + ", ".join(f for f in DECLARED_ORDER if f not in present) + ")"
               if any(f not in present for f in DECLARED_ORDER) else ""))
        print("core/ folder include graph (from -> to: files; ^ = points up the declared order):")
        for a in sorted(edges, key=lambda f: rank.get(f, len(rank))):
            parts = []
            for b in sorted(edges[a], key=lambda f: rank.get(f, len(rank))):
                mark = "^" if (a, b) in upward else ""
                parts.append(f"{label(b)}{mark}:{len(edge_files[(a, b)])}")
            print(f"  {label(a):9} -> {', '.join(parts)}")
        components, proposed = bottom_up_order(present, edges, rank)
        cycles = [c for c in components if len(c) > 1]
        print(f"Strongly connected components with a cycle: {len(cycles)}")
        for c in cycles:
            print("  {" + ", ".join(label(f) for f in sorted(c, key=lambda f: rank.get(f, 0))) + "}")
        print("Bottom-up order the graph allows today (a cycle in brackets): " +
              " < ".join(label(c[0]) if len(c) == 1 else "[" + " ".join(label(f) for f in c) + "]"
                         for c in proposed))
        print(f"Upward edges: {len(upward)} (allowed: {len(allowed)})")

    for n in notes:
        print(n)
    if failures:
        for f in failures:
            print("error: " + f, file=sys.stderr)
        print(f"check_layers: {len(failures)} error(s). The layer order of core/, bottom up: "
              + " < ".join(label(f) for f in order) + "; an include may only point down it "
              "(scripts/check_layers.py, docs/DESIGN.md \"Checks\").", file=sys.stderr)
        return 1
    if not args.quiet:
        print("check_layers: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
