#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Mutation: the sample captures corrupted with editcap -E through tshark -nVxr
# (tests/robustness/mutate.py), BTHOME_MUTATION_FILES (400) files or
# BTHOME_MUTATION_SECONDS (45), on the sanitizer tree the in-tree stage builds
# (tests/lib/build-sanitizer-tree.sh): its tshark and plugin under ASan and UBSan, which the
# tree links in (no runtime to preload).
set -uo pipefail
# shellcheck source=tests/stages/lib/contract.sh
. "$(dirname "$0")/lib/contract.sh"
plugin=$("$src/tests/lib/build-sanitizer-tree.sh" | tail -n 1)
[ -f "$plugin" ] || die "the sanitizer tree did not build"
export BTHOME_TSHARK=${plugin%/run/*}/run/tshark
cd "$src" || die "no $src"
check "mutated captures" python3 -m tests.robustness.mutate --plugin "$plugin" \
    --runtime "" --captures "$src/captures" --files "${BTHOME_MUTATION_FILES:-400}" \
    --seconds "${BTHOME_MUTATION_SECONDS:-45}" --findings "$src/build-mutation-findings"
finish
