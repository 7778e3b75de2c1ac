#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Run tshark with a freshly built plugin, isolated from the user's Wireshark setup.

tshark gets a temporary HOME and config dir, and WIRESHARK_PLUGIN_DIR pointing at a
temporary folder that holds only our plugin (it replaces the global plugin folder, so an
installed copy of the plugin can't be loaded instead). Wireshark ignores
WIRESHARK_PLUGIN_DIR for root (it would load plugins from a folder other users may
write), so as root tshark runs as nobody through setpriv.

    tests/lib/wsrun.py PLUGIN.so [tshark arguments...]

The tshark is the one on PATH, or $BTHOME_TSHARK (tests/stages/in-tree.sh runs the suite
with the tshark of a Wireshark build tree, tests/release/load-test.sh with an official Wireshark
on Linux, macOS or Windows; tests/stages/windows.sh with a tshark.exe, which runs under
Wine, in the Wine prefix of $WINEPREFIX). Wireshark on Windows ignores
WIRESHARK_PLUGIN_DIR and loads the plugins beside its program (wsutil/filesystem.c), so
under Wine the plugin is the one in the build's run/plugins/X.Y/epan, and on Windows a
copy in the personal folder of WIRESHARK_CONFIG_DIR.
"""
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

NOBODY = 65534
TSHARK = os.environ.get("BTHOME_TSHARK") or "tshark"


def windows_tshark(tshark=TSHARK):
    return tshark.lower().endswith(".exe")


def under_wine(tshark=TSHARK):
    return windows_tshark(tshark) and os.name != "nt"


def tshark_command(tshark=TSHARK):
    """How tshark starts: a Windows build (tshark.exe) elsewhere than Windows under Wine."""
    return ["wine", tshark] if under_wine(tshark) else [tshark]


def tshark_version(tshark=TSHARK):
    """X.Y of tshark. `tshark --version` is a whole start of tshark, and every test asks:
    the answer is kept in the temporary folder, under the program's path, size and time
    (a rebuilt tshark is asked again)."""
    path = os.path.realpath(shutil.which(tshark) or tshark)
    stat = os.stat(path)
    key = hashlib.sha256(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}".encode()).hexdigest()
    kept = os.path.join(tempfile.gettempdir(), f"bthome-tshark-version-{key[:32]}")
    try:
        with open(kept, encoding="ascii") as f:
            version = f.read()
        if re.fullmatch(r"\d+\.\d+", version):
            return version
    except OSError:
        pass
    out = subprocess.run(tshark_command(tshark) + ["--version"], capture_output=True,
                         text=True).stdout
    m = re.search(r"(\d+)\.(\d+)\.\d+", out)
    if not m:
        sys.exit("wsrun: cannot tell the tshark version")
    version = f"{m.group(1)}.{m.group(2)}"
    try:    # written whole, even with tests asking side by side; another user's stays
        with tempfile.NamedTemporaryFile("w", encoding="ascii", dir=os.path.dirname(kept),
                                         prefix=os.path.basename(kept), delete=False) as f:
            f.write(version)
        os.chmod(f.name, 0o644)
        os.replace(f.name, kept)
    except OSError:
        pass
    return version


def plugin_version_dir(tshark=TSHARK):
    """The version folder under a plugin folder: X.Y, but X-Y on macOS, where Wireshark's
    CMakeLists.txt sets PLUGIN_PATH_ID without dots (code signing reads dotted folders
    as bundles)."""
    version = tshark_version(tshark)
    return version.replace(".", "-") if sys.platform == "darwin" else version


class IsolatedTshark:
    """A temporary Wireshark environment holding one plugin."""

    def __init__(self, plugin, tshark=TSHARK, locale="C.UTF-8", data_dir=None):
        self.tshark = tshark
        self.locale = locale        # LC_ALL: the tests' output never depends on the user's
        self.data_dir = data_dir    # WIRESHARK_DATA_DIR, if given (the GUI check's)
        self.tmp = tempfile.mkdtemp(prefix="bthome-ws-")
        epan = os.path.join(self.tmp, "plugins", plugin_version_dir(tshark), "epan")
        os.makedirs(epan)
        os.makedirs(os.path.join(self.tmp, "config"))
        if plugin:                  # None: an empty plugin folder
            shutil.copy(plugin, epan)
            if os.name == "nt":     # Windows' Wireshark ignores WIRESHARK_PLUGIN_DIR
                personal = os.path.join(self.tmp, "config", "plugins",
                                        plugin_version_dir(tshark), "epan")
                os.makedirs(personal)
                shutil.copy(plugin, personal)
        # Only Unix Wireshark ignores the plugin folder for root (Windows has no getuid).
        self.as_root = (hasattr(os, "getuid") and os.getuid() == 0 and
                        not windows_tshark(tshark))
        if self.as_root:
            for root, dirs, files in os.walk(self.tmp):
                for name in dirs + files:
                    os.chmod(os.path.join(root, name), 0o755)
            os.chmod(self.tmp, 0o755)

    def close(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _readable_copy(self, path):
        """Inputs must be readable by nobody when we run as root."""
        if not self.as_root:
            return path
        dest = os.path.join(self.tmp, "in-" + os.path.basename(path))
        shutil.copy(path, dest)
        os.chmod(dest, 0o644)
        return dest

    def write_config(self, name, text):
        """A file of the temporary profile, e.g. the bthome_keys UAT."""
        path = os.path.join(self.tmp, "config", name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(path, 0o644)
        return path

    def command(self, args):
        args = list(args)
        for i, a in enumerate(args[:-1]):
            if a == "-r":
                args[i + 1] = self._readable_copy(args[i + 1])
        cmd = tshark_command(self.tshark) + args
        if self.as_root:
            cmd = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}",
                   "--clear-groups"] + cmd
        return cmd

    def env(self):
        env = dict(os.environ)
        env.update(HOME=self.tmp,
                   WIRESHARK_CONFIG_DIR=os.path.join(self.tmp, "config"),
                   WIRESHARK_PLUGIN_DIR=os.path.join(self.tmp, "plugins"),
                   LC_ALL=self.locale)
        if self.data_dir:
            env["WIRESHARK_DATA_DIR"] = self.data_dir
        env.pop("XDG_CONFIG_HOME", None)
        return env

    def _run_once(self, args):
        # tshark writes UTF-8 ("°C") whatever the system's code page (Windows)
        return subprocess.run(self.command(args), env=self.env(), capture_output=True,
                              text=True, encoding="utf-8", cwd=self.tmp)

    def run(self, args, check=True):
        proc = self._run_once(args)
        if proc.returncode != 0 and not proc.stderr and under_wine(self.tshark):
            proc = self._rerun_under_wine(args, proc)
        if check and proc.returncode != 0:
            raise RuntimeError(f"tshark {' '.join(args)} exited {proc.returncode}:\n"
                               f"{proc.stderr}")
        return proc

    def _rerun_under_wine(self, args, proc):
        """tshark.exe under Wine, rarely, ends with an error and not a word, which tshark
        itself never does (seen once in a run of the Windows stage): run once
        more, and say so in $BTHOME_WINE_RERUNS, which the Windows stage reports. A real
        failure fails again."""
        log = os.environ.get("BTHOME_WINE_RERUNS")
        if log:
            with open(log, "a", encoding="utf-8") as f:
                f.write(f"exit {proc.returncode}, stdout {len(proc.stdout)} characters: "
                        f"tshark {' '.join(args)}\n")
        return self._run_once(args)


class Checks:
    """Named checks of a test script: each prints ok or FAIL (with what was seen), then
    summary() prints the closing line and gives the exit status."""

    def __init__(self):
        self.passed = 0
        self.failures = []

    def __call__(self, ok, what, detail=""):
        if ok:
            self.passed += 1
            print(f"  ok   {what}")
        else:
            self.failures.append(what)
            print(f"  FAIL {what}" + (f"\n       {detail}" if detail else ""))
        return ok

    def summary(self, name):
        if self.failures:
            print(f"{name}: {len(self.failures)} of {self.passed + len(self.failures)} "
                  "checks FAILED")
            return 1
        print(f"{name}: {self.passed} checks passed")
        return 0

    def assert_all(self):
        """The end of a pytest test: fail naming every check that failed (their details
        are in the test's captured output)."""
        total = self.passed + len(self.failures)
        assert not self.failures, \
            f"{len(self.failures)} of {total} checks failed: " + "; ".join(self.failures)


def key_options(keys_file):
    """tshark options giving the rows of a captures/<set>.keys file to the keys table
    (none for None)."""
    if not keys_file:
        return []
    with open(keys_file, encoding="utf-8") as f:
        return [a for row in f if row.strip()
                for a in ("-o", "uat:bthome_keys:" + row.strip())]


def marked_section(path, start, end):
    """(head, section, tail) of a text file around a section between two marker lines."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    head, _, rest = text.partition(start)
    section, _, tail = rest.partition(end)
    if not section and not tail:
        sys.exit(f"{path} has no {start} marker")
    return head, section, tail


def bthome_glossary(plugin):
    """The plugin's rows of `tshark -G fields`, sorted by field name: each a list
    [kind, label, name, type, parent, display, bitmask, description]. Expert infos are
    rows too, named bthome.expert.*."""
    with IsolatedTshark(plugin) as ws:
        lines = ws.run(["-G", "fields"]).stdout.splitlines()
    rows = [line.split("\t") for line in lines]
    return sorted((r for r in rows if len(r) > 7 and r[0] == "F"
                   and r[2].startswith("bthome.")), key=lambda r: r[2])


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    with IsolatedTshark(sys.argv[1]) as ws:
        proc = ws.run(sys.argv[2:], check=False)
        sys.stdout.write(proc.stdout)
        sys.stderr.write(proc.stderr)
        sys.exit(proc.returncode)


if __name__ == "__main__":
    main()
