# SPDX-License-Identifier: GPL-2.0-or-later
"""The personal install of the BTHome profile (cmake/install-personal-profile.cmake, what
`cmake --install` runs with -DBTHOME_USER_INSTALL=ON): it lands where Wireshark looks
($WIRESHARK_CONFIG_DIR, ~/.wireshark, $XDG_CONFIG_HOME/wireshark, ~/.config/wireshark),
and a profile of that name already there is kept as it is, with a message. And the zip
for Wireshark's profile import (BUILD/BTHome-profile.zip, made by the build): one folder
named after the profile with exactly its files, the same bytes when made again.

    python3 -m pytest tests/tshark/profile_install_test.py [--build=build]
"""
import filecmp
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = str(ROOT / "cmake" / "install-personal-profile.cmake")
PROFILE_DIR = str(ROOT / "profile" / "BTHome")
ZIPPER = str(ROOT / "tools" / "profile_zip.py")
NAME = os.path.basename(PROFILE_DIR)
FILES = sorted(os.listdir(PROFILE_DIR))


def install(home, **env_vars):
    env = {k: v for k, v in os.environ.items()
           if k not in ("WIRESHARK_CONFIG_DIR", "XDG_CONFIG_HOME")}
    env.update(HOME=home, **env_vars)
    proc = subprocess.run(["cmake", f"-DBTHOME_PROFILE_SOURCE={PROFILE_DIR}", "-P", SCRIPT],
                          env=env, capture_output=True, text=True)
    return proc.returncode, proc.stdout + proc.stderr


@pytest.fixture(scope="module")
def profile_zip(build):
    path = build / "BTHome-profile.zip"
    if not path.is_file():
        pytest.fail(f"no {path}: build first, or give --build")
    return str(path)


# (case, variables, where the profiles folder is: under HOME, or under the test's folder
# for the variables)
@pytest.mark.parametrize("case, variables, where", [
    pytest.param("default", {}, ".config/wireshark", id="default"),
    pytest.param("XDG_CONFIG_HOME", {"XDG_CONFIG_HOME": "xdg"}, "xdg/wireshark",
                 id="XDG_CONFIG_HOME"),
    pytest.param("WIRESHARK_CONFIG_DIR", {"WIRESHARK_CONFIG_DIR": "ws"}, "ws",
                 id="WIRESHARK_CONFIG_DIR"),
    pytest.param("~/.wireshark", {}, ".wireshark", id="dot-wireshark"),
])
def test_personal_install(tmp_path, case, variables, where):
    """Installed where Wireshark looks; run again over the user's own profile, kept."""
    tmp = str(tmp_path)
    env_vars = {k: os.path.join(tmp, v) for k, v in variables.items()}
    home = os.path.join(tmp, "home")
    os.makedirs(home)
    if case == "~/.wireshark":
        os.makedirs(os.path.join(home, ".wireshark"))
    base = tmp if variables else home
    target = os.path.join(base, where, "profiles", NAME)
    rc, out = install(home, **env_vars)
    match, mismatch, errors = filecmp.cmpfiles(PROFILE_DIR, target, FILES, shallow=False)
    assert rc == 0 and not mismatch and not errors and "installed into" in out, \
        f"{case}: not installed into {target} (rc {rc}; differ {mismatch}, " \
        f"missing {errors}):\n{out}"
    own = os.path.join(target, "preferences")
    with open(own, "w", encoding="utf-8") as f:
        f.write("# the user's own\n")
    rc, out = install(home, **env_vars)
    with open(own, encoding="utf-8") as f:
        kept = f.read() == "# the user's own\n"
    assert rc == 0 and kept and "kept your own" in out, \
        f"{case}: the user's own profile was not kept (rc {rc}, kept {kept}):\n{out}"


def test_zip_contents(profile_zip):
    """One folder named after the profile, holding exactly its files, byte for byte."""
    with zipfile.ZipFile(profile_zip) as z:
        entries = z.namelist()
        assert entries == [f"{NAME}/"] + [f"{NAME}/{f}" for f in FILES], \
            f"{profile_zip} holds {entries}"
        differ = [f for f in FILES
                  if z.read(f"{NAME}/{f}") != Path(PROFILE_DIR, f).read_bytes()]
    assert not differ, f"{profile_zip}: {differ} differ from {PROFILE_DIR}"


def test_zip_reproducible(profile_zip, tmp_path):
    again = str(tmp_path / "again.zip")
    subprocess.run([sys.executable, ZIPPER, PROFILE_DIR, again], check=True)
    assert filecmp.cmp(profile_zip, again, shallow=False), \
        f"{ZIPPER} made other bytes than {profile_zip} a second time"
