#!/usr/bin/env python3
"""Holds "each training option described once" (issue 42) on the C++ source.

The training options are the rows of core/model/train_option_table.cpp (TrainOptionTable). The
rows give every other place an option's flag, label, form field and checks, so:

1. A flag is spelled in one product file: each row's flag, aliases and negation ("--hidden-dim",
   "--d-model", "--no-tie-embeddings") appear as a word of a string literal only in the table's
   file. Other product files take them from the table (TrainOptionTable::flag, argument). Fails
   on a literal holding one anywhere else in core/, models/, widgets/ or app/, but for another
   command's option that is spelled the same (OTHER_OPTIONS, each with its reason).
2. No page or command names an option's fields by hand: a file of widgets/ or app/cli/ holds at
   most four different row keys as whole string literals ("batch_size", "dtype", ...). Fails on
   a file that holds five or more.

Comments do not count (the source is read with them blanked); tests and docs are not scanned.
Exit status 0 when both hold, 1 on an offence (each named with its file), 2 on a usage error.
Python 3 standard library only. Run from anywhere: paths are relative to the repository root.
"""

import os
import re
import sys

from source_tree import check_arguments, read, scan, source_files

SOURCE_EXTENSIONS = (".h", ".hpp", ".cpp", ".cc", ".cxx")
TABLE = "core/model/train_option_table.cpp"
PRODUCT_FOLDERS = ("core", "models", "widgets", "app")
FIELD_FOLDERS = ("widgets", "app/cli")
MAX_KEYS = 4

# The same spelling for another option of another command, with the reason.
OTHER_OPTIONS = {
    ("app/cli/import_command.cpp", "--device"): "import's lane of a snapshot (a CUDA device or host)",
    ("core/explain/trace_summary.cpp", "--device"): "info's Lanes line names import's option",
    # A Python program's own flags, read from its recorded command line for the report's tables.
    ("core/report/size_table_chapter.cpp", "--context-length"): "a Python program's own flag",
    ("core/report/size_table_chapter.cpp", "--seq-len"): "a Python program's own flag",
    ("core/report/size_table_chapter.cpp", "--batch-size"): "a Python program's own flag",
}

ROW_RE = re.compile(r'RowBuilder\("(?P<key>\w+)",\s*"(?P<flag>--[\w-]+)"')
SPELLING_RE = re.compile(r'\.(?:alias|negation)\("(?P<spelling>--[\w-]+)"\)')
# A flag as a word of a literal: not part of a longer flag ("--batch-sizes" is sweep's own).
WORD_END = r"(?![\w-])"



def rows(root):
    """The rows' keys and every spelling of their flags, from the table's source."""
    text = read(root, TABLE)
    keys = [m.group("key") for m in ROW_RE.finditer(text)]
    spellings = [m.group("flag") for m in ROW_RE.finditer(text)]
    spellings += [m.group("spelling") for m in SPELLING_RE.finditer(text)]
    return keys, spellings


def main():
    args = check_arguments(__doc__)
    root = args.root
    if not os.path.isfile(os.path.join(root, TABLE)):
        print(f"check_options: no {TABLE} under {root}", file=sys.stderr)
        return 2
    keys, spellings = rows(root)
    if len(keys) < 10:
        print(f"check_options: {TABLE}: read only {len(keys)} rows; has the RowBuilder form changed?",
              file=sys.stderr)
        return 2
    spelling_res = {s: re.compile(re.escape(s) + WORD_END) for s in spellings}

    failures = []
    files = 0
    for top in PRODUCT_FOLDERS:
        for path in source_files(root, top, SOURCE_EXTENSIONS):
            files += 1
            _, literals = scan(read(root, path))
            # 1. flags only in the table
            if path != TABLE:
                for line, body in literals:
                    for spelling, spelling_re in spelling_res.items():
                        if spelling_re.search(body) and (path, spelling) not in OTHER_OPTIONS:
                            failures.append(
                                f"{path}:{line}: \"{spelling}\" is spelled here: take it from "
                                f"TrainOptionTable (flag(key), argument(key, value))")
            # 2. at most four keys by hand in a page or a command
            if path.startswith(tuple(f + "/" for f in FIELD_FOLDERS)):
                named = sorted({body for _, body in literals if body in keys})
                if len(named) > MAX_KEYS:
                    failures.append(
                        f"{path}: names {len(named)} training options by their keys "
                        f"({', '.join(named)}): make the fields from the rows "
                        f"(TrainOptionFields) or read them through TrainOptions")

    for failure in failures:
        print(failure)
    if not args.quiet:
        print(f"check_options: {len(keys)} options, {len(spellings)} spellings, {files} files: "
              f"{'ok' if not failures else f'{len(failures)} offence(s)'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
