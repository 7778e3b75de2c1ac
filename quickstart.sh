#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Quick start: install what is missing, build, install the plugin and the BTHome profile,
# decode the demo capture.
# Installs into your personal plugin folder (~/.local/lib/wireshark/plugins/X.Y/epan);
# as root, Wireshark ignores that folder, so root installs into the global one.
set -euo pipefail
cd "$(dirname "$0")"
cmake/install-deps.sh
user_install=ON
[ "$(id -u)" = 0 ] && user_install=OFF
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBTHOME_USER_INSTALL=$user_install >/dev/null
# Only what the install and the profile import need: the plugin (bthome-keys and the
# profile install from the sources) and the profile's zip. Not the test programs: the
# tests stay configured, so that this build folder serves `cmake --build build && ctest`.
cmake --build build -j"$(nproc)" --target bthome profile-zip
cmake --install build
echo
echo "=== tshark -r captures/bthome-demo.pcapng (summary) ==="
tshark -n -r captures/bthome-demo.pcapng 2>/dev/null
echo
echo "=== the BTHome tree of the first sensor readings ==="
tshark -n -r captures/bthome-demo.pcapng -Y bthome -c 4 -O bthome 2>/dev/null \
    | sed -n '/^BTHome/,/^$/p'
echo
echo "=== tshark -C BTHome -r captures/bthome-demo.pcapng (the BTHome profile's columns) ==="
if [ "$user_install" = OFF ]; then
    # As root the profile is global, and tshark -C copies a global profile into the
    # personal folder, where that copy would hide the next install's: give it a scratch one.
    WIRESHARK_CONFIG_DIR=$(mktemp -d)
    export WIRESHARK_CONFIG_DIR
    trap 'rm -rf "$WIRESHARK_CONFIG_DIR"' EXIT
fi
tshark -C BTHome -r captures/bthome-demo.pcapng -c 6 2>/dev/null
