#!/usr/bin/env bash
# shellcheck disable=SC2317  # functions called through check
# SPDX-License-Identifier: GPL-2.0-or-later
# Dry run of the load test (tests/release/load-test.sh) on Linux, with the plugin built here
# (BUILD_DIR/bthome.so) and the profile zip and bthome-keys of .github/release/release-extras.sh:
#   - Linux: the host's tshark, the real thing;
#   - Windows and macOS: a stand-in (stubs/official-tshark) that answers with Wireshark's folder
#     rules of that system and runs the host's tshark for the rest;
#   - and the load test must fail when tshark's folder is not the documented one: a
#     macOS version folder with a dot, a row from another folder.
# Prints "load-test-folders: N passed, M failed".
# usage: tests/release/load-test-folders.sh BUILD_DIR
# shellcheck source=tests/release/lib.sh
. "$(dirname "$0")/lib.sh"
plugin=$(cd "${1:?usage: load-test-folders.sh BUILD_DIR}" && pwd)/bthome.so
[ -f "$plugin" ] || { echo "load-test-folders: no $plugin"; failed=1; finish load-test-folders; }
"$src/.github/release/release-extras.sh" "$work/extras" >/dev/null
extras=(--profile-zip "$(echo "$work"/extras/bthome-*-profile.zip)"
        --keys "$work/extras/unpacked/bthome-keys")
cp "$here/stubs/official-tshark" "$work/tshark" && chmod 755 "$work/tshark"
export STUB_REAL_TSHARK
STUB_REAL_TSHARK=$(command -v tshark)

# load_test NAME OS [STUB_VAR=VALUE...] -- LOAD_TEST_ARGS...: its output in $work/NAME
load_test() {
    local name=$1 os=$2; shift 2
    local vars=()
    while [ "$1" != -- ]; do vars+=("$1"); shift; done
    shift
    env ${vars[@]+"${vars[@]}"} BTHOME_LOAD_TEST_OS="$os" STUB_OS="$os" \
        "$src/tests/release/load-test.sh" "$@" >"$work/$name" 2>&1
    sed 's/^/    /' "$work/$name"
}
closing() { [ "$(tail -n 1 "$work/$1")" = "load-test: $2" ]; }

echo "load-test-folders: Linux, the host's tshark"
load_test linux linux -- "${extras[@]}" "$plugin" tshark
check "all 9 checks pass" closing linux "9 passed, 0 failed"

echo "load-test-folders: Windows rules (stand-in)"
# A WIRESHARK_CONFIG_DIR in the caller's environment would move Windows' plugin folder
# away from %APPDATA%: the load test must not pass it on.
load_test windows windows STUB_HONOR_CONFIG_DIR=1 WIRESHARK_CONFIG_DIR="$work/elsewhere" -- \
    "${extras[@]}" "$plugin" "$work/tshark"
check "all 9 checks pass" closing windows "9 passed, 0 failed"
check "the folder checked is %APPDATA%\\Wireshark\\plugins\\X.Y" \
    grep -qE '^  ok   tshark.s personal plugin folder .*/home/AppData/Roaming/Wireshark/plugins/[0-9]+\.[0-9]+ is ' \
    "$work/windows"

echo "load-test-folders: macOS rules (stand-in)"
load_test macos macos -- "${extras[@]}" "$plugin" "$work/tshark"
check "all 9 checks pass" closing macos "9 passed, 0 failed"
check "the folder checked is ~/.local/lib/wireshark/plugins/X-Y" \
    grep -qE '^  ok   tshark.s personal plugin folder .*/home/\.local/lib/wireshark/plugins/[0-9]+-[0-9]+ is ' \
    "$work/macos"

echo "load-test-folders: what must fail"
load_test dotted macos STUB_VERSION_DIR="$(tshark --version 2>/dev/null | sed -nE '1s/.* ([0-9]+\.[0-9]+)\..*/\1/p')" -- \
    "$plugin" "$work/tshark"
check "macOS folder named X.Y instead of X-Y: the folder check fails" \
    grep -q '^  FAIL tshark.s personal plugin folder' "$work/dotted"
check "... and with it the row check: the load test fails" closing dotted "2 passed, 2 failed"
load_test global windows STUB_ROW_PATH="$work/global/epan/bthome.so" -- "$plugin" "$work/tshark"
check "a row from another folder: the -G plugins check fails" \
    grep -q '^  FAIL tshark -G plugins lists bthome.so from' "$work/global"
check "... only that one" closing global "3 passed, 1 failed"
finish load-test-folders
