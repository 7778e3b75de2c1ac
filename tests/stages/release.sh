#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The release workflow's shell, run on Linux with stand-ins for what only GitHub's runners
# have (tests/release): the official download's choice of file (download.sh), the load
# test's documented folders with the host's tshark and with Windows' and macOS' folder
# rules (load-test-folders.sh), a macOS build job's last steps and the release job on
# fake artifact sets, one job missing among them (release-job.sh), and the Windows MSVC
# environment step (msvc-env.sh). The plugin is built here first (BUILD_DIR, default
# build-release). Its schema validation is the workflow-lint stage's.
# Prints "release: N passed, M failed" last; exit status 0 only when nothing failed.
# usage: tests/stages/release.sh [BUILD_DIR]
set -uo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$src/build-release}
passed=0; failed=0
fail() { echo "release: $passed passed, $((failed + 1)) failed ($*)"; exit 1; }

"$src/cmake/install-deps.sh" || fail "cmake/install-deps.sh"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
{ cmake -S "$src" -B "$build" -DBUILD_TESTING=OFF &&
  cmake --build "$build" -j2 --target bthome; } >"$log" 2>&1 ||
    { cat "$log"; fail "the plugin does not build"; }

for test in download load-test-folders release-job msvc-env; do
    echo "=== release: $test ==="
    "$src/tests/release/$test.sh" "$build" 2>&1 | tee "$log"
    counts=$(tail -n 1 "$log" | sed -nE "s/^$test: ([0-9]+) passed, ([0-9]+) failed$/\1 \2/p")
    if [ -z "$counts" ]; then
        echo "  FAIL $test ended without its closing line"
        failed=$((failed + 1))
        continue
    fi
    passed=$((passed + ${counts% *})); failed=$((failed + ${counts#* }))
done
echo "release: $passed passed, $failed failed"
[ "$failed" = 0 ]
