#!/usr/bin/env bash
# shellcheck disable=SC2317  # functions called through check
# SPDX-License-Identifier: GPL-2.0-or-later
# Dry run of the release workflow's shell on Linux (.github/workflows/release.yml, each
# step's run block as tests/release/workflow_step.py prints it), with stand-ins for
# GitHub's gh (stubs/gh) and the official tshark (stubs/official-tshark):
#   1. a macOS build job's last steps: the file named, the profile zip and bthome-keys
#      made, the load test with them, and the files the job uploads (its plugin only);
#      the extras job's step, which makes the released profile zip and bthome-keys;
#   2. the release job on a fake artifact set with one job missing (4.6 on macOS arm64,
#      its job failed): the other files published, the missing one named in the notes
#      with its job's link, and the run failed; then every file there (passes), no file
#      at all (nothing published, failed), a plugin that does not match its SHA-256
#      (nothing published), an extra that does not match its SHA-256 or has none (left
#      out and named as missing, the rest published, the run failed).
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
printf '%s\n' "$name" "$name.sha256" | sort >"$work/want"
check "the job uploads its plugin and its SHA-256, no extras (the extras job's)" \
    cmp -s "$work/want" "$work/uploaded"
check "the SHA-256 matches" bash -c "cd '$job/dist' && cat ./*.sha256 | sha256sum --check --quiet"
check "bthome-keys.bat in the tested keys zip ends its lines with CRLF, as stored" \
    cmp -s "$src/tools/bthome-keys.bat" "$job/extras/unpacked/bthome-keys/bthome-keys.bat"

echo "release-job: the extras job (the profile zip and bthome-keys, made once)"
xjob=$work/extras-job
mkdir -p "$xjob"
ln -s "$src" "$xjob/plugin"
(cd "$xjob" && bash --noprofile --norc -eo pipefail <(step "Make the profile zip and bthome-keys")) \
    >"$work/extras.log" 2>&1
rc=$?
sed 's/^/    /' "$work/extras.log"
check "the step passes (status $rc)" test "$rc" = 0
printf '%s\n' "bthome-$version-keys.zip" "bthome-$version-keys.zip.sha256" \
    "bthome-$version-profile.zip" "bthome-$version-profile.zip.sha256" >"$work/want-extras"
check "it uploads the profile zip, bthome-keys and their SHA-256" \
    bash -c "cd '$xjob/dist' && ls | cmp -s '$work/want-extras' -"
check "each SHA-256 matches" bash -c "cd '$xjob/dist' && cat ./*.sha256 | sha256sum --check --quiet"
# The build jobs test zips of the same bytes: what the checkout gives, unconverted.
check "the zips are those the build job tested, byte for byte" \
    bash -c "cmp -s '$xjob/dist/bthome-$version-keys.zip' '$job/extras/bthome-$version-keys.zip' &&
             cmp -s '$xjob/dist/bthome-$version-profile.zip' '$job/extras/bthome-$version-profile.zip'"
check "the stored bthome-keys.bat has CRLF line ends" \
    test "$(grep -c $'\r$' "$src/tools/bthome-keys.bat")" = "$(wc -l <"$src/tools/bthome-keys.bat")"

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
    printf '{"name":"%s","conclusion":"success","html_url":"%s/job/1500"}\n' \
        "The profile zip and bthome-keys" "$run_url" >>"$ws/jobs"
    echo '{"name":"Release what passed","conclusion":null,"html_url":"'"$run_url"'/job/2000"}' \
        >>"$ws/jobs"
    if [ "$case" != none ]; then
        cp "$xjob/dist/bthome-$version-"*.zip* "$ws/dist/"
    fi
    case $case in
        corrupt) echo tampered >>"$ws/dist/bthome-$version-wireshark-4.4-windows-x64.dll" ;;
        bad-extra) echo tampered >>"$ws/dist/bthome-$version-profile.zip" ;;
        no-sum-extra) rm "$ws/dist/bthome-$version-keys.zip.sha256" ;;
    esac
    : >"$STUB_LOG"; : >"$GITHUB_OUTPUT"
    (
        cd "$ws" || exit 1
        export GH_TOKEN=x GH_REPO=o/r GITHUB_RUN_ID=77 RUN_URL=$run_url STUB_JOBS=$ws/jobs \
            TAG=v$version DOCS_URL=https://github.test/o/r/blob/abc/docs/install.md
        bash -e <(step "Release notes and SHA256SUMS") || exit 10
        bash -e <(step "Create or update the release") || exit 20
        build=success
        grep -q '"conclusion":"failure"' "$ws/jobs" && build=failure
        if step --if "Fail the run while a file is missing" needs.build.result=$build \
                needs.extras.result=success \
                steps.notes.outputs.status="$(sed -n 's/^status=//p' "$GITHUB_OUTPUT")"; then
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

echo "release-job: the profile zip does not match its SHA-256 (every build passed)"
release bad-extra none
ws=$work/bad-extra
check "the notes step passes and says status 1" status 1
check "the run ends red: the last step fails" rc bad-extra 30
check "12 plugins, bthome-keys and SHA256SUMS are published, not the profile zip" \
    bash -c "test \$(grep -c 'wireshark-.*\.\(so\|dll\)\$' '$ws/files.txt')-\$(wc -l <'$ws/files.txt') = 12-14 &&
             grep -q 'bthome-$version-keys.zip\$' '$ws/files.txt' && ! grep -q 'profile' '$ws/files.txt'"
check "gh release create gets exactly those files" \
    grep -qxF "gh release create v$version $(tr '\n' ' ' <"$ws/files.txt")--verify-tag --title v$version --notes-file notes.md" "$STUB_LOG"
check "the notes name the profile zip as missing, why, and the extras job's link" \
    grep -qF "bthome-$version-profile.zip left out (its SHA-256 is not the one its job computed), see [its job]($run_url/job/1500)" "$ws/notes.md"
check "... and nothing else as missing" test "$(grep -c '^- ' "$ws/notes.md")" = 1
check "the log names it" grep -q "bthome-$version-profile.zip: its SHA-256 is not the one its job computed" "$ws/log"
check "SHA256SUMS holds the 13 files and checks" \
    bash -c "cd '$ws/dist' && test \$(wc -l <SHA256SUMS) = 13 && ! grep -q profile SHA256SUMS &&
             sha256sum --check --quiet SHA256SUMS"

echo "release-job: the keys zip without its .sha256 (every build passed)"
release no-sum-extra none
ws=$work/no-sum-extra
check "the notes step passes and says status 1; the run ends red" \
    bash -c "grep -qx status=1 '$GITHUB_OUTPUT' && test \$(cat '$ws/rc') = 30"
check "the rest is published, not the keys zip" \
    bash -c "test \$(wc -l <'$ws/files.txt') = 14 && ! grep -q 'keys' '$ws/files.txt'"
check "the notes name the keys zip as missing" \
    grep -qF "bthome-$version-keys.zip left out (no bthome-$version-keys.zip.sha256)" "$ws/notes.md"

echo "release-job: when the release job runs"
wf=$src/.github/workflows/release.yml
# shellcheck disable=SC2016  # the workflow's text
check "whenever the build jobs ran, not when cancelled nor after a failed preflight" \
    grep -qF "if: \${{ !cancelled() && needs.preflight.result == 'success' }}" "$wf"
check "the last step fails when a build or the extras job failed" \
    bash -c "! '$here/workflow_step.py' --if 'Fail the run while a file is missing' needs.build.result=success \
                 needs.extras.result=success steps.notes.outputs.status=0 &&
             '$here/workflow_step.py' --if 'Fail the run while a file is missing' needs.build.result=success \
                 needs.extras.result=failure steps.notes.outputs.status=0"
# shellcheck disable=SC2016  # the workflow's text
check "the build jobs are named as release-notes.py reads them" \
    grep -qF 'name: Wireshark ${{ matrix.wireshark }}, ${{ matrix.platform.os }} ${{ matrix.platform.arch }}' "$wf"
finish release-job
