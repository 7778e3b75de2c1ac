#!/usr/bin/env bash
# shellcheck disable=SC2317  # functions called through check
# SPDX-License-Identifier: GPL-2.0-or-later
# Dry run of the Windows job's MSVC environment step (.github/release/msvc-env.sh --diff) on
# Linux: from cmd's `set` before and after vcvars64.bat (CRLF, as cmd prints them), only
# what vcvars64.bat added or changed goes to $GITHUB_ENV. Prints "msvc-env: N passed, M failed".
# shellcheck source=tests/release/lib.sh
. "$(dirname "$0")/lib.sh"
printf '%s\r\n' 'ALLUSERSPROFILE=C:\ProgramData' 'Path=C:\Windows;C:\git' '=C:=C:\a' \
    'INCLUDE=' >"$work/before"
printf '%s\r\n' 'ALLUSERSPROFILE=C:\ProgramData' 'PATH=C:\VS\bin;C:\Windows;C:\git' '=C:=C:\a' \
    'INCLUDE=C:\VS\include' "VCToolsInstallDir=C:\\VS\\Tools\\" 'VSCMD_ARG_TGT_ARCH=x64' >"$work/after"
"$src/.github/release/msvc-env.sh" --diff "$work/before" "$work/after" >"$work/diff"
sed 's/^/    /' "$work/diff"
printf '%s\n' 'PATH=C:\VS\bin;C:\Windows;C:\git' 'INCLUDE=C:\VS\include' \
    "VCToolsInstallDir=C:\\VS\\Tools\\" 'VSCMD_ARG_TGT_ARCH=x64' >"$work/want"
check "exactly the added and changed variables, without CR" cmp -s "$work/want" "$work/diff"
check "a name in another case is the same variable (Path, PATH)" not grep -q '^Path=' "$work/diff"
check "cmd's hidden =C: variables are left alone" not grep -q '^=' "$work/diff"
finish msvc-env
