#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The test command: every stage of tests/stages, or the ones named, one after the other.
#
#   tests/run-all.sh                 all stages, in the order below
#   tests/run-all.sh host in-tree    only these
#   tests/run-all.sh --list          the stage names, one a line
#
# A stage is a script, tests/stages/<name>.sh, that runs alone as well, and ends with
# the line "<name>: N passed, M failed" (", K skipped" may follow); a stage that ends
# without it died, and counts as one failure. At the end: a table of the stages (passed,
# failed, skipped, minutes), then "N passed, M failed" over all of them. What each stage
# covers and what it costs: docs/design.md#the-test-suite.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

# Cheap and broad first, so that a broken build shows within minutes; the stages that
# share the sanitizer tree (in-tree builds it) together; Windows last, the longest.
stages=(host wireshark-checks workflow-lint release extcap static fuzz valgrind devices package
        trixie forky in-tree mutation fuzzshark windows)

for file in tests/stages/*.sh; do
    name=$(basename "$file" .sh)
    [[ " ${stages[*]} " == *" $name "* ]] ||
        { echo "run-all: $file is no stage of the list in $0" >&2; exit 2; }
done
if [ "${1:-}" = --list ]; then
    printf '%s\n' "${stages[@]}"; exit 0
fi
chosen=("$@")
[ ${#chosen[@]} -gt 0 ] || chosen=("${stages[@]}")
for name in "${chosen[@]}"; do
    [[ " ${stages[*]} " == *" $name "* ]] ||
        { echo "run-all: no stage $name (tests/run-all.sh --list names them)" >&2; exit 2; }
done

out=$(mktemp)
trap 'rm -f "$out"' EXIT
table=()
total_passed=0 total_failed=0 start_all=$(date +%s)
for name in "${chosen[@]}"; do
    echo "=== stage $name (tests/stages/$name.sh) ==="
    start=$(date +%s)
    "tests/stages/$name.sh" </dev/null 2>&1 | tee "$out"
    status=${PIPESTATUS[0]}
    seconds=$(( $(date +%s) - start ))
    last=$(tail -n 1 "$out")
    if [[ $last =~ ^$name:\ ([0-9]+)\ passed,\ ([0-9]+)\ failed(,\ ([0-9]+)\ skipped)?$ ]]; then
        p=${BASH_REMATCH[1]} f=${BASH_REMATCH[2]} s=${BASH_REMATCH[4]:-0}
    else
        echo "run-all: stage $name ended without its closing line: counted as one failure"
        p=0 f=1 s=0
    fi
    if [ "$status" != 0 ] && [ "$f" = 0 ]; then
        echo "run-all: stage $name exited with status $status: counted as one failure"
        f=1
    fi
    total_passed=$((total_passed + p)); total_failed=$((total_failed + f))
    table+=("$(printf '%-18s %7d %7d %8d %5d:%02d' "$name" "$p" "$f" "$s" \
              $((seconds / 60)) $((seconds % 60)))")
done

seconds=$(( $(date +%s) - start_all ))
echo
printf '%-18s %7s %7s %8s %8s\n' stage passed failed skipped minutes
printf '%s\n' "${table[@]}"
printf '%-18s %7d %7d %8s %5d:%02d\n' total "$total_passed" "$total_failed" "" \
    $((seconds / 60)) $((seconds % 60))
echo "$total_passed passed, $total_failed failed"
[ "$total_failed" = 0 ]
