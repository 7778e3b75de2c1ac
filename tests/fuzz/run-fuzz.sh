#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds the libFuzzer targets (clang, ASan, UBSan), seeds their corpora from captures/,
# replays every checked-in regression input, then fuzzes each target for a while.
# Fails on any crash, sanitizer report, leak, timeout or broken invariant; the input is
# left in $BUILD/artifacts/<target>/ (fix it, then add it to tests/fuzz/regressions/<target>/).
#
#   tests/fuzz/run-fuzz.sh                       30 s per target, two at a time
#   tests/fuzz/run-fuzz.sh --seconds 3600 v2     an hour on one target
#   tests/fuzz/run-fuzz.sh --seconds 0           regressions only
# Environment: BTHOME_FUZZ_BUILD (default build-fuzz), BTHOME_FUZZ_JOBS (default 2).
set -uo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${BTHOME_FUZZ_BUILD:-$src/build-fuzz}
jobs=${BTHOME_FUZZ_JOBS:-2}
seconds=30
targets=()
while [ $# -gt 0 ]; do
    case $1 in
        --seconds) seconds=$2; shift 2 ;;
        -h|--help) sed -n '3,12p' "$0"; exit 0 ;;
        *) targets+=("$1"); shift ;;
    esac
done
[ ${#targets[@]} -gt 0 ] || targets=(v2 v1 crypto audit adv)

mkdir -p "$build/logs"
cmake -S "$src/tests/fuzz" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
    >"$build/logs/build.log" 2>&1 && cmake --build "$build" -j2 >>"$build/logs/build.log" 2>&1 \
    || { cat "$build/logs/build.log"; echo "fuzz: build FAILED"; exit 1; }
python3 "$src/tests/fuzz/seed_corpus.py" --captures "$src/captures" --out "$build/corpus" \
    || exit 1

# Findings must be reproducible as the fuzzer saw them: fatal UBSan, no recovery.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
failed=0

replay() {   # every regression input once: they must all pass
    local target=$1 dir=$src/tests/fuzz/regressions/$1 log=$build/logs/$1-regressions.log
    local inputs=("$dir"/*)
    [ -e "${inputs[0]}" ] || return 0
    if "$build/fuzz_$target" "${inputs[@]}" >"$log" 2>&1; then
        echo "fuzz $target: ${#inputs[@]} regression inputs pass"
    else
        echo "fuzz $target: regression input FAILED, see $log"
        grep -E 'Running:|ERROR:|runtime error|invariant broken|SUMMARY' "$log" | tail -n 6
        return 1
    fi
}

fuzz() {     # one bounded campaign; prints executions and the outcome
    local target=$1 log=$build/logs/$1.log artifacts=$build/artifacts/$1/
    mkdir -p "$artifacts" "$build/corpus/$target"
    "$build/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -max_len=300 -print_final_stats=1 -artifact_prefix="$artifacts" \
        "$build/corpus/$target" >"$log" 2>&1
    local rc=$? execs corpus
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    corpus=$(find "$build/corpus/$target" -type f | wc -l)
    if [ $rc -eq 0 ]; then
        echo "fuzz $target: ${execs:-?} executions in ${seconds} s, corpus $corpus inputs, no finding"
    else
        echo "fuzz $target: FINDING after ${execs:-?} executions (exit $rc):"
        grep -E 'ERROR:|runtime error|invariant broken|SUMMARY|Test unit written' "$log" | head -n 8
        echo "  log: $log"
        return 1
    fi
}

for t in "${targets[@]}"; do
    replay "$t" || failed=1
done
if [ "$seconds" -gt 0 ]; then
    running=0
    for t in "${targets[@]}"; do
        fuzz "$t" >"$build/logs/$t.result" &
        running=$((running + 1))
        if [ $running -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
    done
    wait
    for t in "${targets[@]}"; do
        cat "$build/logs/$t.result"
        grep -q 'no finding' "$build/logs/$t.result" || failed=1
    done
fi
[ $failed = 0 ]
