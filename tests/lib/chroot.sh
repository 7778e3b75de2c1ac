#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Create (once) and cache a Debian chroot holding a given Wireshark release's tshark and
# development files, so the plugin can be built and tested against it.
# usage: tests/lib/chroot.sh SUITE        (trixie = Wireshark 4.4, forky/sid = 4.6)
# Prints the chroot path. Fails loudly when the chroot cannot be made: a silently skipped
# Wireshark version would let a broken build land.
set -euo pipefail
suite=${1:?usage: chroot.sh SUITE}
cache=${BTHOME_CHROOT_CACHE:-/var/cache/bthome-chroots}
root="$cache/$suite"
stamp="$root/.bthome-ready"
mirror=${BTHOME_DEBIAN_MIRROR:-http://deb.debian.org/debian}
# python3-cryptography: the tests seal their captures with it (captures/make_captures.py);
# python3-dissononce and util-linux (setpriv, tshark as nobody): the extcap's tests;
# python3-pytest and python3-pytest-xdist: the Python suite.
packages="gcc cmake make pkg-config wireshark-dev tshark libgcrypt20-dev python3 python3-cryptography locales python3-dissononce util-linux python3-pytest python3-pytest-xdist"

die() { printf '\n*** chroot.sh: %s ***\n\n' "$*" >&2; exit 1; }
install_packages() {
    # The archive may be a snapshot whose Release files have expired: accept them.
    chroot "$root" /usr/bin/env DEBIAN_FRONTEND=noninteractive sh -c \
        "apt-get -o Acquire::Check-Valid-Until=false update -q && apt-get install -y -q --no-install-recommends $packages" \
        >>"$log" 2>&1 || die "installing packages into the $suite chroot failed, see $log"
    echo "$packages" >"$stamp"
}
log="$cache/$suite.log"

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$packages" ]; then
    echo "$root"; exit 0
fi
[ "$(id -u)" = 0 ] || die "preparing the $suite chroot needs root"
# A ready chroot whose package list grew only needs the new packages.
if [ -f "$stamp" ]; then
    echo "chroot.sh: adding packages to the $suite chroot (log: $log)" >&2
    install_packages; echo "$root"; exit 0
fi
command -v debootstrap >/dev/null || die "debootstrap is not installed"
# A run that was stopped may have left the chroot's /proc mounted: never delete through it.
umount "$root/proc" 2>/dev/null || true
rm -rf --one-file-system "$root"; mkdir -p "$cache"
echo "chroot.sh: creating the $suite chroot in $root (log: $log)" >&2
# Older debootstrap releases lack scripts for newer suites; they all share sid's.
script=/usr/share/debootstrap/scripts/$suite
[ -e "$script" ] || script=/usr/share/debootstrap/scripts/sid
debootstrap --variant=minbase "$suite" "$root" "$mirror" "$script" >"$log" 2>&1 \
    || die "debootstrap $suite failed, see $log"
install_packages
echo "$root"
