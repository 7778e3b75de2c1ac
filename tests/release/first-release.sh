#!/usr/bin/env bash
# shellcheck disable=SC2317  # functions called through check
# SPDX-License-Identifier: GPL-2.0-or-later
# Which official Wiresharks a build job loads its file into (.github/workflows/release.yml):
# on Windows and macOS the X.Y.Z it was built for and the series' first release X.Y.0, so
# that a symbol a patch release added is caught before users of an older X.Y.* see it; on
# Linux the distribution's package only. The download steps run with each step's `if:`
# decided by tests/release/workflow_step.py --if, and a stand-in official-wireshark.sh
# that logs the version asked for and prints where that Wireshark's tshark would be.
# Prints "first-release: N passed, M failed".
# shellcheck source=tests/release/lib.sh
. "$(dirname "$0")/lib.sh"
step() { "$here/workflow_step.py" "$@"; }
steps=("The official Wireshark \${{ matrix.wireshark }}"
       "The official Wireshark of the series' first release")

# job OS VERSION: a build job's download steps; the versions asked for in $work/OS-VERSION/asked,
# the load test's list in $work/OS-VERSION/tsharks (one a line).
job() {
    local os=$1 version=$2 dir=$work/$1-$2 name line
    mkdir -p "$dir/plugin/.github/release"
    cat >"$dir/plugin/.github/release/official-wireshark.sh" <<'STUB'
#!/usr/bin/env bash
echo "$1" >>"$STUB_LOG"
case $STUB_OS in
    windows) echo "$PWD/$2/Wireshark/tshark.exe" ;;
    macos) echo "$PWD/$2/mnt/Wireshark.app/Contents/MacOS/tshark" ;;
esac
STUB
    chmod 755 "$dir/plugin/.github/release/official-wireshark.sh"
    : >"$dir/env"; : >"$dir/asked"
    for name in "${steps[@]}"; do
        step --if "$name" matrix.platform.os="$os"
        case $? in
            0) ;;
            1) continue ;;
            *) echo "  FAIL the if: of '$name' cannot be read"; failed=$((failed + 1)); continue ;;
        esac
        (
            cd "$dir" || exit 1
            # what the steps before wrote to $GITHUB_ENV, as the runner sets it
            while IFS= read -r line; do export "${line?}"; done <"$dir/env"
            export WS_VERSION=$version GITHUB_ENV=$dir/env STUB_LOG=$dir/asked STUB_OS=$os
            bash --noprofile --norc -eo pipefail <(step "$name" matrix.wireshark="$version" \
                                                   matrix.platform.os="$os")
        ) >>"$dir/log" 2>&1 || echo "step failed: $name" >>"$dir/log"
    done
    sed -n 's/^OFFICIAL_TSHARKS=//p' "$dir/env" | tail -n 1 | tr ':' '\n' >"$dir/tsharks"
    sed 's/^/    /' "$dir/log" 2>/dev/null
}
same() { printf '%s\n' "${@:2}" | cmp -s - "$1"; }     # same FILE LINE...

for os in windows macos; do
    case $os in
        windows) tshark=Wireshark/tshark.exe ;;
        macos) tshark=mnt/Wireshark.app/Contents/MacOS/tshark ;;
    esac
    echo "first-release: $os, Wireshark 4.4.19"
    job "$os" 4.4.19
    d=$work/$os-4.4.19
    check "downloads 4.4.19 and 4.4.0" same "$d/asked" 4.4.19 4.4.0
    check "the load test runs in both" \
        same "$d/tsharks" "$d/official-4.4.19/$tshark" "$d/official-4.4.0/$tshark"
    echo "first-release: $os, Wireshark 4.6.0 (the series' first release itself)"
    job "$os" 4.6.0
    d=$work/$os-4.6.0
    check "downloads 4.6.0 once" same "$d/asked" 4.6.0
    check "the load test runs in it once" same "$d/tsharks" "$d/official-4.6.0/$tshark"
done
echo "first-release: linux"
job linux 4.4.19
check "no official download (the distribution's package)" test ! -s "$work/linux-4.4.19/asked"
check "only macOS links against the app of X.Y.0" \
    bash -c "grep -q '^FIRST_APP=' '$work/macos-4.4.19/env' && ! grep -q '^FIRST_APP=' '$work/windows-4.4.19/env'"
finish first-release
