#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""What only Windows does, with a Windows tshark.exe under Wine (tests/stages/windows.sh):
keys and the BTHome profile in the personal folder %APPDATA%\\Wireshark, with the plugin
in its plugins\\X.Y\\epan; a capture named by a Windows path with spaces; a keys file
with CRLF line ends; keys given with -o on the command line. Every dissection is
compared with the expected output the Linux tests use.

    windows_test.py --plugin bthome.dll --tshark tshark.exe --source REPO

Runs in the Wine prefix of $WINEPREFIX, whose %APPDATA%\\Wireshark it fills and removes.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from dissect_test import dissect  # noqa: E402
from wsrun import Checks, IsolatedTshark, key_options, tshark_version  # noqa: E402


def wine_output(*args):
    return subprocess.run(["wine", *args], capture_output=True, text=True,
                          check=True).stdout.strip()


def unix_path(windows_path):
    return subprocess.run(["winepath", "-u", windows_path], capture_output=True,
                          text=True, check=True).stdout.strip()


def windows_path(path):
    return subprocess.run(["winepath", "-w", path], capture_output=True, text=True,
                          check=True).stdout.strip()


def expected(source, name):
    with open(os.path.join(source, "tests", "tshark", "expected", name), encoding="utf-8") as f:
        return f.read().splitlines()


def key_rows(source, keys="encrypted.keys"):
    with open(os.path.join(source, "captures", keys), encoding="utf-8") as f:
        return [row.strip() for row in f if row.strip()]


def check_command_line_keys(check, ws, source):
    capture = os.path.join(source, "captures", "encrypted-nrf-sniffer.pcap")
    options = key_options(os.path.join(source, "captures", "encrypted.keys"))
    check(dissect(ws, capture, options) == expected(source, "encrypted.txt"),
          "-o uat:bthome_keys:... on the command line decrypts as on Linux")


def check_crlf_keys_file(check, ws, source):
    ws.write_config("bthome_keys", "".join(row + "\r\n" for row in key_rows(source)))
    capture = os.path.join(source, "captures", "encrypted-nrf-sniffer.pcap")
    check(dissect(ws, capture) == expected(source, "encrypted.txt"),
          "a bthome_keys file with CRLF line ends decrypts as on Linux")
    os.remove(os.path.join(ws.tmp, "config", "bthome_keys"))


def check_path_with_spaces(check, ws, source):
    folder = os.path.join(ws.tmp, "BTHome captures")
    os.makedirs(folder)
    capture = os.path.join(folder, "demo capture.pcapng")
    shutil.copy(os.path.join(source, "captures", "bthome-demo.pcapng"), capture)
    path = windows_path(capture)
    check(path.startswith("Z:\\") and " " in path and
          dissect(ws, path) == expected(source, "bthome-demo.txt"),
          f"a capture named by a Windows path with spaces ({path})")


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


def check_personal_folder(check, plugin, tshark, source):
    """Plugin, keys and profile in %APPDATA%\\Wireshark, the way a Windows user has them."""
    appdata = wine_output("cmd", "/c", "echo %APPDATA%")
    personal = os.path.join(unix_path(appdata), "Wireshark")
    shutil.rmtree(personal, ignore_errors=True)
    version = tshark_version(tshark)
    epan = os.path.join(personal, "plugins", version, "epan")
    os.makedirs(epan)
    shutil.copy(plugin, epan)
    with open(os.path.join(personal, "bthome_keys"), "w", encoding="utf-8") as f:
        f.write("".join(row + "\n" for row in key_rows(source)))
    shutil.copytree(os.path.join(source, "profile", "BTHome"),
                    os.path.join(personal, "profiles", "BTHome"))
    ws = PersonalTshark(tshark, version)
    captures = os.path.join(source, "captures")
    try:
        where = appdata + "\\Wireshark\\plugins\\"
        listed = [line for line in ws.run(["-G", "plugins"]).stdout.splitlines()
                  if "bthome" in line]
        check(len(listed) == 1 and where.lower() in listed[0].lower(),
              f"tshark -G plugins lists bthome.dll from {where}", listed)
        capture = os.path.join(captures, "encrypted-nrf-sniffer.pcap")
        check(dissect(ws, capture) == expected(source, "encrypted.txt"),
              "keys from %APPDATA%\\Wireshark\\bthome_keys decrypt as on Linux")
        demo = ws.run(["-n", "-C", "BTHome", "-r",
                       os.path.join(captures, "bthome-demo.pcapng")]).stdout.splitlines()
        check(bool(demo) and "Weather,a4:c1:38:00:00:01" in demo[0] and " -62 " in demo[0],
              "tshark -C BTHome takes the profile from %APPDATA%\\Wireshark\\profiles "
              "(its Device and RSSI columns)", demo[:1])
    finally:
        ws.close()
        shutil.rmtree(personal, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--tshark", required=True)
    ap.add_argument("--source", required=True)
    args = ap.parse_args()
    args.source = os.path.abspath(args.source)    # tshark runs in a folder of its own
    prefix = os.environ.get("WINEPREFIX", "")
    if not prefix or os.path.realpath(prefix) == os.path.realpath(
            os.path.expanduser("~/.wine")):
        sys.exit("windows_test: set WINEPREFIX to a Wine prefix of the tests' own: this "
                 "test replaces %APPDATA%\\Wireshark in it")
    check = Checks()
    with IsolatedTshark(args.plugin, tshark=args.tshark) as ws:
        check_command_line_keys(check, ws, args.source)
        check_crlf_keys_file(check, ws, args.source)
        check_path_with_spaces(check, ws, args.source)
    check_personal_folder(check, args.plugin, args.tshark, args.source)
    return check.summary("windows-only")


if __name__ == "__main__":
    sys.exit(main())
