#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The MSVC x64 developer environment for the next steps of a GitHub Actions job: every
# variable that Visual Studio's vcvars64.bat sets or changes, appended to $GITHUB_ENV.
# This is what ilammy/msvc-dev-cmd does (run the batch file, print the environment
# before and after, export the difference), without a JavaScript action: its newest
# release, v1.13.0, declares runs.using: node20 (its action.yml), which GitHub removes
# from the runners, and its request for Node 24 (ilammy/msvc-dev-cmd#99) is open.
#
# usage: .github/release/msvc-env.sh                  on a Windows runner, in Git's bash
#        .github/release/msvc-env.sh --diff BEFORE AFTER
# --diff prints the NAME=VALUE lines of AFTER (the output of cmd's `set`) that BEFORE
# lacks or has with another value, names compared in any case as Windows does; the
# release dry run (tests/release) runs it on Linux.
set -euo pipefail

env_diff() {
    tr -d '\r' <"$1" >"$1.lf"
    tr -d '\r' <"$2" | awk 'NR == FNR { i = index($0, "=")
                                        if (i > 1) before[toupper(substr($0, 1, i - 1))] = substr($0, i + 1)
                                        next }
                             { i = index($0, "=")
                               # the hidden per-drive variables of cmd start with "="
                               if (i < 2) next
                               k = toupper(substr($0, 1, i - 1))
                               if (!(k in before) || before[k] != substr($0, i + 1)) print }' "$1.lf" -
    rm -f "$1.lf"
}

if [ "${1:-}" = --diff ]; then
    env_diff "${2:?BEFORE}" "${3:?AFTER}"
    exit
fi

: "${GITHUB_ENV:?not in a GitHub Actions job}"
vswhere="/c/Program Files (x86)/Microsoft Visual Studio/Installer/vswhere.exe"
vs=$("$vswhere" -latest -products '*' -requires Microsoft.VisualStudio.Component.VC.Tools.x86.x64 \
        -property installationPath | tr -d '\r')
[ -n "$vs" ] || { echo "msvc-env: no Visual Studio with the x64 C++ tools" >&2; exit 1; }
vcvars="$vs\\VC\\Auxiliary\\Build\\vcvars64.bat"
echo "msvc-env: $vcvars"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Batch files, so that cmd parses no quoting of ours.
printf '@echo off\r\nset\r\n' >"$tmp/before.bat"
printf '@echo off\r\ncall "%s" >nul || exit /b 1\r\nset\r\n' "$vcvars" >"$tmp/after.bat"
cmd //c "$(cygpath -w "$tmp/before.bat")" >"$tmp/before"
cmd //c "$(cygpath -w "$tmp/after.bat")" >"$tmp/after"
env_diff "$tmp/before" "$tmp/after" >"$tmp/changed"
grep -q '^VCToolsInstallDir=' "$tmp/changed" ||
    { echo "msvc-env: vcvars64.bat set no VCToolsInstallDir" >&2; exit 1; }
sed 's/=.*//' "$tmp/changed" | tr '\n' ' ' | sed 's/^/msvc-env: sets /'; echo
cat "$tmp/changed" >>"$GITHUB_ENV"
