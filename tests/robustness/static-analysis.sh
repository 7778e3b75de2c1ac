#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Static analysis of the core (core/*.c) and the plugin (plugin/*.c), every finding an error:
#   1. Wireshark's usual warnings (cmake/WiresharkWarnings.cmake) as errors, gcc and clang,
#      for the plugin and the core (-O2, so that flow-based warnings run too);
#   2. cppcheck (warning, style, performance, portability; suppressions with their
#      reasons in tests/robustness/cppcheck-suppressions.txt);
#   3. clang-tidy with the checked-in .clang-tidy (disabled checks listed with reasons).
# usage: tests/robustness/static-analysis.sh     (BTHOME_STATIC_BUILD: build folder)
set -uo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${BTHOME_STATIC_BUILD:-$src/build-static}
targets=(bthome bthome_core)
failed=0
mkdir -p "$build"

warnings() {
    local cc=$1 dir=$build/$1 log=$build/$1.log
    cmake -S "$src" -B "$dir" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DBUILD_TESTING=OFF -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
        -DCMAKE_PROJECT_INCLUDE="$src/cmake/WiresharkWarnings.cmake" >"$log" 2>&1 \
        || { cat "$log"; echo "static: $cc: configure FAILED"; return 1; }
    # a clean build each time, or files built before would not be checked again
    cmake --build "$dir" --clean-first -j2 --target "${targets[@]}" -- -k >>"$log" 2>&1
    local rc=$? n
    n=$(grep -cE '(warning|error):' "$log")
    if [ $rc -eq 0 ] && [ "$n" -eq 0 ]; then
        echo "static: $cc with Wireshark's warnings as errors: clean"
    else
        echo "static: $cc with Wireshark's warnings as errors: $n finding(s)"
        grep -E '(warning|error):' "$log" | sort -u
        return 1
    fi
}

run_cppcheck() {
    local out=$build/cppcheck.txt
    # shellcheck disable=SC2046  # pkg-config prints several flags
    cppcheck --enable=warning,style,performance,portability --std=c11 --inline-suppr -q \
        --suppressions-list="$src/tests/robustness/cppcheck-suppressions.txt" \
        --template='{file}:{line}: {severity}: {message} [{id}]' -j2 \
        -I "$src/core" -I "$src/plugin" $(pkg-config --cflags-only-I wireshark glib-2.0) \
        -DHAVE_SSIZE_T -DPLUGIN_VERSION='"0"' "$src"/core/*.c "$src"/plugin/*.c >"$out" 2>&1
    if [ -s "$out" ]; then
        echo "static: cppcheck: $(grep -c ': ' "$out") finding(s)"; cat "$out"; return 1
    fi
    echo "static: cppcheck: clean ($(ls "$src"/core/*.c "$src"/plugin/*.c | wc -l) files)"
}

run_clang_tidy() {
    local out=$build/clang-tidy.txt files
    # the core's and the plugin's files as the clang build compiled them
    files=$(python3 -c 'import json,sys; print("\n".join(sorted({e["file"] for e in json.load(open(sys.argv[1])) if "/plugin/" in e["file"] or "/core/" in e["file"]})))' \
        "$build/clang/compile_commands.json")
    echo "$files" | xargs -P2 -n1 clang-tidy -p "$build/clang" --quiet >"$out" 2>/dev/null
    if grep -qE '(warning|error):' "$out"; then
        echo "static: clang-tidy: $(grep -cE '(warning|error):' "$out") finding(s)"
        grep -E '(warning|error):' "$out"
        return 1
    fi
    echo "static: clang-tidy: clean ($(echo "$files" | wc -l) files, checks in .clang-tidy)"
}

warnings gcc || failed=1
warnings clang || failed=1
run_cppcheck || failed=1
if [ -f "$build/clang/compile_commands.json" ]; then
    run_clang_tidy || failed=1
else
    echo "static: clang-tidy: no clang build to take flags from"; failed=1
fi
[ $failed = 0 ]
