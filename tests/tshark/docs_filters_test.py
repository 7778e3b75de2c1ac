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

    python3 -m pytest tests/tshark/docs_filters_test.py
    python3 -m tests.tshark.docs_filters_test       (list the filters found, run none)
"""
import glob
import os
import re
import shlex
from pathlib import Path

import pytest

from tests.lib.wsrun import key_options

pytestmark = pytest.mark.tshark

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "captures"
EXPECTED = ROOT / "tests" / "tshark" / "expected" / "docs-filters.txt"

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


def read_expected(path=EXPECTED):
    """[(filter, capture[+keys], frames)] of the expected file."""
    entries = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 3:
                raise ValueError(f"{path} line {number}: want FILTER<tab>CAPTURE<tab>FRAMES")
            entries.append(tuple(parts))
    return entries


FOUND = doc_filters(ROOT)
ENTRIES = read_expected()


def test_every_doc_filter_has_a_line():
    listed = {e[0] for e in ENTRIES}
    missing = [f"{flt!r} ({', '.join(where)})" for flt, where in sorted(FOUND.items())
               if flt not in listed]
    assert FOUND, "no filter found in README.md and docs/*.md"
    assert not missing, f"filters of the docs without a line in {EXPECTED}: add them\n" + \
        "\n".join(missing)


def test_every_line_is_shown_in_the_docs():
    stale = sorted({e[0] for e in ENTRIES} - set(FOUND))
    assert not stale, (f"filters of {EXPECTED.name} no README.md or docs/*.md shows: "
                       f"remove their lines\n" + "\n".join(map(repr, stale)))


@pytest.mark.parametrize("flt, capture, want",
                         [pytest.param(*e, id=f"{e[0]} on {e[1]}") for e in ENTRIES])
def test_filter_finds_frames(ws, flt, capture, want):
    if flt not in FOUND:
        pytest.skip("not shown in the docs (test_every_line_is_shown_in_the_docs fails)")
    name, _, keys = capture.partition("+")
    options = key_options(CAPTURES / keys if keys else None)
    proc = ws.run(["-n", "-r", str(CAPTURES / name), *options, "-Y", flt,
                   "-T", "fields", "-e", "frame.number"], check=False)
    assert proc.returncode == 0, f"tshark -Y {flt!r} exited {proc.returncode}: {proc.stderr}"
    got = frames_text([int(n) for n in proc.stdout.split()])
    assert got == want, f"{flt!r} on {capture}: frames {got}, want {want} {proc.stderr.strip()}"


if __name__ == "__main__":
    for flt, where in FOUND.items():
        print(f"{flt}\t{' '.join(where)}")
