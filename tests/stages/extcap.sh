#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The extcap stage (extcap/bthome-proxy): its Noise initiator against python3-dissononce,
# a bounded fuzz of its network parsers, and live captures through the real tshark from a
# simulated ESPHome proxy and a simulated Home Assistant, decoded by the plugin built in
# build-extcap/ (tests/extcap/). Prints "extcap: N passed, M failed" last.
set -uo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
cd "$src" || exit 1
fail() { echo "extcap: $*"; echo "extcap: 0 passed, 1 failed"; exit 1; }

"$src/cmake/install-deps.sh" --extcap >/dev/null || fail "cmake/install-deps.sh --extcap failed"
build="$src/build-extcap"
mkdir -p "$build" || fail "cannot make $build"
log="$build/stage-build.log"
{ cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
  cmake --build "$build" -j2 --target bthome; } >"$log" 2>&1 ||
    { tail -n 30 "$log"; fail "the plugin did not build (see $log)"; }
plugin="$build/bthome.so"

# Wireshark starts the extcap through its "#!/usr/bin/env python3": the system's Python,
# with the Debian packages (python3-cryptography), comes first, as on a user's machine.
export PATH="/usr/bin:/bin:$PATH"
passed=0 failed=0
run() {
    local out rc ok bad
    echo "=== $*"
    out=$(timeout 900 /usr/bin/python3 "$@" 2>&1); rc=$?
    echo "$out"
    ok=$(grep -c '^  ok ' <<<"$out"); bad=$(grep -c '^  FAIL ' <<<"$out")
    # a script that ends badly without naming a failed check still fails once
    [ $rc -ne 0 ] && [ "$bad" -eq 0 ] && { echo "  FAIL $1 exited $rc"; bad=1; }
    passed=$((passed + ok)); failed=$((failed + bad))
}
run tests/extcap/noise_test.py
run tests/extcap/fuzz_test.py --seconds 5
run tests/extcap/extcap_test.py --plugin "$plugin"
run tests/extcap/install_test.py --plugin "$plugin"
echo "extcap: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
