#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The plugin fuzzed inside Wireshark the way Wireshark fuzzes its own dissectors: its
# harness fuzz/fuzzshark.c under libFuzzer, ASan and UBSan, from the in-tree build that
# the in-tree stage shares (tests/lib/build-sanitizer-tree.sh: Wireshark's source tree, clang,
# ENABLE_FUZZER, ENABLE_ASAN, ENABLE_UBSAN), with the plugin linked in
# (tests/fuzz/fuzzshark_bthome.c) and the per-device keys of captures/*.keys configured.
# Targets:
#   bthome       the BTHome dissector itself, on v2 service data (what follows the UUID),
#                its tree not shown, as in a summary run
#   nordic_ble   a whole nRF Sniffer frame (the packet bytes of a LINKTYPE 272 capture):
#                nordic_ble -> btle -> service data -> BTHome, as tshark -V dissects it
#   hci_h4       an HCI H4 packet (LINKTYPE 187): hci_h4 -> bthci_evt -> BTHome, likewise
#   bthome_v1    the v1 dissector, on v1 service data (not run unless named)
# Each target first replays its regression inputs (tests/fuzz/regressions/fuzzshark-<target>/),
# then fuzzes from seeds taken from captures/ (one packet a file, tests/fuzz/seed_corpus.py)
# and, for nordic_ble, from --corpus DIR. Then clang's source-based coverage of plugin/
# and core/ over the corpus reached; a target that never reaches BTHome fails.
#
#   tests/fuzz/run-fuzzshark.sh [--seconds N] [--corpus DIR] [TARGET...]
#
# N defaults to 40 per target, two targets at a time; 0 replays the regression inputs only. Any crash, sanitizer report, leak,
# timeout or out-of-memory is a finding: its input is kept in
# $BTHOME_FUZZSHARK_DIR/findings/<target>/ (default build-fuzzshark; fix it, then add it
# to the regression inputs). Ends with one line,
# "fuzzshark: T targets, E executions, C crashes", and exits 0 only when C is 0.
set -uo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
work=${BTHOME_FUZZSHARK_DIR:-$src/build-fuzzshark}
seconds=40
extra=()
targets=()
usage() { sed -n '19,26p' "$0"; exit "$1"; }
summary() { echo "fuzzshark: ${#targets[@]} targets, $1 executions, $2 crashes"; }
refuse() { echo "run-fuzzshark: $*" >&2; summary 0 1; exit 1; }
while [ $# -gt 0 ]; do
    case $1 in
        --seconds) seconds=${2:-}; shift 2 || shift ;;
        --corpus) extra+=("$(CDPATH='' cd -- "${2:-}" && pwd)") ||
                      refuse "no corpus folder ${2:-}"
                  shift 2 ;;
        -h|--help) usage 0 ;;
        -*) usage 1 >&2 ;;
        *) targets+=("$1"); shift ;;
    esac
done
[ ${#targets[@]} -gt 0 ] || targets=(bthome nordic_ble hci_h4)
[[ $seconds =~ ^[0-9]+$ ]] || refuse "--seconds wants a number of seconds (0: replay only)"
declare -A seeds_of=([bthome]=v2 [bthome_v1]=v1 [nordic_ble]=nordic_ble [hci_h4]=hci_h4)
# what fuzzshark calls (FUZZSHARK_TARGET): the link layers through tests/fuzz/fuzzshark_bthome.c
declare -A dissector_of=([bthome]=bthome [bthome_v1]=bthome_v1
                         [nordic_ble]=bthome_fuzz_nordic_ble [hci_h4]=bthome_fuzz_hci_h4)
for t in "${targets[@]}"; do
    [ -n "${seeds_of[$t]:-}" ] || refuse "unknown target $t"
done

plugin=$("$src/tests/lib/build-sanitizer-tree.sh" | tail -n 1)
[ -f "$plugin" ] || refuse "the in-tree build failed"
build=${plugin%/run/*}
fuzzer=$build/run/fuzzshark-bthome
tree=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")/plugins/epan/bthome

# A fresh working corpus and findings each run; seeds, keys and a private HOME.
rm -rf "$work/seeds" "$work/corpus" "$work/findings" "$work/coverage" "$work/logs"
mkdir -p "$work/logs" "$work/config" "$work/home" "$work/coverage"
python3 "$src/tests/fuzz/seed_corpus.py" --captures "$src/captures" --out "$work/seeds" \
    >"$work/logs/seeds.log" || { cat "$work/logs/seeds.log"; refuse "no seeds"; }
# not the wildcard rows: a device without a key must stay possible
grep -hv '^"\*"' "$src"/captures/*.keys >"$work/config/bthome_keys"
export WIRESHARK_CONFIG_DIR=$work/config HOME=$work/home
# Findings as the fuzzer saw them: UBSan fatal. Leaks: LeakSanitizer's check when a
# campaign or a replay ends. libFuzzer's own check after each input that allocates more
# than it frees (-detect_leaks) is off: in fuzzshark every input does (Wireshark keeps
# file-scope state across them), and each check scans the whole heap.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

seed_dirs() {    # TARGET: the directories libFuzzer reads its inputs from
    local dirs=("$work/seeds/${seeds_of[$1]}")
    [ "$1" = nordic_ble ] && dirs+=(${extra[@]+"${extra[@]}"})
    printf '%s\n' "${dirs[@]}"
}

replay() {       # TARGET: each regression input once; prints the number that failed
    local t=$1 failed=0 input
    for input in "$src/tests/fuzz/regressions/fuzzshark-$t"/*; do
        [ -f "$input" ] || continue
        FUZZSHARK_TARGET=${dissector_of[$t]} timeout 120 "$fuzzer" -timeout=10 "$input" \
            >>"$work/logs/$t-regressions.log" 2>&1 ||
            { failed=$((failed + 1)); echo "  regression input FAILED: $input" >&2; }
    done
    echo "$failed"
}

fuzz() {         # TARGET: one bounded campaign; prints "EXECUTIONS CRASHES" last
    local t=$1 log=$work/logs/$1.log findings=$work/findings/$1/ rc crashes execs
    mkdir -p "$findings" "$work/corpus/$t"
    local dirs; mapfile -t dirs < <(seed_dirs "$t")
    crashes=$(replay "$t")
    if [ "$seconds" = 0 ]; then
        echo "fuzzshark $t: regression inputs only, $crashes failed"
        echo "0 $crashes"
        return
    fi
    FUZZSHARK_TARGET=${dissector_of[$t]} timeout $((seconds + 300)) "$fuzzer" -max_total_time="$seconds" \
        -timeout=10 -rss_limit_mb=2048 -max_len=1024 -detect_leaks=0 -print_final_stats=1 \
        -artifact_prefix="$findings" "$work/corpus/$t" "${dirs[@]}" >"$log" 2>&1
    rc=$?
    local kept; kept=$(find "$findings" -type f | wc -l)
    # a run that failed without keeping an input (a crash of the harness) counts too
    [ "$rc" != 0 ] && [ "$kept" = 0 ] && kept=1
    crashes=$((crashes + kept))
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    local corpus; corpus=$(find "$work/corpus/$t" -type f | wc -l)
    if [ "$crashes" = 0 ]; then
        echo "fuzzshark $t: ${execs:-0} executions in $seconds s ($(( ${execs:-0} / seconds ))/s), $corpus new inputs, no finding"
    else
        echo "fuzzshark $t: $crashes FINDINGS after ${execs:-0} executions (exit $rc), inputs in" \
             "$findings (a leak found at the end keeps an empty one: see the log)"
        grep -E 'ERROR:|runtime error|SUMMARY|Test unit written' "$log" | head -n 8
        echo "  log: $log"
    fi
    echo "${execs:-0} $crashes"
}

coverage() {     # which lines of plugin/ and core/ the inputs reach: the coverage twin
    local t dirs profiles=() status=0
    for t in "${targets[@]}"; do
        mapfile -t dirs < <(seed_dirs "$t")
        [ -d "$src/tests/fuzz/regressions/fuzzshark-$t" ] &&
            dirs+=("$src/tests/fuzz/regressions/fuzzshark-$t")
        FUZZSHARK_TARGET=${dissector_of[$t]} LLVM_PROFILE_FILE="$work/coverage/$t.profraw" \
            timeout 900 "$fuzzer-coverage" -runs=0 -timeout=10 -detect_leaks=0 \
            "$work/corpus/$t" "${dirs[@]}" \
            >"$work/logs/$t-coverage.log" 2>&1
        llvm-profdata merge -sparse "$work/coverage/$t.profraw" \
            -o "$work/coverage/$t.profdata" || { status=1; continue; }
        profiles+=("$work/coverage/$t.profdata")
        # each target must reach the BTHome dissector, else it fuzzes nothing of it
        python3 "$src/tests/fuzz/fuzzshark_coverage.py" --binary "$fuzzer-coverage" \
            --profile "$work/coverage/$t.profdata" --tree "$tree" --require dissect_bthome \
            --label "fuzzshark coverage, $t" || status=1
    done
    [ ${#profiles[@]} -gt 0 ] || return 1
    llvm-profdata merge -sparse "${profiles[@]}" -o "$work/coverage/all.profdata" &&
        python3 "$src/tests/fuzz/fuzzshark_coverage.py" --binary "$fuzzer-coverage" \
            --profile "$work/coverage/all.profdata" --tree "$tree" || return 1
    local dir
    for dir in plugin core; do
        llvm-cov show "$fuzzer-coverage" -instr-profile="$work/coverage/all.profdata" \
            "$tree/$dir" >"$work/coverage/$dir.txt"
    done
    echo "fuzzshark coverage: line by line in $work/coverage/plugin.txt and core.txt"
    return $status
}

running=0
for t in "${targets[@]}"; do
    fuzz "$t" >"$work/logs/$t.result" &
    running=$((running + 1))
    if [ $running -ge 2 ]; then wait -n; running=$((running - 1)); fi
done
wait
executions=0; crashes=0
for t in "${targets[@]}"; do
    sed '$d' "$work/logs/$t.result"
    read -r e c < <(tail -n 1 "$work/logs/$t.result")
    executions=$((executions + ${e:-0})); crashes=$((crashes + ${c:-1}))
done
coverage; reached=$?
summary "$executions" "$crashes"
[ "$crashes" = 0 ] && [ "$reached" = 0 ]
