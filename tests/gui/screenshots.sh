#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Screenshots of the plugin in the real Wireshark window, for the docs (docs/screenshots).
# Installs what is missing (Debian: wireshark-qt, Xvfb, xdotool, xclip, ImageMagick,
# tesseract), builds the plugin, then runs tests/gui/gui_check.py: a fresh Wireshark per
# picture on a private virtual display, with a temporary profile, the plugin from the
# build tree and no global profiles (never your profile, an installed copy of the plugin
# or the BTHome profile installed globally). Fails when the plugin does not load
# or a picture does not show what it should. The PNGs are byte-identical from run to run,
# so `git status docs/screenshots` shows what changed.
#
# usage: tests/gui/screenshots.sh [--check]
#   --check   do not write docs/screenshots: fail if they differ from what this code shows
set -euo pipefail
cd "$(dirname "$0")/../.."

packages="wireshark-qt xvfb xdotool xclip imagemagick tesseract-ocr tesseract-ocr-eng
    fonts-dejavu-core"
missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
        || missing="$missing $p"
done
if [ -n "$missing" ]; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    echo "gui-screenshots: installing$missing"
    $sudo apt-get update -q
    # wireshark-common asks whether non-root users may capture: keep its default (no).
    # shellcheck disable=SC2086  # one package name per word
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
fi
cmake/install-deps.sh

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" --target bthome profile-zip >/dev/null
if [ "${1:-}" = "--check" ]; then
    exec python3 -m tests.gui.gui_check --plugin build/bthome.so --compare docs/screenshots
fi
exec python3 -m tests.gui.gui_check --plugin build/bthome.so --out docs/screenshots
