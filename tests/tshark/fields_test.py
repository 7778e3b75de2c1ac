# SPDX-License-Identifier: GPL-2.0-or-later
"""The plugin's filter fields (name and type, from `tshark -G fields`) must be exactly
the checked-in list: they are the public interface, named as docs/fields.md says.

    python3 -m pytest tests/tshark/fields_test.py [--update]   (--update rewrites the list)
"""
import difflib

import pytest

from tests.lib.wsrun import bthome_glossary

pytestmark = pytest.mark.tshark


def registered_fields(plugin):
    return [f"{r[2]}\t{r[3]}" for r in bthome_glossary(plugin)
            if not r[2].startswith("bthome.expert.")]


def test_fields(plugin, expected_dir, update):
    expected = expected_dir / "fields.txt"
    actual = registered_fields(plugin)
    assert actual, "tshark -G fields lists no bthome.* field: is the plugin loaded?"
    if update:
        expected.write_text("\n".join(actual) + "\n")
        pytest.skip(f"wrote {expected}")
    diff = list(difflib.unified_diff(expected.read_text().splitlines(), actual,
                                     str(expected), "tshark -G fields", lineterm=""))
    assert not diff, "the registered fields differ:\n" + "\n".join(diff)
