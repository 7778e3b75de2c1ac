#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian package: build it with CPack, check what it holds and what it depends on,
# then install it with `apt install ./<file>.deb` into a clean Debian 12 root and check
# that tshark there lists the bthome protocol and decodes the demo capture, that
# bthome-keys there imports keys tshark then decrypts with (into the default profile, and
# into the BTHome profile, which is only global until then), and that removing the package
# removes the plugin and bthome-keys.
#
# usage: tests/stages/package.sh [BUILD_DIR]      (default build-package; needs root)
#        BTHOME_DEB=file.deb tests/stages/package.sh   checks that .deb instead of the new one
# The clean root is debootstrap's minbase of bookworm, made once and cached in
# $BTHOME_CHROOT_CACHE/bookworm-clean (default /var/cache/bthome-chroots); each run works
# on a throw-away overlay (or copy) of it, so the cached root stays clean. Downloaded .debs
# are kept in $BTHOME_CHROOT_CACHE/bookworm-apt-archives between runs.
set -uo pipefail
# shellcheck source=tests/stages/lib/contract.sh
. "$(dirname "$0")/lib/contract.sh"
need_root "$@"
cd "$src" || die "no $src"
build=${1:-build-package}
cache=${BTHOME_CHROOT_CACHE:-/var/cache/bthome-chroots}
mirror=${BTHOME_DEBIAN_MIRROR:-http://deb.debian.org/debian}
clean="$cache/bookworm-clean"
archives="$cache/bookworm-apt-archives"

ok() { echo "  ok   $*"; passed=$((passed + 1)); }

for tool in cpack dpkg-deb dpkg-shlibdeps debootstrap lintian help2man; do
    command -v "$tool" >/dev/null || die "$tool is missing (cmake/install-deps.sh --tests)"
done

# ---- 1. build the package ------------------------------------------------------------
echo "=== building the Debian package ($build) ==="
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=OFF \
    -DBTHOME_USER_INSTALL=OFF >/dev/null || die "cmake configure failed"
cmake --build "$build" -j"$(nproc)" --target bthome >/dev/null || die "the plugin did not build"
rm -f "$build"/*.deb
(cd "$build" && cpack -G DEB >/dev/null) || die "cpack -G DEB failed"
debs=("$build"/*.deb)
if [ "${#debs[@]}" != 1 ] || [ ! -f "${debs[0]}" ]; then die "cpack made no .deb (or several)"; fi
deb=$(realpath "${debs[0]}")
echo "  made $(basename "$deb")"
if [ -n "${BTHOME_DEB:-}" ]; then        # check another .deb instead (e.g. a CI artifact)
    deb=$(realpath "$BTHOME_DEB")
    echo "  checking $deb instead (BTHOME_DEB)"
fi

# ---- 2. what the package holds -------------------------------------------------------
echo "=== package content ==="
ws=$(tshark --version | grep -oE '[0-9]+\.[0-9]+' | sed -n 1p)
triplet=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
plugin_path="./usr/lib/$triplet/wireshark/plugins/$ws/epan/bthome.so"
pkg=$(dpkg-deb -f "$deb" Package)
files=$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print $6}' | sort)
profile_dir=./usr/share/wireshark/profiles/BTHome     # the BTHome configuration profile
extcap_dir=./usr/lib/$triplet/wireshark/extcap     # the extcap and its modules
# shellcheck disable=SC2046  # one file name per word
expected=$(printf '%s\n' "$plugin_path" "./usr/share/doc/$pkg/copyright" \
    "./usr/share/doc/$pkg/changelog.Debian.gz" "./usr/share/man/man1/bthome-keys.1.gz" \
    "./usr/share/lintian/overrides/$pkg" "./usr/bin/bthome-keys" \
    $(ls profile/BTHome | sed "s|^|$profile_dir/|") "$extcap_dir/bthome-proxy" \
    $(cd extcap && ls bthomeproxy/*.py | sed "s|^|$extcap_dir/|") \
    $(cd tools && ls bthome_keys/*.py | sed "s|^|./usr/share/bthome-keys/|") | sort)
check "files are exactly the plugin in Wireshark $ws's global folder, bthome-keys and its modules, its man page, the copyright, changelog, lintian overrides, the profile and the extcap" \
    test "$files" = "$expected"
check "bthome-keys is packaged executable and unchanged" bash -c \
    "dpkg-deb -c '$deb' | grep -E '^-rwxr-xr-x .* \./usr/bin/bthome-keys\$' >/dev/null &&
     dpkg-deb --fsys-tarfile '$deb' | tar -xO ./usr/bin/bthome-keys | cmp -s - tools/bthome-keys"
# The ABI package: the Debian package shipping the libwireshark the plugin links.
lib=$(ldd "$build/bthome.so" | awk '/libwireshark\.so/ {print $3}')
abi=$(dpkg-query -S "$(realpath "$lib")" | cut -d: -f1)
depends=$(dpkg-deb -f "$deb" Depends)
next_minor="${ws%.*}.$(( ${ws#*.} + 1 ))"
check "Depends pins $abi to Wireshark $ws ($depends)" \
    grep -qF "$abi (<< $next_minor~)" <<<"$depends"
check "Depends has $abi (>= $ws)" grep -qF "$abi (>= $ws)" <<<"$depends"
check "Depends has what dpkg-shlibdeps found (libgcrypt20)" grep -q 'libgcrypt20' <<<"$depends"
check "Recommends tshark | wireshark, python3 (bthome-keys, the extcap), python3-cryptography" \
    test "$(dpkg-deb -f "$deb" Recommends)" = "tshark | wireshark, python3, python3-cryptography"
summary=$(dpkg-deb -f "$deb" Description | sed -n 1p)
check "a short description ($summary)" test -n "$summary"
check "version is the project's ($(dpkg-deb -f "$deb" Version))" \
    grep -qE '^[0-9]+\.[0-9]+\.[0-9]+-[0-9]+$' <<<"$(dpkg-deb -f "$deb" Version)"
dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/share/doc/$pkg/copyright" >"$build/copyright.check"
check "the copyright file is DEP-5 with a license" \
    grep -q '^License: GPL-2.0-or-later' "$build/copyright.check"
# ---- lintian, Debian's own package check: no error, no warning
echo "=== lintian $(lintian --version | grep -oE '[0-9.]+' | head -n1) ==="
lintian_out=$(lintian "$deb" 2>/dev/null || true)
[ -z "$lintian_out" ] || printf '%s\n' "$lintian_out" | sed 's/^/    /'
check "lintian: no E: or W: line" bash -c "! grep -qE '^[EW]: ' <<<\"\$1\"" _ "$lintian_out"
maintainer=$(dpkg-deb -f "$deb" Maintainer)
changelog=$(dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/share/doc/$pkg/changelog.Debian.gz" | zcat)
check "the changelog's newest entry is this version ($(dpkg-deb -f "$deb" Version)), by the Maintainer ($maintainer)" \
    bash -c "head -n1 <<<\"\$1\" | grep -qF \"($(dpkg-deb -f "$deb" Version))\" &&
             grep -m1 '^ -- ' <<<\"\$1\" | grep -qF \" -- $maintainer  \"" _ "$changelog"
# the man page is what help2man makes of this bthome-keys --help (cmake/BTHomeKeysMan.cmake)
cmake -DTOOL="$src/tools/bthome-keys" -DVERSION="$(dpkg-deb -f "$deb" Version | cut -d- -f1)" \
    -DOUT="$build/bthome-keys.1.check" -P cmake/BTHomeKeysMan.cmake
check "the man page of bthome-keys is its --help of now" bash -c \
    "dpkg-deb --fsys-tarfile '$deb' | tar -xO ./usr/share/man/man1/bthome-keys.1.gz | zcat |
     cmp -s - '$build/bthome-keys.1.check' && grep -qF -- 'skip\\-invalid' '$build/bthome-keys.1.check'"

# ---- 3. a clean Debian 12 root -------------------------------------------------------
if [ ! -f "$clean/.bthome-ready" ]; then
    echo "=== making the clean bookworm root $clean (once, about 2 minutes) ==="
    rm -rf "$clean"; mkdir -p "$cache"
    debootstrap --variant=minbase bookworm "$clean" "$mirror" >"$cache/bookworm-clean.log" 2>&1 \
        || die "debootstrap bookworm failed, see $cache/bookworm-clean.log"
    touch "$clean/.bthome-ready"
fi
mkdir -p "$archives/partial"
work=$(mktemp -d /tmp/bthome-pkgtest-XXXXXX)
root="$work/root"
mounts=()
cleanup() {
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount "${mounts[i]}" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/upper" "$work/work" "$root"
if mount -t overlay overlay -o "lowerdir=$clean,upperdir=$work/upper,workdir=$work/work" \
        "$root" 2>/dev/null; then
    mounts+=("$root")
else
    cp -a "$clean/." "$root/"      # no overlayfs here: a copy
fi
mount --bind "$archives" "$root/var/cache/apt/archives" && mounts+=("$root/var/cache/apt/archives")
mount -t proc proc "$root/proc" && mounts+=("$root/proc")
cp "$deb" "$root/tmp/"
cp -r captures/bthome-demo.pcapng captures/encrypted-ll.pcap tests/tshark/data/keys-import/keys.txt \
    tests/tshark/data/keys-import/homeassistant "$root/tmp/"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }

echo "=== apt install ./$(basename "$deb") in a clean Debian 12 ==="
personal="/home/alice/.local/lib/wireshark/plugins/$ws/epan/bthome.so"  # an older install
mkdir -p "$root$(dirname "$personal")" && cp "$build/bthome.so" "$root$personal"
check "the root is clean Debian 12 without Wireshark ($(cat "$root/etc/debian_version"))" \
    bash -c "grep -q '^12\.' '$root/etc/debian_version' && ! test -e '$root/usr/bin/tshark'"
in_root apt-get -o Acquire::Check-Valid-Until=false update -q >"$work/apt.log" 2>&1 \
    || { cat "$work/apt.log"; die "apt-get update failed in the clean root"; }
if in_root apt-get install -y -q "/tmp/$(basename "$deb")" >>"$work/apt.log" 2>&1; then
    ok "apt install ./$(basename "$deb") (pulls $abi and, recommended, tshark)"
else
    tail -n 30 "$work/apt.log"; die "apt install of the package failed"
fi
check "the plugin is where dpkg says" in_root test -f "${plugin_path#.}"
check "its postinst names the personal copy Wireshark now skips, and how to remove it" \
    grep -qF "skips that copy with the warning \"The plugin 'bthome.so' was found in multiple directories\" on every run of its user; remove it: rm '$personal'" "$work/apt.log"
protocols=$(in_root tshark -G protocols 2>/dev/null)
check "tshark -G protocols lists bthome" \
    grep -qP '\tbthome(\t|$)' <<<"$protocols"
plugins=$(in_root tshark -G plugins 2>/dev/null)
check "tshark -G plugins shows it from the global folder" \
    grep -qF "/usr/lib/$triplet/wireshark/plugins/$ws/epan/bthome.so" <<<"$plugins"
decoded=$( (in_root tshark -n -r /tmp/bthome-demo.pcapng -Y bthome 2>/dev/null || true) | wc -l)
check "tshark decodes the demo capture ($decoded BTHome frames)" test "$decoded" -gt 0
check "bthome-keys runs (python3 came as recommended)" \
    bash -c "chroot '$root' /usr/bin/env -i PATH=/usr/bin:/bin bthome-keys --help >/dev/null"
in_root bthome-keys /tmp/keys.txt >>"$work/apt.log" 2>&1 || true
decrypted=$( (in_root tshark -n -r /tmp/encrypted-ll.pcap -Y 'bthome.encryption.decrypted == 1' \
    -T fields -e frame.number 2>/dev/null || true) | tr '\n' ' ')
check "keys imported by bthome-keys decrypt frames 1 2 7 8 9 ($decrypted)" \
    test "$decrypted" = "1 2 7 8 9 "
check "the BTHome profile is in Wireshark's global profiles folder" \
    diff -r profile/BTHome "$root${profile_dir#.}"
# bthome-keys --profile BTHome with the profile only global: the personal profile is made
# as Wireshark makes it (a copy of the global one), then the keys go in (issue 41)
mine=$root/root/.config/wireshark/profiles/BTHome
check "no personal BTHome profile yet, only the global one" test ! -e "$mine"
in_root bthome-keys --profile BTHome /tmp/homeassistant >>"$work/apt.log" 2>&1 || true
check "bthome-keys --profile BTHome (Home Assistant folder): the global profile's files, and the keys" \
    bash -c "diff -r -x bthome_keys '$root${profile_dir#.}' '$mine' && test -s '$mine/bthome_keys'"
decrypted=$( (in_root tshark -n -C BTHome -r /tmp/encrypted-ll.pcap -Y 'bthome.encryption.decrypted == 1' \
    -T fields -e frame.number 2>/dev/null || true) | tr '\n' ' ')
check "tshark -C BTHome decrypts frames 1 2 7 8 9 ($decrypted)" test "$decrypted" = "1 2 7 8 9 "
values=$( (in_root tshark -n -C BTHome -r /tmp/encrypted-ll.pcap -c 1 -T fields \
    -e bthome.temperature -e bthome.humidity 2>/dev/null || true) | tr '\t' ' ')
check "frame 1 decrypts to 25.06 °C and 50.55 % ($values)" test "$values" = "25.06 50.55"
rule=$( (in_root tshark -n -C BTHome -r /tmp/encrypted-ll.pcap -c 1 --color -T fields \
    -e frame.coloring_rule.name 2>/dev/null || true) )
check "the profile's colouring rule colours it ($rule)" test "$rule" = "BTHome decrypted"
# tshark -C finds the profile (a global one it copies into the personal folder on first use)
columns=$(in_root tshark -n -C BTHome -r /tmp/bthome-demo.pcapng -T tabs -c 1 2>/dev/null || true)
check "tshark -C BTHome shows the profile's Device and RSSI columns ($columns)" \
    grep -qP '\tWeather,a4:c1:38:00:00:01\t-62\t' <<<"$columns"
in_root apt-get remove -y -q "$pkg" >>"$work/apt.log" 2>&1 || die "apt remove failed"
check "apt remove takes the plugin away" \
    bash -c "! test -e '$root${plugin_path#.}' && ! chroot '$root' tshark -G protocols 2>/dev/null | grep -qP '\tbthome(\t|\$)'"
check "apt remove takes bthome-keys away" test ! -e "$root/usr/bin/bthome-keys"
check "apt remove takes the profile away" test ! -e "$root${profile_dir#.}"

finish
