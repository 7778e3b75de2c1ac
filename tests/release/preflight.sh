#!/usr/bin/env bash
# shellcheck disable=SC2317  # functions called through check
# SPDX-License-Identifier: GPL-2.0-or-later
# Dry run of the release preflight (.github/release/release-preflight.sh, the workflow's first job)
# on Linux, with stand-ins: Wireshark's repository a local git repository holding only the
# tags a test says exist, and a curl (stubs/curl) that answers only for the addresses a
# test says exist. A wrong tag, a missing Wireshark tag, a missing download each fail the
# job with everything missing listed; all there passes and gives the build jobs' matrix.
# Then the workflow's own preflight step, with its list of Wireshark releases.
# Prints "preflight: N passed, M failed".
# shellcheck source=tests/release/lib.sh
. "$(dirname "$0")/lib.sh"
version=$(sed -n 's/^set(BTHOME_VERSION \([0-9.]*\)).*/\1/p' "$src/CMakeLists.txt")
base=https://dl.test
export STUB_LOG=$work/asked STUB_OK=$work/ok WS_DOWNLOAD_BASE=$base WS_GIT_URL=$work/wireshark.git
export PATH=$here/stubs:$PATH

# tags vX.Y.Z...: the stand-in Wireshark repository has exactly these tags
tags() {
    rm -rf "$WS_GIT_URL"
    git -c init.defaultBranch=master init -q "$WS_GIT_URL" &&
        git -C "$WS_GIT_URL" -c user.name=t -c user.email=t@t commit -q --allow-empty -m t &&
        for t in "$@"; do git -C "$WS_GIT_URL" tag "$t"; done
}
# downloads X.Y.Z...: the installer and disk images of each answer (4.6 on: universal)
downloads() {
    local v
    for v in "$@"; do
        echo "$base/win64/all-versions/Wireshark-$v-x64.exe"
        case $v in
            4.[0-5].*) echo "$base/osx/all-versions/Wireshark%20$v%20Arm%2064.dmg"
                       echo "$base/osx/all-versions/Wireshark%20$v%20Intel%2064.dmg" ;;
            *) echo "$base/osx/all-versions/Wireshark%20$v.dmg" ;;
        esac
    done >"$STUB_OK"
}
# preflight ARG...: runs the script; its output in $work/out, its status in $work/rc
preflight() {
    : >"$STUB_LOG"; : >"$work/output"
    "$src/.github/release/release-preflight.sh" --output "$work/output" "$@" >"$work/out" 2>&1
    echo $? >"$work/rc"
    sed 's/^/    /' "$work/out"
}
rc() { [ "$(cat "$work/rc")" = "$1" ]; }
says() { grep -qxF -- "$1" "$work/out"; }

echo "preflight: all there (tag v$version, Wireshark 4.4.19 and 4.6.9)"
tags v4.4.19 v4.6.9 v4.4.0
downloads 4.4.19 4.4.0 4.6.9 4.6.0
preflight --tag "v$version" 4.4.19 4.6.9
check "passes" rc 0
check "gives the matrix as JSON" grep -qxF 'wireshark=["4.4.19","4.6.9"]' "$work/output"
check "asked for the installers of 4.4.19, 4.4.0, 4.6.9 and 4.6.0" \
    bash -c "for v in 4.4.19 4.4.0 4.6.9 4.6.0; do grep -qx '$base/win64/all-versions/Wireshark-'\$v'-x64.exe' '$STUB_LOG' || exit 1; done"
check "each address asked once (4.6's universal image serves both Macs)" \
    test "$(sort "$STUB_LOG" | uniq -d | wc -l)" = 0
check "4.4's disk images per processor, after the universal name" \
    bash -c "grep -qx '$base/osx/all-versions/Wireshark%204.4.0%20Intel%2064.dmg' '$STUB_LOG' &&
             grep -qx '$base/osx/all-versions/Wireshark%204.4.0.dmg' '$STUB_LOG'"

echo "preflight: a branch run (no tag)"
preflight --tag "" 4.4.19
check "passes" rc 0

echo "preflight: the tag is not v + the project's version"
preflight --tag v9.9.9 4.4.19 4.6.9
check "fails" rc 1
check "says so" says "  the tag v9.9.9 is not v$version, the version in CMakeLists.txt"
check "writes no matrix" test ! -s "$work/output"

echo "preflight: a Wireshark tag and its downloads missing (4.8.1), one installer missing (4.4.0)"
downloads 4.4.19 4.6.9 4.6.0
echo "$base/osx/all-versions/Wireshark%204.4.0%20Arm%2064.dmg" >>"$STUB_OK"
echo "$base/osx/all-versions/Wireshark%204.4.0%20Intel%2064.dmg" >>"$STUB_OK"
preflight --tag "v$version" 4.4.19 4.6.9 4.8.1
check "fails" rc 1
check "lists the tag" says "  Wireshark's tag v4.8.1, in $WS_GIT_URL"
check "lists the Windows installer of 4.4.0, with the addresses tried" \
    says "  Wireshark 4.4.0 for Windows x64: none of $base/win64/all-versions/Wireshark-4.4.0-x64.exe $base/win64/all-versions/Wireshark-win64-4.4.0.exe answers"
check "lists 4.8.1 and 4.8.0 on each platform" \
    test "$(grep -cE '^  Wireshark 4\.8\.[01] for (Windows x64|macOS arm64|macOS x86_64): none of' "$work/out")" = 6
check "the count says 8 missing, and nothing else is listed" \
    bash -c "grep -qx 'release-preflight: 8 missing:' '$work/out' && test \$(grep -c '^  ' '$work/out') = 8"
check "writes no matrix" test ! -s "$work/output"

echo "preflight: Wireshark's repository does not answer"
WS_GIT_URL=$work/nowhere.git preflight 4.4.19
check "fails" rc 1
check "says which repository" grep -q "^  the tags of $work/nowhere.git: git ls-remote failed" "$work/out"

echo "preflight: the workflow's preflight step, with its list of Wireshark releases"
wf_list=$("$here/workflow_step.py" --env "Tag, Wireshark tags and official downloads" |
          sed -n "s/^export WIRESHARK='\(.*\)'\$/\1/p")
read -ra list <<<"$wf_list"
firsts=()
for v in "${list[@]}"; do firsts+=("${v%.*}.0"); done
tags "${list[@]/#/v}"
downloads "${list[@]}" "${firsts[@]}"
mkdir -p "$work/job"
ln -sfn "$src" "$work/job/plugin"
run_step() {
    : >"$work/output"
    (cd "$work/job" && GITHUB_OUTPUT=$work/output bash --noprofile --norc -eo pipefail \
        <("$here/workflow_step.py" --env "Tag, Wireshark tags and official downloads")) \
        >"$work/out" 2>&1
    echo $? >"$work/rc"
    sed 's/^/    /' "$work/out"
}
GITHUB_REF_TYPE=tag GITHUB_REF_NAME=v$version run_step
check "a release list (${list[*]})" test "${#list[@]}" -gt 0
check "the tag v$version passes, and the matrix is the list" \
    bash -c "rc() { [ \$(cat '$work/rc') = 0 ]; }; rc &&
             grep -qxF 'wireshark=[$(printf '"%s",' "${list[@]}" | sed 's/,$//')]' '$work/output'"
GITHUB_REF_TYPE=tag GITHUB_REF_NAME=v0.0.0-wrong run_step
check "a wrong tag fails the step" rc 1
GITHUB_REF_TYPE=branch GITHUB_REF_NAME=main run_step
check "a branch run (workflow_dispatch) checks no tag" \
    bash -c "[ \$(cat '$work/rc') = 0 ] && grep -q '^wireshark=\[' '$work/output'"
wf=$src/.github/workflows/release.yml
# shellcheck disable=SC2016  # the workflow's text
check "the build jobs need the preflight and take its matrix" \
    bash -c "grep -qF 'wireshark: \${{ fromJSON(needs.preflight.outputs.wireshark) }}' '$wf' &&
             grep -qF 'needs: preflight' '$wf'"
finish preflight
