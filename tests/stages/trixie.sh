#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Wireshark 4.4: the plugin built and the ctest suite run in a Debian trixie chroot.
exec "$(dirname "$0")/lib/chroot-suite.sh" trixie
