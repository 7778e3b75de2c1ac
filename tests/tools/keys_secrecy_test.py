# SPDX-License-Identifier: GPL-2.0-or-later
"""A rejected key is described, never shown (issue 48): tools/bthome-keys fed bad keys from
every kind of source (Home Assistant's core.config_entries, an ESPHome YAML with a plain,
a quoted and a !secret bindkey, a plain list), a key where a MAC belongs, a keys file with
a line Wireshark cannot read, in every mode (into a profile, --dry-run, --keys-file,
--print-o, --skip-invalid), and the plugin's "BTHome keys" table given bad rows through
tshark: no 8 hex digits in a row of any of those keys appear on standard output or
error, with or without the ':', '-' and spaces between them; each message still names
the line or entry and what is wrong.

    python3 -m pytest tests/tools/keys_secrecy_test.py
"""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.lib.wsrun import Checks

pytestmark = [pytest.mark.tshark, pytest.mark.key_import]

ROOT = Path(__file__).resolve().parents[2]
TOOL = str(ROOT / "tools" / "bthome-keys")
CAPTURE = str(ROOT / "captures" / "encrypted-ll.pcap")

# Made-up keys, each bad in its own way: 31 digits, 33 digits, a letter that is not hex,
# a tab inside, colons between the bytes and one digit short.
K31 = "7a3c9e1f5b2d8046a1c3e5f7092b4d6"
K33 = "e4d2c0b8a6947282f0e1d3c5b7a99876f"
KNOTHEX = "5f4e3d2c1b0a99887766554433g21100"
KTAB = "0a1b2c3d4e5f60718293a4b5c6d7e8f9\t"
KCOLONS = "c0:ff:ee:12:34:56:78:9a:bc:de:f0:12:34:56:78:9"
KMAC = "9f8e7d6c5b4a39281706f5e4d3c2b1a0"      # a key where the MAC belongs
KLINE = "1357acef2468bdf01357acef2468bdf0"     # in a keys file line Wireshark cannot read
SECRET_KEYS = [K31, K33, KNOTHEX, KTAB, KCOLONS, KMAC, KLINE]


def digits(text):
    return re.sub(r"[^0-9a-f]", "", text.lower())


def leaks(output):
    """The runs of 8 digits of a secret key found in output, as is or without the
    characters between the digits."""
    plain = output.lower()
    squeezed = re.sub(r"[:\- \t]", "", plain)
    found = []
    for key in SECRET_KEYS:
        d = digits(key)
        for i in range(len(d) - 7):
            if d[i:i + 8] in plain or d[i:i + 8] in squeezed:
                found.append(d[i:i + 8])
                break
    return found


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def sources(tmp):
    """(kind, path, what each message must say) of every source kind."""
    ha = write(os.path.join(tmp, "ha", ".storage", "core.config_entries"), json.dumps({
        "version": 1, "minor_version": 5, "key": "core.config_entries",
        "data": {"entries": [
            {"entry_id": "01JKAAAAAAAAAAAAAAAAAAAAA1", "domain": "bthome", "title": "Short",
             "unique_id": "A4:C1:38:E0:10:01", "data": {"bindkey": K31}},
            {"entry_id": "01JKAAAAAAAAAAAAAAAAAAAAA2", "domain": "bthome", "title": "Long",
             "unique_id": "A4:C1:38:E0:10:02", "data": {"bindkey": K33}},
            {"entry_id": "01JKAAAAAAAAAAAAAAAAAAAAA3", "domain": "bthome", "title": "Swapped",
             "unique_id": KMAC, "data": {"bindkey": KLINE}},
        ]}}, indent=2))
    yaml_dir = os.path.join(tmp, "esphome")
    write(os.path.join(yaml_dir, "secrets.yaml"), f'tab_key: "{KTAB}"\n')
    yaml = write(os.path.join(yaml_dir, "node.yaml"),
                 "sensor:\n"
                 "  - platform: bthome_mithermometer\n"
                 "    mac_address: A4:C1:38:E0:20:01\n"
                 f"    bindkey: {KNOTHEX}\n"
                 "  - platform: bthome_mithermometer\n"
                 "    mac_address: A4:C1:38:E0:20:02\n"
                 f'    bindkey: "{KCOLONS}"\n'
                 "  - platform: bthome_mithermometer\n"
                 "    mac_address: A4:C1:38:E0:20:03\n"
                 "    bindkey: !secret tab_key\n"
                 "  - platform: bthome_mithermometer\n"
                 "    mac_address: A4:C1:38:E0:20:04\n"
                 f"    bindkey: [{K31}]\n")
    plain = write(os.path.join(tmp, "keys.txt"),
                  f"A4:C1:38:E0:30:01 {K31} short\n"
                  f"A4:C1:38:E0:30:02 {KNOTHEX} not hex\n"
                  f"{KMAC} {KLINE} swapped\n")
    return [
        ("Home Assistant", ha, ["entry 01JKAAAAAAAAAAAAAAAAAAAAA1", "31 hex digits",
                                "33 hex digits", "not a MAC", "not shown"]),
        ("ESPHome YAML", yaml, ["line 4", '"g" (character 27)', "line 7", "31 hex digits",
                                "line 10", "a tab (character 33)", "line 13",
                                "cannot read a value"]),
        ("plain list", plain, ["line 1", "31 hex digits", "line 2", '"g"', "line 3",
                               "not a MAC"]),
    ]


def run(tool, args, env):
    return subprocess.run([sys.executable, tool, *args], capture_output=True, text=True,
                          env=env, check=False, stdin=subprocess.DEVNULL)


def tool_env(tmp):
    confdir = os.path.join(tmp, "config")
    os.makedirs(confdir)
    env = dict(os.environ, WIRESHARK_CONFIG_DIR=confdir, HOME=tmp, LC_ALL="C.UTF-8")
    env.pop("WIRESHARK_DATA_DIR", None)
    return env


@pytest.mark.parametrize("kind", [
    pytest.param("Home Assistant", id="home-assistant"),
    pytest.param("ESPHome YAML", id="esphome"),
    pytest.param("plain list", id="plain-list"),
])
def test_bad_keys(tmp_path, kind):
    """Each source kind's bad keys in every mode: described, none shown."""
    checks = Checks()
    tmp = str(tmp_path)
    env = tool_env(tmp)
    keys_file = os.path.join(tmp, "bthome_keys")
    modes = [("into the default profile", []), ("--dry-run", ["--dry-run"]),
             ("--keys-file", ["--keys-file", keys_file]), ("--print-o", ["--print-o"]),
             ("--skip-invalid", ["--skip-invalid", "--print-o"]),
             ("--skip-invalid into a profile", ["--skip-invalid", "--dry-run"])]
    path, wanted = {k: (p, w) for k, p, w in sources(tmp)}[kind]
    for mode, options in modes:
        proc = run(TOOL, [*options, path], env)
        out = proc.stdout + proc.stderr
        missing = [w for w in wanted if w not in proc.stderr]
        checks(proc.returncode in (1, 3) and not leaks(out) and not missing,
               f"{kind}, {mode}: every bad key described, none shown",
               f"exit {proc.returncode}, leaked {leaks(out)}, missing {missing}:\n{out}")
    checks.assert_all()


def test_bad_keys_file(tmp_path):
    """A bthome_keys file with a line Wireshark cannot read, and a row it refuses."""
    checks = Checks()
    tmp = str(tmp_path)
    env = tool_env(tmp)
    keys_file = os.path.join(tmp, "bthome_keys")
    write(keys_file, f'"A4:C1:38:E0:40:01" "{KLINE}"\n"{KMAC}","{KLINE}","refused"\n')
    good = write(os.path.join(tmp, "good.txt"),
                 "A4:C1:38:E0:40:02 00112233445566778899aabbccddeeff ok\n")
    proc = run(TOOL, ["--keys-file", keys_file, good], env)
    out = proc.stdout + proc.stderr
    checks(proc.returncode == 1 and "line 1: not a row Wireshark reads" in proc.stderr
           and not leaks(out), "a keys file line Wireshark cannot read: named, not shown", out)
    write(keys_file, f'"{KMAC}","{KLINE}","refused"\n')
    proc = run(TOOL, ["--keys-file", keys_file, "--dry-run", good], env)
    out = proc.stdout + proc.stderr
    checks(proc.returncode == 0 and "line 1 (a value of 32 characters" in proc.stdout
           and not leaks(out), "a refused row of the keys file: pointed out, its MAC not shown",
           out)
    checks.assert_all()


# Rows of the plugin's keys table, each with the description tshark must give.
TABLE_ROWS = [
    pytest.param(f'"54:48:E6:8F:80:A5","{K31}","short"', "31 hex digits", id="short"),
    pytest.param(f'"54:48:E6:8F:80:A5","{KNOTHEX}","g"', "'g' (character 27)", id="not-hex"),
    pytest.param(f'"54:48:E6:8F:80:A5","{KCOLONS}","colons"', "31 hex digits", id="colons"),
    pytest.param(f'"{KMAC}","{KLINE}","swapped"', "Bad MAC (32 characters", id="key-as-mac"),
]


@pytest.mark.parametrize("row, want", TABLE_ROWS)
def test_keys_table(ws, row, want):
    """tshark, the keys table refusing a row: described, not shown."""
    # in the profile's file: tshark echoes a bad -o option itself, whatever the plugin says
    ws.write_config("bthome_keys", row + "\n")
    proc = ws.run(["-n", "-r", CAPTURE, "-c", "1"], check=False)
    out = proc.stdout + proc.stderr
    assert not leaks(out), f"leaked {leaks(out)}: {out.strip()}"
    assert want in proc.stderr, f"exit {proc.returncode}: {out.strip()}"
