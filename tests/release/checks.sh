# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Named checks for the shell tests that source this (tests/release/load-test.sh, tests/release):
# `check WHAT COMMAND...` runs COMMAND, prints "  ok   WHAT" or "  FAIL WHAT" and counts it
# in $passed or $failed; `not COMMAND...` is COMMAND's negation, for check.
passed=0; failed=0
check() {
    local what=$1; shift
    if "$@"; then echo "  ok   $what"; passed=$((passed + 1))
    else echo "  FAIL $what"; failed=$((failed + 1)); fi
}
# shellcheck disable=SC2317  # called through check
not() { ! "$@"; }
