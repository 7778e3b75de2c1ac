#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the plugin and run the whole ctest suite against another Wireshark release,
# inside a cached Debian chroot (tools/chroot.sh) with that release's headers and tshark.
# usage: tests/stages/chroot-suite.sh SUITE      (trixie = 4.4, forky = 4.6)
set -euo pipefail
suite=${1:?usage: run-in-chroot.sh SUITE}
src=$(cd "$(dirname "$0")/.." && pwd)
root=$("$src/tools/chroot.sh" "$suite")

# A fresh copy of the tree (without build output) so the chroot builds what is here now.
rm -rf "$root/src"
mkdir -p "$root/src"
tar -C "$src" --exclude=./build --exclude='./build-*' --exclude=./.git -cf - . \
    | tar -C "$root/src" -xf -

cleanup() { umount "$root/proc" 2>/dev/null || true; }
trap cleanup EXIT
mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"

version=$(chroot "$root" tshark --version 2>/dev/null | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -n 1)
echo "=== Wireshark $version ($suite chroot $root) ==="
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 sh -c '
    set -e
    rm -rf /tmp/build   # tar keeps the source times: an older build could look up to date
    cmake -S /src -B /tmp/build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/tmp/cmake.log \
        || { cat /tmp/cmake.log; exit 1; }
    cmake --build /tmp/build -j2 >/tmp/build.log 2>&1 || { cat /tmp/build.log; exit 1; }
    ctest --test-dir /tmp/build --output-on-failure -j2'
