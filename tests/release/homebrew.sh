#!/usr/bin/env bash
# shellcheck disable=SC2317  # functions called through check
# SPDX-License-Identifier: GPL-2.0-or-later
# Dry run of the macOS jobs' Homebrew step (.github/workflows/release.yml, run with its
# own env: by tests/release/workflow_step.py --env) with a stand-in brew that logs each
# call and the Homebrew settings it ran with: no auto update, no upgrade of a formula the
# image already has, no upgrade of installed dependents (the settings Wireshark's own
# macOS CI uses; docs/install.md names what was read). Prints "homebrew: N passed, M failed".
# shellcheck source=tests/release/lib.sh
. "$(dirname "$0")/lib.sh"
mkdir -p "$work/bin"
cat >"$work/bin/brew" <<'STUB'
#!/usr/bin/env bash
echo "brew $* | auto-update-off=${HOMEBREW_NO_AUTO_UPDATE:-} install-upgrade-off=${HOMEBREW_NO_INSTALL_UPGRADE:-} dependents-check-off=${HOMEBREW_NO_INSTALLED_DEPENDENTS_CHECK:-}" >>"$STUB_LOG"
STUB
chmod 755 "$work/bin/brew"
export STUB_LOG=$work/log
: >"$STUB_LOG"
echo "homebrew: the step 'Install build dependencies (Homebrew)'"
(cd "$work" && PATH=$work/bin:$PATH bash --noprofile --norc -eo pipefail \
    <("$here/workflow_step.py" --env "Install build dependencies (Homebrew)")) >"$work/out" 2>&1
rc=$?
sed 's/^/    /' "$work/out" "$STUB_LOG"
check "the step passes (status $rc)" test "$rc" = 0
check "it installs the libraries" grep -q '^brew install c-ares glib libgcrypt pcre2 libxml2 speexdsp ' "$STUB_LOG"
for setting in auto-update-off install-upgrade-off dependents-check-off; do
    check "every brew call runs with $setting=1" \
        bash -c "test -s '$STUB_LOG' && ! grep -qv ' $setting=1\\b' '$STUB_LOG'"
done
finish homebrew
