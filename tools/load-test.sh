#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Load test of a release file in a Wireshark users have (the release workflow runs it for
# every build, and a failure stops the release). Two checks, with that Wireshark's tshark:
#   1. installed the way docs/install.md tells users (as bthome.so or bthome.dll in the
#      epan folder of the personal plugin folder, in a temporary HOME / APPDATA), the
#      plugin is listed by `tshark -G plugins` from there, the version folder is named as
#      docs/install.md says (X.Y, X-Y on macOS) and tshark says nothing about it;
#   2. the demo capture decodes to tests/tshark/expected/bthome-demo.txt (tests/tshark/dissect_test.py,
#      the suite's own dissection test).
# Prints "load-test: N passed, M failed" last; exit status 1 on any failure.
#
# usage: tools/load-test.sh PLUGIN TSHARK
#        tools/load-test.sh --distro X.Y PLUGIN
# --distro runs the same test in a container (docker) of the distribution whose own
# Wireshark package is that X.Y: Ubuntu 24.04 (4.2), Debian trixie (4.4), Debian forky
# (4.6). Needs python3 (or python) beside tshark.
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: tools/load-test.sh PLUGIN TSHARK | --distro X.Y PLUGIN"

if [ "${1:-}" = "--distro" ]; then
    series=${2:?$usage}
    plugin=${3:?$usage}
    case $series in
        4.2) image=ubuntu:24.04 ;;
        4.4) image=debian:trixie ;;
        4.6) image=debian:forky ;;
        *) echo "load-test: no distribution known with Wireshark $series" >&2; exit 1 ;;
    esac
    dir=$(cd "$(dirname "$plugin")" && pwd)
    echo "load-test: Wireshark $series of $image"
    # The distribution's tshark, as a user installs it; its package asks whether
    # non-root users may capture: keep its default (no).
    exec docker run --rm -v "$src:/src:ro" -v "$dir:/plugin:ro" "$image" sh -ec '
        apt-get update -q >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
            tshark python3 >/dev/null
        exec /src/tools/load-test.sh "/plugin/$1" /usr/bin/tshark' sh "$(basename "$plugin")"
fi

plugin=${1:?$usage}
tshark=${2:?$usage}
passed=0; failed=0
check() {   # check WHAT COMMAND...: one named check
    local what=$1; shift
    if "$@"; then echo "  ok   $what"; passed=$((passed + 1))
    else echo "  FAIL $what"; failed=$((failed + 1)); fi
}
# shellcheck disable=SC2317  # called through check
not() { ! "$@"; }
finish() { echo "load-test: $passed passed, $failed failed"; [ "$failed" = 0 ]; exit; }

python=python3
"$python" -c '' 2>/dev/null || python=python     # Windows runners name it python
[ -f "$plugin" ] || { echo "load-test: no file $plugin"; failed=1; finish; }
version=$("$tshark" --version 2>/dev/null | sed -nE '1s/.* ([0-9]+\.[0-9]+)\.[0-9]+.*/\1/p')
[ -n "$version" ] || { echo "load-test: cannot run $tshark"; failed=1; finish; }


tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
case $plugin in *.dll) file=bthome.dll ;; *) file=bthome.so ;; esac
# Wireshark ignores the personal plugin folder for root (Linux containers run as root).
as_user=()
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
    as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
# Paths handed to a Windows program in its own form (Git's bash converts arguments only).
home=$tmp
command -v cygpath >/dev/null && home=$(cygpath -m "$tmp")
# An empty global plugin folder: a copy a developer installed there cannot stand in.
mkdir -p "$tmp/global"
run_tshark() {
    HOME=$home APPDATA=$home WIRESHARK_CONFIG_DIR=$home/config WIRESHARK_PLUGIN_DIR=$home/global \
        LC_ALL=C.UTF-8 ${as_user[@]+"${as_user[@]}"} "$tshark" "$@"
}

echo "load-test: $(basename "$plugin") in $(run_tshark --version 2>/dev/null | sed -n 1p)"

# 1. The personal plugin folder, from tshark itself; the version folder as documented.
folder=$(run_tshark -G folders 2>/dev/null | tr -d '\r' |
         sed -nE 's/^Personal Plugins:[[:space:]]*//p')
command -v cygpath >/dev/null && [ -n "$folder" ] && folder=$(cygpath -u "$folder")
want=$version
[ "$(uname -s)" = Darwin ] && want=${version/./-}
check "personal plugin folder ${folder:-(none)} ends in /$want" \
    test -n "$folder" -a "$(basename "$folder")" = "$want"
if [ -n "$folder" ]; then
    mkdir -p "$folder/epan" && cp "$plugin" "$folder/epan/$file" && chmod -R a+rX "$tmp"
fi
row=$(run_tshark -G plugins 2>"$tmp/stderr" | tr -d '\r' | grep -E "^${file}[[:space:]]")
echo "       ${row:-(no row for $file)}"
path=${row##*$'\t'}
command -v cygpath >/dev/null && [ -n "$path" ] && path=$(cygpath -u "$path")
check "tshark -G plugins lists $file from the personal folder" \
    test -n "$folder" -a "$path" = "$folder/epan/$file"
sed 's/^/       /' "$tmp/stderr"
check "tshark says nothing about plugins on standard error" \
    not grep -qiE 'plugin|bthome' "$tmp/stderr"
rm -f "$folder/epan/$file"

# 2. The demo capture, through the suite's dissection test (isolated from the above).
cp "$plugin" "$tmp/$file"
tshark_native=$tshark
command -v cygpath >/dev/null && tshark_native=$(cygpath -m "$tshark")
check "captures/bthome-demo.pcapng decodes as tests/tshark/expected/bthome-demo.txt" \
    env BTHOME_TSHARK="$tshark_native" "$python" "$src/tests/tshark/dissect_test.py" --plugin "$tmp/$file" \
        --capture "$src/captures/bthome-demo.pcapng" \
        --expected "$src/tests/tshark/expected/bthome-demo.txt"
finish
