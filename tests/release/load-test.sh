#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Load test of a release file in a Wireshark users have (the release workflow runs it for
# every build, and a file is uploaded only when it passes). With that Wireshark's tshark,
# in a temporary HOME and APPDATA (no WIRESHARK_CONFIG_DIR: on Windows it would move the
# personal plugin folder away from the documented one):
#   1. the personal plugin folder that tshark reports is, by full path, the one
#      docs/install.md names: %APPDATA%\Wireshark\plugins\X.Y on Windows,
#      ~/.local/lib/wireshark/plugins/X-Y on macOS, ~/.local/lib/wireshark/plugins/X.Y on
#      Linux; the file copied into its epan folder as bthome.dll / bthome.so is the one
#      `tshark -G plugins` lists, by full path, and tshark says nothing about plugins;
#   2. the demo capture decodes to tests/tshark/expected/bthome-demo.txt
#      (tests/lib/dissection.py, what the suite's dissection tests compare);
#   3. with --profile-zip: the zip unpacked into the personal profiles folder as
#      Wireshark's Import does (one folder named after the profile), `tshark -C BTHome`
#      shows the profile's columns on the demo capture;
#   4. with --keys: the bthome-keys bundle (bthome-keys.py, and bthome-keys.bat run
#      through cmd on Windows) prints the -o options of tests/tshark/data/keys-import/
#      keys.txt, and tshark decrypts captures/encrypted-ll.pcap with them.
# Prints "load-test: N passed, M failed" last; exit status 1 on any failure.
#
# usage: tests/release/load-test.sh [--profile-zip ZIP] [--keys DIR] PLUGIN TSHARK
#        tests/release/load-test.sh --distro X.Y PLUGIN
# --distro runs checks 1 and 2 in a container (docker) of the distribution whose own
# Wireshark package is that X.Y: Ubuntu 24.04 (4.2), Debian trixie (4.4), Debian forky
# (4.6). Needs python3 (or python) beside tshark. BTHOME_LOAD_TEST_OS (windows, macos,
# linux; default this machine's) chooses the documented folder: tests/release runs the
# Windows and macOS rules on Linux with a stand-in tshark.
set -uo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
usage="usage: tests/release/load-test.sh [--profile-zip ZIP] [--keys DIR] PLUGIN TSHARK | --distro X.Y PLUGIN"

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
        exec /src/tests/release/load-test.sh "/plugin/$1" /usr/bin/tshark' sh "$(basename "$plugin")"
fi

profile_zip=; keys=
while [ $# -gt 2 ]; do
    case $1 in
        --profile-zip) profile_zip=${2:?$usage}; shift 2 ;;
        --keys) keys=${2:?$usage}; shift 2 ;;
        *) echo "$usage" >&2; exit 2 ;;
    esac
done
plugin=${1:?$usage}
tshark=${2:?$usage}
# shellcheck source=tests/release/checks.sh
. "$src/tests/release/checks.sh"
finish() { echo "load-test: $passed passed, $failed failed"; [ "$failed" = 0 ]; exit; }

python=python3
"$python" -c '' 2>/dev/null || python=python     # Windows runners name it python
[ -f "$plugin" ] || { echo "load-test: no file $plugin"; failed=1; finish; }
version=$("$tshark" --version 2>/dev/null | sed -nE '1s/.* ([0-9]+\.[0-9]+)\.[0-9]+.*/\1/p')
[ -n "$version" ] || { echo "load-test: cannot run $tshark"; failed=1; finish; }
os=${BTHOME_LOAD_TEST_OS:-}
if [ -z "$os" ]; then
    case $(uname -s) in
        Darwin) os=macos ;;
        MINGW* | MSYS* | CYGWIN*) os=windows ;;
        *) os=linux ;;
    esac
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
case $plugin in *.dll) file=bthome.dll ;; *) file=bthome.so ;; esac
# Wireshark ignores the personal plugin folder for root (Linux containers run as root).
as_user=()
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
    as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
# A path as Wireshark names it, and as this script compares it: a Windows path in the
# C:/... form with forward slashes (Git's bash converts arguments, not output).
native() { if command -v cygpath >/dev/null; then cygpath -m "$1"; else printf '%s\n' "$1"; fi; }
normal() { native "${1//\\//}"; }
home=$(native "$tmp/home")
appdata=$(native "$tmp/home/AppData/Roaming")
mkdir -p "$tmp/home/AppData/Roaming" "$tmp/global"
# An empty global plugin folder: a copy a developer installed there cannot stand in.
run_tshark() {
    env -u WIRESHARK_CONFIG_DIR -u XDG_CONFIG_HOME HOME="$home" APPDATA="$appdata" \
        WIRESHARK_PLUGIN_DIR="$(native "$tmp/global")" LC_ALL=C.UTF-8 \
        ${as_user[@]+"${as_user[@]}"} "$tshark" "$@"
}
folders=$(run_tshark -G folders 2>/dev/null | tr -d '\r')
folder_of() { normal "$(sed -nE "s/^$1:[[:space:]]*//p" <<<"$folders" | head -n 1)"; }

echo "load-test: $(basename "$plugin") in $(run_tshark --version 2>/dev/null | sed -n 1p) ($os rules)"

# 1. The documented personal plugin folder (docs/install.md, step 3), by full path.
case $os in
    windows) want=$appdata/Wireshark/plugins/$version; conf=$appdata/Wireshark ;;
    macos) want=$home/.local/lib/wireshark/plugins/${version/./-}; conf=$home/.config/wireshark ;;
    *) want=$home/.local/lib/wireshark/plugins/$version; conf=$home/.config/wireshark ;;
esac
folder=$(folder_of "Personal Plugins")
check "tshark's personal plugin folder ${folder:-(none)} is $want" test "$folder" = "$want"
epan=$tmp/home${want#"$home"}/epan
mkdir -p "$epan" && cp "$plugin" "$epan/$file" && chmod -R a+rX "$tmp"
row=$(run_tshark -G plugins 2>"$tmp/stderr" | tr -d '\r' | grep -E "^${file}[[:space:]]")
echo "       ${row:-(no row for $file)}"
path=
[ -n "$row" ] && path=$(normal "${row##*$'\t'}")
check "tshark -G plugins lists $file from $want/epan" test "$path" = "$want/epan/$file"
sed 's/^/       /' "$tmp/stderr"
check "tshark says nothing about plugins on standard error" \
    not grep -qiE 'plugin|bthome' "$tmp/stderr"

# 2. The demo capture, as the suite's dissection tests read it (isolated from the above).
rm -f "$epan/$file"
cp "$plugin" "$tmp/$file"
# shellcheck disable=SC2317  # called through check
demo_decodes() {
    (cd "$src" && BTHOME_TSHARK=$(native "$tshark") "$python" -m tests.lib.dissection \
        "$(native "$tmp/$file")" "$(native "$src/captures/bthome-demo.pcapng")" \
        "$(native "$src/tests/tshark/expected/bthome-demo.txt")")
}
check "captures/bthome-demo.pcapng decodes as tests/tshark/expected/bthome-demo.txt" \
    demo_decodes

# From here on the plugin is in the personal folder again, as a user has it.
cp "$plugin" "$epan/$file"
demo=$(native "$tmp/demo.pcapng")
cp "$src/captures/bthome-demo.pcapng" "$tmp/demo.pcapng"

# 3. The profile zip, imported: Wireshark's Import unpacks the zip's folder into the
# personal profiles folder.
if [ -n "$profile_zip" ]; then
    got=$(folder_of "Personal configuration")
    check "tshark's personal configuration folder ${got:-(none)} is $conf" test "$got" = "$conf"
    profiles=$tmp/home${conf#"$home"}/profiles
    mkdir -p "$profiles" "$tmp/data"
    # An empty global data folder: a global BTHome profile (a package's) cannot stand in.
    profile_tshark() { WIRESHARK_DATA_DIR=$(native "$tmp/data") run_tshark -C BTHome "$@"; }
    # shellcheck disable=SC2317  # called through check
    no_profile() { ! profile_tshark -r "$demo" -c 1 -T tabs >/dev/null 2>&1; }
    check "no BTHome profile before the import" no_profile
    "$python" -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
        "$(native "$profile_zip")" "$(native "$profiles")"
    chmod -R a+rX "$tmp"
    # The profile's own columns: Device (name and MAC) and RSSI of the first advert.
    first=$(profile_tshark -r "$demo" -c 1 -T tabs 2>"$tmp/stderr" | tr -d '\r' |
            awk -F'\t' '{ n = 0; for (i = 1; i <= NF; i++) { gsub(/^ +| +$/, "", $i);
                                 if ($i != "\342\206\222") f[++n] = $i }
                          print n "|" f[7] "|" f[8]; exit }')
    sed 's/^/       /' "$tmp/stderr"
    check "tshark -C BTHome shows the profile's columns (9; Device, RSSI: ${first:-none})" \
        test "$first" = "9|Weather,a4:c1:38:00:00:01|-62"
fi

# 4. bthome-keys as a Windows or macOS user runs it, then its options in tshark.
if [ -n "$keys" ]; then
    list=$(native "$src/tests/tshark/data/keys-import/keys.txt")
    if command -v cmd >/dev/null && [ -f "$keys/bthome-keys.bat" ]; then
        keys_cmd=(cmd //c "$(cygpath -w "$keys/bthome-keys.bat")")
    else
        keys_cmd=("$python" "$keys/bthome-keys.py")
    fi
    "${keys_cmd[@]}" --print-o "$list" 2>"$tmp/stderr" | tr -d '\r' >"$tmp/options"
    sed 's/^/       /' "$tmp/stderr" "$tmp/options"
    kitchen="-o 'uat:bthome_keys:\"54:48:E6:8F:80:A5\",\"231d39c1d7cc1ab1aee224cd096db932\",\"kitchen\"'"
    check "bthome-keys --print-o keys.txt: 4 rows, the first the kitchen's" \
        test "$(wc -l <"$tmp/options" | tr -d ' ')-$(sed -n 1p "$tmp/options")" = "4-$kitchen"
    options=()
    while IFS= read -r word; do options+=("$word"); done < <(
        "$python" -c 'import shlex, sys; print("\n".join(shlex.split(sys.stdin.read())))' \
            <"$tmp/options" | tr -d '\r')
    cp "$src/captures/encrypted-ll.pcap" "$tmp/encrypted.pcap" && chmod a+r "$tmp/encrypted.pcap"
    count() {
        run_tshark -r "$(native "$tmp/encrypted.pcap")" "$@" -Y bthome.encryption.key_mac \
            2>/dev/null | grep -c .
    }
    without=$(count); with=$(count ${options[@]+"${options[@]}"})
    check "its options decrypt captures/encrypted-ll.pcap ($with adverts, $without without)" \
        test "${with:-0}" -gt 0 -a "${without:-0}" = 0
fi
finish
