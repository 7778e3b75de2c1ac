# SPDX-License-Identifier: GPL-2.0-or-later
"""The modules of the bthome-proxy extcap (a package folder, so that Wireshark, which runs
every executable file of an extcap folder, finds only the launcher)."""
VERSION = "0.1.0"


class CaptureError(Exception):
    """A failure the user must see: one line naming the cause, never a key or token.
    transient: a connection failure that a capture already running retries."""

    def __init__(self, message, transient=False):
        super().__init__(message)
        self.transient = transient
