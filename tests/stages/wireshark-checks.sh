#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Wireshark's own dissector checks on the plugin's Wireshark-facing files (plugin/), with
# the options upstream uses, every finding an error: checkAPIs.pl (prohibited and
# restricted APIs; on the core (core/) too, which runs inside the dissector), checkhf.pl (hf/ei declared, registered, used), checkfiltername.pl
# (field names), check_typed_item_calls.py (calls against field types, labels, masks,
# copy-paste), check_tfs.py (true/false strings), and check_val_to_str.py and
# check_col_apis.py where the source package has them.
#
# The scripts come from Wireshark's Debian source package, the newest the archive serves
# (fetched and cached by tests/lib/ws-source.sh, shared with tests/stages/in-tree.sh).
# Each script is one test; one missing from the source package is skipped.
set -uo pipefail
# shellcheck source=tests/stages/lib/contract.sh
. "$(dirname "$0")/lib/contract.sh"

# shellcheck source=tests/lib/ws-source.sh
. "$src/tests/lib/ws-source.sh"
ws=$(ws_source_fetch) || die "no Wireshark source package could be fetched"
echo "wireshark-checks: scripts from $(cat "$ws/.ready")"

# The scripts run from a source tree and look for dissectors in epan/dissectors.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# check_tfs.py and check_val_to_str.py read Wireshark's own strings in epan/.
cp -r "$ws/tools" "$work/" && mkdir -p "$work/epan/dissectors" &&
    cp "$ws/epan/tfs.c" "$ws/epan/value_string.c" "$work/epan/" &&
    cp "$src"/plugin/*.[ch] "$work/epan/dissectors/" &&
    mkdir -p "$work/core" && cp "$src"/core/*.[ch] "$work/core/" ||
    die "cannot set up the checks' tree"
cd "$work" || die "no work tree"
files=$(cd epan/dissectors && ls ./*.c | sed 's|^\./||')
headers=$(cd epan/dissectors && ls ./*.h)
core_files=$(cd core && ls ./*.c ./*.h)
run() {     # NAME DIR command...: a finding is a non-zero exit or a line the filter keeps
    local name=$1 dir=$2 out rc bad; shift 2
    out=$(cd "$dir" && "$@" 2>&1); rc=$?
    bad=$(echo "$out" | grep -vE '^(Examining:|[0-9]+ warnings?( found)?|No files to check\.|((epan/dissectors|plugins/epan/bthome)/[^ ]*\.c *)+)$' \
          | grep -vE "${allowed:-^$}" | grep -E '[A-Za-z]' )
    if [ $rc -ne 0 ] || [ -n "$bad" ]; then
        echo "--- $name: findings"; echo "$out"; failed=$((failed + 1))
    else
        echo "  ok   $name"; passed=$((passed + 1))
    fi
}
# shellcheck disable=SC2086  # one file per word
run checkAPIs.pl epan/dissectors perl ../../tools/checkAPIs.pl \
    --group dissectors-prohibited --group dissectors-restricted $files $headers
# The core builds without Wireshark: it includes gcrypt.h itself (wsutil/wsgcrypt.h only
# wraps it for Wireshark's build; 4.0's script asks for it, newer ones no longer do).
# shellcheck disable=SC2086
allowed='includes gcrypt\.h directly\. Include wsutil/wsgcrypt\.h instead' \
    run "checkAPIs.pl (core)" core perl ../tools/checkAPIs.pl \
    --group dissectors-prohibited --group dissectors-restricted $core_files
# shellcheck disable=SC2086
run checkhf.pl epan/dissectors perl ../../tools/checkhf.pl $files
# shellcheck disable=SC2086
run checkfiltername.pl epan/dissectors perl ../../tools/checkfiltername.pl $files
file_args=()
for f in $files; do file_args+=(--file "$f"); done
run check_typed_item_calls.py . python3 tools/check_typed_item_calls.py --consecutive --label \
    --mask "${file_args[@]}"
# check_tfs.py asks dissectors to use libwireshark's shared true/false strings, but not
# plugins, which cannot take the address of its data on Windows (dllimport); it tells a
# plugin by its path (plugins/epan/...) only for the files a git change names, so it
# reads the plugin's files as a change of a Wireshark tree's plugins/epan/bthome.
mkdir -p plugins/epan/bthome && cp epan/dissectors/*.[ch] plugins/epan/bthome/ &&
    git init -q . && git add plugins || die "cannot stage the plugin for check_tfs.py"
# It must have read the plugin's files: "No files to check." would pass silently.
if [[ $(python3 tools/check_tfs.py --open 2>&1) == *plugins/epan/bthome/packet-bthome.c* ]]
then
    run check_tfs.py . python3 tools/check_tfs.py --open
else
    echo "--- check_tfs.py: did not read plugins/epan/bthome"; failed=$((failed + 1))
fi
for script in check_val_to_str.py check_col_apis.py; do
    if [ -f "tools/$script" ]; then
        run "$script" . python3 "tools/$script" "${file_args[@]}"
    else
        echo "  skip $script: not in this source package"; skipped=$((skipped + 1))
    fi
done
echo "wireshark-checks: $(echo "$files" | wc -w) plugin files, $(ls core/*.c | wc -l) core files checked"
finish
