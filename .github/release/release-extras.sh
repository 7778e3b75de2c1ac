#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What a Windows or macOS user needs beside the plugin, as release files in OUT_DIR:
#   bthome-VERSION-profile.zip  the BTHome profile for Wireshark's Edit > Configuration
#                               Profiles > Import > from zip file (tools/profile_zip.py,
#                               the zip the build makes as BTHome-profile.zip);
#   bthome-VERSION-keys.zip     a folder bthome-keys holding bthome-keys.py (Python 3),
#                               its modules (bthome_keys/) and bthome-keys.bat, its
#                               Windows launcher (CRLF line ends, as stored: .gitattributes).
# Both zips are stored uncompressed from files no checkout converts: the same bytes on
# every system (the release workflow makes them in each Windows and macOS job). The keys zip is also unpacked into
# OUT_DIR/unpacked, as a user unpacks it (the load test runs it from there). Prints the
# two zips' paths.
# usage: .github/release/release-extras.sh OUT_DIR
set -euo pipefail
out=${1:?usage: .github/release/release-extras.sh OUT_DIR}
src=$(cd "$(dirname "$0")/../.." && pwd)
version=$(sed -n 's/^set(BTHOME_VERSION \([0-9.]*\)).*/\1/p' "$src/CMakeLists.txt")
[ -n "$version" ] || { echo "release-extras: no set(BTHOME_VERSION ...) in CMakeLists.txt" >&2; exit 1; }
python=python3
"$python" -c '' 2>/dev/null || python=python
mkdir -p "$out"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir "$stage/bthome-keys"
cp "$src/tools/bthome-keys" "$stage/bthome-keys/bthome-keys.py"
mkdir "$stage/bthome-keys/bthome_keys"
cp "$src"/tools/bthome_keys/*.py "$stage/bthome-keys/bthome_keys/"
cp "$src/tools/bthome-keys.bat" "$stage/bthome-keys/"
"$python" "$src/tools/profile_zip.py" --stored "$src/profile/BTHome" "$out/bthome-$version-profile.zip"
"$python" "$src/tools/profile_zip.py" --stored "$stage/bthome-keys" "$out/bthome-$version-keys.zip"
rm -rf "$out/unpacked"
"$python" -m zipfile -e "$out/bthome-$version-keys.zip" "$out/unpacked"
echo "$out/bthome-$version-profile.zip"
echo "$out/bthome-$version-keys.zip"
