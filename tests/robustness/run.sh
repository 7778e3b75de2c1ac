#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The robustness stages, bounded for the test command (tests/run-all.sh runs this after
# the host's ctest). Each prints "robustness <stage>: passed|FAILED (N s)" after its
# own figures; any finding fails its stage, and the script then exits non-zero.
#   fuzz       libFuzzer targets of the core, ASan+UBSan, regression inputs first
#   mutation   editcap -E corrupted captures through tshark with an ASan/UBSan plugin
#   valgrind   memcheck of tshark with the plugin over all the sample captures
#   static     Wireshark's warnings as errors (gcc, clang), cppcheck, clang-tidy
#   devices    per-device memory: 100,000 random addresses against 50 devices
#   fuzzshark  Wireshark's fuzzshark with the plugin linked in, libFuzzer+ASan+UBSan, three
#              targets (tests/fuzz/run-fuzzshark.sh), from the in-tree stage's build
# usage: tests/robustness/run.sh [STAGE...]
# Environment: BTHOME_FUZZ_SECONDS (20 per target), BTHOME_MUTATION_FILES (400),
# BTHOME_MUTATION_SECONDS (90: no new tshark run after that), BTHOME_DEVICES (100000),
# BTHOME_FUZZSHARK_SECONDS (40 per target, two at a time).
set -uo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
cd "$src" || exit 1
stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=(fuzz mutation valgrind static devices fuzzshark)
sanitize="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

build() {   # DIR [cmake options...]: the plugin alone
    local dir=$1; shift
    { cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" &&
      cmake --build "$dir" -j2 --target bthome; } >"$log" 2>&1 \
        || { cat "$log"; echo "robustness: building $dir FAILED"; return 1; }
}

plain_plugin() { build build; }    # the same configuration as tests/run-all.sh

asan_plugin() {
    build build-asan -DBUILD_TESTING=OFF \
        "-DCMAKE_C_FLAGS=$sanitize -fno-omit-frame-pointer" \
        "-DCMAKE_MODULE_LINKER_FLAGS=$sanitize" "-DCMAKE_SHARED_LINKER_FLAGS=$sanitize"
}

run_stage() {
    case $1 in
        fuzz) tests/fuzz/run-fuzz.sh --seconds "${BTHOME_FUZZ_SECONDS:-20}" ;;
        mutation) asan_plugin && python3 tests/robustness/mutate.py \
            --plugin build-asan/bthome.so --captures captures \
            --files "${BTHOME_MUTATION_FILES:-400}" --seconds "${BTHOME_MUTATION_SECONDS:-90}" \
            --findings build-asan/mutation-findings ;;
        valgrind) plain_plugin && python3 tests/robustness/valgrind.py \
            --plugin build/bthome.so --captures captures ;;
        static) tests/robustness/static-analysis.sh ;;
        devices) plain_plugin && python3 tests/robustness/device_memory.py \
            --plugin build/bthome.so --devices "${BTHOME_DEVICES:-100000}" --max-bytes 1024 ;;
        fuzzshark) tests/fuzz/run-fuzzshark.sh --seconds "${BTHOME_FUZZSHARK_SECONDS:-40}" ;;
        *) echo "unknown stage $1"; return 1 ;;
    esac
}

failed=0
for stage in "${stages[@]}"; do
    echo "--- robustness $stage"
    start=$(date +%s)
    if run_stage "$stage"; then result=passed; else result=FAILED; failed=1; fi
    echo "robustness $stage: $result ($(( $(date +%s) - start )) s)"
done
[ $failed = 0 ]
