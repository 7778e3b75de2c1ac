# SPDX-License-Identifier: GPL-2.0-or-later
"""Blocking sockets with a short timeout, so that a stop request is seen within a second
while waiting for data; reads are exact and bounded."""
import contextlib
import errno
import os
import socket
import sys
import time

from . import CaptureError

POLL_S = 0.5
FRAME_TIMEOUT_S = 30    # a frame begun and not finished by then: the peer stalled


class Closed(Exception):
    """The peer closed the connection (or reset it), or stalled in the middle of a
    frame."""


class ProtocolError(Exception):
    """Malformed or oversized data from the network."""


class Stopped(Exception):
    """Wireshark asked the capture to stop (SIGTERM)."""


def log(line):
    """One line for the user (Wireshark's extcap log, tshark's stderr)."""
    print(line, file=sys.stderr, flush=True)


def output_closed(error):
    """Wireshark closed the capture pipe: EPIPE, or EINVAL from a Windows named pipe
    whose reader is gone."""
    return isinstance(error, BrokenPipeError) or error.errno in (errno.EPIPE,
                                                                 errno.EINVAL)


@contextlib.contextmanager
def output():
    """Writes to Wireshark's pipe: its end stops the capture (Stopped), as SIGTERM does."""
    try:
        yield
    except OSError as e:
        if output_closed(e):
            raise Stopped() from None
        raise


def connect(host, port, timeout, what):
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except ConnectionRefusedError:
        raise CaptureError(f"{what}: connection refused by {host} port {port}",
                           transient=True) from None
    except socket.timeout:
        raise CaptureError(f"{what}: no answer from {host} port {port} "
                           f"within {timeout:g} s", transient=True) from None
    except socket.gaierror:
        raise CaptureError(f"{what}: unknown host {host}") from None
    except OSError as e:
        raise CaptureError(f"{what}: cannot connect to {host} port {port}: "
                           f"{e.strerror or type(e).__name__}", transient=True) from None
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.settimeout(POLL_S)
    return sock


class Reader:
    """Exact reads from a socket; should_stop() is asked while waiting, and a deadline
    (seconds from now, or None) bounds each read."""

    def __init__(self, sock, should_stop=lambda: False):
        self.sock = sock
        self.should_stop = should_stop
        self.buf = bytearray()

    def _fill(self, deadline):
        while True:
            if self.should_stop():
                raise Stopped()
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                if deadline is not None and time.monotonic() > deadline:
                    raise TimeoutError() from None
                continue
            except (ConnectionResetError, ConnectionAbortedError, BrokenPipeError):
                raise Closed() from None
            if not chunk:
                raise Closed()
            self.buf += chunk
            return

    def exact(self, n, timeout=FRAME_TIMEOUT_S):
        """n bytes; TimeoutError when they take longer than timeout seconds."""
        deadline = time.monotonic() + timeout
        while len(self.buf) < n:
            self._fill(deadline)
        out = bytes(self.buf[:n])
        del self.buf[:n]
        return out

    def more(self, deadline):
        """Read what comes next into buf; TimeoutError after deadline (time.monotonic())."""
        self._fill(deadline)

    def wait(self, timeout):
        """Until some data is buffered (TimeoutError after timeout seconds), so that a frame
        is then read whole, with no timeout cutting it in the middle."""
        deadline = time.monotonic() + timeout
        while not self.buf:
            self._fill(deadline)

    def send(self, data, timeout=10):
        self.sock.settimeout(timeout)     # a full send buffer may take longer than a poll
        try:
            self.sock.sendall(data)
        except (ConnectionResetError, ConnectionAbortedError, BrokenPipeError):
            raise Closed() from None
        except socket.timeout:
            raise Closed() from None
        finally:
            self.sock.settimeout(POLL_S)


BACKOFF_S = (0.5, 1, 2, 4, 8, 15, 30)


def scaled(seconds):
    """A timer, shortened for the tests by BTHOME_PROXY_TEST_TIMERS (a factor up to 1)."""
    try:
        factor = float(os.environ.get("BTHOME_PROXY_TEST_TIMERS", "1"))
    except ValueError:
        factor = 1.0
    return seconds * factor if 0 < factor <= 1 else seconds


def reconnecting(session, name):
    """Run session.connection() until stopped. Before any subscription has worked every
    failure ends the capture with its CaptureError; afterwards a dropped, refused or
    unanswered connection (a transient CaptureError: a device rebooting, Home Assistant
    restarting) is retried with backoff; a wrong key or token still ends it.
    session has should_stop(), peer, streamed (ever) and connection_streamed."""
    failures = 0
    while not session.should_stop():
        session.connection_streamed = False
        try:
            session.connection()
            return
        except Stopped:
            return
        except CaptureError as e:
            if not (session.streamed and e.transient):
                raise
        except (Closed, TimeoutError):
            if not session.streamed:
                raise CaptureError(f"{name}: {session.peer} closed the connection before "
                                   "the subscription worked") from None
        except ProtocolError as e:
            raise CaptureError(f"{name}: {session.peer}: {e}") from None
        if session.connection_streamed:
            failures = 0
        end = time.monotonic() + scaled(BACKOFF_S[min(failures, len(BACKOFF_S) - 1)])
        failures += 1
        while time.monotonic() < end and not session.should_stop():
            time.sleep(0.1)
