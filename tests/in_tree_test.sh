#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The in-tree build, tested: the newest Wireshark source package the archive serves
# (tests/ws_source.sh), this checkout built in it as plugins/epan/bthome by Wireshark's
# own CMake (tools/build-in-tree.sh, what the release workflow's Linux job runs), then
# the ctest suite's tshark tests (label "tshark": every capture's dissection, statistics,
# keys, ...) with that tree's tshark and plugin. A build tree's tshark loads the plugins
# of its own run/plugins folder, where build-in-tree.sh puts the plugin.
#
# The build is cached in $BTHOME_IN_TREE_CACHE/<version> (default /var/cache/bthome-in-tree),
# the compiler's output in its ccache/ folder. Prints "in-tree: N passed, M failed" last.
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
cache=${BTHOME_IN_TREE_CACHE:-/var/cache/bthome-in-tree}
fail() { echo "in-tree: 0 passed, 1 failed ($*)"; exit 1; }

"$src/cmake/install-deps.sh" --in-tree || fail "cannot install the build dependencies"
# shellcheck source=tests/ws_source.sh
. "$src/tests/ws_source.sh"
ws=$(ws_source_fetch) || fail "no Wireshark source package could be fetched"
version=$(sed -E 's/^wireshark_(.*)\.orig\.tar\..*$/\1/' "$ws/.ready")
build=$cache/$version
echo "in-tree: Wireshark $version from $(cat "$ws/.ready"), build in $build"

mkdir -p "$cache" || fail "cannot make $cache"
log=$cache/build-$version.log
plugin=$(CCACHE_DIR=${CCACHE_DIR:-$cache/ccache} \
         CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2} \
         "$src/tools/build-in-tree.sh" "$ws" "$build" 2>"$log" | tail -n 1)
if [ ! -f "$plugin" ]; then
    tail -n 40 "$log"
    fail "the in-tree build failed, see $log"
fi
echo "in-tree: built $plugin"
grep -E 'warning:' "$log" | grep -F 'plugins/epan/bthome' && fail "the plugin compiled with warnings"

# The suite's tests, configured afresh for this checkout, that plugin and that tshark;
# the capture generator some of them run loads the core library.
tests=$(mktemp -d) && chmod 755 "$tests"
out=$(mktemp)
trap 'rm -rf "$tests" "$out"' EXIT
{ cmake -S "$src" -B "$tests" -DBTHOME_TEST_PLUGIN="$plugin" &&
  cmake --build "$tests" --target bthome_core_shared -j2; } >"$out" 2>&1 ||
    { cat "$out"; fail "cannot configure the tests"; }
# ctest's closing line renamed, so tests/run-all.sh does not count it as a Wireshark version.
BTHOME_TSHARK=$build/run/tshark ctest --test-dir "$tests" -L tshark --output-on-failure -j2 2>&1 |
    sed -E 's/^([0-9]+% tests passed)/in-tree ctest: \1/' | tee "$out"
counts=$(sed -nE 's/^in-tree ctest: [0-9]+% tests passed, ([0-9]+) tests failed out of ([0-9]+)$/\1 \2/p' "$out")
[ -n "$counts" ] || fail "the tests did not run"
read -r failed total <<<"$counts"
[ "$total" -gt 0 ] || fail "no tshark tests found"
echo "in-tree: $((total - failed)) passed, $failed failed"
[ "$failed" = 0 ]
