# SPDX-License-Identifier: GPL-2.0-or-later
"""The BTHome part of a dissection, as text lines one can compare: every bthome.* field
and BTHome expert info of each frame, read from tshark's PDML and normalised so the same
expected file holds on every Wireshark version and hook (4.0 postdissector, 4.2+
service-data table): booleans as 1/0, absolute times as "YYYY-MM-DD HH:MM:SS UTC".
Used by the dissection tests (tests/tshark/dissect_test.py) and, where pytest is not
installed, by the release load test:

    python3 -m tests.lib.dissection PLUGIN CAPTURE EXPECTED     (from the repository root)
"""
import csv
import datetime
import difflib
import re
import sys
import xml.etree.ElementTree as ET

from tests.lib.wsrun import IsolatedTshark

BOOLEANS = {"True": "1", "False": "0", "true": "1", "false": "0"}
TIME_FORMATS = ("%b %d, %Y %H:%M:%S", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S")


def normalise(name, show):
    if show in BOOLEANS:
        return BOOLEANS[show]
    if name == "bthome.timestamp":
        m = re.match(r"([A-Za-z]{3} +\d+, \d{4} [\d:]{8}|\d{4}-\d\d-\d\d[ T][\d:]{8})", show)
        if m:
            text = re.sub(r" +", " ", m.group(1))
            for fmt in TIME_FORMATS:
                try:
                    t = datetime.datetime.strptime(text, fmt)
                    return t.strftime("%Y-%m-%d %H:%M:%S UTC")
                except ValueError:
                    pass
    return show


def expert_message(field):
    """The text of an expert info, from its showname "Expert Info (...): text"."""
    for sub in field.iter("field"):
        if sub.get("name") == "_ws.expert.message":
            return sub.get("show")
    return field.get("showname", "")


def frame_lines(packet):
    number = None
    lines = []
    for field in packet.iter("field"):
        name = field.get("name", "")
        if name == "frame.number":
            number = field.get("show")
        elif name.startswith("bthome.expert."):
            lines.append(f"{name[len('bthome.expert.'):]}! {expert_message(field)}")
        elif name.startswith("bthome.") and not name.startswith("bthome.info."):
            show = normalise(name, field.get("show", ""))
            lines.append(f"{name} = {show} ({field.get('showname', '')})")
    return number, lines


def dissect(ws, capture, options=()):
    pdml = ws.run(["-n", "-r", capture, "-T", "pdml", *options]).stdout
    out = []
    for packet in ET.fromstring(pdml).iter("packet"):
        number, lines = frame_lines(packet)
        out.append(f"# frame {number}")
        out.extend(lines)
    return out


def info_column(ws, capture, options=()):
    """The Info column of each frame, from summary lines (the protocol and length cut);
    a frame BTHome did not take is "[no BTHome]", whatever its link layer shows."""
    out = ws.run(["-n", "-r", capture, *options]).stdout
    return [re.sub(r"^.* BTHome \d+ ", "", line) if " BTHome " in line else "[no BTHome]"
            for line in out.splitlines()]


def check_expert(lines, field, text):
    """bthome.expert.X: the frame has X whose message contains text."""
    name = field[len("bthome.expert."):]
    found = [line for line in lines if line.startswith(name + "! ")]
    return any(text in line for line in found), found


def check_absent(lines, field):
    """!F: the frame has no field or expert info F."""
    name = field[1:]
    prefix = name[len("bthome.expert."):] + "! " if name.startswith("bthome.expert.") \
        else name + " = "
    found = [line for line in lines if line.startswith(prefix)]
    return not found, found


def check_spec(actual, spec_file):
    """Each row: frame, object bytes, field, value as the spec states it (or an expert
    info the frame must, or with "!" must not, carry)."""
    frames = {}
    current = None
    for line in actual:
        if line.startswith("# frame "):
            current = frames.setdefault(line.split()[2], [])
        else:
            current.append(line)
    errors = []
    used = {}  # (frame, field) -> occurrences already matched: repeated objects in order
    with open(spec_file, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            lines = frames.get(row["frame"], [])
            if row["field"].startswith("!") or row["field"].startswith("bthome.expert."):
                ok, found = check_absent(lines, row["field"]) if row["field"].startswith("!") \
                    else check_expert(lines, row["field"], row["expected"])
                if not ok:
                    errors.append(f"frame {row['frame']}: want {row['field']} "
                                  f"\"{row['expected']}\", got {found}")
                continue
            want = f"{row['field']} = {row['expected']}"
            key = (row["frame"], row["field"])
            got = [line for line in frames.get(row["frame"], [])
                   if line.startswith(row["field"] + " = ")]
            n = used.get(key, 0)
            used[key] = n + 1
            if n >= len(got) or not same_value(got[n], want):
                errors.append(f"frame {row['frame']} ({row['object_bytes']}): want {want} "
                              f"(occurrence {n + 1}), got {got}")
    return errors


def same_value(line, want):
    """want is "field = value as the spec states it": compare with the field's value
    (numerically when both are numbers) or with the value text of its label, whose
    first part is the named value ("Dimmer: rotate_left, 3 steps"). "2 (bright)"
    wants both the value 2 and the name bright."""
    name, _, rest = line.partition(" = ")
    wname, _, wvalue = want.partition(" = ")
    if name != wname:
        return False
    value, _, label = rest.partition(" (")
    label_value = label[:-1].partition(": ")[2]
    if wvalue in (value, label_value, label_value.split(", ")[0]):
        return True
    both = re.fullmatch(r"(\S+) \((.+)\)", wvalue)
    if both:
        return same_value(line, f"{wname} = {both.group(1)}") and \
            same_value(line, f"{wname} = {both.group(2)}")
    try:
        if float(value) == float(wvalue):
            return True
    except ValueError:
        pass
    return wvalue in (value, label_value, label_value.split(", ")[0])


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    plugin, capture, expected = sys.argv[1:]
    with IsolatedTshark(plugin) as ws:
        actual = dissect(ws, capture)
    with open(expected, encoding="utf-8") as f:
        diff = list(difflib.unified_diff(f.read().splitlines(), actual, expected, "tshark",
                                         lineterm=""))
    print("\n".join(diff) or f"{capture}: {len(actual)} lines as {expected}")
    sys.exit(1 if diff or not actual else 0)


if __name__ == "__main__":
    main()
