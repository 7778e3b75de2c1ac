# SPDX-License-Identifier: GPL-2.0-or-later
"""The user guide's analysis recipes run as written: every ```sh block between the
<!-- recipes:start --> and <!-- recipes:end --> markers of docs/user-guide.md is run with
bash (tshark being the real tshark with the plugin under test, in a temporary profile,
from a copy of captures/), and its output must be the ```text block that follows it.

    python3 -m pytest tests/tshark/readme_recipes_test.py
    python3 -m pytest tests/tshark/readme_recipes_test.py --update   (rewrite the outputs)

The outputs shown are Wireshark 4.0's (Debian 12); other versions print booleans and
some names differently, so there the recipes must only run and print something. In
the output of Wireshark's own -z io,stat a decimal number may differ by one in its last
digit: its averages round differently in another build of the same version (clang's, in
the in-tree stage).
"""
import difflib
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.lib.wsrun import IsolatedTshark, marked_section, tshark_version

pytestmark = pytest.mark.tshark

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "user-guide.md"
START, END = "<!-- recipes:start -->", "<!-- recipes:end -->"
PAIR = re.compile(r"```sh\n(.*?)```\n+```text\n(.*?)```", re.S)
TITLE = re.compile(r"^\*\*(.+?)\*\*", re.M)
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


def recipes(doc=DOC):
    """[(recipe, output shown)] of the doc's recipes section."""
    return [(m.group(1), m.group(2)) for m in PAIR.finditer(marked_section(doc, START, END)[1])]


def recipe_cases():
    """A case per recipe, named after the bold title that introduces it."""
    section = marked_section(DOC, START, END)[1]
    cases = []
    for n, m in enumerate(PAIR.finditer(section), 1):
        titles = TITLE.findall(section, 0, m.start())
        words = re.findall(r"[a-z0-9]+", titles[-1].lower())[:6] if titles else []
        cases.append(pytest.param(m.group(1), m.group(2), id="-".join([str(n)] + words)))
    return cases


@pytest.fixture(scope="module")
def recipe_folder(plugin):
    """(folder with a copy of captures/, PATH whose tshark is the one under test with the
    plugin in a temporary profile)."""
    with IsolatedTshark(plugin) as ws:
        work = os.path.join(ws.tmp, "recipes")
        shutil.copytree(ROOT / "captures", os.path.join(work, "captures"))
        bindir = os.path.join(ws.tmp, "bin")
        os.makedirs(bindir)
        env = ws.env()
        exports = " ".join(f"{k}={shlex.quote(env[k])}" for k in
                           ("HOME", "WIRESHARK_CONFIG_DIR", "WIRESHARK_PLUGIN_DIR", "LC_ALL"))
        real = ws.command([])[:-1] + [shutil.which(ws.tshark)]  # not this wrapper again
        with open(os.path.join(bindir, "tshark"), "w", encoding="utf-8") as f:
            f.write(f"#!/bin/sh\nexec env {exports} {shlex.join(real)} \"$@\"\n")
        for root, dirs, files in os.walk(ws.tmp):   # tshark may run as nobody (root)
            for name in dirs + files:
                os.chmod(os.path.join(root, name), 0o755)
        yield work, bindir + os.pathsep + os.environ["PATH"]


def write_output(recipe, output):
    """Put a recipe's output in the doc, under a lock: the recipes run side by side."""
    import fcntl
    with open(DOC, "r+", encoding="utf-8") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        head, section, tail = marked_section(DOC, START, END)
        m = next(m for m in PAIR.finditer(section) if m.group(1) == recipe)
        section = section[:m.start(2)] + output + section[m.end(2):]
        f.seek(0)
        f.truncate()
        f.write(head + START + section + END + tail)


def test_doc_has_recipes():
    assert recipes(), f"no ```sh/```text pair between {START} and {END} in {DOC}"


@pytest.mark.parametrize("recipe, shown", recipe_cases())
def test_recipe(recipe_folder, update, recipe, shown):
    work, path = recipe_folder
    proc = subprocess.run(["bash", "-o", "pipefail", "-c", recipe], cwd=work,
                          env=dict(os.environ, PATH=path), capture_output=True, text=True)
    assert proc.returncode == 0, f"recipe failed ({proc.returncode}):\n{recipe}{proc.stderr}"
    exact = tshark_version() == SHOWN_VERSION
    if update:
        if not exact:
            pytest.fail(f"--update needs Wireshark {SHOWN_VERSION}, whose output is shown")
        write_output(recipe, proc.stdout)
        pytest.skip(f"wrote its output to {DOC.name}")
    if not exact:
        assert proc.stdout.strip(), f"recipe printed nothing:\n{recipe}"
        return
    if not matches(recipe, proc.stdout, shown):
        diff = difflib.unified_diff(shown.splitlines(), proc.stdout.splitlines(),
                                    f"{DOC.name} (shown)", "printed", lineterm="")
        pytest.fail(f"output differs from {DOC.name} (rerun with --update):\n{recipe}"
                    + "\n".join(diff))
