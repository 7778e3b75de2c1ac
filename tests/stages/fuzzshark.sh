#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Wireshark's own fuzz harness with the plugin linked in (libFuzzer, ASan, UBSan) on three
# targets (bthome, nordic_ble, hci_h4), from the sanitizer tree the in-tree stage builds
# (tests/fuzz/run-fuzzshark.sh), BTHOME_FUZZSHARK_SECONDS (40) per target, two at a time.
# A target is one test, and so is the coverage check (the plugin's functions ran).
set -uo pipefail
# shellcheck source=tests/stages/lib/contract.sh
. "$(dirname "$0")/lib/contract.sh"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$src/tests/fuzz/run-fuzzshark.sh" --seconds "${BTHOME_FUZZSHARK_SECONDS:-40}" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
passed=$(grep -cE '^fuzzshark [a-z0-9_]+: .*no finding' "$log")
failed=$(grep -cE '^fuzzshark [a-z0-9_]+: .*FINDINGS' "$log")
check "the runs reached the plugin's code, and no target failed (exit $status)" test "$status" = 0
finish
