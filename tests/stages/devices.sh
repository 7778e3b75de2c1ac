#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Memory per device (tests/robustness/device_memory.py): BTHOME_DEVICES (100,000) frames
# from random addresses against 50 devices, at most 1 KiB of peak RSS per device.
set -uo pipefail
# shellcheck source=tests/stages/lib/contract.sh
. "$(dirname "$0")/lib/contract.sh"
host_plugin || die "cannot build the plugin"
cd "$src" || die "no $src"
check "peak memory per device" python3 -m tests.robustness.device_memory \
    --plugin "$src/build/bthome.so" --devices "${BTHOME_DEVICES:-100000}" --max-bytes 1024
finish
