#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The whole test suite: unit and dissection tests (ctest) against the host's Wireshark,
# then the same suite built and run inside cached chroots with Wireshark 4.4 (Debian
# trixie) and 4.6 (Debian forky). A chroot that cannot be made fails the run.
# Set BTHOME_SUITES="trixie forky" to choose the chroots.
# On the host also Wireshark's own dissector checks (tests/stages/wireshark-checks.sh) and, between the
# Wireshark versions, the robustness stages (tests/robustness/run.sh: fuzzing,
# mutation, valgrind, static analysis, per-device memory, fuzzshark);
# BTHOME_ROBUSTNESS="fuzz static"
# chooses some, "none" skips them. Also on the host: the Debian package
# (tests/stages/package.sh: cpack, then apt install into a clean Debian 12 root), the
# schema validation of .github/workflows (tools/workflow-lint), and the plugin built
# inside Wireshark's source tree with that tree's tshark (tests/stages/in-tree.sh;
# BTHOME_IN_TREE=0 skips it), and the Windows stage: tshark and the plugin cross-built
# for Windows with MinGW-w64 and the tshark tests run under Wine (tests/stages/windows.sh;
# BTHOME_WINDOWS=0 skips it). The GUI check is its own command
# (tools/gui-screenshots.sh --check), see docs/user-guide.md.
set -uo pipefail
cd "$(dirname "$0")/.."
cmake/install-deps.sh --tests || exit 1
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

host_version=$(tshark --version 2>/dev/null | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -n 1)
echo "=== Wireshark $host_version (host) ==="
{ cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null &&
  cmake --build build -j2 >/dev/null &&
  ctest --test-dir build --output-on-failure -j2; } 2>&1 | tee -a "$log"
echo "=== Wireshark's dissector checks (host, scripts from Wireshark's source package) ==="
tests/stages/wireshark-checks.sh 2>&1 | tee -a "$log"
echo "=== Workflow files (host): schema validation (tools/workflow-lint) ==="
tools/workflow-lint/check.sh 2>&1 | tee -a "$log"
in_tree=${BTHOME_IN_TREE:-1}
if [ "$in_tree" != 0 ]; then
    echo "=== The plugin built in Wireshark's source tree, with its tshark (host) ==="
    tests/stages/in-tree.sh 2>&1 | tee -a "$log"
fi
windows=${BTHOME_WINDOWS:-1}
if [ "$windows" != 0 ]; then
    echo "=== Windows: tshark and the plugin built with MinGW-w64, run under Wine (host) ==="
    tests/stages/windows.sh 2>&1 | tee -a "$log"
fi
robustness=${BTHOME_ROBUSTNESS:-fuzz mutation valgrind static devices fuzzshark}
if [ "$robustness" != none ]; then
    echo "=== Robustness stages (host) ==="
    # shellcheck disable=SC2086  # one stage name per word
    tests/robustness/run.sh $robustness 2>&1 | tee -a "$log"
fi
echo "=== Debian package (host): cpack, then apt install in a clean bookworm root ==="
$sudo tests/stages/package.sh 2>&1 | tee -a "$log"
[ "${PIPESTATUS[0]}" = 0 ] || echo "*** Debian package: test FAILED ***" | tee -a "$log"
for suite in ${BTHOME_SUITES:-trixie forky}; do
    $sudo tests/stages/chroot-suite.sh "$suite" 2>&1 | tee -a "$log"
    [ "${PIPESTATUS[0]}" = 0 ] || echo "*** $suite: build or tests FAILED ***" | tee -a "$log"
done

# One closing line over every Wireshark version.
passed=0; failed=0; runs=0
while read -r _ _ _ nfailed _ _ _ _ total; do
    runs=$((runs + 1)); failed=$((failed + nfailed)); passed=$((passed + total - nfailed))
done < <(grep -E '^[0-9]+% tests passed, [0-9]+ tests failed out of [0-9]+' "$log")
expected_runs=$((1 + $(echo ${BTHOME_SUITES:-trixie forky} | wc -w)))
if [ "$runs" -ne "$expected_runs" ] || grep -q 'FAILED \*\*\*' "$log"; then
    echo "*** only $runs of $expected_runs Wireshark versions ran their tests ***"
    failed=$((failed + 1))
fi
# The package test counts as one test (its failure is a FAILED *** line above), and so
# do Wireshark's checks.
grep -qE '^package: [0-9]+ passed, 0 failed$' "$log" && passed=$((passed + 1))
if grep -qE '^wireshark-checks: passed' "$log"; then
    passed=$((passed + 1))
else
    echo "*** Wireshark's dissector checks did not pass ***"; failed=$((failed + 1))
fi
# So does the validation of the release workflow (.github/workflows).
if grep -qE '^workflow-lint: passed' "$log"; then
    passed=$((passed + 1))
else
    echo "*** the workflow files did not validate ***"; failed=$((failed + 1))
fi
# The in-tree and Windows stages' tests count one by one; a stage that printed no count
# died.
for stage in in-tree windows; do
    [ "$stage" = in-tree ] && [ "$in_tree" = 0 ] && continue
    [ "$stage" = windows ] && [ "$windows" = 0 ] && continue
    counts=$(sed -nE "s/^$stage: ([0-9]+) passed, ([0-9]+) failed( .*)?\$/\1 \2/p" "$log")
    if [ -n "$counts" ]; then
        read -r stage_passed stage_failed <<<"$counts"
        passed=$((passed + stage_passed)); failed=$((failed + stage_failed))
    else
        echo "*** the $stage stage did not run to its end ***"; failed=$((failed + 1))
    fi
done
# Each robustness stage counts as one test; a stage that started and printed no result
# (the script died) is a failure.
if [ "$robustness" != none ]; then
    started=$(grep -cE '^--- robustness [a-z]+$' "$log")
    stage_passed=$(grep -cE '^robustness [a-z]+: passed' "$log")
    stage_failed=$(grep -cE '^robustness [a-z]+: FAILED' "$log")
    passed=$((passed + stage_passed)); failed=$((failed + stage_failed))
    if [ "$started" -ne "$(echo $robustness | wc -w)" ] ||
       [ $((stage_passed + stage_failed)) -ne "$started" ]; then
        echo "*** not every robustness stage ran to its end ***"
        failed=$((failed + 1))
    fi
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
