#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Memcheck of tshark with the plugin (build/, the host stage's) over every sample capture
# (tests/robustness/valgrind.py): no invalid read or write, no leak from the plugin.
set -uo pipefail
# shellcheck source=tests/stages/lib/contract.sh
. "$(dirname "$0")/lib/contract.sh"
host_plugin || die "cannot build the plugin"
cd "$src" || die "no $src"
check "valgrind over captures/" python3 -m tests.robustness.valgrind \
    --plugin "$src/build/bthome.so" --captures "$src/captures"
finish
