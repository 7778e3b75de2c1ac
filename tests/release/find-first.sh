#!/usr/bin/env bash
# shellcheck disable=SC2317  # functions called through check
# SPDX-License-Identifier: GPL-2.0-or-later
# The first file find finds, under `set -o pipefail`: `find ... | head -n 1` dies of SIGPIPE
# (status 141) when find has more to print than the pipe holds once head has left, so the
# release workflow and tools/build-in-tree.sh take the first with `find ... -print -quit`.
# Dry runs on Linux with thousands of matches: build-in-tree.sh with a stand-in cmake whose
# build leaves 3000 plugin files under BUILD_DIR/run, and the workflow's smoke test step
# (tests/release/workflow_step.py) with 3000 stand-in tsharks under build/run.
# Prints "find-first: N passed, M failed".
# shellcheck source=tests/release/lib.sh
. "$(dirname "$0")/lib.sh"
many=3000

echo "find-first: tools/build-in-tree.sh, $many plugin files under the build's run folder"
ws=$work/wireshark
mkdir -p "$ws/cmake/modules" "$work/bin"
: >"$ws/cmake/modules/WiresharkPlugin.cmake"
# cmake -S ... configures nothing; cmake --build BUILD leaves the plugins a build makes.
cat >"$work/bin/cmake" <<'STUB'
#!/usr/bin/env bash
[ "$1" = --build ] || exit 0
python3 - "$2/run/plugins" "$STUB_MANY" <<'PY'
import os, sys
for i in range(1, int(sys.argv[2]) + 1):
    os.makedirs(f"{sys.argv[1]}/{i}/epan")
    open(f"{sys.argv[1]}/{i}/epan/bthome.so", "w").close()
PY
STUB
chmod 755 "$work/bin/cmake"
PATH=$work/bin:$PATH STUB_MANY=$many "$src/tools/build-in-tree.sh" "$ws" "$work/build" \
    >"$work/out" 2>"$work/err"
rc=$?
check "build-in-tree.sh succeeds (status $rc)" test "$rc" = 0
check "... and prints one of the plugins last" \
    bash -c "p=\$(tail -n 1 '$work/out'); [[ \$p == '$work/build/run/plugins/'*/epan/bthome.so ]] && test -f \"\$p\""

echo "find-first: the workflow's smoke test step, $many tsharks under build/run"
job=$work/job
mkdir -p "$job"
ln -s "$src" "$job/plugin"
cat >"$work/tshark" <<'STUB'
#!/usr/bin/env bash
case $1 in
    -G) printf 'bthome.so\t0.1.0\tdissector\t/x/bthome.so\n' ;;
    -r) echo "1 0.0 BTHome" ;;
esac
STUB
chmod 755 "$work/tshark"
python3 - "$job/build/run" "$many" "$work/tshark" <<'PY'
import os, sys
for i in range(1, int(sys.argv[2]) + 1):
    os.makedirs(f"{sys.argv[1]}/tools-{i}")
    os.link(sys.argv[3], f"{sys.argv[1]}/tools-{i}/tshark")
PY
# GitHub's `shell: bash` is bash --noprofile --norc -eo pipefail {0}.
(cd "$job" && bash --noprofile --norc -eo pipefail <("$here/workflow_step.py" "Smoke test with the tree's tshark")) \
    >"$work/smoke" 2>&1
rc=$?
sed 's/^/    /' "$work/smoke"
check "the step succeeds (status $rc)" test "$rc" = 0
check "... having run a tshark" contains "$work/smoke" "BTHome frames decoded: 1"
finish find-first
