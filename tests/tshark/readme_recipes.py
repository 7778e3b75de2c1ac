#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The user guide's analysis recipes run as written: every ```sh block between the
<!-- recipes:start --> and <!-- recipes:end --> markers is run with bash (tshark being the
real tshark with the built plugin, in a temporary profile, from a copy of captures/), and
its output must be the ```text block that follows it.

    readme_recipes.py --plugin bthome.so --doc docs/user-guide.md [--captures DIR] [--update]

The recipes run in a folder holding a copy of the project's captures/ (or DIR).

The outputs shown are Wireshark 4.0's (Debian 12); other versions print booleans and
some names differently, so there the recipes must only run and print something. In
the output of Wireshark's own -z io,stat a decimal number may differ by one in its last
digit: its averages round differently in another build of the same version (clang's, in
the in-tree stage).
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from wsrun import IsolatedTshark, marked_section, tshark_version  # noqa: E402

START, END = "<!-- recipes:start -->", "<!-- recipes:end -->"
PAIR = re.compile(r"```sh\n(.*?)```\n+```text\n(.*?)```", re.S)
SHOWN_VERSION = "4.0"
DECIMAL = re.compile(r"(\d+\.\d+)")


def matches(recipe, got, shown):
    return same_output(got, shown) if "io,stat" in recipe else got == shown


def same_output(got, shown):
    """Equal text, decimal numbers equal to within one unit of their last digit."""
    got_parts, shown_parts = DECIMAL.split(got), DECIMAL.split(shown)
    if len(got_parts) != len(shown_parts):
        return False
    for i, (a, b) in enumerate(zip(got_parts, shown_parts)):
        if i % 2 == 0 or len(a) != len(b):      # text, or a number printed differently
            if a != b:
                return False
        elif abs(float(a) - float(b)) > 1.5 * 10 ** -len(a.partition(".")[2]):
            return False
    return True


def run_recipes(ws, section, captures):
    """[(match, output)] for every sh/text pair of the section."""
    work = os.path.join(ws.tmp, "recipes")
    shutil.copytree(captures, os.path.join(work, "captures"))
    bindir = os.path.join(ws.tmp, "bin")
    os.makedirs(bindir)
    wrapper = os.path.join(bindir, "tshark")
    env = ws.env()
    with open(wrapper, "w", encoding="utf-8") as f:
        exports = " ".join(f"{k}={shlex.quote(env[k])}" for k in
                           ("HOME", "WIRESHARK_CONFIG_DIR", "WIRESHARK_PLUGIN_DIR", "LC_ALL"))
        real = ws.command([])[:-1] + [shutil.which(ws.tshark)]  # not this wrapper again
        f.write(f"#!/bin/sh\nexec env {exports} {shlex.join(real)} \"$@\"\n")
    for root, dirs, files in os.walk(ws.tmp):
        for name in dirs + files:
            os.chmod(os.path.join(root, name), 0o755)
    results = []
    for m in PAIR.finditer(section):
        proc = subprocess.run(["bash", "-o", "pipefail", "-c", m.group(1)], cwd=work,
                              env=dict(os.environ, PATH=bindir + ":" + os.environ["PATH"]),
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"recipe failed ({proc.returncode}):\n{m.group(1)}{proc.stderr}")
        results.append((m, proc.stdout))
    return results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--doc", "--readme", dest="doc", required=True,
                    help="the Markdown file holding the recipes")
    ap.add_argument("--captures", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "captures"))
    ap.add_argument("--update", action="store_true")
    args = ap.parse_args()
    head, section, tail = marked_section(args.doc, START, END)
    captures = args.captures
    with IsolatedTshark(args.plugin) as ws:
        results = run_recipes(ws, section, captures)
    if not results:
        print("FAIL: no recipes found")
        return 1
    exact = tshark_version() == SHOWN_VERSION
    if args.update:
        if not exact:
            raise SystemExit(f"--update needs Wireshark {SHOWN_VERSION}, whose output is shown")
        out, last = [], 0
        for m, output in results:
            out += [section[last:m.start(2)], output]
            last = m.end(2)
        with open(args.doc, "w", encoding="utf-8") as f:
            f.write(head + START + "".join(out) + section[last:] + END + tail)
        print(f"updated {len(results)} recipe outputs")
        return 0
    failures = [m.group(1).strip() for m, output in results
                if (not matches(m.group(1), output, m.group(2)) if exact
                    else not output.strip())]
    if failures:
        print("\n".join(f"output differs from {args.doc}: {f}" for f in failures))
        print(f"FAIL: {len(failures)} of {len(results)} recipes (rerun with --update)")
        return 1
    print(f"ok: {len(results)} recipes ran" + (f" and printed what {args.doc} shows"
                                               if exact else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
