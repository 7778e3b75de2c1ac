# SPDX-License-Identifier: GPL-2.0-or-later
"""The BTHome configuration profile (profile/BTHome) with the real tshark and the plugin.

The profile goes into the temporary config dir's profiles/ folder and every run says
`-C BTHome`, as a user would. Checked:
  - columns: Device (name and MAC) and RSSI hold what the captures' generator
    (captures/make_captures.py) put into each advert, on every link type of the interop set
    and on the demo capture; Info is the set's expected Info column (tests/tshark/expected);
  - colouring rules (tshark --color, frame.coloring_rule.name: the first rule that
    matches, as in the packet list) and filter buttons (-Y) match exactly the frames
    tests/tshark/expected/profile-filters.txt lists;
  - the Problems button is every warning and error expert info of docs/fields.md, and the
    profile names only fields that docs/fields.md documents;
  - the I/O graphs are well-formed rows of Wireshark's io_graphs table (the GUI reads it,
    tshark does not) whose filters and Y fields compile;
  - nothing is printed on stderr: tshark reports bad preferences, colouring rules and
    filter-button rows there.

    python3 -m pytest tests/tshark/profile_test.py
"""
import csv
import importlib.util
import os
import re
import shutil
import sys
from pathlib import Path

import pytest

from tests.lib.wsrun import IsolatedTshark, key_options

# The profile's files, which no build of the plugin changes: the in-tree and Windows
# stages leave these to the host's suite (profile_files).
pytestmark = [pytest.mark.tshark, pytest.mark.profile_files]

ROOT = Path(__file__).resolve().parents[2]
PROFILE_DIR = str(ROOT / "profile" / "BTHome")
CAPTURES = str(ROOT / "captures")
EXPECTED_DIR = str(ROOT / "tests" / "tshark" / "expected")
EXPECTED = os.path.join(EXPECTED_DIR, "profile-filters.txt")
FIELDS_DOC = str(ROOT / "docs" / "fields.md")
PROFILE = "BTHome"
LINK_TYPES = ("ll", "ll-phdr", "ll-ext", "nrf-sniffer", "hci-h4", "hci-h4-ext", "btmon",
              "btsnoop", "btmon-snoop")
HCI_LINK_TYPES = ("hci-h4", "hci-h4-ext", "btmon", "btsnoop", "btmon-snoop")
# Wireshark's default columns, kept, and the profile's own.
COLUMNS = ("No.", "Time", "Source", "Destination", "Protocol", "Length", "Device", "RSSI",
           "Info")
BTHOME_UUIDS = (0xFCD2, 0x181C, 0x181E)
# The I/O graph table's values that Wireshark 4.0 to 4.6 all accept.
IO_GRAPH_STYLES = ("Line", "Impulse", "Bar", "Stacked Bar", "Dot", "Square", "Diamond")
IO_GRAPH_Y_AXES = ("Packets", "Bytes", "Bits", "SUM(Y Field)", "COUNT FRAMES(Y Field)",
                   "COUNT FIELDS(Y Field)", "MAX(Y Field)", "MIN(Y Field)", "AVG(Y Field)",
                   "LOAD(Y Field)")


class ProfileTshark(IsolatedTshark):
    """An isolated tshark whose config dir holds the profile; every run must be silent on
    stderr."""

    def __init__(self, plugin, profile_dir):
        super().__init__(plugin)
        config = os.path.join(self.tmp, "config")
        shutil.copytree(profile_dir, os.path.join(config, "profiles", PROFILE))
        for root, dirs, files in os.walk(config):   # as root, tshark runs as nobody
            for name in dirs:
                os.chmod(os.path.join(root, name), 0o777)
            for name in files:
                os.chmod(os.path.join(root, name), 0o644)
        os.chmod(config, 0o777)
        self.problems = []

    def lines(self, args):
        proc = self.run(["-C", PROFILE] + args, check=False)
        if proc.returncode or proc.stderr.strip():
            self.problems.append(f"tshark {' '.join(args)} exited {proc.returncode}:\n"
                                 f"{proc.stderr}")
        return proc.stdout.splitlines()


def uat_rows(path):
    """The rows of a UAT file (comma-separated quoted fields, # comments)."""
    with open(path, encoding="utf-8") as f:
        return [row for row in csv.reader(line for line in f
                                          if line.strip() and not line.startswith("#"))]


def color_rules(path):
    """(name, filter) of each colouring rule, in order."""
    rules = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"@([^@]+)@(.+)@\[\d+,\d+,\d+\]\[\d+,\d+,\d+\]$", line.rstrip("\n"))
            if m:
                rules.append((m.group(1), m.group(2)))
            elif line.strip() and not line.startswith("#"):
                raise ValueError(f"{path}: not a colouring rule: {line!r}")
    return rules


def load_generator(captures):
    spec = importlib.util.spec_from_file_location(
        "make_captures", os.path.join(captures, "make_captures.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_captures"] = module   # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


def ad_structures(adv):
    pos = 0
    while pos + 1 < len(adv.data):
        length = adv.data[pos]
        yield adv.data[pos + 1], adv.data[pos + 2:pos + 1 + length]
        pos += 1 + length


def expected_columns(adverts, link):
    """(Device, RSSI) of each advert: the Local Name (this advert's, else the device's
    last one) and the MAC, for BTHome adverts; the receiver's RSSI wherever the link
    carries one (all but plain LL)."""
    names = {}
    out = []
    for adv in adverts:
        name, bthome = None, False
        for ad_type, data in ad_structures(adv):
            if ad_type == 0x09:
                name = data.decode()
            if ad_type == 0x16 and int.from_bytes(data[:2], "little") in BTHOME_UUIDS:
                bthome = True
        if name:
            names[adv.mac] = name
        device = ""
        if bthome:
            device = adv.mac.lower()
            if adv.mac in names:
                device = f"{names[adv.mac]},{device}"
        out.append((device, "" if link == "ll" else str(adv.rssi)))
    return out


def check_columns(ws, capture, adverts, link, info, failures, keys=()):
    """The summary lines as tshark prints them with the profile (-T tabs: one field per
    column, and "→" between Source and Destination)."""
    rows = [line.split("\t") for line in ws.lines(["-r", capture, "-T", "tabs"] + list(keys))]
    expected = expected_columns(adverts, link)
    if len(rows) != len(expected):
        failures.append(f"{capture}: {len(rows)} frames, the generator made {len(expected)}")
        return
    for row, (device, rssi), want_info in zip(rows, expected, info):
        row = [field.strip() for field in row if field.strip() != "→"]
        if len(row) != len(COLUMNS) or not all(row[i] for i in range(6)):
            failures.append(f"{capture}: not the profile's columns {COLUMNS}: {row}")
            continue
        got = dict(zip(COLUMNS, row))
        want = {"Device": device, "RSSI": rssi, "Info": want_info}
        for column, value in want.items():
            if got[column] != value:
                failures.append(f"{capture} frame {got['No.']}: {column} {got[column]!r}, "
                                f"expected {value!r}")


def frame_list(text):
    """'1 3-5' -> [1, 3, 4, 5]; '-' -> []."""
    frames = []
    for part in text.split():
        if part == "-":
            continue
        first, _, last = part.partition("-")
        frames += range(int(first), int(last or first) + 1)
    return frames


def read_expected(path):
    """{set: {(kind, name): [frames]}} and the link types each set runs on."""
    expected, links = {}, {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.rstrip("\n").split("\t")
            if fields[0] == "links":
                links[fields[1]] = fields[2].split()
                continue
            set_name, kind, name, frames = fields
            expected.setdefault(set_name, {})[(kind, name)] = frame_list(frames)
    return expected, links


def capture_path(captures, set_name, link):
    if set_name == "bthome-demo":
        return os.path.join(captures, "bthome-demo.pcapng")
    ext = "log" if link in ("btsnoop", "btmon-snoop") else "pcap"
    return os.path.join(captures, f"{set_name}-{link}.{ext}")


def check_filters(ws, rules, buttons, failures):
    expected, links = read_expected(EXPECTED)
    matched = set()
    names = [("colour", name) for name, _ in rules] + [("button", b[1]) for b in buttons]
    for set_name, want in expected.items():
        missing = [n for n in names if n not in want]
        if missing:
            failures.append(f"{EXPECTED}: {set_name} lists no frames for {missing}")
        keys_file = os.path.join(CAPTURES, f"{set_name}.keys")
        keys = key_options(keys_file if os.path.exists(keys_file) else None)
        for link in links.get(set_name, ["ll"]):
            capture = capture_path(CAPTURES, set_name, link)
            by_rule = {}
            for line in ws.lines(["-r", capture, "--color", "-T", "fields", "-e",
                                  "frame.number", "-e", "frame.coloring_rule.name"] + keys):
                number, _, rule = line.partition("\t")
                by_rule.setdefault(rule, []).append(int(number))
            for name, _ in rules:
                got = by_rule.get(name, [])
                if got != want.get(("colour", name), []):
                    failures.append(f"{capture}: colouring rule {name!r} colours {got}, "
                                    f"expected {want.get(('colour', name))}")
                matched.update([("colour", name)] if got else [])
            if link != links.get(set_name, ["ll"])[0]:
                continue    # the buttons on the set's first link type only
            for _, label, expression, _ in buttons:
                got = [int(n) for n in ws.lines(["-r", capture, "-Y", expression, "-T",
                                                 "fields", "-e", "frame.number"] + keys)]
                if got != want.get(("button", label), []):
                    failures.append(f"{capture}: button {label!r} ({expression}) shows {got}, "
                                    f"expected {want.get(('button', label))}")
                matched.update([("button", label)] if got else [])
    for name in names:
        if name not in matched:
            failures.append(f"{name[0]} {name[1]!r} matches no frame of any capture")


def documented(fields_doc):
    """(every field name of docs/fields.md, the expert infos of warning or error severity)."""
    with open(fields_doc, encoding="utf-8") as f:
        text = f.read()
    names = {"bthome"} | set(re.findall(r"^\| `(bthome\.[a-z0-9_.]+)`", text, re.MULTILINE))
    problems = set(re.findall(r"^\| `(bthome\.expert\.[a-z0-9_]+)` \| (?:warning|error) ",
                              text, re.MULTILINE))
    return names, problems


def check_names(rules, buttons, graphs, failures):
    names, problems = documented(FIELDS_DOC)
    if not problems:
        failures.append(f"{FIELDS_DOC}: no expert info of warning or error severity found")
    texts = [f for _, f in rules] + [b[2] for b in buttons] + [g[2] for g in graphs] + \
        [g[6] for g in graphs]
    with open(os.path.join(PROFILE_DIR, "preferences"), encoding="utf-8") as f:
        texts.append(f.read())
    with open(os.path.join(PROFILE_DIR, "dfilters"), encoding="utf-8") as f:
        texts.append(f.read())
    used = {name for text in texts for name in re.findall(r"\bbthome(?:\.[a-z0-9_]+)*", text)}
    for name in sorted(used - names):
        failures.append(f"the profile uses {name}, which docs/fields.md does not list")
    problem_button = [b[2] for b in buttons if b[1] == "Problems"]
    got = set(re.findall(r"bthome\.expert\.[a-z0-9_]+", problem_button[0])) if problem_button \
        else set()
    if got != problems:
        failures.append(f"the Problems button has {sorted(got)}, the warning and error expert "
                        f"infos are {sorted(problems)}")


def check_io_graphs(ws, graphs, failures):
    capture = os.path.join(CAPTURES, "bthome-demo.pcapng")
    for row in graphs:
        if len(row) != 9:
            failures.append(f"io_graphs: {len(row)} fields, Wireshark 4.0 reads 9: {row}")
            continue
        enabled, name, dfilter, color, style, y_axis, y_field, sma, factor = row
        if enabled not in ("Enabled", "Disabled") or not name or \
                not re.fullmatch(r"#[0-9A-F]{6}", color) or style not in IO_GRAPH_STYLES or \
                y_axis not in IO_GRAPH_Y_AXES or sma != "None" or factor != "1":
            failures.append(f"io_graphs: a value Wireshark 4.0 to 4.6 does not take: {row}")
        if (y_axis == "Packets") == bool(y_field):
            failures.append(f"io_graphs: {name}: a Y field goes with a calculation: {row}")
        frames = ws.lines(["-r", capture, "-Y", dfilter, "-T", "fields", "-e", "frame.number"]
                          + (["-e", y_field] if y_field else []))
        if not frames:
            failures.append(f"io_graphs: {name}: {dfilter} matches nothing in {capture}")
        if y_field and not all(line.split("\t")[1] for line in frames):
            failures.append(f"io_graphs: {name}: {y_field} missing where {dfilter} matches")


def check_files_parse(ws):
    """Preferences, colouring rules and filter buttons load without a message, and the
    saved display filters (dfilters: "name" filter, which only the GUI reads) compile."""
    demo = os.path.join(CAPTURES, "bthome-demo.pcapng")
    ws.lines(["-r", demo, "--color", "-c", "1"])
    with open(os.path.join(PROFILE_DIR, "dfilters"), encoding="utf-8") as f:
        for line in f:
            m = re.fullmatch(r'"([^"]+)" (.+)', line.rstrip("\n"))
            if not m:
                ws.problems.append(f"dfilters: not a saved filter: {line!r}")
                continue
            ws.lines(["-r", demo, "-Y", m.group(2), "-c", "1"])


@pytest.fixture(scope="module")
def profile_files():
    """(colouring rules, filter buttons, I/O graphs) of the profile."""
    return (color_rules(os.path.join(PROFILE_DIR, "colorfilters")),
            uat_rows(os.path.join(PROFILE_DIR, "dfilter_buttons")),
            uat_rows(os.path.join(PROFILE_DIR, "io_graphs")))


@pytest.fixture(scope="module")
def generator():
    return load_generator(CAPTURES)


@pytest.fixture
def pws(plugin):
    """tshark with the plugin and the profile installed, run with -C BTHome."""
    with ProfileTshark(plugin, PROFILE_DIR) as ws:
        yield ws


def assert_none(failures, ws=None):
    """No failure, and (with ws) no message of tshark on stderr."""
    failures = failures + (ws.problems if ws else [])
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures)


def test_files_parse(pws):
    """Preferences, colouring rules and filter buttons load without a message; the saved
    display filters compile."""
    check_files_parse(pws)
    assert_none([], pws)


@pytest.mark.parametrize("link", LINK_TYPES)
def test_interop_columns(pws, generator, link):
    """Device, RSSI and Info of the interop set on each link type."""
    info_file = os.path.join(EXPECTED_DIR, "interop.info")
    for variant in (["interop-hci"] if link in HCI_LINK_TYPES else []) + \
            (["interop-ll-ext"] if link == "ll-ext" else []):
        if os.path.exists(os.path.join(EXPECTED_DIR, f"{variant}.info")):
            info_file = os.path.join(EXPECTED_DIR, f"{variant}.info")
    with open(info_file, encoding="utf-8") as f:
        info = f.read().splitlines()
    failures = []
    check_columns(pws, capture_path(CAPTURES, "interop", link), generator.interop()[0].adverts,
                  link, info, failures, key_options(os.path.join(CAPTURES, "interop.keys")))
    assert_none(failures, pws)


def test_demo_columns(pws, plugin, generator):
    """The demo capture's columns; its Info is what Wireshark shows without the profile
    (the profile keeps it)."""
    demo = capture_path(CAPTURES, "bthome-demo", "ll-phdr")
    with IsolatedTshark(plugin) as plain:
        demo_info = [line.split("\t")[-1] for line in
                     plain.run(["-r", demo, "-T", "tabs"]).stdout.splitlines()]
    failures = []
    check_columns(pws, demo, [a for event in generator.demo() for a in event.adverts],
                  "ll-phdr", demo_info, failures)
    assert_none(failures, pws)


def test_filters(pws, profile_files):
    """Colouring rules and filter buttons match the frames profile-filters.txt lists, and
    each matches some frame."""
    rules, buttons, _ = profile_files
    failures = []
    check_filters(pws, rules, buttons, failures)
    assert_none(failures, pws)


def test_io_graphs(pws, profile_files):
    failures = []
    check_io_graphs(pws, profile_files[2], failures)
    assert_none(failures, pws)


def test_field_names(profile_files):
    """The profile names only documented fields; Problems is every warning and error."""
    failures = []
    check_names(*profile_files, failures)
    assert_none(failures)
