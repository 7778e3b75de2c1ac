# SPDX-License-Identifier: GPL-2.0-or-later
"""docs/encryption.md's example of Home Assistant's core.config_entries (issue 48) is one
bthome-keys reads: the doc's JSON block, as .storage/core.config_entries of a
configuration folder, gives exactly the -o row the doc shows after it, read from the
folder, the .storage folder and the file.

    python3 -m pytest tests/tools/ha_example_test.py
"""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.source_only

ROOT = Path(__file__).resolve().parents[2]
TOOL = str(ROOT / "tools" / "bthome-keys")
DOC = ROOT / "docs" / "encryption.md"


def blocks(text, lang):
    return re.findall(r"^```%s\n(.*?)^```" % lang, text, re.MULTILINE | re.DOTALL)


@pytest.fixture(scope="module")
def example():
    """(the doc's core.config_entries example, the -o row it shows printed from it)."""
    doc = DOC.read_text(encoding="utf-8")
    examples = [b for b in blocks(doc, "json") if '"core.config_entries"' in b]
    rows = [b for b in blocks(doc, "text") if b.startswith("-o 'uat:bthome_keys:")]
    assert len(examples) == 1 and len(rows) == 1, (
        f"{DOC} shows {len(examples)} core.config_entries examples (```json) and "
        f"{len(rows)} rows printed from one (```text -o ...), want one of each")
    return examples[0], rows[0]


def test_example_has_bthome_entries(example):
    entries = json.loads(example[0])["data"]["entries"]
    bthome = [e for e in entries if e.get("domain") == "bthome"]
    assert bthome, "the example has no bthome entry"
    assert all("bindkey" in e.get("data", {}) and ":" in e.get("unique_id", "")
               for e in bthome), \
        f"every bthome entry needs data.bindkey and a MAC as unique_id: {bthome}"


@pytest.mark.parametrize("source", ["config-folder", "storage-folder", "file"])
def test_doc_row_printed(example, tmp_path, source):
    text, row = example
    storage = tmp_path / ".storage"
    storage.mkdir()
    path = storage / "core.config_entries"
    path.write_text(text, encoding="utf-8")
    given = {"config-folder": tmp_path, "storage-folder": storage, "file": path}[source]
    proc = subprocess.run([sys.executable, TOOL, "--print-o", str(given)],
                          capture_output=True, text=True, check=False,
                          env=dict(os.environ, LC_ALL="C.UTF-8"))
    assert proc.returncode == 0, f"exit {proc.returncode}; stderr {proc.stderr.strip()!r}"
    assert proc.stdout == row, f"printed {proc.stdout!r}, {DOC.name} shows {row!r}"
