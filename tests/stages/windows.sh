#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Windows stage: Wireshark 4.0.17's tshark and the plugin cross-built for Windows x64
# with MinGW-w64 from Debian 12's source package (tools/build-windows.sh), run under
# Wine. First the ctest suite's tshark tests (label "tshark": every capture against the
# same expected output as on Linux, statistics, keys, locale, ...; the profile's files
# and the summary runs, labels "profile-files" and "summary-runs", are left to Linux)
# with tshark.exe and bthome.dll, then tests/tshark/windows_test.py: what only Windows does
# (%APPDATA% with the keys and the profile, Windows paths with spaces, CRLF keys files,
# -o keys).
#
# Cached in $BTHOME_WINDOWS_CACHE (default /var/cache/bthome-windows): the cross-built
# libraries, the build tree and the Wine prefix the tests run in (never ~/.wine).
# Prints "windows: N passed, M failed" last.
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
export BTHOME_WINDOWS_CACHE=${BTHOME_WINDOWS_CACHE:-/var/cache/bthome-windows}
cache=$BTHOME_WINDOWS_CACHE
fail() { echo "windows: 0 passed, 1 failed ($*)"; exit 1; }

# shellcheck source=tools/ws-source.sh
. "$src/tools/ws-source.sh"
ws=$(debian_source_fetch bookworm wireshark "$ws_source_cache") ||
    fail "no Wireshark 4.0 source package could be fetched"
version=$(sed -E 's/^wireshark_(.*)\.orig\.tar\..*$/\1/' "$ws/.ready")
build=$cache/build-$version
mkdir -p "$cache" || fail "cannot make $cache"
log=$cache/build-windows-$version.log
echo "windows: Wireshark $version for Windows x64 (MinGW-w64), build in $build"
plugin=$(CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2} \
         "$src/tools/build-windows.sh" "$ws" "$build" 2>"$log" | tail -n 1)
if [ ! -f "$plugin" ]; then
    tail -n 40 "$log"
    fail "the Windows build failed, see $log"
fi
tshark=$build/run/tshark.exe
echo "windows: built $plugin"

# Wine in a prefix of its own, without a display, its debug messages or the offers to
# install Mono and Gecko; one wineserver for all the runs, started before anything else
# so that no short-lived one holds the prefix. (No lock: Wine's own processes would
# inherit it and outlive the stage.)
export WINEPREFIX=$cache/wine WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
unset DISPLAY
mkdir -p "$WINEPREFIX"
wineserver -k >/dev/null 2>&1; wineserver -w     # a server left by another run (ours)
wineserver -p || fail "cannot start the Wine server"
trap 'wineserver --kill >/dev/null 2>&1' EXIT
wineboot --init >/dev/null 2>&1 || fail "cannot make the Wine prefix $WINEPREFIX"
started=$(wine "$tshark" --version 2>/dev/null)
grep -q "^TShark (Wireshark) $version " <<<"$started" ||
    fail "tshark.exe does not start under Wine"

# The suite's tests, configured afresh for this checkout with that plugin and tshark.exe.
tests=$(mktemp -d)
out=$(mktemp)
export BTHOME_WINE_RERUNS=$tests/wine-reruns     # see tools/wsrun.py
trap 'wineserver --kill >/dev/null 2>&1; rm -rf "$tests" "$out"' EXIT
{ cmake -S "$src" -B "$tests" -DBTHOME_TEST_PLUGIN="$plugin" &&
  cmake --build "$tests" --target bthome_core_shared -j2; } >"$out" 2>&1 ||
    { cat "$out"; fail "cannot configure the tests"; }
# ctest's closing line renamed, so tests/run-all.sh does not count it as a Wireshark
# version.
BTHOME_TSHARK=$tshark ctest --test-dir "$tests" -L tshark -LE 'profile-files|summary-runs' \
    --output-on-failure -j2 2>&1 |
    sed -E 's/^([0-9]+% tests passed)/windows ctest: \1/' | tee "$out"
counts=$(sed -nE 's/^windows ctest: [0-9]+% tests passed, ([0-9]+) tests failed out of ([0-9]+)$/\1 \2/p' \
         "$out")
[ -n "$counts" ] || fail "the tests did not run"
read -r failed total <<<"$counts"
[ "$total" -gt 0 ] || fail "no tshark tests found"
passed=$((total - failed))

if python3 "$src/tests/tshark/windows_test.py" --plugin "$plugin" --tshark "$tshark" --source "$src"
then passed=$((passed + 1)); else failed=$((failed + 1)); fi
if [ -s "$BTHOME_WINE_RERUNS" ]; then
    echo "windows: $(wc -l <"$BTHOME_WINE_RERUNS") tshark.exe runs ended with an error and" \
         "no message under Wine, and were run again:"
    cat "$BTHOME_WINE_RERUNS"
fi
echo "windows: $passed passed, $failed failed"
[ "$failed" = 0 ]
