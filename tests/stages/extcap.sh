#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The extcap (extcap/bthome-proxy, tests/extcap/): its Noise initiator against
# python3-dissononce, a bounded fuzz of its network parsers, live captures through the
# real tshark from a simulated ESPHome proxy and a simulated Home Assistant, decoded by
# the plugin of build/, esphome-ble through the firmware's subscriber rules and a Wi-Fi
# drop (esphome_live_test.py), and its install.
set -uo pipefail
# shellcheck source=tests/stages/lib/contract.sh
. "$(dirname "$0")/lib/contract.sh"
cd "$src" || die "no $src"
host_plugin || die "the plugin does not build"
# Wireshark starts the extcap through its "#!/usr/bin/env python3": the system's Python,
# with the Debian packages (python3-cryptography), comes first, as on a user's machine.
export PATH="/usr/bin:/bin:$PATH"
for test in "noise_test" "fuzz_test --seconds 5" \
            "extcap_test --plugin build/bthome.so" \
            "esphome_live_test --plugin build/bthome.so" \
            "hass_live_test --plugin build/bthome.so" \
            "install_test --plugin build/bthome.so"; do
    echo "=== tests.extcap.$test"
    # shellcheck disable=SC2086  # the module and its arguments, one per word
    count_lines '^  ok ' '^  FAIL ' timeout 900 /usr/bin/python3 -m tests.extcap.$test
done
finish
