# SPDX-License-Identifier: GPL-2.0-or-later
"""What only Windows does, with a Windows tshark.exe under Wine (tests/stages/windows.sh):
keys and the BTHome profile in the personal folder %APPDATA%\\Wireshark, with the plugin
in its plugins\\X.Y\\epan; a capture named by a Windows path with spaces; a keys file
with CRLF line ends; keys given with -o on the command line. Every dissection is
compared with the expected output the Linux tests use.

    BTHOME_TSHARK=.../run/tshark.exe python3 -m pytest --plugin=.../bthome.dll \\
        tests/tshark/windows_test.py

Skipped with any other tshark. Runs in the Wine prefix of $WINEPREFIX, whose
%APPDATA%\\Wireshark it fills and removes.
"""
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.lib.dissection import dissect
from tests.lib.wsrun import TSHARK, Checks, key_options, tshark_version, windows_tshark

pytestmark = [
    pytest.mark.tshark,
    pytest.mark.skipif(not windows_tshark(), reason=(
        f"needs a Windows tshark.exe (run under Wine) as $BTHOME_TSHARK, not {TSHARK!r}: "
        "tests/stages/windows.sh")),
]

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "captures"
EXPECTED = ROOT / "tests" / "tshark" / "expected"


@pytest.fixture(scope="module", autouse=True)
def own_wine_prefix():
    """The personal folder test replaces %APPDATA%\\Wireshark: never in the user's ~/.wine."""
    prefix = os.environ.get("WINEPREFIX", "")
    if not prefix or os.path.realpath(prefix) == os.path.realpath(
            os.path.expanduser("~/.wine")):
        pytest.fail("set WINEPREFIX to a Wine prefix of the tests' own: windows_test "
                    "replaces %APPDATA%\\Wireshark in it")


def wine_output(*args):
    return subprocess.run(["wine", *args], capture_output=True, text=True,
                          check=True).stdout.strip()


def unix_path(windows_path):
    return subprocess.run(["winepath", "-u", windows_path], capture_output=True,
                          text=True, check=True).stdout.strip()


def windows_path(path):
    return subprocess.run(["winepath", "-w", path], capture_output=True, text=True,
                          check=True).stdout.strip()


def expected(name):
    return (EXPECTED / name).read_text(encoding="utf-8").splitlines()


def key_rows(keys="encrypted.keys"):
    with open(CAPTURES / keys, encoding="utf-8") as f:
        return [row.strip() for row in f if row.strip()]


def assert_same(actual, name, what):
    """A dissection equal to tests/tshark/expected/NAME, or the first difference."""
    want = expected(name)
    if actual != want:
        diff = next((i for i, (a, b) in enumerate(zip(actual, want)) if a != b),
                    min(len(actual), len(want)))
        pytest.fail(f"{what}: differs from {name} at line {diff + 1} "
                    f"({len(actual)} lines, {len(want)} expected):\n"
                    f"  got  {actual[diff:diff + 1]}\n  want {want[diff:diff + 1]}")


def test_command_line_keys(ws):
    """-o uat:bthome_keys:... on the command line decrypts as on Linux."""
    options = key_options(CAPTURES / "encrypted.keys")
    assert_same(dissect(ws, str(CAPTURES / "encrypted-nrf-sniffer.pcap"), options),
                "encrypted.txt", "-o keys")


def test_crlf_keys_file(ws):
    """A bthome_keys file with CRLF line ends decrypts as on Linux."""
    ws.write_config("bthome_keys", "".join(row + "\r\n" for row in key_rows()))
    assert_same(dissect(ws, str(CAPTURES / "encrypted-nrf-sniffer.pcap")),
                "encrypted.txt", "keys file with CRLF line ends")


def test_path_with_spaces(ws):
    """A capture named by a Windows path with spaces."""
    folder = os.path.join(ws.tmp, "BTHome captures")
    os.makedirs(folder)
    capture = os.path.join(folder, "demo capture.pcapng")
    shutil.copy(CAPTURES / "bthome-demo.pcapng", capture)
    path = windows_path(capture)
    assert path.startswith("Z:\\") and " " in path, f"not a Windows path with spaces: {path}"
    assert_same(dissect(ws, path), "bthome-demo.txt", f"capture {path}")


class PersonalTshark:
    """tshark.exe as installed, with nothing of the tests: a copy of the build's programs
    and DLLs in a folder of its own whose global plugin folder is empty (Windows'
    Wireshark takes its global plugins from beside the program, whatever the
    environment says), the personal folder %APPDATA%\\Wireshark."""

    def __init__(self, tshark, version):
        self.install = tempfile.mkdtemp(prefix="bthome-wireshark-")
        run = os.path.dirname(tshark)
        for name in os.listdir(run):
            if name.endswith((".exe", ".dll")):
                try:
                    os.link(os.path.join(run, name), os.path.join(self.install, name))
                except OSError:     # another file system (/tmp on tmpfs)
                    shutil.copy(os.path.join(run, name), self.install)
        os.makedirs(os.path.join(self.install, "plugins", version, "epan"))
        self.tshark = os.path.join(self.install, os.path.basename(tshark))
        self.env = {k: v for k, v in os.environ.items() if k != "WIRESHARK_CONFIG_DIR"}
        self.env.update(LC_ALL="C.UTF-8")

    def run(self, args):
        return subprocess.run(["wine", self.tshark, *args], env=self.env,
                              capture_output=True, text=True, cwd=self.install, check=True)

    def close(self):
        shutil.rmtree(self.install, ignore_errors=True)


def test_personal_folder(plugin):
    """Plugin, keys and profile in %APPDATA%\\Wireshark, the way a Windows user has them.
    One test: the folder is the Wine prefix's, which tests side by side would share."""
    appdata = wine_output("cmd", "/c", "echo %APPDATA%")
    personal = os.path.join(unix_path(appdata), "Wireshark")
    shutil.rmtree(personal, ignore_errors=True)
    version = tshark_version()
    epan = os.path.join(personal, "plugins", version, "epan")
    os.makedirs(epan)
    shutil.copy(plugin, epan)
    with open(os.path.join(personal, "bthome_keys"), "w", encoding="utf-8") as f:
        f.write("".join(row + "\n" for row in key_rows()))
    shutil.copytree(ROOT / "profile" / "BTHome", os.path.join(personal, "profiles", "BTHome"))
    ws = PersonalTshark(TSHARK, version)
    check = Checks()
    try:
        where = appdata + "\\Wireshark\\plugins\\"
        listed = [line for line in ws.run(["-G", "plugins"]).stdout.splitlines()
                  if "bthome" in line]
        check(len(listed) == 1 and where.lower() in listed[0].lower(),
              f"tshark -G plugins lists bthome.dll from {where}", listed)
        actual = dissect(ws, str(CAPTURES / "encrypted-nrf-sniffer.pcap"))
        check(actual == expected("encrypted.txt"),
              "keys from %APPDATA%\\Wireshark\\bthome_keys decrypt as on Linux",
              f"{len(actual)} lines, first {actual[:2]}")
        demo = ws.run(["-n", "-C", "BTHome", "-r",
                       str(CAPTURES / "bthome-demo.pcapng")]).stdout.splitlines()
        check(bool(demo) and "Weather,a4:c1:38:00:00:01" in demo[0] and " -62 " in demo[0],
              "tshark -C BTHome takes the profile from %APPDATA%\\Wireshark\\profiles "
              "(its Device and RSSI columns)", demo[:1])
    finally:
        ws.close()
        shutil.rmtree(personal, ignore_errors=True)
    check.assert_all()
