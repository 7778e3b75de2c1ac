# SPDX-License-Identifier: GPL-2.0-or-later
"""The committed captures are exactly what captures/make_captures.py writes today: a
drifted generator or object table fails here."""
import filecmp
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.source_only

CAPTURES = Path(__file__).resolve().parents[2] / "captures"
GENERATOR = CAPTURES / "make_captures.py"
NOT_WRITTEN = ("make_captures.py", "README.md", "__pycache__")


def test_captures_are_what_the_generator_writes(tmp_path):
    subprocess.run([sys.executable, str(GENERATOR), "--out", str(tmp_path)], check=True,
                   stdout=subprocess.DEVNULL)
    written = sorted(os.listdir(tmp_path))
    committed = sorted(f for f in os.listdir(CAPTURES) if f not in NOT_WRITTEN)
    _, differ, missing = filecmp.cmpfiles(tmp_path, CAPTURES, written, shallow=False)
    problems = [f"differs: {f}" for f in differ] + [f"not committed: {f}" for f in missing]
    problems += [f"not written by the generator: {f}"
                 for f in sorted(set(committed) - set(written))]
    assert written, "the generator wrote nothing"
    assert not problems, f"rerun python3 captures/make_captures.py ({len(problems)} files):\n" + \
        "\n".join(problems)
