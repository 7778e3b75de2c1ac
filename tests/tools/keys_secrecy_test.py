#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A rejected key is described, never shown (issue 48): tools/bthome-keys fed bad keys from
every kind of source (Home Assistant's core.config_entries, an ESPHome YAML with a plain,
a quoted and a !secret bindkey, a plain list), a key where a MAC belongs, a keys file with
a line Wireshark cannot read, in every mode (into a profile, --dry-run, --keys-file,
--print-o, --skip-invalid), and the plugin's "BTHome keys" table given bad rows through
tshark: no 8 hex digits in a row of any of those keys appear on standard output or
error, with or without the ':', '-' and spaces between them; each message still names
the line or entry and what is wrong.

    keys_secrecy_test.py --tool tools/bthome-keys [--plugin bthome.so --capture X.pcap]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from wsrun import Checks, IsolatedTshark  # noqa: E402

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


def check_tool(check, tool, tmp):
    confdir = os.path.join(tmp, "config")
    os.makedirs(confdir)
    env = dict(os.environ, WIRESHARK_CONFIG_DIR=confdir, HOME=tmp, LC_ALL="C.UTF-8")
    env.pop("WIRESHARK_DATA_DIR", None)
    keys_file = os.path.join(tmp, "bthome_keys")
    modes = [("into the default profile", []), ("--dry-run", ["--dry-run"]),
             ("--keys-file", ["--keys-file", keys_file]), ("--print-o", ["--print-o"]),
             ("--skip-invalid", ["--skip-invalid", "--print-o"]),
             ("--skip-invalid into a profile", ["--skip-invalid", "--dry-run"])]
    for kind, path, wanted in sources(tmp):
        for mode, options in modes:
            proc = run(tool, [*options, path], env)
            out = proc.stdout + proc.stderr
            missing = [w for w in wanted if w not in proc.stderr]
            check(proc.returncode in (1, 3) and not leaks(out) and not missing,
                  f"{kind}, {mode}: every bad key described, none shown",
                  f"exit {proc.returncode}, leaked {leaks(out)}, missing {missing}:\n{out}")
    # a bthome_keys file with a line Wireshark cannot read, and a row it refuses
    write(keys_file, f'"A4:C1:38:E0:40:01" "{KLINE}"\n"{KMAC}","{KLINE}","refused"\n')
    good = write(os.path.join(tmp, "good.txt"),
                 "A4:C1:38:E0:40:02 00112233445566778899aabbccddeeff ok\n")
    proc = run(tool, ["--keys-file", keys_file, good], env)
    out = proc.stdout + proc.stderr
    check(proc.returncode == 1 and "line 1: not a row Wireshark reads" in proc.stderr
          and not leaks(out), "a keys file line Wireshark cannot read: named, not shown", out)
    write(keys_file, f'"{KMAC}","{KLINE}","refused"\n')
    proc = run(tool, ["--keys-file", keys_file, "--dry-run", good], env)
    out = proc.stdout + proc.stderr
    check(proc.returncode == 0 and "line 1 (a value of 32 characters" in proc.stdout
          and not leaks(out), "a refused row of the keys file: pointed out, its MAC not shown",
          out)


def check_plugin(check, plugin, capture):
    rows = [f'"54:48:E6:8F:80:A5","{K31}","short"', f'"54:48:E6:8F:80:A5","{KNOTHEX}","g"',
            f'"54:48:E6:8F:80:A5","{KCOLONS}","colons"', f'"{KMAC}","{KLINE}","swapped"']
    wanted = ["31 hex digits", "'g' (character 27)", "31 hex digits", "Bad MAC (32 characters"]
    with IsolatedTshark(plugin) as ws:
        for row, want in zip(rows, wanted):
            # in the profile's file: tshark echoes a bad -o option itself, whatever the
            # plugin says
            ws.write_config("bthome_keys", row + "\n")
            proc = ws.run(["-n", "-r", capture, "-c", "1"], check=False)
            out = proc.stdout + proc.stderr
            check(want in proc.stderr and not leaks(out),
                  f"tshark, the keys table refusing {row[:24]}...: described, not shown",
                  f"exit {proc.returncode}, leaked {leaks(out)}: {out.strip()}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--plugin")
    ap.add_argument("--capture")
    args = ap.parse_args()
    check = Checks()
    with tempfile.TemporaryDirectory(prefix="bthome-secrecy-") as tmp:
        check_tool(check, args.tool, tmp)
    if args.plugin:
        check_plugin(check, args.plugin, args.capture)
    return check.summary("keys-secrecy")


if __name__ == "__main__":
    sys.exit(main())
