#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Cross-build Wireshark's tshark and the plugin for Windows x64 with MinGW-w64, on
# Debian 12: the libraries Debian has no Windows build of (libffi, PCRE2, GLib, c-ares,
# libpcap's headers) from Debian's own source packages, a pass-through libintl of ours
# for GLib
# (tests/lib/windows/libintl.c: no translations), then tshark and bthome.dll in the
# Wireshark source tree the way Windows plugins are made (tools/build-in-tree.sh:
# CUSTOM_PLUGIN_SRC_DIR, the plugin's warnings as errors). BUILD_DIR/run ends up with
# tshark.exe, the DLLs it needs and run/plugins/X.Y/epan/bthome.dll; run it with wine.
# Prints the path of bthome.dll last.
#
# usage: tests/lib/build-windows.sh WIRESHARK_SRC_DIR BUILD_DIR
#
# The cross-built libraries are cached in one prefix, $BTHOME_WINDOWS_CACHE/prefix
# (default /var/cache/bthome-windows), and BUILD_DIR is never cleaned, so a second run
# builds only the plugin and what changed (ninja), with no ccache.
# Needs root or sudo to install the MinGW-w64 toolchain (cmake/install-deps.sh --windows).
set -euo pipefail
usage="usage: tests/lib/build-windows.sh WIRESHARK_SRC_DIR BUILD_DIR"
ws=${1:?$usage}
build=${2:?$usage}
src=$(cd "$(dirname "$0")/../.." && pwd)
cache=${BTHOME_WINDOWS_CACHE:-/var/cache/bthome-windows}
prefix=$cache/prefix
host=x86_64-w64-mingw32
jobs=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}
say() { echo "build-windows: $*" >&2; }
mkdir -p "$cache/src" "$prefix"
# One build at a time in the cache (a second waits).
exec 9>"$cache/.build.lock"
flock 9

"$src/cmake/install-deps.sh" --windows >&2
build=$(mkdir -p "$build" && cd "$build" && pwd)
# shellcheck source=tests/lib/ws-source.sh
. "$src/tests/lib/ws-source.sh"

# The files that tell CMake and meson about the cross compiler and the prefix.
toolchain=$cache/toolchain.cmake
cat >"$toolchain" <<EOF
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER $host-gcc)
set(CMAKE_CXX_COMPILER $host-g++)
set(CMAKE_RC_COMPILER $host-windres)
set(CMAKE_FIND_ROOT_PATH /usr/$host $prefix)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_C_STANDARD_INCLUDE_DIRECTORIES $prefix/include/windows-case)
EOF
cross=$cache/meson-cross.ini
cat >"$cross" <<EOF
[binaries]
c = '$host-gcc'
cpp = '$host-g++'
ar = '$host-ar'
strip = '$host-strip'
windres = '$host-windres'
pkgconfig = 'pkg-config'

# The prefix's headers and libraries, for C and for C++ (meson looks for GLib's libintl
# with the C++ compiler).
[built-in options]
c_args = ['-I$prefix/include']
cpp_args = ['-I$prefix/include']
c_link_args = ['-L$prefix/lib']
cpp_link_args = ['-L$prefix/lib']

[host_machine]
system = 'windows'
cpu_family = 'x86_64'
cpu = 'x86_64'
endian = 'little'
EOF
# pkg-config sees only Windows libraries: the prefix and the MinGW-w64 packages'.
export PKG_CONFIG_LIBDIR=$prefix/lib/pkgconfig:/usr/$host/lib/pkgconfig
export PKG_CONFIG_PATH=

# build_once NAME PACKAGE STEP ARGS...: STEP [SOURCE_DIR] ARGS in a subshell, with
# SOURCE_DIR the Debian source package PACKAGE of bookworm unpacked into $cache/src ("-":
# none), unless $prefix/.built-NAME holds the stamp of the same step, arguments and
# source version; the output goes to $cache/NAME.log.
build_once() {
    local name=$1 package=$2 step=$3 dir='' stamp; shift 3
    if [ "$package" != - ]; then
        dir=$(debian_source_fetch bookworm "$package" "$cache/src") || {
            say "cannot fetch the source of $package"; exit 1; }
    fi
    stamp=$(printf '%s\n' "$(declare -f "$step")" "$@" "${dir:+$(cat "$dir/.ready")}" |
            sha256sum)
    [ "$(cat "$prefix/.built-$name" 2>/dev/null)" = "$stamp" ] && return 0
    say "building $name (log: $cache/$name.log)"
    if ! ( "$step" ${dir:+"$dir"} "$@" ) >"$cache/$name.log" 2>&1; then
        tail -n 30 "$cache/$name.log" >&2
        say "building $name failed"
        exit 1
    fi
    echo "$stamp" >"$prefix/.built-$name"
}

build_libintl() {       # built every time: a second, and its source is ours
    $host-gcc -O2 -Wall -Wextra -Werror -c "$src/tests/lib/windows/libintl.c" \
        -o "$cache/libintl.o" &&
    $host-ar rcs "$prefix/lib/libintl.a" "$cache/libintl.o" &&
    cp "$src/tests/lib/windows/libintl.h" "$prefix/include/"
}

# Wireshark for Windows loads wpcap.dll (Npcap) at run time and needs only the headers,
# which are libpcap's (4.0.17's capture-wpcap.c does not compile without them).
install_pcap_headers() {
    local dir=$1
    cp "$dir/pcap.h" "$prefix/include/" && mkdir -p "$prefix/include/pcap" &&
    cp "$dir"/pcap/*.h "$prefix/include/pcap/"
}

# Windows' file names ignore case, MinGW-w64's headers are lower case, and some of
# Wireshark's files write them otherwise (wsutil/inet_addr.c: <Ws2tcpip.h>).
make_case_aliases() {
    local header
    mkdir -p "$prefix/include/windows-case" &&
    for header in Ws2tcpip.h Windows.h VersionHelpers.h; do
        echo "#include <${header,,}>" >"$prefix/include/windows-case/$header" || return 1
    done
}

build_autotools() {    # SOURCE_DIR CONFIGURE_ARGS...
    local dir=$1; shift
    rm -rf "$dir/_build" && mkdir "$dir/_build" && cd "$dir/_build" &&
    ../configure --host=$host --prefix="$prefix" --disable-static "$@" &&
    make -j"$jobs" && make install
}

build_cmake() {        # SOURCE_DIR CMAKE_ARGS...
    local dir=$1; shift
    cmake -S "$dir" -B "$dir/_build" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
        -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" "$@" &&
    cmake --build "$dir/_build" -j"$jobs" && cmake --install "$dir/_build"
}

build_glib() {
    local dir=$1
    rm -rf "$dir/_build" &&
    meson setup "$dir/_build" "$dir" --cross-file "$cross" --prefix "$prefix" \
        --buildtype release --wrap-mode nodownload -Dtests=false -Dnls=disabled \
        -Dman=false -Dgtk_doc=false -Dxattr=false -Dlibelf=disabled &&
    ninja -C "$dir/_build" -j"$jobs" &&
    ninja -C "$dir/_build" install
}

mkdir -p "$prefix/lib" "$prefix/include"
build_libintl || { say "building the pass-through libintl failed"; exit 1; }
build_once case-aliases - make_case_aliases
build_once libffi libffi build_autotools --disable-docs
build_once pcre2 pcre2 build_cmake -DBUILD_SHARED_LIBS=ON -DPCRE2_BUILD_PCRE2GREP=OFF \
    -DPCRE2_BUILD_TESTS=OFF -DPCRE2_SUPPORT_JIT=OFF
build_once glib glib2.0 build_glib
build_once pcap-headers libpcap install_pcap_headers
build_once c-ares c-ares build_cmake -DCARES_SHARED=ON -DCARES_STATIC=OFF \
    -DCARES_BUILD_TOOLS=OFF -DCARES_BUILD_TESTS=OFF

# tshark and the plugin. MSYSTEM makes Wireshark's CMakeLists find the libraries with
# find_package like MSYS2 does instead of downloading its Windows library bundle;
# lemon, run during the build, is compiled for this machine (tests/lib/windows/host-cc).
# The one program configure would run (ConfigureChecks.cmake: a C99 snprintf) cannot
# run here: MinGW-w64's stdio, which Wireshark's -D_POSIX selects, is C99. Wireshark's
# own code warns under MinGW-w64 (ENABLE_WERROR off); the plugin's warnings stay errors
# (BTHOME_WERROR). Built at -O1 without debug information: a test build, quicker to
# compile than Wireshark's default (RelWithDebInfo).
say "building tshark and the plugin in $build (log: $build/build.log)"
plugin=$(MSYSTEM=MINGW64 BTHOME_WS_CMAKE_ARGS="-DCMAKE_TOOLCHAIN_FILE=$toolchain \
    -DLEMON_C_COMPILER=$src/tests/lib/windows/host-cc -DHAVE_C99_VSNPRINTF=1 \
    -DENABLE_WERROR=OFF -DBTHOME_WERROR=ON -DENABLE_PCAP=ON -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS_RELEASE=-O1 -DCMAKE_CXX_FLAGS_RELEASE=-O1 ${BTHOME_WS_CMAKE_ARGS:-}" \
    "$src/tools/build-in-tree.sh" "$ws" "$build" 2>"$build/build.log" | tail -n 1) || {
    tail -n 40 "$build/build.log" >&2; say "the Wireshark build failed"; exit 1; }
if grep -E 'warning:' "$build/build.log" | grep -F 'plugins/epan/bthome' >&2; then
    say "the plugin compiled with warnings"; exit 1
fi

# The DLLs tshark.exe and the plugin import, found in the prefix and the MinGW-w64
# packages, copied beside tshark.exe where Windows looks first.
dll_path=("$prefix/bin" "/usr/$host/bin" "/usr/$host/lib"
          "$(dirname "$($host-gcc -print-libgcc-file-name)")")
declare -A visited
copy_imports() {
    local file=$1 dll dir
    for dll in $($host-objdump -p "$file" | sed -n 's/^\s*DLL Name: //p'); do
        [ -n "${visited[$dll]:-}" ] && continue
        visited[$dll]=1
        for dir in "${dll_path[@]}"; do    # again each time: the prefix may be newer
            if [ -f "$dir/$dll" ]; then cp "$dir/$dll" "$build/run/"; break; fi
        done
        # Windows' own DLLs are found nowhere here and need nothing copied.
        if [ -e "$build/run/$dll" ]; then copy_imports "$build/run/$dll"; fi
    done
}
copy_imports "$build/run/tshark.exe"
copy_imports "$plugin"
echo "$plugin"
