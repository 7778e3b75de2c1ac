#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The workflows of .github/workflows validated against GitHub's workflow schema
# (tests/lib/workflow-lint/check.sh); each file is one test.
set -uo pipefail
# shellcheck source=tests/stages/lib/contract.sh
. "$(dirname "$0")/lib/contract.sh"
exec "$src/tests/lib/workflow-lint/check.sh"
