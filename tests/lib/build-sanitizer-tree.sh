#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The one Wireshark build the in-tree stage (tests/stages/in-tree.sh) and fuzzshark
# (tests/fuzz/run-fuzzshark.sh) share: the Wireshark source package of tests/lib/ws-source.sh,
# this checkout built in it as plugins/epan/bthome by tools/build-in-tree.sh (what the
# release workflow's Linux job runs), here with clang and Wireshark's own options for
# AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer (ENABLE_ASAN, ENABLE_UBSAN,
# ENABLE_FUZZER; -O1, line tables only). It builds tshark, the plugin, and Wireshark's
# fuzzshark with the plugin linked in (fuzzshark-bthome, and its coverage twin).
#
# Cached in $BTHOME_IN_TREE_CACHE/<version>-sanitizers (default /var/cache/bthome-in-tree):
# the kept build folder makes a second run quick (ninja compiles only what changed), so
# no ccache; one build at a time. Prints the plugin's path last:
# BUILD/run/plugins/X.Y/epan/bthome.so, beside BUILD/run/tshark and
# BUILD/run/fuzzshark-bthome.
set -uo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
cache=${BTHOME_IN_TREE_CACHE:-/var/cache/bthome-in-tree}
fail() { echo "in-tree build: $*" >&2; exit 1; }

{ "$src/cmake/install-deps.sh" --in-tree && "$src/cmake/install-deps.sh" --sanitizers; } >&2 ||
    fail "cannot install the build dependencies"
# shellcheck source=tests/lib/ws-source.sh
. "$src/tests/lib/ws-source.sh"
ws=$(ws_source_fetch) || fail "no Wireshark source package could be fetched"
version=$(sed -E 's/^wireshark_(.*)\.orig\.tar\..*$/\1/' "$ws/.ready")
build=$cache/$version-sanitizers
log=$cache/build-$version-sanitizers.log
mkdir -p "$cache" || fail "cannot make $cache"
echo "in-tree build: Wireshark $version from $(cat "$ws/.ready") with clang, ASan, UBSan" \
     "and libFuzzer, in $build" >&2

export CC=clang CXX=clang++
export CFLAGS="-gline-tables-only -fno-omit-frame-pointer" CXXFLAGS="-gline-tables-only -fno-omit-frame-pointer"
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2}
export ASAN_OPTIONS=detect_leaks=0      # tools the build runs, should one be instrumented
# Wireshark's own code warns under clang: the plugin's warnings stay errors (BTHOME_WERROR).
export BTHOME_WS_CMAKE_ARGS="-DCMAKE_BUILD_TYPE=RelWithDebInfo
    -DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1
    -DENABLE_ASAN=ON -DENABLE_UBSAN=ON -DENABLE_FUZZER=ON -DBUILD_fuzzshark=ON
    -DENABLE_WERROR=OFF -DBTHOME_WERROR=ON"
export BTHOME_WS_TARGETS="fuzzshark-bthome fuzzshark-bthome-coverage"
plugin=$(flock "$cache/.build.lock" "$src/tools/build-in-tree.sh" "$ws" "$build" 2>"$log" |
         tail -n 1)
if [ ! -f "$plugin" ]; then
    tail -n 40 "$log" >&2
    fail "the build failed, see $log"
fi
if grep -E 'warning:' "$log" | grep -F 'plugins/epan/bthome' >&2; then
    fail "the plugin compiled with warnings"
fi
echo "$plugin"
