#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Two copies of the plugin (issue 30): `cmake --install` (and so ./quickstart.sh) notices a
bthome.so of another install in the other plugin folder of the same Wireshark X.Y, says
which copy Wireshark loads and how to remove the other (cmake/BTHomeOtherCopy.cmake).

    install_copies_test.py --source DIR --plugin bthome.so

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
import argparse
import filecmp
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from wsrun import NOBODY, Checks, tshark_version  # noqa: E402

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
        sys.exit(f"install_copies_test: cmake --install failed:\n{out}")
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    ap.add_argument("--plugin", required=True)
    args = ap.parse_args()
    check = Checks()
    version = tshark_version()
    tmp = tempfile.mkdtemp(prefix="bthome-copies-")
    try:
        os.chmod(tmp, 0o755)
        home = os.path.join(tmp, "home")
        prefix = os.path.join(tmp, "prefix")
        os.makedirs(os.path.join(home, "config"))
        personal = os.path.join(home, ".local", "lib", "wireshark", "plugins", version,
                                "epan", "bthome.so")

        print("a global install while a personal copy exists")
        put(personal, args.plugin)
        global_copy, out = install(args.source, args.plugin, tmp, "global", home, prefix,
                                   user=False)
        for text in (f"bthome: another bthome.so is in a personal plugin folder: {personal}",
                     f"loads the global one just installed ({global_copy})",
                     f'the warning "{WARNING}" on every run',
                     f"bthome: remove it: rm '{personal}'"):
            check(text in out, f"says: {text}", out)

        print(f"what tshark {version} does with both (global folder and HOME of the test)")
        global_plugins = os.path.dirname(os.path.dirname(os.path.dirname(global_copy)))
        readable_by_nobody(tmp)
        paths, err = loaded_copy(global_plugins, home)
        check(paths == [global_copy], "tshark -G plugins: it loads the global copy", paths)
        check(WARNING in err, f'tshark warns "{WARNING}"', err)

        print("a personal install while a global copy exists")
        os.remove(personal)
        own, out = install(args.source, args.plugin, tmp, "user", home, prefix, user=True)
        check(own == personal, f"installed into the temporary HOME ({own})")
        for text in (f"bthome: another bthome.so is in Wireshark {version}'s global plugin "
                     f"folder: {global_copy}",
                     f"Wireshark loads that one, not the one just installed ({personal})",
                     f'skips the personal copy with the warning "{WARNING}"',
                     f"remove the global copy: sudo rm '{global_copy}'",
                     f"to keep the global one, remove the new one: rm '{personal}'"):
            check(text in out, f"says: {text}", out)

        print("no other copy: nothing to say; its own older copy is replaced")
        os.remove(global_copy)
        with open(personal, "w", encoding="utf-8") as f:
            f.write("an older build\n")
        os.utime(personal, (0, 1e9))        # built long ago
        _, out = install(args.source, args.plugin, tmp, "user", home, prefix, user=True)
        check("bthome:" not in out, "no message", out)
        check(filecmp.cmp(personal, args.plugin, shallow=False),
              "the older personal copy is replaced by the new one")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return check.summary("install-copies")


if __name__ == "__main__":
    sys.exit(main())
