#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Wireshark 4.4: the plugin built, the ctest and pytest suites run in a Debian trixie
# chroot. The summary-run consumers and the key importer are left to 4.0 (host) and 4.6
# (forky): 4.4 reaches the plugin the way 4.6 does, through the service-data table.
exec "$(dirname "$0")/lib/chroot-suite.sh" trixie summary_runs key_import
