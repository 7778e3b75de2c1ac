#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Validates every workflow in .github/workflows against GitHub's workflow schema with the
# validator pinned in package-lock.json here (@action-validator/cli: the schema, plus
# the jobs that needs: names and the globs of paths: filters). npm ci installs it into
# node_modules beside this script, from npm's cache when it has it.
# Ends with "workflow-lint: passed" or "workflow-lint: FAILED", which tests/run-all.sh
# counts; exit status 1 on a file that does not validate.
# usage: tools/workflow-lint/check.sh [WORKFLOW.yml...]   (default: all of .github/workflows)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."                     # the validator resolves paths: globs from the root

if ! command -v npm >/dev/null; then
    echo "workflow-lint: FAILED (no npm; cmake/install-deps.sh --tests installs it)"
    exit 1
fi
if ! npm ci --prefix "$here" --prefer-offline --no-audit --no-fund --loglevel=error >/dev/null; then
    echo "workflow-lint: FAILED (npm ci in tools/workflow-lint)"
    exit 1
fi

files=("$@")
[ $# -gt 0 ] || files=(.github/workflows/*.yml .github/workflows/*.yaml)
checked=0; bad=0
for f in "${files[@]}"; do
    [ -e "$f" ] || continue
    checked=$((checked + 1))
    if "$here/node_modules/.bin/action-validator" "$f"; then
        echo "  ok   $f"
    else
        echo "  FAIL $f"
        bad=$((bad + 1))
    fi
done
if [ "$checked" -eq 0 ]; then
    echo "workflow-lint: FAILED (no workflow files)"
    exit 1
fi
if [ "$bad" -gt 0 ]; then
    echo "workflow-lint: FAILED ($bad of $checked workflow files)"
    exit 1
fi
echo "workflow-lint: passed ($checked of $checked workflow files)"
