#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the plugin inside a Wireshark source tree, by Wireshark's own CMake, the way
# Wireshark's doc/README.plugins describes a custom plugin: this checkout becomes
# plugins/epan/bthome of the tree (a copy without build output and .git), configured
# with -DCUSTOM_PLUGIN_SRC_DIR=plugins/epan/bthome. Builds tshark and the plugin only
# (no GUI), with Wireshark's warnings as errors, $BTHOME_WS_CMAKE_ARGS appended to the
# configure command (later -D options win; e.g. Wireshark's own -DENABLE_CCACHE=ON, with
# ccache installed) and $BTHOME_WS_TARGETS built too.
# Installs nothing. Prints the built plugin's path last, e.g.
# BUILD_DIR/run/plugins/4.0/epan/bthome.so (bthome.dll on Windows).
#
# usage: tools/build-in-tree.sh WIRESHARK_SRC_DIR BUILD_DIR
#
# Linux and macOS (bash, CMake 3.15+, Ninja and Wireshark's build dependencies). On
# Windows from Git Bash in a shell where MSVC's environment is set up (vcvars64) and
# Wireshark's Windows build prerequisites are installed; there the plugin is bthome.dll.
set -euo pipefail
usage="usage: tools/build-in-tree.sh WIRESHARK_SRC_DIR BUILD_DIR"
ws=${1:?$usage}
build=${2:?$usage}
[ -f "$ws/cmake/modules/WiresharkPlugin.cmake" ] || {
    echo "build-in-tree: $ws is not a Wireshark source tree" >&2; exit 1; }
src=$(cd "$(dirname "$0")/.." && pwd)
ws=$(cd "$ws" && pwd)
dest=$ws/plugins/epan/bthome

# A fresh copy each time (files removed here vanish there too); tar keeps the files'
# times, so an unchanged file is not compiled again.
if [ "$src" != "$dest" ]; then
    rm -rf "$dest"
    mkdir -p "$dest"
    tar -C "$src" --exclude=./.git --exclude=./build --exclude='./build-*' -cf - . |
        tar -C "$dest" -xf -
fi

# No GUI (Wireshark, Logray of 4.2-4.4, Stratoshark of 4.6) and no sharkd: tshark and the
# plugin need no Qt, and from 4.5 on only a GUI or sharkd makes SpeexDSP a requirement.
# CMake only warns about an option a tag does not know.
args=(-G Ninja -DCUSTOM_PLUGIN_SRC_DIR=plugins/epan/bthome -DENABLE_WERROR=ON
      -DBUILD_wireshark=OFF -DBUILD_logray=OFF -DBUILD_stratoshark=OFF -DBUILD_sharkd=OFF)
# shellcheck disable=SC2206  # one argument per word
extra=(${BTHOME_WS_CMAKE_ARGS:-})
mkdir -p "$build"
cmake -S "$ws" -B "$build" "${args[@]}" ${extra[@]+"${extra[@]}"} >&2
# shellcheck disable=SC2206  # one target per word
targets=(tshark bthome ${BTHOME_WS_TARGETS:-})
cmake --build "$build" --target "${targets[@]}" >&2

# -print -quit, not | head -n 1: under pipefail find dies of SIGPIPE once head has left.
plugin=$(find "$build/run" -path '*/epan/*' \( -name bthome.so -o -name bthome.dll \) \
         -print -quit)
[ -n "$plugin" ] || { echo "build-in-tree: no bthome plugin under $build/run" >&2; exit 1; }
echo "$plugin"
