#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Numbers never depend on the locale: under a locale whose decimal mark is a comma
(de_DE.UTF-8, generated here with localedef into a temporary LOCPATH), the plugin's text
is byte for byte what the C locale gives.

    locale_test.py --plugin bthome.so --captures captures/     # tshark, v1 and v2
    locale_test.py --unit build/tests/test_v1                  # the core's unit test

With --plugin: the Info column, the BTHome trees (-O bthome), PDML and fields of v1 and
v2 captures must be identical, but for Wireshark's own capture time in PDML (its time
zone name is in the locale's language on Windows). Statistics numbers are Wireshark's
own text (its stats trees and tshark's table printing use the locale, for plen as much
as for BTHome): they are checked to differ only in the decimal mark. Some of Wireshark's
own text must change (the decimal mark on Linux, the time zone name under Wine), or the
locale was not in effect and the test proves nothing. With --unit: the unit test runs with
the locale available and must use it (BTHOME_TEST_LOCALE).
Fails, saying why, when the locale cannot be generated (the locales package provides
its sources: apt install locales).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from wsrun import IsolatedTshark, key_options  # noqa: E402

LOCALE = "de_DE.UTF-8"

# (capture, keys or None, tshark arguments)
RUNS = [
    ("v1-examples-ll.pcap", None, []),
    ("v1-examples-ll.pcap", None, ["-O", "bthome"]),
    ("v1-examples-ll.pcap", None, ["-T", "pdml", "-J", "bthome"]),
    ("v1-encrypted-ll.pcap", "v1-encrypted.keys", ["-O", "bthome"]),
    ("all-objects-ll.pcap", None, []),
    ("all-objects-ll.pcap", None, ["-O", "bthome"]),
    ("all-objects-ll.pcap", None, ["-T", "pdml", "-J", "bthome"]),
    ("bthome-demo.pcapng", None, ["-T", "fields", "-e", "bthome.temperature",
                                  "-e", "bthome.humidity", "-e", "bthome.pressure"]),
]
STATS = ("bthome-demo.pcapng", ["-q", "-z", "bthome,tree", "-z", "bthome,readings"])
# Wireshark's own text in PDML that may follow the locale: the capture time names the
# local time zone, in the locale's language on Windows ("Westafrikanische Normalzeit").
OWN_TIME = re.compile(r'^ *<field name="timestamp" .*\n', re.M)


def make_locale(tmp):
    """A LOCPATH folder holding de_DE.UTF-8, readable by everyone (tshark may run as
    nobody)."""
    if not shutil.which("localedef"):
        sys.exit("locale_test: FAILED: no localedef (libc-bin) to generate " + LOCALE)
    path = os.path.join(tmp, "locales")
    os.makedirs(path)
    proc = subprocess.run(["localedef", "-i", "de_DE", "-f", "UTF-8",
                           os.path.join(path, LOCALE)], capture_output=True, text=True)
    if not os.path.isdir(os.path.join(path, LOCALE)):
        sys.exit(f"locale_test: FAILED: cannot generate {LOCALE} with localedef "
                 f"(is the locales package installed?): {proc.stderr.strip()}")
    for root, dirs, files in os.walk(tmp):
        for name in dirs + files:
            os.chmod(os.path.join(root, name), 0o755)
    os.chmod(tmp, 0o755)
    return path


def tshark_output(plugin, locale, locpath, args):
    os.environ["LOCPATH"] = locpath
    with IsolatedTshark(plugin, locale=locale) as ws:
        out = ws.run(args).stdout
    # PDML's header names the run's time and temporary copy of the capture
    return re.sub(r"<pdml [^>]*>", "<pdml>", out)


def check_plugin(plugin, captures, locpath):
    failures = 0
    own_text_changed = False    # the proof that the locale is in effect
    for capture, keys, args in RUNS:
        full = ["-r", os.path.join(captures, capture)] + args + key_options(
            os.path.join(captures, keys) if keys else None)
        c_full = tshark_output(plugin, "C.UTF-8", locpath, full)
        de_full = tshark_output(plugin, LOCALE, locpath, full)
        c_text, de_text = OWN_TIME.sub("", c_full), OWN_TIME.sub("", de_full)
        own_text_changed |= c_text == de_text and c_full != de_full
        what = f"{capture} {' '.join(args) or '(summary)'}"
        if not c_text.strip():
            print(f"FAIL {what}: no output")
            failures += 1
        elif c_text != de_text:
            diff = [f"  C:     {a}\n  {LOCALE}: {b}" for a, b in
                    zip(c_text.splitlines(), de_text.splitlines()) if a != b]
            print(f"FAIL {what}: differs under {LOCALE}:\n" + "\n".join(diff[:5]))
            failures += 1
        else:
            print(f"ok   {what}: {len(c_text.splitlines())} lines, the same")
    capture, args = STATS
    full = ["-r", os.path.join(captures, capture)] + args
    c_text = tshark_output(plugin, "C.UTF-8", locpath, full)
    de_text = tshark_output(plugin, LOCALE, locpath, full)
    own_text_changed |= bool(re.search(r"\d,\d", de_text))
    if re.sub(r"(\d),(\d)", r"\1.\2", de_text) != c_text:
        print(f"FAIL statistics under {LOCALE} differ beyond Wireshark's decimal mark")
        failures += 1
    else:
        print(f"ok   statistics: the same but for Wireshark's own decimal mark")
    if not own_text_changed:
        print(f"FAIL the locale is not in effect in tshark: none of Wireshark's own text "
              f"(statistics' decimal mark, time zone name) changed under {LOCALE}")
        failures += 1
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plugin")
    ap.add_argument("--captures")
    ap.add_argument("--unit")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="bthome-locale-")
    try:
        locpath = make_locale(tmp)
        if a.unit:
            env = dict(os.environ, LOCPATH=locpath, BTHOME_TEST_LOCALE=LOCALE)
            return subprocess.run([a.unit], env=env).returncode
        failures = check_plugin(a.plugin, a.captures, locpath)
        print(f"locale: {'FAILED' if failures else 'passed'} ({failures} failures)")
        return 1 if failures else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
