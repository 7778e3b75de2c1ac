#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Validates every workflow in .github/workflows against GitHub's workflow schema with the
# validator pinned in package-lock.json here (@action-validator/cli: the schema, plus
# the jobs that needs: names and the globs of paths: filters). npm ci installs it into
# node_modules beside this script, from npm's cache when it has it.
# Each file is one test; ends with "workflow-lint: N passed, M failed" (the stage
# tests/stages/workflow-lint.sh), exit status 1 on a file that does not validate.
# usage: tests/lib/workflow-lint/check.sh [WORKFLOW.yml...]   (default: all of .github/workflows)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."                   # the validator resolves paths: globs from the root

if ! command -v npm >/dev/null; then
    echo "workflow-lint: no npm (cmake/install-deps.sh --tests installs it)"
    echo "workflow-lint: 0 passed, 1 failed"
    exit 1
fi
if ! npm ci --prefix "$here" --prefer-offline --no-audit --no-fund --loglevel=error >/dev/null; then
    echo "workflow-lint: npm ci in tests/lib/workflow-lint failed"
    echo "workflow-lint: 0 passed, 1 failed"
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
[ "$checked" -gt 0 ] || { echo "workflow-lint: no workflow files"; checked=1; bad=1; }
echo "workflow-lint: $((checked - bad)) passed, $bad failed"
[ "$bad" = 0 ]
