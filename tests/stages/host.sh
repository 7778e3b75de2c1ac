#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The host suite: the plugin built against the installed Wireshark (build/), the ctest
# suite (tests/CMakeLists.txt: unit tests of the core, fuzz replays, the generated fields,
# the release load test) and the whole pytest suite with the host's tshark (pytest.ini:
# a dissection test per capture, statistics, keys, profile, docs, install, locale, ...).
set -uo pipefail
# shellcheck source=tests/stages/lib/contract.sh
. "$(dirname "$0")/lib/contract.sh"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
{ cmake -S "$src" -B "$src/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=ON \
    >/dev/null && cmake --build "$src/build" -j2 >/dev/null; } || die "the build failed"
ctest --test-dir "$src/build" --output-on-failure -j2 2>&1 | tee "$log"
add_ctest_counts "$log"
run_pytest
finish
