# SPDX-License-Identifier: GPL-2.0-or-later
"""ESPHome's keys: the bthome_mithermometer items of a node's YAML configuration."""
import os
import re

from .common import PROG, KeysError, make_row, read_text, shown

ESPHOME_PLATFORM = "bthome_mithermometer"


def yaml_strip_comment(text):
    """A plain YAML line without its comment (' #...'), outside quotes."""
    quote = None
    for i, c in enumerate(text):
        if quote:
            if c == quote:
                quote = None
        elif c in "\"'":
            quote = c
        elif c == "#" and (i == 0 or text[i - 1] in " \t"):
            return text[:i].rstrip()
    return text.rstrip()


def yaml_scalar(value, origin, secrets):
    """The value of 'key: value' on one line: plain, "double" or 'single' quoted, or
    !secret NAME. Anything else (flow collections, block scalars, anchors, other tags)
    is refused: this reads only the simple shape, and says so."""
    v = value.strip()
    if v.startswith("!secret"):
        name = v[len("!secret"):].strip()
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
            raise KeysError(f"{origin}: cannot read {shown(v)}")
        return secrets(name, origin)
    m = re.fullmatch(r'"((?:[^"\\]|\\.)*)"\s*(?:#.*)?', v)
    if m:
        return re.sub(r"\\(.)", r"\1", m.group(1))
    m = re.fullmatch(r"'((?:[^']|'')*)'\s*(?:#.*)?", v)
    if m:
        return m.group(1).replace("''", "'")
    v = yaml_strip_comment(v)
    if not v or v[0] in "[]{}|>&*!%@`\"'":
        raise KeysError(f"{origin}: cannot read {shown(v) if v else 'an empty value'} "
                        "(bthome-keys reads plain, quoted or !secret values)")
    return v


def no_secret(name, origin):
    raise KeysError(f"{origin}: !secret inside secrets.yaml")


def read_esphome(path):
    """Keys of an ESPHome node config: the items of its top-level "sensor:" list with
    "platform: bthome_mithermometer" (ESPHome's BTHome receiver for PVVX/ATC thermometers),
    their mac_address and bindkey. A small strict reader of just that shape. (rows,
    problems of single items)."""
    text = read_text(path, "ESPHome configuration")
    lines = text.splitlines()
    secrets_cache = {}

    def secret(name, origin):
        spath = os.path.join(os.path.dirname(path) or ".", "secrets.yaml")
        if "map" not in secrets_cache:
            found = {}
            if os.path.exists(spath):
                secrets_text = read_text(spath, "ESPHome secrets", may_be_empty=True)
                for number, line in enumerate(secrets_text.splitlines(), 1):
                    body = yaml_strip_comment(line)
                    if not body.strip():
                        continue
                    m = re.fullmatch(r"([A-Za-z0-9_.-]+)\s*:\s*(.*)", body)
                    if m and m.group(2):
                        found[m.group(1)] = (m.group(2), f"{spath} line {number}")
            secrets_cache["map"] = found
        if name not in secrets_cache["map"]:
            raise KeysError(f"{origin}: !secret {name} is not in {spath}")
        value, where = secrets_cache["map"][name]
        return yaml_scalar(value, where, no_secret)

    def indent(line):
        return len(line) - len(line.lstrip(" "))

    rows, errors = [], []
    consumed = set()
    i = 0
    while i < len(lines):
        line = yaml_strip_comment(lines[i])
        if not re.fullmatch(r"sensor\s*:", line):
            i += 1
            continue
        # the block of "sensor:": following lines indented, or "- " items at column 0
        block = []
        i += 1
        while i < len(lines):
            body = yaml_strip_comment(lines[i])
            if body.strip() and indent(lines[i]) == 0 and not body.startswith("- ") \
                    and body != "-":
                break
            if body.strip() and "\t" in lines[i][:indent(lines[i]) + 1]:
                raise KeysError(f"{path} line {i + 1}: a tab in the indentation")
            block.append((i, lines[i], body))
            i += 1
        item_indent = None
        items = []
        for number, raw, body in block:
            if not body.strip():
                continue
            m = re.match(r"( *)-(?: +|$)", body)
            if m and (item_indent is None or len(m.group(1)) == item_indent):
                item_indent = len(m.group(1))
                items.append([(number, body)])
            elif items:
                items[-1].append((number, body))
        for item in items:
            first_number, first = item[0]
            m = re.match(r"( *- +)(.*)", first)
            keys_at = len(m.group(1)) if m else None
            fields = {}
            entries = ([(first_number, m.group(2))] if m else []) + [
                (n, b[keys_at:]) for n, b in item[1:]
                if keys_at is not None and indent(b) == keys_at]
            for number, entry in entries:
                km = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)\s*:(?:\s+(.*))?", entry)
                if km:
                    fields.setdefault(km.group(1), (number, km.group(2) or ""))
            if "platform" not in fields:
                continue
            pnum, pvalue = fields["platform"]
            platform = yaml_scalar(pvalue, f"{path} line {pnum + 1}", secret) \
                if pvalue else ""
            if platform != ESPHOME_PLATFORM:
                continue
            consumed.add(pnum)
            origin = f"{path} line {first_number + 1}"
            if "bindkey" not in fields:
                continue                            # unencrypted device
            try:
                rows.append(esphome_row(path, fields, origin, secret))
            except KeysError as e:
                errors.append(str(e))
    platform_line = re.compile(r"platform\s*:\s*[\"']?%s\b" % ESPHOME_PLATFORM)
    for number, line in enumerate(lines):
        if platform_line.search(yaml_strip_comment(line)) and number not in consumed:
            errors.append(f"{path} line {number + 1}: {ESPHOME_PLATFORM} in a shape "
                          f"{PROG} does not read (it reads block-style \"- platform: "
                          f"{ESPHOME_PLATFORM}\" items of a top-level \"sensor:\")")
    return rows, errors


def esphome_row(path, fields, origin, secret):
    """The row of one bthome_mithermometer item with a bindkey."""
    if "mac_address" not in fields:
        raise KeysError(f"{origin}: {ESPHOME_PLATFORM} item without mac_address")
    mnum, mvalue = fields["mac_address"]
    bnum, bvalue = fields["bindkey"]
    mac = yaml_scalar(mvalue, f"{path} line {mnum + 1}", secret)
    key = yaml_scalar(bvalue, f"{path} line {bnum + 1}", secret)
    name = ""
    if "id" in fields and fields["id"][1]:
        name = yaml_scalar(fields["id"][1], f"{path} line {fields['id'][0] + 1}", secret)
    return make_row(mac, key, name, f"{path} line {bnum + 1}")
