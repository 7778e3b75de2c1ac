# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the release dry runs (tests/release/*.sh): named checks, and the closing
# line "NAME: N passed, M failed" that tests/stages/release.sh adds up.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck disable=SC2034  # for the scripts that source this
src=$(cd "$here/../.." && pwd)
# shellcheck source=tests/release/checks.sh
. "$src/tests/release/checks.sh"
# shellcheck disable=SC2317  # called through check
contains() { grep -qF -- "$2" "$1"; }      # contains FILE TEXT
finish() { echo "$1: $passed passed, $failed failed"; [ "$failed" = 0 ]; exit; }
work=$(mktemp -d)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
