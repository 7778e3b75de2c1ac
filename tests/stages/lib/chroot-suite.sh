#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The stage of one Debian suite (tests/stages/trixie.sh, forky.sh): the plugin built, the
# ctest suite and the pytest suite run inside a cached chroot of that suite
# (tests/lib/chroot.sh), with its Wireshark's development files and tshark; but for what
# only the host's suite runs (markers link_variants and source_only, pytest.ini) and the
# markers named.
# usage: tests/stages/lib/chroot-suite.sh SUITE [MARKER...]  (trixie = 4.4, forky = 4.6)
set -uo pipefail
stage=${1:?usage: chroot-suite.sh SUITE [MARKER...]}
skip="not (link_variants or source_only"
for marker in "${@:2}"; do skip="$skip or $marker"; done
skip="$skip)"
# shellcheck source=tests/stages/lib/contract.sh
. "$(dirname "$0")/contract.sh"
need_root "$@"
root=$("$src/tests/lib/chroot.sh" "$stage") || die "no $stage chroot"

# A fresh copy of the tree (without build output) so the chroot builds what is here now.
rm -rf "$root/src"
mkdir -p "$root/src"
tar -C "$src" --exclude=./build --exclude='./build-*' --exclude=./.git -cf - . |
    tar -C "$root/src" -xf - || die "cannot copy the tree into $root"

log=$(mktemp)
cleanup() { umount "$root/proc" 2>/dev/null; rm -f "$log"; }
trap cleanup EXIT
mountpoint -q "$root/proc" || mount -t proc proc "$root/proc" || die "cannot mount /proc"

version=$(chroot "$root" tshark --version 2>/dev/null | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -n 1)
echo "$stage: Wireshark $version (chroot $root)"
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 sh -c '
    set -e
    rm -rf /tmp/build   # tar keeps the source times: an older build could look up to date
    cmake -S /src -B /tmp/build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/tmp/cmake.log \
        || { cat /tmp/cmake.log; exit 1; }
    cmake --build /tmp/build -j2 >/tmp/build.log 2>&1 || { cat /tmp/build.log; exit 1; }
    ctest --test-dir /tmp/build -LE source-only --output-on-failure -j2' 2>&1 | tee "$log"
add_ctest_counts "$log" || finish     # no ctest line: the build failed
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 \
    SKIP="$skip" sh -c 'cd /src && python3 -m pytest -n 2 --build=/tmp/build -m "$SKIP"' \
    2>&1 | tee "$log"
add_pytest_counts "$log"
# The extcap's tests (tests/stages/extcap.sh) with this suite's tshark and Python, on the
# plugin just built: live captures through Wireshark 4.4 / 4.6's extcap handling.
for test in noise_test "extcap_test --plugin /tmp/build/bthome.so" \
            "hass_live_test --plugin /tmp/build/bthome.so"; do
    echo "=== $stage: tests/extcap/${test%% *}.py"
    count_lines '^  ok ' '^  FAIL ' chroot "$root" /usr/bin/env -i \
        PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 \
        sh -c "cd /src && timeout 900 python3 -m tests.extcap.$test"
done
finish
