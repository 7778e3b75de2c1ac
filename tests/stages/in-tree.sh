#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The in-tree build, tested: this checkout built as plugins/epan/bthome of Wireshark's
# source tree by Wireshark's own CMake (tools/build-in-tree.sh, what the release
# workflow's Linux job runs), with clang and AddressSanitizer, UndefinedBehaviorSanitizer
# and libFuzzer's instrumentation (tests/lib/build-sanitizer-tree.sh: the build fuzzshark shares),
# then the pytest suite's tshark tests (marker tshark: every capture's dissection,
# statistics, keys, ...; but not what reruns plugin code this stage runs already, markers
# profile_files, summary_runs (fuzzshark's target bthome runs BTHome without a tree
# under the same sanitizers), link_variants, key_import and locale, see pytest.ini)
# with that tree's tshark and plugin, under the sanitizers: any
# report ends tshark with an error, which fails its test. A build tree's tshark loads
# the plugins of its own run/plugins folder, where build-in-tree.sh puts the plugin.
set -uo pipefail
# shellcheck source=tests/stages/lib/contract.sh
. "$(dirname "$0")/lib/contract.sh"

plugin=$("$src/tests/lib/build-sanitizer-tree.sh" | tail -n 1)
[ -f "$plugin" ] || die "the in-tree build failed"
build=${plugin%/run/*}
echo "in-tree: built $plugin"

# Leaks are the fuzzshark and valgrind stages' (tshark frees not everything at its exit);
# every wmem allocation its own block, so that ASan sees each; UBSan stops tshark.
export ASAN_OPTIONS=detect_leaks=0 WIRESHARK_DEBUG_WMEM_OVERRIDE=simple
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
BTHOME_TSHARK=$build/run/tshark run_pytest --plugin="$plugin" \
    -m 'tshark and not (profile_files or summary_runs or link_variants or key_import or locale)'
finish
