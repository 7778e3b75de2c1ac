# SPDX-License-Identifier: GPL-2.0-or-later
"""Numbers never depend on the locale: under a locale whose decimal mark is a comma
(de_DE.UTF-8, generated here with localedef into a temporary LOCPATH), the plugin's text
is byte for byte what the C locale gives.

    python3 -m pytest tests/tshark/locale_test.py

tshark: the Info column, the BTHome trees (-O bthome), PDML and fields of v1 and v2
captures must be identical, but for Wireshark's own capture time in PDML (its time zone
name is in the locale's language on Windows). Statistics numbers are Wireshark's own text
(its stats trees and tshark's table printing use the locale, for plen as much as for
BTHome): they are checked to differ only in the decimal mark. Some of Wireshark's own
text must change (the decimal mark on Linux, the time zone name under Wine), or the
locale was not in effect and the test proves nothing. The core's v1 unit test
(BUILD/tests/test_v1) runs with the locale available and must use it (BTHOME_TEST_LOCALE).
Fails, saying why, when the locale cannot be generated (the locales package provides its
sources: apt install locales).
"""
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.lib.wsrun import IsolatedTshark, key_options

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "captures"
LOCALE = "de_DE.UTF-8"

# id: (capture, keys or None, tshark arguments)
RUNS = {
    "v1-summary": ("v1-examples-ll.pcap", None, []),
    "v1-tree": ("v1-examples-ll.pcap", None, ["-O", "bthome"]),
    "v1-pdml": ("v1-examples-ll.pcap", None, ["-T", "pdml", "-J", "bthome"]),
    "v1-encrypted-tree": ("v1-encrypted-ll.pcap", "v1-encrypted.keys", ["-O", "bthome"]),
    "v2-summary": ("all-objects-ll.pcap", None, []),
    "v2-tree": ("all-objects-ll.pcap", None, ["-O", "bthome"]),
    "v2-pdml": ("all-objects-ll.pcap", None, ["-T", "pdml", "-J", "bthome"]),
    "demo-fields": ("bthome-demo.pcapng", None,
                    ["-T", "fields", "-e", "bthome.temperature", "-e", "bthome.humidity",
                     "-e", "bthome.pressure"]),
}
STATS = ("bthome-demo.pcapng", ["-q", "-z", "bthome,tree", "-z", "bthome,readings"])
# Wireshark's own text in PDML that may follow the locale: the capture time names the
# local time zone, in the locale's language on Windows ("Westafrikanische Normalzeit").
OWN_TIME = re.compile(r'^ *<field name="timestamp" .*\n', re.M)


@pytest.fixture(scope="module")
def locpath():
    """A LOCPATH folder holding de_DE.UTF-8, readable by everyone (tshark may run as
    nobody, so not under pytest's private tmp_path)."""
    if not shutil.which("localedef"):
        pytest.fail(f"no localedef (libc-bin) to generate {LOCALE}")
    tmp = tempfile.mkdtemp(prefix="bthome-locale-")
    path = os.path.join(tmp, "locales")
    os.makedirs(path)
    proc = subprocess.run(["localedef", "-i", "de_DE", "-f", "UTF-8",
                           os.path.join(path, LOCALE)], capture_output=True, text=True)
    if not os.path.isdir(os.path.join(path, LOCALE)):
        shutil.rmtree(tmp, ignore_errors=True)
        pytest.fail(f"cannot generate {LOCALE} with localedef (is the locales package "
                    f"installed?): {proc.stderr.strip()}")
    for top, dirs, files in os.walk(tmp):
        for name in dirs + files:
            os.chmod(os.path.join(top, name), 0o755)
    os.chmod(tmp, 0o755)
    yield path
    shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture
def output(plugin, locpath, monkeypatch):
    """output(locale, args): tshark's text under a locale."""
    monkeypatch.setenv("LOCPATH", locpath)

    def run(locale, args):
        with IsolatedTshark(plugin, locale=locale) as ws:
            out = ws.run(args).stdout
        # PDML's header names the run's time and temporary copy of the capture
        return re.sub(r"<pdml [^>]*>", "<pdml>", out)
    return run


def run_args(capture, keys, args):
    return ["-r", str(CAPTURES / capture)] + args + key_options(
        CAPTURES / keys if keys else None)


# The tshark tests (markers tshark and locale: the text compared is the host's byte for
# byte, which the sanitizer stage leaves to the others); the unit test has neither.
@pytest.mark.parametrize("run", RUNS.values(), ids=RUNS.keys())
@pytest.mark.tshark
@pytest.mark.locale
def test_same_text(output, run):
    args = run_args(*run)
    c_text = OWN_TIME.sub("", output("C.UTF-8", args))
    de_text = OWN_TIME.sub("", output(LOCALE, args))
    assert c_text.strip(), f"tshark {' '.join(args)}: no output"
    diff = [f"  C:     {a}\n  {LOCALE}: {b}" for a, b in
            zip(c_text.splitlines(), de_text.splitlines()) if a != b]
    assert c_text == de_text, f"differs under {LOCALE}:\n" + "\n".join(diff[:5])


@pytest.mark.tshark
@pytest.mark.locale
def test_statistics(output):
    """Statistics differ only in Wireshark's own decimal mark; and some of Wireshark's own
    text changes under the locale, or the other tests prove nothing: that decimal mark
    (Linux), else the time zone name of the capture time in PDML (Wine)."""
    args = run_args(STATS[0], None, STATS[1])
    c_text, de_text = output("C.UTF-8", args), output(LOCALE, args)
    assert "Devices" in c_text, f"no BTHome statistics:\n{c_text}"
    dotted = re.sub(r"(\d),(\d)", r"\1.\2", de_text)
    diff = [f"  C:     {a}\n  {LOCALE}: {b}" for a, b in
            zip(c_text.splitlines(), dotted.splitlines()) if a != b]
    assert dotted == c_text, (f"statistics under {LOCALE} differ beyond Wireshark's decimal "
                              "mark:\n" + "\n".join(diff[:5]))
    if dotted != de_text:
        return
    pdml = [run_args(*run) for run in RUNS.values() if "pdml" in run[2]]
    changed = [args for args in pdml
               if output("C.UTF-8", args) != output(LOCALE, args)]
    assert changed, (f"the locale is not in effect in tshark: none of Wireshark's own text "
                     f"(statistics' decimal mark, time zone name) changed under {LOCALE}")


def test_v1_unit(build, locpath):
    """The core's v1 unit test with the locale available uses it (BTHOME_TEST_LOCALE)."""
    unit = build / "tests" / "test_v1"
    assert unit.is_file(), f"no {unit}: build first, or give --build"
    env = dict(os.environ, LOCPATH=locpath, BTHOME_TEST_LOCALE=LOCALE)
    proc = subprocess.run([str(unit)], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, (f"{unit} under {LOCALE} exited {proc.returncode}:\n"
                                  f"{proc.stdout[-3000:]}{proc.stderr[-2000:]}")
    assert "comma locale: none here" not in proc.stdout, \
        f"{unit} skipped the comma locale:\n{proc.stdout[-2000:]}"
