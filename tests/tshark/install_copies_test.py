# SPDX-License-Identifier: GPL-2.0-or-later
"""Two copies of the plugin (issue 30): `cmake --install` (and so ./quickstart.sh) notices a
bthome.so of another install in the other plugin folder of the same Wireshark X.Y, says
which copy Wireshark loads and how to remove the other (cmake/BTHomeOtherCopy.cmake).

    python3 -m pytest tests/tshark/install_copies_test.py [--build=build]

Everything happens in a temporary folder: a temporary HOME (its personal plugin folder)
and a temporary install prefix (its global plugin folder), never the real ones. Each case
configures a build of the source there (no compiling: the built plugin is put where the
build would make it) and installs it with `cmake --install --prefix`:
  - global install while a personal copy exists: the message names the personal copy;
  - personal install while a global copy exists: the message says the global one runs;
  - then tshark itself, with that global folder (WIRESHARK_PLUGIN_DIR) and that HOME,
    shows which copy it loads and the warning the message quotes;
  - an install with no other copy says nothing, and replaces its own older copy.
"""
import filecmp
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.lib.wsrun import NOBODY, Checks, tshark_version

ROOT = Path(__file__).resolve().parents[2]
WARNING = "The plugin 'bthome.so' was found in multiple directories"


def install(source, plugin, tmp, name, home, prefix, user):
    """Configure a build of source for HOME=home, put the plugin in it, install it into
    prefix: (installed plugin path, the install's output)."""
    env = dict(os.environ, HOME=home)
    env.pop("SUDO_USER", None)
    build = os.path.join(tmp, name)
    subprocess.run(["cmake", "-S", source, "-B", build, "-DBUILD_TESTING=OFF",
                    f"-DBTHOME_USER_INSTALL={'ON' if user else 'OFF'}"],
                   env=env, check=True, capture_output=True)
    shutil.copy(plugin, os.path.join(build, "bthome.so"))
    proc = subprocess.run(["cmake", "--install", build, "--prefix", prefix], env=env,
                          capture_output=True, text=True)
    out = proc.stdout + proc.stderr
    m = re.search(r"(?:Installing|Up-to-date): (\S*/bthome\.so)$", out, re.M)
    if proc.returncode != 0 or not m:
        pytest.fail(f"cmake --install failed:\n{out}")
    return m.group(1), out


def put(path, source):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    shutil.copy(source, path)


def readable_by_nobody(folder):
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            os.chmod(os.path.join(root, name), 0o755)


def loaded_copy(global_plugins, home):
    """(path of the bthome.so tshark loads, its stderr) with that global plugin folder
    and that HOME (as nobody when root: root's Wireshark skips both)."""
    env = dict(os.environ, HOME=home, WIRESHARK_PLUGIN_DIR=global_plugins, LC_ALL="C.UTF-8",
               WIRESHARK_CONFIG_DIR=os.path.join(home, "config"))
    cmd = ["tshark", "-G", "plugins"]
    if os.getuid() == 0:
        cmd = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"] + cmd
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=home)
    paths = [line.split("\t")[-1] for line in proc.stdout.splitlines()
             if line.split("\t")[0].strip() == "bthome.so"]
    return paths, proc.stderr


class Setup:
    """The temporary folder of a case: HOME (holding config/) and the install prefix."""

    def __init__(self, tmp, plugin):
        self.tmp = tmp
        self.plugin = plugin
        self.version = tshark_version()
        self.home = os.path.join(tmp, "home")
        self.prefix = os.path.join(tmp, "prefix")
        os.makedirs(os.path.join(self.home, "config"))
        self.personal = os.path.join(self.home, ".local", "lib", "wireshark", "plugins",
                                     self.version, "epan", "bthome.so")

    def install(self, name, user):
        return install(str(ROOT), self.plugin, self.tmp, name, self.home, self.prefix, user)


@pytest.fixture
def setup(build):
    """A case's folders, in a temporary folder tshark can read as nobody (root)."""
    plugin = build / "bthome.so"
    if not plugin.is_file():
        pytest.fail(f"no {plugin}: build first, or give --build")
    tmp = tempfile.mkdtemp(prefix="bthome-copies-")
    os.chmod(tmp, 0o755)
    yield Setup(tmp, str(plugin))
    shutil.rmtree(tmp, ignore_errors=True)


def test_global_install_with_personal_copy(setup):
    """The message names the personal copy; tshark loads the global one and warns."""
    checks = Checks()
    put(setup.personal, setup.plugin)
    global_copy, out = setup.install("global", user=False)
    for text in (f"bthome: another bthome.so is in a personal plugin folder: {setup.personal}",
                 f"loads the global one just installed ({global_copy})",
                 f'the warning "{WARNING}" on every run',
                 f"bthome: remove it: rm '{setup.personal}'"):
        checks(text in out, f"says: {text}", out)

    # what tshark does with both (the global folder and HOME of the test)
    global_plugins = os.path.dirname(os.path.dirname(os.path.dirname(global_copy)))
    readable_by_nobody(setup.tmp)
    paths, err = loaded_copy(global_plugins, setup.home)
    checks(paths == [global_copy], f"tshark {setup.version} -G plugins: it loads the global "
           "copy", paths)
    checks(WARNING in err, f'tshark warns "{WARNING}"', err)
    checks.assert_all()


def test_personal_install_with_global_copy(setup):
    """The message says the global copy runs, and how to keep either."""
    checks = Checks()
    global_copy, _ = setup.install("global", user=False)
    own, out = setup.install("user", user=True)
    personal, version = setup.personal, setup.version
    checks(own == personal, f"installed into the temporary HOME ({own})")
    for text in (f"bthome: another bthome.so is in Wireshark {version}'s global plugin "
                 f"folder: {global_copy}",
                 f"Wireshark loads that one, not the one just installed ({personal})",
                 f'skips the personal copy with the warning "{WARNING}"',
                 f"remove the global copy: sudo rm '{global_copy}'",
                 f"to keep the global one, remove the new one: rm '{personal}'"):
        checks(text in out, f"says: {text}", out)
    checks.assert_all()


def test_install_without_other_copy(setup):
    """No other copy: nothing to say; its own older copy is replaced."""
    checks = Checks()
    os.makedirs(os.path.dirname(setup.personal))
    with open(setup.personal, "w", encoding="utf-8") as f:
        f.write("an older build\n")
    os.utime(setup.personal, (0, 1e9))        # built long ago
    _, out = setup.install("user", user=True)
    checks("bthome:" not in out, "no message", out)
    checks(filecmp.cmp(setup.personal, setup.plugin, shallow=False),
           "the older personal copy is replaced by the new one")
    checks.assert_all()
