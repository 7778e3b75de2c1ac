#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Wireshark 4.6: the plugin built, the ctest and pytest suites run in a Debian forky chroot.
exec "$(dirname "$0")/lib/chroot-suite.sh" forky
