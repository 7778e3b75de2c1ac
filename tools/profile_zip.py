#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Zip a configuration profile folder the way Wireshark exports one and imports it
(Edit > Configuration Profiles > Import > from zip file, Wireshark 3.6 and later): a
folder named after the profile holding its files (sub folders zipped the same way).
Byte-identical output from run to run (sorted entries, fixed times and permissions).
--stored leaves the files uncompressed: the same bytes whichever zlib the Python has
(the release workflow makes its zips on three systems and publishes one of them,
.github/release/release-extras.sh).

    tools/profile_zip.py [--stored] profile/BTHome build/BTHome-profile.zip
"""
import os
import sys
import zipfile

FIXED_TIME = (1980, 1, 1, 0, 0, 0)    # the earliest time a zip entry can hold


def entry(name, mode):
    info = zipfile.ZipInfo(name, FIXED_TIME)
    info.external_attr = mode << 16
    info.create_system = 3            # Unix, so the permissions are read
    return info


def main():
    args = sys.argv[1:]
    method = zipfile.ZIP_DEFLATED
    if args[:1] == ["--stored"]:
        method = zipfile.ZIP_STORED
        args = args[1:]
    if len(args) != 2:
        sys.exit(__doc__)
    source, out = args
    name = os.path.basename(os.path.normpath(source))
    tmp = out + ".tmp"
    with zipfile.ZipFile(tmp, "w", method) as z:
        add_folder(z, source, name, method)
    os.replace(tmp, out)


def add_folder(z, folder, name, method):
    """The folder's entry, its files, then its sub folders the same way (a profile has
    none; the keys zip has bthome-keys' package)."""
    z.writestr(entry(f"{name}/", 0o40755), b"")
    names = sorted(os.listdir(folder))
    for f in names:
        if os.path.isfile(os.path.join(folder, f)):
            with open(os.path.join(folder, f), "rb") as data:
                z.writestr(entry(f"{name}/{f}", 0o100644), data.read(), method)
    for f in names:
        if os.path.isdir(os.path.join(folder, f)):
            add_folder(z, os.path.join(folder, f), f"{name}/{f}", method)


if __name__ == "__main__":
    main()
