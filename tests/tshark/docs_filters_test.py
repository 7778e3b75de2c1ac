#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every display filter README.md and docs/*.md show finds what
tests/tshark/expected/docs-filters.txt says on the bundled captures (issue 48), so that a
wrong filter in the docs fails, and so does a new one nobody checked.

A filter the docs show is: the argument of -Y or -R in a ```sh block; the filter of a
-z bthome,readings / bthome,tree / io,stat in one; and an inline `code span` that is a
filter expression (a field or "(" first, and a comparison or logical operator in it).
Field names alone are references, not filters. Each filter has one or more lines in
the expected file:

    FILTER <tab> CAPTURE[+KEYS] <tab> FRAMES

CAPTURE a file of captures/, KEYS its captures/<set>.keys (passed as -o rows), FRAMES
the frame numbers tshark -Y FILTER must give ("1-3,7"; "none": a valid filter that
matches no frame there). A filter of the docs without a line fails, and so does a line
whose filter is no longer in the docs.

    docs_filters_test.py --plugin bthome.so --root . --expected tests/tshark/expected/docs-filters.txt
"""
import argparse
import glob
import os
import re
import shlex
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from wsrun import Checks, IsolatedTshark, key_options  # noqa: E402

FIELD_START = re.compile(r"^(\(|!?\s*[a-z][a-z0-9_]*\.[a-z0-9_.]+|!?\s*bthome\b)")
OPERATOR = re.compile(r"==|!=|>=|<=|&&|\|\||(?<![-=])>|<|\bcontains\b|\bmatches\b|^!")
STAT_FILTER = re.compile(r"^(?:bthome,(?:readings|tree)),(.+)$")


def stat_filters(arg):
    """The display filters of a -z argument."""
    m = STAT_FILTER.match(arg)
    if m:
        return [m.group(1)]
    if arg.startswith("io,stat,"):
        out = []
        for spec in arg.split(",")[3:]:
            spec = re.sub(r"^[A-Z_]+\([^)]*\)", "", spec)   # AVG(field)filter
            if spec:
                out.append(spec)
        return out
    return []


def command_filters(command):
    """The display filters of a tshark or wireshark command line."""
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        return []
    if not words or os.path.basename(words[0]) not in ("tshark", "wireshark"):
        return []
    out = []
    for flag, arg in zip(words, words[1:]):
        if flag in ("-Y", "-R"):
            out.append(arg)
        elif flag == "-z":
            out += stat_filters(arg)
    return out


def doc_filters(root):
    """{filter: [file:line, ...]} of every filter README.md and docs/*.md show."""
    found = {}
    paths = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs",
                                                                              "*.md")))
    for path in paths:
        name = os.path.relpath(path, root)
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        prose = []              # the text outside fenced blocks, line numbers kept
        fence, command, start = None, "", 0
        for number, line in enumerate(lines, 1):
            if line.lstrip().startswith("```"):
                fence = None if fence is not None else line.strip()[3:]
                prose.append("")
                continue
            if fence is None:
                prose.append(line)
                continue
            prose.append("")
            if fence != "sh":
                continue
            if not command:
                start = number
            command += line.strip()
            if command.endswith("\\"):
                command = command[:-1] + " "
                continue
            for flt in command_filters(command):
                found.setdefault(flt, []).append(f"{name}:{start}")
            command = ""
        text = "\n".join(prose)
        for m in re.finditer(r"`([^`]+)`", text):
            span = " ".join(m.group(1).split())     # a span may go on over a line end
            if span.startswith(("-z ", "-Y ", "-R ")):
                flts = command_filters("tshark " + span)
            elif FIELD_START.match(span) and OPERATOR.search(span):
                flts = [span]
            else:
                flts = []
            for flt in flts:
                found.setdefault(flt, []).append(f"{name}:{text.count(chr(10), 0, m.start()) + 1}")
    return found


def frames_text(numbers):
    """1,2,3,5 -> "1-3,5"; none -> "none"."""
    if not numbers:
        return "none"
    out, first = [], numbers[0]
    for a, b in zip(numbers, numbers[1:] + [None]):
        if b != a + 1:
            out.append(str(first) if first == a else f"{first}-{a}")
            first = b
    return ",".join(out)


def read_expected(path):
    entries = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 3:
                raise SystemExit(f"{path} line {number}: want FILTER<tab>CAPTURE<tab>FRAMES")
            entries.append(tuple(parts))
    return entries


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--expected", required=True)
    ap.add_argument("--list", action="store_true", help="print the filters found, run none")
    args = ap.parse_args()
    found = doc_filters(args.root)
    if args.list:
        for flt, where in found.items():
            print(f"{flt}\t{' '.join(where)}")
        return 0
    entries = read_expected(args.expected)
    check = Checks()
    expected_filters = {e[0] for e in entries}
    for flt, where in sorted(found.items()):
        check(flt in expected_filters, f"{flt!r} ({', '.join(where)}) has an expected line",
              f"add it to {args.expected}")
    for flt in sorted(expected_filters - set(found)):
        check(False, f"{flt!r} of {args.expected} is shown in the docs",
              "no README.md or docs/*.md shows it: remove its line")
    captures = os.path.join(args.root, "captures")
    with IsolatedTshark(args.plugin) as ws:
        for flt, capture, want in entries:
            if flt not in found:
                continue
            name, _, keys = capture.partition("+")
            options = key_options(os.path.join(captures, keys) if keys else None)
            proc = ws.run(["-n", "-r", os.path.join(captures, name), *options, "-Y", flt,
                           "-T", "fields", "-e", "frame.number"], check=False)
            got = frames_text([int(n) for n in proc.stdout.split()])
            check(proc.returncode == 0 and got == want,
                  f"{flt!r} on {capture}: frames {want}",
                  f"got {got} (exit {proc.returncode}) {proc.stderr.strip()}")
    return check.summary("docs-filters")


if __name__ == "__main__":
    sys.exit(main())
