#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Wireshark's own fuzz harness with the plugin linked in (libFuzzer, ASan, UBSan) on three
# targets (bthome, nordic_ble, hci_h4), from the sanitizer tree the in-tree stage builds
# (tests/fuzz/run-fuzzshark.sh), BTHOME_FUZZSHARK_SECONDS (20) per target, two at a time.
# A target is one test; a target that never reaches the plugin fails the stage.
set -uo pipefail
# shellcheck source=tests/stages/lib/contract.sh
. "$(dirname "$0")/lib/contract.sh"
count_lines '^fuzzshark [a-z0-9_]+: .*no finding' '^fuzzshark [a-z0-9_]+: .*FINDINGS' \
    "$src/tests/fuzz/run-fuzzshark.sh" --seconds "${BTHOME_FUZZSHARK_SECONDS:-20}"
finish
