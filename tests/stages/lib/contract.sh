# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by every stage (tests/stages/<name>.sh): the contract they share. A stage runs
# alone from any folder, installs and builds what it needs (or reuses what another stage
# left: the caches name theirs), prints "<name>: N passed, M failed" (", K skipped" may
# follow) as its last line, and exits 0 only when M is 0. tests/run-all.sh reads nothing
# else of its output.
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
stage=${stage:-$(basename "$0" .sh)}
passed=0 failed=0 skipped=0

# check WHAT COMMAND...: one named test.
check() {
    local what=$1; shift
    if "$@"; then echo "  ok   $what"; passed=$((passed + 1))
    else echo "  FAIL $what"; failed=$((failed + 1)); fi
}

# The closing line, and the exit status that goes with it.
finish() {
    local tail=""
    [ "$skipped" = 0 ] || tail=", $skipped skipped"
    echo "$stage: $passed passed, $failed failed$tail"
    [ "$failed" = 0 ]
    exit
}

# What stops the stage, counted as one failure.
die() {
    echo "$stage: $*"
    failed=$((failed + 1))
    finish
}

# Root, for debootstrap and chroot: as another user, the stage runs itself again by sudo,
# with the variables that choose its caches and inputs.
need_root() {
    [ "$(id -u)" = 0 ] && return
    command -v sudo >/dev/null || die "needs root (or sudo)"
    exec sudo --preserve-env=BTHOME_DEB,BTHOME_CHROOT_CACHE,BTHOME_DEBIAN_MIRROR,BTHOME_WS_SRC_CACHE \
        "$0" "$@"
}

# ctest's closing line in LOG ("100% tests passed, 0 tests failed out of 158") added to
# the counts; no such line, or no test, is a failure.
add_ctest_counts() {
    local counts nfailed total
    counts=$(sed -nE 's/^[0-9]+% tests passed, ([0-9]+) tests failed out of ([0-9]+)$/\1 \2/p' \
             "$1" | tail -n 1)
    read -r nfailed total <<<"${counts:-0 0}"
    if [ "$total" = 0 ]; then
        echo "$stage: ctest ran no test"; failed=$((failed + 1)); return 1
    fi
    passed=$((passed + total - nfailed)); failed=$((failed + nfailed))
}

# pytest's closing line in LOG ("==== 3 failed, 150 passed, 2 skipped in 95.1s ====")
# added to the counts (an error counts as a failure); no such line, or no test, is a
# failure.
add_pytest_counts() {
    local line n word ran=0
    line=$(grep -E '^=+ .*[0-9]+ (passed|failed|errors?|skipped|deselected).* in [0-9.]+s' \
           "$1" | tail -n 1)
    for word in passed failed error errors skipped; do
        n=$(sed -nE "s/.*[ =]([0-9]+) $word[,\ ].*/\1/p" <<<"$line")
        [ -n "$n" ] || continue
        case $word in
            passed) passed=$((passed + n)); ran=$((ran + n)) ;;
            skipped) skipped=$((skipped + n)) ;;
            *) failed=$((failed + n)); ran=$((ran + n)) ;;
        esac
    done
    if [ "$ran" = 0 ]; then
        echo "$stage: pytest ran no test"; failed=$((failed + 1)); return 1
    fi
}

# run_pytest ARGS...: the pytest suite (pytest.ini) from the tree's root, two workers,
# its output shown and counted.
run_pytest() {
    local log
    log=$(mktemp)
    (cd "$src" && /usr/bin/python3 -m pytest -n 2 "$@") 2>&1 | tee "$log"
    add_pytest_counts "$log"
    rm -f "$log"
}

# count_lines PASS_RE FAIL_RE COMMAND...: runs COMMAND, its output shown; each line it
# prints that matches PASS_RE is a test passed, FAIL_RE one failed. An exit status other
# than 0 without a failed line, or no line matching either, counts as one failure.
count_lines() {
    local pass_re=$1 fail_re=$2 log status bad good
    shift 2
    log=$(mktemp)
    "$@" 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    bad=$(grep -cE "$fail_re" "$log")
    good=$(grep -cE "$pass_re" "$log")
    passed=$((passed + good)); failed=$((failed + bad))
    rm -f "$log"
    if [ "$status" != 0 ] && [ "$bad" = 0 ]; then
        echo "$stage: '$*' ended with exit status $status"; failed=$((failed + 1))
    elif [ $((good + bad)) = 0 ]; then
        echo "$stage: '$*' reported no test"; failed=$((failed + 1))
    fi
}

# The plugin built against the installed Wireshark, in build/ (the host stage's build,
# which the valgrind and devices stages load).
host_plugin() {
    cmake -S "$src" -B "$src/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=ON \
        >/dev/null && cmake --build "$src/build" -j2 --target bthome >/dev/null
}

# What every stage can count on (a no-op once installed).
"$src/cmake/install-deps.sh" --tests || die "cannot install the test dependencies"
