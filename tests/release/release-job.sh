#!/usr/bin/env bash
# shellcheck disable=SC2317  # functions called through check
# SPDX-License-Identifier: GPL-2.0-or-later
# Dry run of the release workflow's shell on Linux (.github/workflows/release.yml, each
# step's run block as tests/release/workflow_step.py prints it), with stand-ins for
# GitHub's gh (stubs/gh) and the official tshark (stubs/official-tshark):
#   1. a macOS build job's last steps: the file named, the profile zip and bthome-keys
#      made, the load test with them, and the files the job uploads;
#   2. the release job on a fake artifact set with one job missing (4.6 on macOS arm64,
#      its job failed): the other files published, the missing one named in the notes
#      with its job's link, and the run failed; then every file there (passes), no file
#      at all (nothing published, failed), a file that does not match its SHA-256
#      (nothing published).
# Prints "release-job: N passed, M failed".
# usage: tests/release/release-job.sh BUILD_DIR
# shellcheck source=tests/release/lib.sh
. "$(dirname "$0")/lib.sh"
plugin=$(cd "${1:?usage: release-job.sh BUILD_DIR}" && pwd)/bthome.so
[ -f "$plugin" ] || { echo "release-job: no $plugin"; failed=1; finish release-job; }
version=$(sed -n 's/^set(BTHOME_VERSION \([0-9.]*\)).*/\1/p' "$src/CMakeLists.txt")
STUB_REAL_TSHARK=$(command -v tshark)
export PATH=$here/stubs:$PATH STUB_LOG=$work/gh.log GITHUB_OUTPUT=$work/output STUB_REAL_TSHARK
step() { "$here/workflow_step.py" "$@"; }

# ---- 1. a macOS build job's last steps ---------------------------------------------
echo "release-job: a macOS build job (stand-in tshark), its last steps"
job=$work/job
mkdir -p "$job"
ln -s "$src" "$job/plugin"
cp "$here/stubs/official-tshark" "$work/tshark" && chmod 755 "$work/tshark"
series=$(tshark --version 2>/dev/null | sed -nE '1s/.* ([0-9]+\.[0-9]+)\.[0-9]+.*/\1/p')
(
    cd "$job" || exit 1
    export WS_VERSION=$series.0 BUILT=$plugin GITHUB_ENV=$work/env GITHUB_REF_TYPE=branch \
        RUNNER_OS=macOS OFFICIAL_TSHARKS=$work/tshark BTHOME_LOAD_TEST_OS=macos STUB_OS=macos
    bash -e <(step "Name the binary and compute its SHA-256" matrix.platform.os=macos \
                  matrix.platform.arch=arm64) &&
        bash -e <(step "The profile zip and bthome-keys (Windows, macOS)") &&
        RELEASE_FILE=$(sed -n 's/^RELEASE_FILE=//p' "$work/env") \
        bash -e <(step "Load test in the official Wireshark")
) >"$work/build.log" 2>&1
rc=$?
sed 's/^/    /' "$work/build.log"
check "the steps pass (status $rc)" test "$rc" = 0
name=bthome-$version-wireshark-$series-macos-arm64.so
(cd "$job/dist" 2>/dev/null && ls) >"$work/uploaded"
printf '%s\n' "$name" "$name.sha256" "bthome-$version-keys.zip" "bthome-$version-keys.zip.sha256" \
    "bthome-$version-profile.zip" "bthome-$version-profile.zip.sha256" | sort >"$work/want"
check "the job uploads its plugin, the profile zip, bthome-keys and their SHA-256" \
    cmp -s "$work/want" "$work/uploaded"
check "each SHA-256 matches" bash -c "cd '$job/dist' && cat ./*.sha256 | sha256sum --check --quiet"
# Every Windows and macOS job zips the same bytes: what the checkout gives, unconverted.
check "bthome-keys.bat in the keys zip ends its lines with CRLF, as stored" \
    cmp -s "$src/tools/windows/bthome-keys.bat" "$job/extras/unpacked/bthome-keys/bthome-keys.bat"
check "the stored bthome-keys.bat has CRLF line ends" \
    test "$(grep -c $'\r$' "$src/tools/windows/bthome-keys.bat")" = "$(wc -l <"$src/tools/windows/bthome-keys.bat")"

# ---- 2. the release job ------------------------------------------------------------
# release CASE MISSING_JOB: a workspace with the artifacts of every build job but
# MISSING_JOB (none: all there), that job failed; runs the release job's steps.
run_url=https://github.test/o/r/actions/runs/77
platforms="linux-x86_64 windows-x64 macos-arm64 macos-x86_64"
release() {
    local case=$1 missing=$2 ws=$work/$1 v p os arch ext n=1000 conclusion file
    mkdir -p "$ws/dist"
    ln -s "$src" "$ws/plugin"
    : >"$ws/jobs"
    for v in 4.2.14 4.4.19 4.6.9; do
        for p in $platforms; do
            os=${p%-*} arch=${p#*-} n=$((n + 1)) conclusion=success
            ext=so; [ "$os" = windows ] && ext=dll
            if [ "$v-$p" = "$missing" ]; then
                conclusion=failure
            elif [ "$case" != none ]; then
                file=bthome-$version-wireshark-${v%.*}-$p.$ext
                echo "$v $p" >"$ws/dist/$file"
                (cd "$ws/dist" && sha256sum "$file" >"$file.sha256")
            fi
            printf '{"name":"Wireshark %s, %s %s","conclusion":"%s","html_url":"%s/job/%s"}\n' \
                "$v" "$os" "$arch" "$conclusion" "$run_url" "$n" >>"$ws/jobs"
        done
    done
    echo '{"name":"Release what passed","conclusion":null,"html_url":"'"$run_url"'/job/2000"}' \
        >>"$ws/jobs"
    if [ "$case" != none ]; then
        cp "$job/dist/bthome-$version-"*.zip* "$ws/dist/"
    fi
    [ "$case" = corrupt ] && echo tampered >>"$ws/dist/bthome-$version-wireshark-4.4-windows-x64.dll"
    : >"$STUB_LOG"; : >"$GITHUB_OUTPUT"
    (
        cd "$ws" || exit 1
        export GH_TOKEN=x GH_REPO=o/r GITHUB_RUN_ID=77 RUN_URL=$run_url STUB_JOBS=$ws/jobs \
            TAG=v$version DOCS_URL=https://github.test/o/r/blob/abc/docs/install.md
        bash -e <(step "Release notes and SHA256SUMS") || exit 10
        bash -e <(step "Create or update the release") || exit 20
        # The step's if: needs.build.result != 'success' || steps.notes.outputs.status != '0'
        if grep -q '"conclusion":"failure"' "$ws/jobs" || ! grep -qx status=0 "$GITHUB_OUTPUT"; then
            bash -e <(step "Fail the run while a file is missing") || exit 30
        fi
    ) >"$ws/log" 2>&1
    echo $? >"$ws/rc"
    sed 's/^/    /' "$ws/log"
}
rc() { [ "$(cat "$work/$1/rc")" = "$2" ]; }
status() { grep -qx "status=$1" "$GITHUB_OUTPUT"; }

echo "release-job: one job failed (Wireshark 4.6.9, macos arm64)"
release partial 4.6.9-macos-arm64
ws=$work/partial
check "the notes step passes and says status 1" status 1
check "the run ends red: the last step fails" rc partial 30
check "11 plugins, 2 extras and SHA256SUMS are published" \
    test "$(grep -c 'wireshark-.*\.\(so\|dll\)$' "$ws/files.txt")-$(grep -c 'zip$' "$ws/files.txt")-$(wc -l <"$ws/files.txt")" = "11-2-14"
check "... not the missing one" not grep -q 'wireshark-4.6-macos-arm64' "$ws/files.txt"
check "gh release create gets exactly those files and the notes" \
    grep -qxF "gh release create v$version $(tr '\n' ' ' <"$ws/files.txt")--verify-tag --title v$version --notes-file notes.md" "$STUB_LOG"
check "the notes name the missing file with its job's link" \
    grep -qF "Wireshark 4.6, macOS arm64: not built or not loaded, see [its job]($run_url/job/1011) (failure)" "$ws/notes.md"
check "the notes link docs/install.md" \
    grep -qF "[docs/install.md](https://github.test/o/r/blob/abc/docs/install.md)" "$ws/notes.md"
check "... and nothing else as missing" test "$(grep -c '^- ' "$ws/notes.md")" = 1
check "SHA256SUMS holds the 13 files and checks" \
    bash -c "cd '$ws/dist' && test \$(wc -l <SHA256SUMS) = 13 && sha256sum --check --quiet SHA256SUMS"

echo "release-job: the same, the tag's release already made (a re-run)"
STUB_RELEASE_EXISTS=1 release rerun 4.6.9-macos-arm64
check "files replaced and the notes updated" \
    bash -c "grep -q '^gh release upload v$version .* --clobber$' '$STUB_LOG' &&
             grep -qx 'gh release edit v$version --notes-file notes.md' '$STUB_LOG'"

echo "release-job: every job passed"
release all none
check "status 0, and the run passes" bash -c "grep -qx status=0 '$GITHUB_OUTPUT' && test \$(cat '$work/all/rc') = 0"
check "12 plugins, 2 extras and SHA256SUMS are published" test "$(wc -l <"$work/all/files.txt")" = 15
check "the notes name nothing as missing" not grep -q 'Missing' "$work/all/notes.md"

echo "release-job: no artifact at all (every build failed)"
release none 4.2.14-linux-x86_64
check "nothing is published" bash -c "grep -q 'nothing passed: no release' '$work/none/log' &&
                                      ! grep -q '^gh release create' '$STUB_LOG'"
check "the notes name the 12 plugins that are missing and the extras" \
    test "$(grep -c '^- ' "$work/none/notes.md")" = 14
check "the run ends red" rc none 30

echo "release-job: a file that does not match its SHA-256"
release corrupt 4.6.9-macos-arm64
check "the notes step fails: nothing is published" rc corrupt 10
check "it names the file" grep -q 'wireshark-4.4-windows-x64.dll: its SHA-256 is not the one its job computed' "$work/corrupt/log"

echo "release-job: when the release job runs"
wf=$src/.github/workflows/release.yml
# shellcheck disable=SC2016  # the workflow's text
check "whenever the build jobs ran, not when cancelled" \
    grep -qF 'if: ${{ !cancelled() }}' "$wf"
check "the last step fails when a build failed or a file is missing" \
    grep -qF "if: needs.build.result != 'success' || steps.notes.outputs.status != '0'" "$wf"
# shellcheck disable=SC2016  # the workflow's text
check "the build jobs are named as release-notes.py reads them" \
    grep -qF 'name: Wireshark ${{ matrix.wireshark }}, ${{ matrix.platform.os }} ${{ matrix.platform.arch }}' "$wf"
finish release-job
