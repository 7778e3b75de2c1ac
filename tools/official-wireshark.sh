#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The official Wireshark X.Y.Z for this machine, from Wireshark's download site, into DIR
# (never into the system's Wireshark): on macOS the disk image for this Mac's
# architecture ("Arm 64" or "Intel 64"), mounted read-only at DIR/mnt; on Windows the
# x64 installer, run silently into DIR/Wireshark. Prints the path of that Wireshark's
# tshark last. The release workflow loads its builds into it (tools/load-test.sh) and
# links the macOS build against the libraries inside Wireshark.app
# (tools/macos-link-app.sh).
#
# usage: tools/official-wireshark.sh X.Y.Z DIR
# WS_DOWNLOAD_BASE replaces the site (default https://2.na.dl.wireshark.org).
set -euo pipefail
usage="usage: tools/official-wireshark.sh X.Y.Z DIR"
version=${1:?$usage}
dir=${2:?$usage}
base=${WS_DOWNLOAD_BASE:-https://2.na.dl.wireshark.org}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

fetch() {   # fetch FILE URL...: the first URL that answers
    local file=$1 url; shift
    for url in "$@"; do
        echo "official-wireshark: $url" >&2
        if curl -fsSL --retry 3 -o "$file" "$url"; then return 0; fi
    done
    echo "official-wireshark: no download for Wireshark $version" >&2
    return 1
}

case $(uname -s) in
    Darwin)
        case $(uname -m) in
            arm64) arch="Arm%2064" ;;
            x86_64) arch="Intel%2064" ;;
            *) echo "official-wireshark: no Wireshark for $(uname -m)" >&2; exit 1 ;;
        esac
        dmg=$dir/Wireshark-$version.dmg
        [ -f "$dmg" ] || fetch "$dmg" "$base/osx/all-versions/Wireshark%20$version%20$arch.dmg"
        mkdir -p "$dir/mnt"
        # A licence shown on attach waits for an answer: yes gives it (and dies of
        # SIGPIPE, which pipefail must not count).
        { yes || true; } | PAGER="cat" hdiutil attach -nobrowse -noautoopen -readonly \
            -mountpoint "$dir/mnt" "$dmg" >/dev/null
        tshark=$dir/mnt/Wireshark.app/Contents/MacOS/tshark
        ;;
    MINGW* | MSYS* | CYGWIN*)
        exe=$dir/Wireshark-$version-x64.exe
        # The installer's name changed over the years; both spellings are tried.
        [ -f "$exe" ] || fetch "$exe" "$base/win64/all-versions/Wireshark-$version-x64.exe" \
            "$base/win64/all-versions/Wireshark-win64-$version.exe"
        # NSIS: /S silent, /D= the folder (last, unquoted); Git's bash must not turn
        # the switches into paths.
        MSYS2_ARG_CONV_EXCL='*' "$exe" /S "/D=$(cygpath -w "$dir/Wireshark")"
        tshark=$dir/Wireshark/tshark.exe
        ;;
    *)
        echo "official-wireshark: only macOS and Windows; on Linux the distributions' package" \
             "(tools/load-test.sh --distro)" >&2
        exit 1
        ;;
esac
[ -x "$tshark" ] || { echo "official-wireshark: no tshark at $tshark" >&2; exit 1; }
"$tshark" --version | sed -n 1p >&2        # all read: no SIGPIPE under pipefail
echo "$tshark"
