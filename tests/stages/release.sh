#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The release workflow's shell, run on Linux with stand-ins for what only GitHub's runners
# have (tests/release): the official download's choice of file (download.sh), the load
# test's documented folders with the host's tshark and with Windows' and macOS' folder
# rules (load-test-folders.sh), a macOS build job's last steps and the release job on
# fake artifact sets, one job missing among them (release-job.sh), and the Windows MSVC
# environment step (msvc-env.sh), the first of many files find finds under pipefail
# (find-first.sh), the macOS Homebrew step's settings (homebrew.sh), the official
# Wiresharks of X.Y.Z and X.Y.0 a Windows or macOS job loads into (first-release.sh), the
# preflight job with a stand-in Wireshark repository and download site (preflight.sh), each
# with the plugin of build/. Its schema validation
# is the workflow-lint stage's.
set -uo pipefail
# shellcheck source=tests/stages/lib/contract.sh
. "$(dirname "$0")/lib/contract.sh"
host_plugin || die "the plugin does not build"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for test in download load-test-folders release-job msvc-env find-first homebrew first-release preflight; do
    echo "=== release: $test ==="
    "$src/tests/release/$test.sh" "$src/build" 2>&1 | tee "$log"
    if [[ $(tail -n 1 "$log") =~ ^$test:\ ([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
        passed=$((passed + BASH_REMATCH[1])); failed=$((failed + BASH_REMATCH[2]))
    else
        echo "  FAIL $test ended without its closing line"; failed=$((failed + 1))
    fi
done
finish
