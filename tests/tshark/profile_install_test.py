#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The personal install of the BTHome profile (cmake/install-personal-profile.cmake, what
`cmake --install` runs with -DBTHOME_USER_INSTALL=ON): it lands where Wireshark looks
($WIRESHARK_CONFIG_DIR, ~/.wireshark, $XDG_CONFIG_HOME/wireshark, ~/.config/wireshark),
and a profile of that name already there is kept as it is, with a message. And the zip
for Wireshark's profile import (--zip, made by the build): one folder named after the
profile with exactly its files, the same bytes when made again.

    profile_install_test.py --script cmake/install-personal-profile.cmake \
        --profile profile/BTHome --zip build/BTHome-profile.zip --zipper tools/profile_zip.py
"""
import argparse
import filecmp
import os
import subprocess
import sys
import tempfile
import zipfile


def install(script, profile, home, **env_vars):
    env = {k: v for k, v in os.environ.items()
           if k not in ("WIRESHARK_CONFIG_DIR", "XDG_CONFIG_HOME")}
    env.update(HOME=home, **env_vars)
    proc = subprocess.run(["cmake", f"-DBTHOME_PROFILE_SOURCE={profile}", "-P", script],
                          env=env, capture_output=True, text=True)
    return proc.returncode, proc.stdout + proc.stderr


def check_zip(args, name, files, tmp):
    failures = []
    with zipfile.ZipFile(args.zip) as z:
        entries = z.namelist()
        want = [f"{name}/"] + [f"{name}/{f}" for f in files]
        if entries != want:
            failures.append(f"{args.zip} holds {entries}, expected {want}")
        for f in files:
            with open(os.path.join(args.profile, f), "rb") as source:
                if f"{name}/{f}" in entries and z.read(f"{name}/{f}") != source.read():
                    failures.append(f"{args.zip}: {name}/{f} differs from {args.profile}/{f}")
    again = os.path.join(tmp, "again.zip")
    subprocess.run([sys.executable, args.zipper, args.profile, again], check=True)
    if not filecmp.cmp(args.zip, again, shallow=False):
        failures.append(f"{args.zipper} made other bytes than {args.zip} a second time")
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--script", required=True)
    ap.add_argument("--profile", required=True)
    ap.add_argument("--zip", required=True)
    ap.add_argument("--zipper", required=True)
    args = ap.parse_args()
    failures = []
    name = os.path.basename(os.path.normpath(args.profile))
    files = sorted(os.listdir(args.profile))
    with tempfile.TemporaryDirectory() as tmp:
        cases = [("default", {}, ".config/wireshark"),
                 ("XDG_CONFIG_HOME", {"XDG_CONFIG_HOME": os.path.join(tmp, "xdg")},
                  "xdg/wireshark"),
                 ("WIRESHARK_CONFIG_DIR", {"WIRESHARK_CONFIG_DIR": os.path.join(tmp, "ws")}, "ws"),
                 ("~/.wireshark", {}, ".wireshark")]
        for case, env_vars, where in cases:
            home = os.path.join(tmp, "home-" + case.strip("~/."))
            os.makedirs(home)
            if case == "~/.wireshark":
                os.makedirs(os.path.join(home, ".wireshark"))
            base = tmp if where.split("/")[0] in ("xdg", "ws") else home
            target = os.path.join(base, where, "profiles", name)
            rc, out = install(args.script, args.profile, home, **env_vars)
            match, mismatch, errors = filecmp.cmpfiles(args.profile, target, files, shallow=False)
            if rc or mismatch or errors or "installed into" not in out:
                failures.append(f"{case}: not installed into {target} (rc {rc}):\n{out}")
                continue
            own = os.path.join(target, "preferences")
            with open(own, "w", encoding="utf-8") as f:
                f.write("# the user's own\n")
            rc, out = install(args.script, args.profile, home, **env_vars)
            with open(own, encoding="utf-8") as f:
                kept = f.read() == "# the user's own\n"
            if rc or not kept or "kept your own" not in out:
                failures.append(f"{case}: the user's own profile was not kept (rc {rc}):\n{out}")
        failures += check_zip(args, name, files, tmp)
    for failure in failures:
        print("FAIL:", failure)
    print(f"profile-install: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
