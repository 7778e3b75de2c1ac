# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by tests/stages/wireshark-checks.sh, tests/stages/in-tree.sh and tests/lib/build-windows.sh:
# Wireshark's Debian source package, the newest one the archive serves (forky 4.6,
# trixie 4.4, bookworm 4.0, tried in that order), fetched with a private apt state and
# unpacked whole into $BTHOME_WS_SRC_CACHE/wireshark-<suite> (default
# /var/cache/bthome-ws-src), once.
ws_source_cache=${BTHOME_WS_SRC_CACHE:-/var/cache/bthome-ws-src}
ws_source_mirror=${BTHOME_DEBIAN_MIRROR:-http://deb.debian.org/debian}

# The source of one suite; prints its path.
ws_source_fetch_suite() {
    debian_source_fetch "$1" wireshark "$ws_source_cache"
}

# Debian's source package PACKAGE of SUITE, its upstream tarball unpacked whole into
# CACHE/PACKAGE-SUITE, once (tests/lib/build-windows.sh builds its libraries from these
# too); prints its path. .ready holds the tarball's name.
debian_source_fetch() {
    local suite=$1 package=$2 cache=$3 dir=$3/$2-$1 apt tarball file
    if [ -f "$dir/.ready" ]; then echo "$dir"; return 0; fi
    mkdir -p "$cache" || return 1
    apt=$(mktemp -d "$cache/.fetch.XXXXXX") || return 1
    mkdir -p "$apt/lists/partial" "$apt/dl" "$apt/tree"
    echo "deb-src $ws_source_mirror $suite main" >"$apt/sources.list"
    local opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=-"
                -o "Dir::State::Lists=$apt/lists" -o "Acquire::Check-Valid-Until=false")
    if apt-get "${opts[@]}" update -q >"$apt/log" 2>&1 &&
       (cd "$apt/dl" && apt-get "${opts[@]}" source --download-only -q "$package") \
            >>"$apt/log" 2>&1; then
        # The main tarball, not a signature or a second tarball (orig-NAME.tar.*).
        tarball=
        for file in "$apt"/dl/*.orig.tar.*; do
            case $file in *.asc) ;; *) tarball=$file ;; esac
        done
        # Unpacked inside the cache, then moved in: a reader never sees half a tree.
        if [ -n "$tarball" ] &&
           tar -C "$apt/tree" --strip-components=1 -xf "$tarball" 2>>"$apt/log" &&
           basename "$tarball" >"$apt/tree/.ready" &&
           rm -rf "$dir" && mv "$apt/tree" "$dir"; then
            rm -rf "$apt"
            echo "$dir"
            return 0
        fi
    fi
    echo "ws_source: no $package source for $suite ($(tail -n 1 "$apt/log"))" >&2
    rm -rf "$apt"
    return 1
}

# The newest source the archive serves; prints its path, fails when there is none.
ws_source_fetch() {
    local suite
    for suite in forky trixie bookworm; do
        ws_source_fetch_suite "$suite" && return 0
    done
    return 1
}
