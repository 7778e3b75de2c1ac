#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Install what building and testing the plugin needs, when it is missing (Debian/Ubuntu).
# usage: cmake/install-deps.sh [--tests | --extcap | --in-tree | --sanitizers | --windows]
#   --tests adds python3-pytest and python3-pytest-xdist, debootstrap for the 4.4/4.6 runs, what the robustness stages use (clang
#   with libFuzzer, valgrind, cppcheck, clang-tidy) and the package test's dpkg-dev,
#   help2man and lintian;
#   --extcap adds what the extcap's tests use (tests/stages/extcap.sh): python3-dissononce,
#   the independent Noise implementation its handshake is tested against (--tests too);
#   the extcap itself (extcap/bthome-proxy) and the capture generator
#   (captures/make_captures.py) need python3-cryptography, always installed;
#   --in-tree adds what building tshark from Wireshark's source needs
#   (tools/build-in-tree.sh): the libraries its CMake requires (GLib, libgcrypt, c-ares,
#   PCRE2, flex; its grammars use its own lemon, not bison; LibXml2, which 4.5 and later
#   require in every configure), nothing optional. SpeexDSP, required from 4.5 on for a
#   GUI or sharkd, which build-in-tree.sh turns off, is here too: a tag that still asks
#   for it configures all the same;
#   --sanitizers adds what tests/lib/build-sanitizer-tree.sh adds to that: clang with its ASan,
#   UBSan and libFuzzer runtimes, and LLVM's coverage tools (llvm-profdata, llvm-cov);
#   --windows adds what --in-tree adds and the MinGW-w64 cross toolchain, Debian's
#   Windows builds of libgcrypt and zlib, meson and Wine (tests/lib/build-windows.sh, the
#   Windows stage).
set -euo pipefail
packages="cmake gcc make pkg-config python3 wireshark-dev tshark libgcrypt20-dev util-linux \
    python3-cryptography"
case "${1:-}" in --tests|--extcap) packages="$packages python3-dissononce" ;; esac
[ "${1:-}" = "--tests" ] && packages="$packages debootstrap clang libclang-rt-dev valgrind \
    cppcheck clang-tidy"
# --tests also: the Debian package test (dpkg-shlibdeps, help2man for bthome-keys' man
# page, lintian). The GUI check installs its own tools (tests/gui/screenshots.sh).
[ "${1:-}" = "--tests" ] && packages="$packages dpkg-dev bzip2 help2man lintian"
# --tests also: pytest and its xdist plugin (two workers), which run the Python suite
# (pytest.ini, tests/conftest.py).
[ "${1:-}" = "--tests" ] && packages="$packages python3-pytest python3-pytest-xdist"
# --tests also: git, with which Wireshark's check_tfs.py finds the files to check.
[ "${1:-}" = "--tests" ] && packages="$packages git"
# --tests also: node and npm for the workflow validation (tests/lib/workflow-lint), unless
# some node already provides npm (e.g. NodeSource's nodejs, which conflicts with npm).
[ "${1:-}" = "--tests" ] && ! command -v npm >/dev/null && packages="$packages nodejs npm"
# --tests also: the locale tests generate de_DE.UTF-8 from the locales package's sources.
[ "${1:-}" = "--tests" ] && packages="$packages locales"
in_tree_packages="g++ ninja-build flex perl \
    libglib2.0-dev libc-ares-dev libpcre2-dev libxml2-dev libspeexdsp-dev bzip2 xz-utils"
[ "${1:-}" = "--in-tree" ] && packages="$packages $in_tree_packages"
[ "${1:-}" = "--sanitizers" ] && packages="$packages clang libclang-rt-dev llvm"
[ "${1:-}" = "--windows" ] && packages="$packages $in_tree_packages gcc-mingw-w64-x86-64 \
    g++-mingw-w64-x86-64 libgcrypt-mingw-w64-dev libgpg-error-mingw-w64-dev \
    libz-mingw-w64-dev meson wine wine64"

missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
        || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null; then
    echo "install-deps: not a Debian/Ubuntu system; install by hand:$missing" >&2
    exit 1
fi
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
echo "install-deps: installing$missing"
$sudo apt-get update -q
# tshark's package asks whether non-root users may capture: keep its default (no).
# No recommended packages: they add a PDF viewer, GTK and GStreamer (328 packages instead
# of 138 on a fresh Debian 12) and nothing here needs them.
# shellcheck disable=SC2086  # one package name per word
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
