#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Static analysis of core/ and plugin/ (tests/robustness/static-analysis.sh): gcc and clang
# with Wireshark's warnings as errors, cppcheck, clang-tidy; each tool is one test.
set -uo pipefail
# shellcheck source=tests/stages/lib/contract.sh
. "$(dirname "$0")/lib/contract.sh"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$src/tests/robustness/static-analysis.sh" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
passed=$(grep -cE '^static: .*: clean' "$log")
failed=$(grep -cE '^static: .*(finding|FAILED|no clang build)' "$log")
[ "$status" = 0 ] || [ "$failed" -gt 0 ] || die "static-analysis.sh failed (exit $status)"
finish
