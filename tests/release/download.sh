#!/usr/bin/env bash
# shellcheck disable=SC2317  # functions called through check
# SPDX-License-Identifier: GPL-2.0-or-later
# Dry run of the official download (.github/release/official-wireshark.sh) on Linux: which file it
# asks Wireshark's site for, in which order, with a stand-in curl (stubs/curl) that
# answers only for the files a test says exist. Prints "download: N passed, M failed".
# shellcheck source=tests/release/lib.sh
. "$(dirname "$0")/lib.sh"
base=https://dl.test
export STUB_LOG=$work/log STUB_OK=$work/ok WS_DOWNLOAD_BASE=$base WS_DOWNLOAD_ONLY=1
export PATH=$here/stubs:$PATH

# download OS ARCH VERSION EXISTING_URL...: runs the script; its output, then the URLs
# it asked for, are in $work/out and $work/log.
download() {
    local os=$1 arch=$2 version=$3; shift 3
    printf '%s\n' "$@" >"$STUB_OK"
    : >"$STUB_LOG"
    rm -rf "$work/dl"
    WS_OFFICIAL_OS=$os WS_OFFICIAL_ARCH=$arch "$src/.github/release/official-wireshark.sh" "$version" \
        "$work/dl" >"$work/out" 2>"$work/err"
}
asked() { printf '%s\n' "$@" | cmp -s - "$STUB_LOG"; }            # asked URL...: in order
got() { [ "$(cat "$(tail -n 1 "$work/out")")" = "$1" ]; }          # got URL: the file's

mac46=$base/osx/all-versions/Wireshark%204.6.9.dmg
arm46=$base/osx/all-versions/Wireshark%204.6.9%20Arm%2064.dmg
arm44=$base/osx/all-versions/Wireshark%204.4.19%20Arm%2064.dmg
intel44=$base/osx/all-versions/Wireshark%204.4.19%20Intel%2064.dmg
uni44=$base/osx/all-versions/Wireshark%204.4.19.dmg

echo "download: macOS 4.6, the universal image exists"
download macos arm64 4.6.9 "$mac46" "$arm46"
check "asks for the universal name first, and only for it" asked "$mac46"
check "the file is the universal image" got "$mac46"

echo "download: macOS 4.4, per architecture only"
download macos arm64 4.4.19 "$arm44" "$intel44"
check "Apple silicon: universal name, then Arm 64" asked "$uni44" "$arm44"
check "the file is the Arm 64 image" got "$arm44"
download macos x86_64 4.4.19 "$arm44" "$intel44"
check "Intel: universal name, then Intel 64" asked "$uni44" "$intel44"
check "the file is the Intel 64 image" got "$intel44"

echo "download: no image at all"
download macos arm64 4.6.9
rc=$?
check "fails (status $rc) after both names" test "$rc" != 0
check "both names were asked for" asked "$mac46" "$arm46"
check "says there is no download" contains "$work/err" "no download for Wireshark 4.6.9"

echo "download: Windows"
exe=$base/win64/all-versions/Wireshark-4.6.9-x64.exe
old=$base/win64/all-versions/Wireshark-win64-4.6.9.exe
download windows x86_64 4.6.9 "$exe" "$old"
check "the installer's current name first, and only it" asked "$exe"
download windows x86_64 4.6.9 "$old"
check "then its older spelling" asked "$exe" "$old"
check "the file is the older spelling's" got "$old"
finish download
