#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The in-tree build, tested: this checkout built as plugins/epan/bthome of Wireshark's
# source tree by Wireshark's own CMake (tools/build-in-tree.sh, what the release
# workflow's Linux job runs), with clang and AddressSanitizer, UndefinedBehaviorSanitizer
# and libFuzzer's instrumentation (tests/lib/build-sanitizer-tree.sh: the build fuzzshark shares),
# then the ctest suite's tshark tests (label "tshark": every capture's dissection,
# statistics, keys, ...; but not what reruns plugin code this stage runs already, labels
# "profile-files", "summary-runs" (fuzzshark's target bthome runs BTHome without a tree
# under the same sanitizers), "link-variants", "key-import" and "locale", see
# tests/CMakeLists.txt) with that tree's tshark and plugin, under the sanitizers: any
# report ends tshark with an error, which fails its test. A build tree's tshark loads
# the plugins of its own run/plugins folder, where build-in-tree.sh puts the plugin.
set -uo pipefail
# shellcheck source=tests/stages/lib/contract.sh
. "$(dirname "$0")/lib/contract.sh"

plugin=$("$src/tests/lib/build-sanitizer-tree.sh" | tail -n 1)
[ -f "$plugin" ] || die "the in-tree build failed"
build=${plugin%/run/*}
echo "in-tree: built $plugin"

# The suite's tests, configured afresh for this checkout, that plugin and that tshark.
tests=$(mktemp -d) && chmod 755 "$tests"
out=$(mktemp)
trap 'rm -rf "$tests" "$out"' EXIT
cmake -S "$src" -B "$tests" -DBTHOME_TEST_PLUGIN="$plugin" >"$out" 2>&1 ||
    { cat "$out"; die "cannot configure the tests"; }
# Leaks are the fuzzshark and valgrind stages' (tshark frees not everything at its exit);
# every wmem allocation its own block, so that ASan sees each; UBSan stops tshark.
export ASAN_OPTIONS=detect_leaks=0 WIRESHARK_DEBUG_WMEM_OVERRIDE=simple
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
BTHOME_TSHARK=$build/run/tshark ctest --test-dir "$tests" -L tshark \
    -LE 'profile-files|summary-runs|link-variants|key-import|locale' \
    --output-on-failure -j2 2>&1 | tee "$out"
add_ctest_counts "$out"
finish
