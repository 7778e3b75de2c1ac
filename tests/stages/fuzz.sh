#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# libFuzzer on the core's five targets (tests/fuzz: v2, v1, crypto, audit, adv) with ASan
# and UBSan, each target's regression inputs first, then BTHOME_FUZZ_SECONDS (10) of
# fuzzing per target, two at a time (tests/fuzz/run-fuzz.sh). A target is one test.
set -uo pipefail
# shellcheck source=tests/stages/lib/contract.sh
. "$(dirname "$0")/lib/contract.sh"
count_lines '^fuzz [a-z0-9]+: .*no finding$' '^fuzz [a-z0-9]+: .*(FINDING|FAILED)' \
    "$src/tests/fuzz/run-fuzz.sh" --seconds "${BTHOME_FUZZ_SECONDS:-10}"
finish
