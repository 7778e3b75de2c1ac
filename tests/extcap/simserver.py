# SPDX-License-Identifier: GPL-2.0-or-later
"""The TCP server the simulated proxy and Home Assistant share: 127.0.0.1 only, one
client after another in a thread, every wait bounded."""
import socket
import threading
import time

TIMEOUT_S = 20          # a silent client
LIFETIME_S = 600        # the longest a simulator serves


class SimServer:
    """Subclasses set their state, call super().__init__() and define handle(sock);
    log lists what happened, in order."""

    def __init__(self, port=0):
        self.log = []
        self.connections = 0
        self.server = socket.create_server(("127.0.0.1", port))
        self.server.settimeout(0.2)
        self.port = self.server.getsockname()[1]
        self.stopping = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def close(self):
        self.stopping = True
        self.thread.join(TIMEOUT_S)
        self.server.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _serve(self):
        end = time.monotonic() + LIFETIME_S
        while not self.stopping and time.monotonic() < end:
            try:
                sock, _ = self.server.accept()
            except socket.timeout:
                continue
            self.connections += 1
            sock.settimeout(TIMEOUT_S)
            try:
                self.handle(sock)
            except (OSError, ConnectionError, ValueError, KeyError) as e:
                self.log.append(f"connection ended: {type(e).__name__}")
            finally:
                sock.close()


class ClientSocket:
    """A client's socket with exact reads (ConnectionError when it closes)."""

    def __init__(self, sock):
        self.sock = sock
        self.buf = b""

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("client closed")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out
