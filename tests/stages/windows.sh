#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Windows stage: Wireshark 4.0.17's tshark and the plugin cross-built for Windows x64
# with MinGW-w64 from Debian 12's source package (tests/lib/build-windows.sh), run under
# Wine: the pytest suite's tshark tests (marker tshark: every capture against the same
# expected output as on Linux, statistics, keys, locale, ...; the profile's files, the
# summary runs, the link variants and the key importer, markers profile_files,
# summary_runs, link_variants and key_import, are left to Linux) with tshark.exe and
# bthome.dll, among them tests/tshark/windows_test.py: what only Windows does (%APPDATA%
# with the keys and the profile, Windows paths with spaces, CRLF keys files, -o keys).
#
# Cached in $BTHOME_WINDOWS_CACHE (default /var/cache/bthome-windows): the cross-built
# libraries, the build tree and the Wine prefix the tests run in (never ~/.wine).
set -uo pipefail
# shellcheck source=tests/stages/lib/contract.sh
. "$(dirname "$0")/lib/contract.sh"
export BTHOME_WINDOWS_CACHE=${BTHOME_WINDOWS_CACHE:-/var/cache/bthome-windows}
cache=$BTHOME_WINDOWS_CACHE

# shellcheck source=tests/lib/ws-source.sh
. "$src/tests/lib/ws-source.sh"
ws=$(debian_source_fetch bookworm wireshark "$ws_source_cache") ||
    die "no Wireshark 4.0 source package could be fetched"
version=$(sed -E 's/^wireshark_(.*)\.orig\.tar\..*$/\1/' "$ws/.ready")
build=$cache/build-$version
mkdir -p "$cache" || die "cannot make $cache"
log=$cache/build-windows-$version.log
echo "windows: Wireshark $version for Windows x64 (MinGW-w64), build in $build"
plugin=$(CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2} \
         "$src/tests/lib/build-windows.sh" "$ws" "$build" 2>"$log" | tail -n 1)
if [ ! -f "$plugin" ]; then
    tail -n 40 "$log"
    die "the Windows build failed, see $log"
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
wineserver -p || die "cannot start the Wine server"
trap 'wineserver --kill >/dev/null 2>&1' EXIT
wineboot --init >/dev/null 2>&1 || die "cannot make the Wine prefix $WINEPREFIX"
started=$(wine "$tshark" --version 2>/dev/null)
grep -q "^TShark (Wireshark) $version " <<<"$started" ||
    die "tshark.exe does not start under Wine"

# The pytest suite's tshark tests with that plugin and tshark.exe, windows_test.py among
# them (what only Windows does, skipped with any other tshark).
reruns=$(mktemp)
export BTHOME_WINE_RERUNS=$reruns     # see tests/lib/wsrun.py
trap 'wineserver --kill >/dev/null 2>&1; rm -f "$reruns"' EXIT
BTHOME_TSHARK=$tshark run_pytest --plugin="$plugin" \
    -m 'tshark and not (profile_files or summary_runs or link_variants or key_import)'
if [ -s "$BTHOME_WINE_RERUNS" ]; then
    echo "windows: $(wc -l <"$BTHOME_WINE_RERUNS") tshark.exe runs ended with an error and" \
         "no message under Wine, and were run again:"
    cat "$BTHOME_WINE_RERUNS"
fi
finish
