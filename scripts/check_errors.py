#!/usr/bin/env python3
"""Holds Memscope's error convention (issue 30: "one error convention per boundary").

1. core/ throws its own types: everything it throws for bad input, a failed read or write, a
   configuration it cannot run or a cancelled run is a memscope::Error (core/model/error.h:
   ConfigError, InputError, RunCancelled, FileError, RunFileError, PickleError, ...). Fails on
   `throw std::X` for any X but logic_error (a programming error: a broken invariant) and
   bad_alloc (out of memory), on `throw std::string` or a thrown literal, and on constructing a
   std:: exception type anywhere in core/ (a helper that returns one to be thrown) but in
   Error's own definition.
2. The GUI converts once, in one encoding: in widgets/, models/ and app/gui/ an exception's
   what() is read only by errorText() (models/error_text.cpp), which makes it a QString (UTF-8).
   Fails on any other what().
3. The CLI has one fail(): in app/cli/ only cli_support.cpp writes the "error:" prefix (fail()
   and reportUsageError()). Fails on a string literal holding "error:" anywhere else.
4. The GUI's own functions report a failure one way (issue 42): an operation that can fail
   returns an Outcome (models/outcome.h), a result that arrives later carries one. Fails in
   widgets/, models/ and app/gui/ on an error out-parameter (a non-const `QString*` or
   `QString&` named like error, why, reason or problem) and on a `lastError` member.

Exit status 0 when all four hold, 1 on an offence (each named with its file and line), 2 on a
usage error. There is no allowed list: today's tree has no exception, and a new one should be
fixed, not listed.

The scan reads the source with comments blanked (and, for 1 and 2, string and character
literals too, raw strings included). Python 3 standard library only. Run from anywhere: paths
are relative to the repository root.
"""

import os
import re
import sys

from source_tree import check_arguments, read, scan, source_files

SOURCE_EXTENSIONS = (".h", ".hpp", ".cpp", ".cc", ".cxx")

# Rule 1: what core/ may throw from std:: (and nothing else of std::).
ALLOWED_STD_THROWS = {"logic_error", "bad_alloc"}
STD_THROW_RE = re.compile(r"\bthrow\s+std::(\w+)")
LITERAL_THROW_RE = re.compile(r"\bthrow\s+(\"|'|[0-9])")
STD_EXCEPTION_TYPES = ("runtime_error", "invalid_argument", "out_of_range", "length_error",
                       "domain_error", "range_error", "overflow_error", "underflow_error",
                       "system_error", "ios_base::failure")
STD_EXCEPTION_MADE_RE = re.compile(r"\bstd::(" + "|".join(re.escape(t) for t in STD_EXCEPTION_TYPES)
                                   + r")\s*[({]")
ERROR_BASE = "core/model/error.h"  # the one place that constructs std::runtime_error

# Rule 2: the GUI's folders and its one converter.
GUI_FOLDERS = ["widgets", "models", "app/gui"]
CONVERTER = "models/error_text.cpp"
WHAT_RE = re.compile(r"(?:\.|->)\s*what\s*\(\s*\)")

# Rule 3: the CLI's folder and the one file that writes the prefix.
CLI_FOLDER = "app/cli"
CLI_FAIL = "app/cli/cli_support.cpp"
ERROR_PREFIX_RE = re.compile(r"\berror:")

# Rule 4: the GUI's error out-parameters and "last error" members.
GUI_OUT_PARAMETER_RE = re.compile(r"(?<!const )\bQString\s*[*&]\s*(\w*(?:error|why|reason|problem)\w*)\b",
                                  re.IGNORECASE)
GUI_LAST_ERROR_RE = re.compile(r"\b(?:m_)?lastError\b", re.IGNORECASE)





def line_of(code, offset):
    return code.count("\n", 0, offset) + 1



def main():
    args = check_arguments(__doc__)
    root = args.root
    if not os.path.isdir(os.path.join(root, "core")):
        print(f"check_errors: no core/ under {root}", file=sys.stderr)
        return 2

    failures = []
    counts = {"own": 0, "std": 0, "errorText": 0, "fail": 0}

    # 1. core/ throws its own types.
    for path in source_files(root, "core", SOURCE_EXTENSIONS):
        code, _ = scan(read(root, path))
        thrown = set()  # where a std:: type is thrown, reported once by the rule above
        for m in STD_THROW_RE.finditer(code):
            thrown.add(m.start(1) - len("std::"))
            if m.group(1) in ALLOWED_STD_THROWS:
                counts["std"] += 1
                continue
            failures.append(f"{path}:{line_of(code, m.start())}: throw std::{m.group(1)}: core/ "
                            f"throws a memscope::Error (core/model/error.h: ConfigError, "
                            f"InputError, FileError, ...), or std::logic_error for a programming "
                            f"error")
        for m in LITERAL_THROW_RE.finditer(code):
            failures.append(f"{path}:{line_of(code, m.start())}: a thrown literal: core/ throws a "
                            f"memscope::Error (core/model/error.h)")
        if path != ERROR_BASE:
            for m in STD_EXCEPTION_MADE_RE.finditer(code):
                if m.start() in thrown:
                    continue
                failures.append(f"{path}:{line_of(code, m.start())}: std::{m.group(1)} made in "
                                f"core/: throw a memscope::Error (core/model/error.h) instead")
        counts["own"] += len(re.findall(r"\bthrow\s+(?!std::)[A-Z]\w*\s*[({]", code))

    # 2. The GUI converts an error's text once: errorText().
    for top in GUI_FOLDERS:
        for path in source_files(root, top, SOURCE_EXTENSIONS):
            code, _ = scan(read(root, path))
            if path.startswith(CONVERTER[:-len(".cpp")]):
                continue  # error_text.h and .cpp
            counts["errorText"] += len(re.findall(r"\berrorText\s*\(", code))
            for m in WHAT_RE.finditer(code):
                failures.append(f"{path}:{line_of(code, m.start())}: what() outside errorText(): "
                                f"the GUI turns an error into text only with errorText(e) "
                                f"(models/error_text.h, UTF-8)")
            # 4. One way to report a failure: an Outcome.
            for m in GUI_OUT_PARAMETER_RE.finditer(code):
                failures.append(f"{path}:{line_of(code, m.start())}: QString out-parameter "
                                f"'{m.group(1)}': a GUI function that can fail returns an Outcome "
                                f"(models/outcome.h)")
            for m in GUI_LAST_ERROR_RE.finditer(code):
                failures.append(f"{path}:{line_of(code, m.start())}: a 'last error' member: a GUI "
                                f"function that can fail returns an Outcome (models/outcome.h)")

    # 3. The CLI writes "error:" in one place: fail() in cli_support.cpp.
    for path in source_files(root, CLI_FOLDER, SOURCE_EXTENSIONS):
        code, literals = scan(read(root, path))
        counts["fail"] += len(re.findall(r"\b(?:fail|reportUsageError)\s*\(", code))
        if path == CLI_FAIL:
            continue
        for number, text in literals:
            if ERROR_PREFIX_RE.search(text):
                failures.append(f"{path}:{number}: \"{text.strip()}\": a hand-written \"error:\" "
                                f"prefix; the CLI reports an error with fail() or "
                                f"reportUsageError() (app/cli/cli_support.h)")

    if failures:
        for f in failures:
            print("error: " + f, file=sys.stderr)
        print(f"check_errors: {len(failures)} error(s). One error convention per boundary: core/ "
              "throws memscope::Error (std::logic_error for programming errors), the GUI converts "
              "with errorText() and reports with an Outcome, the CLI reports with fail() "
              "(scripts/check_errors.py, "
              "docs/DESIGN.md \"Checks\").", file=sys.stderr)
        return 1
    if not args.quiet:
        print(f"core/: {counts['own']} throws of own types, {counts['std']} of std::logic_error or "
              f"std::bad_alloc; GUI: {counts['errorText']} errorText() calls; CLI: "
              f"{counts['fail']} fail()/reportUsageError() calls")
        print("check_errors: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
