#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The macOS plugin linked again, against the libraries inside the official Wireshark.app
# instead of those it was built with (Homebrew's GLib and libgcrypt, the build tree's
# libwireshark). dyld loads a library by the name the plugin records and refuses one
# whose compatibility version is lower than the one recorded; linking against the app's
# own copies records the app's names (@rpath/...) and versions, so the plugin loads in
# that Wireshark and in any later one of the same X.Y that bundles the same or newer
# libraries. A library the app lacks fails here, not on the user's Mac.
#
# usage: .github/release/macos-link-app.sh BUILD_DIR BUILT_PLUGIN WIRESHARK_APP OUT
#   BUILD_DIR the Wireshark build tree of tools/build-in-tree.sh (its objects are
#   linked), BUILT_PLUGIN the plugin it built (its libraries are looked up in the app).
# Prints the new plugin's libraries (otool -L) and checks each of them.
set -euo pipefail
usage="usage: .github/release/macos-link-app.sh BUILD_DIR BUILT_PLUGIN WIRESHARK_APP OUT"
build=${1:?$usage}
built=${2:?$usage}
app=${3:?$usage}
out=${4:?$usage}
frameworks=$app/Contents/Frameworks
[ -d "$frameworks" ] || { echo "macos-link-app: no $frameworks" >&2; exit 1; }

objects=()
while IFS= read -r o; do objects+=("$o"); done < <(find "$build/plugins/epan/bthome" -name '*.o' | sort)
[ ${#objects[@]} -gt 0 ] || { echo "macos-link-app: no objects under $build/plugins/epan/bthome" >&2; exit 1; }

system() { case $1 in /usr/lib/* | /System/*) return 0 ;; *) return 1 ;; esac; }

# The built plugin's libraries: the system's by -l / -framework, the others by the
# app's copy of the same file name.
libs=()
missing=0
while IFS= read -r dep; do
    name=$(basename "$dep")
    if system "$dep"; then
        case $dep in
            */libSystem.*) ;;
            *.framework/*) libs+=(-framework "${name%%.*}") ;;
            *) name=${name#lib}; libs+=("-l${name%%.*}") ;;
        esac
    elif [ -f "$frameworks/$name" ]; then
        libs+=("$frameworks/$name")
    else
        echo "macos-link-app: Wireshark.app has no $name (the plugin needs $dep)" >&2
        missing=1
    fi
done < <(otool -L "$built" | awk 'NR > 1 { print $1 }')
[ "$missing" = 0 ] || exit 1

cc -bundle -arch "$(uname -m)" -mmacosx-version-min="${MACOSX_DEPLOYMENT_TARGET:-11.0}" \
    -o "$out" "${objects[@]}" "${libs[@]}" -Wl,-rpath,@executable_path/../Frameworks

# An app library named by an absolute path is named by @rpath, as the app does; then
# signed again (ad hoc), since arm64 macOS loads only signed code.
while IFS= read -r dep; do
    if ! system "$dep" && [ "${dep#@}" = "$dep" ]; then
        install_name_tool -change "$dep" "@rpath/$(basename "$dep")" "$out"
    fi
done < <(otool -L "$out" | awk 'NR > 1 { print $1 }')
codesign --force --sign - "$out"

otool -L "$out"
# Every library the app provides, by a name relative to it, with a compatibility version
# the app's copy satisfies.
bad=0
while read -r dep compat; do
    system "$dep" && continue
    name=$(basename "$dep")
    # 4.6's app is universal: its libraries hold two slices, this Mac's is the one linked.
    have=$(otool -arch "$(uname -m)" -L "$frameworks/$name" 2>/dev/null |
           sed -nE '2s/.*compatibility version ([0-9.]+).*/\1/p')
    if [ "${dep#@}" = "$dep" ] || [ -z "$have" ]; then
        echo "macos-link-app: $dep is not a library of Wireshark.app" >&2; bad=1
    elif [ "$(printf '%s\n%s\n' "$compat" "$have" | sort -V | tail -n 1)" != "$have" ]; then
        echo "macos-link-app: $name: needs compatibility version $compat, the app has $have" >&2
        bad=1
    fi
done < <(otool -L "$out" | sed -nE '2,$s/^[[:space:]]*([^ ]+) \(compatibility version ([0-9.]+).*/\1 \2/p')
[ "$bad" = 0 ]
echo "macos-link-app: $out"
