#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The release workflow's first job (.github/workflows/release.yml): within a minute, what
# would otherwise fail an hour into the builds. Checks
#   - that TAG (when given: a tag push) is v + the project's version (set(BTHOME_VERSION)
#     in CMakeLists.txt), as the binaries' names carry it;
#   - that Wireshark's repository has the tag vX.Y.Z of each X.Y.Z (the build jobs check
#     it out);
#   - that the official Windows installer and the macOS disk images (arm64, x86_64) of each
#     X.Y.Z and of its series' first release X.Y.0 answer (HEAD): the load tests download
#     them. The addresses are those .github/release/official-wireshark.sh --urls names; one of a
#     file's addresses answering is enough, as for the download.
# Fails (status 1) with the list of everything missing; else writes the Wireshark versions
# as a JSON list, `wireshark=["X.Y.Z",...]`, to FILE (the job's $GITHUB_OUTPUT: the build
# jobs' matrix) and prints it.
#
# usage: .github/release/release-preflight.sh [--tag TAG] [--output FILE] X.Y.Z...
# WS_GIT_URL replaces Wireshark's repository (default https://github.com/wireshark/wireshark.git,
# the one the build jobs check out); WS_DOWNLOAD_BASE the download site (as in
# .github/release/official-wireshark.sh).
set -uo pipefail
usage="usage: .github/release/release-preflight.sh [--tag TAG] [--output FILE] X.Y.Z..."
src=$(cd "$(dirname "$0")/../.." && pwd)
tag='' output=''
while [ $# -gt 0 ]; do
    case $1 in
        --tag) tag=${2?$usage}; shift 2 ;;
        --output) output=${2:?$usage}; shift 2 ;;
        -*) echo "$usage" >&2; exit 2 ;;
        *) break ;;
    esac
done
[ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
git_url=${WS_GIT_URL:-https://github.com/wireshark/wireshark.git}
missing=()
ok() { echo "release-preflight: ok   $*"; }

version=$(sed -n 's/^set(BTHOME_VERSION \([0-9.]*\)).*/\1/p' "$src/CMakeLists.txt")
if [ -z "$version" ]; then
    missing+=("no set(BTHOME_VERSION ...) in CMakeLists.txt")
elif [ -n "$tag" ] && [ "$tag" != "v$version" ]; then
    missing+=("the tag $tag is not v$version, the version in CMakeLists.txt")
elif [ -n "$tag" ]; then
    ok "the tag $tag is v + the version in CMakeLists.txt"
fi

for v in "$@"; do
    [[ $v =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || missing+=("$v is no Wireshark version X.Y.Z")
done

# One listing for all tags; a repository that does not answer is one missing item.
refs=()
for v in "$@"; do refs+=("refs/tags/v$v"); done
if tags=$(git ls-remote --tags "$git_url" "${refs[@]}" 2>&1); then
    for v in "$@"; do
        if grep -q "[[:space:]]refs/tags/v$v\$" <<<"$tags"; then
            ok "Wireshark's tag v$v"
        else
            missing+=("Wireshark's tag v$v, in $git_url")
        fi
    done
else
    missing+=("the tags of $git_url: git ls-remote failed: ${tags//$'\n'/ }")
fi

# Each file once (X.Y.0 may be in the list; 4.6's universal disk image serves both Macs).
declare -A answered=()
answers() {     # answers URL: HEAD, following redirects; each URL asked once
    if [ -z "${answered[$1]:-}" ]; then
        if curl -fsIL --retry 2 --max-time 60 -o /dev/null "$1"; then answered[$1]=yes
        else answered[$1]=no; fi
    fi
    [ "${answered[$1]}" = yes ]
}
declare -A seen=()
for v in "$@"; do
    [[ $v =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || continue
    for w in "$v" "${v%.*}.0"; do
        for platform in "windows x86_64 Windows x64" "macos arm64 macOS arm64" \
                        "macos x86_64 macOS x86_64"; do
            read -r os arch name <<<"$platform"
            [ -z "${seen[$w $os $arch]:-}" ] || continue
            seen[$w $os $arch]=1
            if ! urls=$(WS_OFFICIAL_OS=$os WS_OFFICIAL_ARCH=$arch \
                        "$src/.github/release/official-wireshark.sh" --urls "$w"); then
                missing+=("Wireshark $w for $name: no download address"); continue
            fi
            found=
            while read -r url; do
                if answers "$url"; then found=$url; break; fi
            done <<<"$urls"
            if [ -n "$found" ]; then
                ok "Wireshark $w for $name: $found"
            else
                missing+=("Wireshark $w for $name: none of $(tr '\n' ' ' <<<"$urls")answers")
            fi
        done
    done
done

if [ ${#missing[@]} -gt 0 ]; then
    echo "release-preflight: ${#missing[@]} missing:"
    printf '  %s\n' "${missing[@]}"
    exit 1
fi
json=$(printf '"%s",' "$@")
line="wireshark=[${json%,}]"
[ -z "$output" ] || echo "$line" >>"$output"
echo "$line"
