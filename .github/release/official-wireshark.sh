#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The official Wireshark X.Y.Z for this machine, from Wireshark's download site, into DIR
# (never into the system's Wireshark): on macOS the disk image, mounted read-only at
# DIR/mnt; on Windows the x64 installer, run silently into DIR/Wireshark. Prints the path
# of that Wireshark's tshark last. The release workflow loads its builds into it
# (tests/release/load-test.sh) and links the macOS build against the libraries inside
# Wireshark.app (.github/release/macos-link-app.sh).
#
# The macOS disk image: since 4.6 Wireshark ships one universal image per release,
# "Wireshark X.Y.Z.dmg" (the 4.6.0 release notes; installers in public repositories
# fetch osx/all-versions/Wireshark%204.6.8.dmg); before, one per architecture,
# "Wireshark X.Y.Z Arm 64.dmg" / "Intel 64.dmg" (Homebrew's cask Casks/w/wireshark.rb,
# at 4.4: url ".../osx/all-versions/Wireshark%20#{version}%20#{arch}%2064.dmg"). The
# universal name is tried first, then this Mac's architecture.
#
# usage: .github/release/official-wireshark.sh X.Y.Z DIR
#        .github/release/official-wireshark.sh --urls X.Y.Z
# --urls prints the addresses that would be tried, in order, one a line, and downloads
# nothing (the release preflight, .github/release/release-preflight.sh, asks whether one answers).
# WS_DOWNLOAD_BASE replaces the site (default https://2.na.dl.wireshark.org).
# WS_OFFICIAL_OS (macos, windows) and WS_OFFICIAL_ARCH (arm64, x86_64) stand in for
# uname: for --urls of another system, and for the dry run on Linux (tests/release), where
# WS_DOWNLOAD_ONLY=1 stops after the download and prints the downloaded file.
set -euo pipefail
usage="usage: .github/release/official-wireshark.sh X.Y.Z DIR | --urls X.Y.Z"
urls_only=
if [ "${1:-}" = --urls ]; then urls_only=1; shift; fi
version=${1:?$usage}
base=${WS_DOWNLOAD_BASE:-https://2.na.dl.wireshark.org}

fetch() {   # fetch FILE URL...: the first URL that answers
    local file=$1 url; shift
    for url in "$@"; do
        echo "official-wireshark: $url" >&2
        if curl -fsSL --retry 3 -o "$file" "$url"; then return 0; fi
    done
    echo "official-wireshark: no download for Wireshark $version" >&2
    return 1
}

os=${WS_OFFICIAL_OS:-$(uname -s)}
arch=${WS_OFFICIAL_ARCH:-$(uname -m)}
case $os in
    Darwin | macos)
        case $arch in
            arm64) arch="Arm%2064" ;;
            x86_64) arch="Intel%2064" ;;
            *) echo "official-wireshark: no Wireshark for $arch" >&2; exit 1 ;;
        esac
        urls=("$base/osx/all-versions/Wireshark%20$version.dmg"
              "$base/osx/all-versions/Wireshark%20$version%20$arch.dmg") ;;
    MINGW* | MSYS* | CYGWIN* | windows)
        # The installer's name changed over the years; both spellings are tried.
        urls=("$base/win64/all-versions/Wireshark-$version-x64.exe"
              "$base/win64/all-versions/Wireshark-win64-$version.exe") ;;
    *)
        echo "official-wireshark: only macOS and Windows; on Linux the distributions' package" \
             "(tests/release/load-test.sh --distro)" >&2
        exit 1
        ;;
esac
[ -z "$urls_only" ] || { printf '%s\n' "${urls[@]}"; exit 0; }
dir=${2:?$usage}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

done_if_download_only() { [ "${WS_DOWNLOAD_ONLY:-}" != 1 ] || { echo "$1"; exit 0; }; }
case $os in
    Darwin | macos)
        dmg=$dir/Wireshark-$version.dmg
        [ -f "$dmg" ] || fetch "$dmg" "${urls[@]}"
        done_if_download_only "$dmg"
        mkdir -p "$dir/mnt"
        # A licence shown on attach waits for an answer: yes gives it (and dies of
        # SIGPIPE, which pipefail must not count).
        { yes || true; } | PAGER="cat" hdiutil attach -nobrowse -noautoopen -readonly \
            -mountpoint "$dir/mnt" "$dmg" >/dev/null
        tshark=$dir/mnt/Wireshark.app/Contents/MacOS/tshark
        ;;
    MINGW* | MSYS* | CYGWIN* | windows)
        exe=$dir/Wireshark-$version-x64.exe
        [ -f "$exe" ] || fetch "$exe" "${urls[@]}"
        done_if_download_only "$exe"
        # NSIS: /S silent, /D= the folder (last, unquoted); Git's bash must not turn
        # the switches into paths.
        MSYS2_ARG_CONV_EXCL='*' "$exe" /S "/D=$(cygpath -w "$dir/Wireshark")"
        tshark=$dir/Wireshark/tshark.exe
        ;;
esac
[ -x "$tshark" ] || { echo "official-wireshark: no tshark at $tshark" >&2; exit 1; }
"$tshark" --version | sed -n 1p >&2        # all read: no SIGPIPE under pipefail
echo "$tshark"
