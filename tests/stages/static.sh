#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Static analysis of core/ and plugin/ (tests/robustness/static-analysis.sh): gcc and clang
# with Wireshark's warnings as errors, cppcheck, clang-tidy; each tool is one test.
set -uo pipefail
# shellcheck source=tests/stages/lib/contract.sh
. "$(dirname "$0")/lib/contract.sh"
count_lines '^static: .*: clean' '^static: .*(finding|FAILED|no clang build)' \
    "$src/tests/robustness/static-analysis.sh"
finish
