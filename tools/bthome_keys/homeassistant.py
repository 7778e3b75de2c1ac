# SPDX-License-Identifier: GPL-2.0-or-later
"""Home Assistant's keys: the "bthome" entries of .storage/core.config_entries."""
import json
import os

from .common import KeysError, make_row, one_line, quote, read_text, shown

HA_STORAGE = os.path.join(".storage", "core.config_entries")


def read_home_assistant(path):
    """BTHome entries of Home Assistant's core.config_entries (its storage file:
    {"version", "minor_version", "key": "core.config_entries", "data": {"entries":
    [...]}}; the bthome integration keeps the key as data.bindkey, the device address as
    unique_id): (rows, problems of single entries)."""
    text = read_text(path, "Home Assistant config entries")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise KeysError(f"{path} line {e.lineno} column {e.colno}: malformed JSON: {e.msg}")
    if not isinstance(doc, dict):
        raise KeysError(f"{path}: JSON, but not Home Assistant's core.config_entries "
                        f"(a JSON {type(doc).__name__}, not an object)")
    if doc.get("key", "core.config_entries") != "core.config_entries":
        raise KeysError(f"{path}: Home Assistant storage file of {shown(doc.get('key'))}, "
                        "not core.config_entries")
    data = doc.get("data")
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise KeysError(f"{path}: not Home Assistant's core.config_entries "
                        '(no "data": {"entries": [...]})')
    rows, errors = [], []
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict):
            errors.append(f"{path}: entry {index + 1} is not a JSON object")
            continue
        if entry.get("domain") != "bthome":
            continue
        title = entry.get("title")
        name = title if isinstance(title, str) else ""
        origin = f"{path}: entry {one_line(entry.get('entry_id', index + 1))} ({quote(name)})"
        entry_data = entry.get("data")
        if entry_data is None:
            entry_data = {}
        if not isinstance(entry_data, dict):
            errors.append(f'{origin}: "data" is not a JSON object')
            continue
        bindkey = entry_data.get("bindkey")
        if bindkey is None or bindkey == "":
            continue                                # unencrypted device
        try:
            rows.append(make_row(entry.get("unique_id"), bindkey, name, origin))
        except KeysError as e:
            errors.append(str(e))
    return rows, errors

def ha_storage(folder):
    """.storage/core.config_entries of a Home Assistant configuration folder, or
    core.config_entries of the .storage folder itself (or of a copy of it)."""
    storage = os.path.join(folder, HA_STORAGE)
    inside = os.path.join(folder, os.path.basename(HA_STORAGE))
    if not os.path.lexists(storage) and os.path.lexists(inside):
        return inside
    try:
        os.stat(storage)
    except PermissionError:
        for f in (folder, os.path.dirname(storage)):
            if not os.access(f, os.R_OK | os.X_OK):
                raise KeysError(f"{f}: permission denied (cannot read this folder)")
        raise KeysError(f"{storage}: permission denied")
    except OSError:
        raise KeysError(f"{folder}: no {HA_STORAGE} in this folder, nor core.config_entries "
                        "(is it a Home Assistant configuration folder, or its .storage?)")
    return storage
