#!/usr/bin/env bash
# The whole test suite: unit and dissection tests (ctest) against the host's Wireshark,
# then the same suite built and run inside cached chroots with Wireshark 4.4 (Debian
# trixie) and 4.6 (Debian forky). A chroot that cannot be made fails the run.
# Set BTHOME_SUITES="trixie forky" to choose the chroots.
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
for suite in ${BTHOME_SUITES:-trixie forky}; do
    $sudo tests/run-in-chroot.sh "$suite" 2>&1 | tee -a "$log"
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
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
