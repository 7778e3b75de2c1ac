# SPDX-License-Identifier: GPL-2.0-or-later
"""A simulated Home Assistant websocket (/api/websocket) on 127.0.0.1 for the extcap's
tests: auth_required, auth with a token, bluetooth/subscribe_advertisements (admin only),
then "add" events. A small RFC 6455 server from the standard library; bounded waits."""
import base64
import hashlib
import json
import ssl
import struct

from simserver import ClientSocket, SimServer

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class WebSocket(ClientSocket):
    def upgrade(self):
        head = b""
        while b"\r\n\r\n" not in head:
            head += self._read(1)
        headers = {}
        for line in head.decode("latin-1").split("\r\n")[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        accept = base64.b64encode(hashlib.sha1(headers["sec-websocket-key"].encode() +
                                               GUID).digest()).decode()
        self.sock.sendall(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Accept: {accept}\r\n"
                           "\r\n").encode())

    def send(self, obj, opcode=1):
        data = obj if isinstance(obj, bytes) else json.dumps(obj).encode()
        n = len(data)
        if n < 126:
            head = struct.pack("!BB", 0x80 | opcode, n)
        elif n < 1 << 16:
            head = struct.pack("!BBH", 0x80 | opcode, 126, n)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 127, n)
        self.sock.sendall(head + data)

    def receive(self):
        """(opcode, payload) of the next frame (clients mask theirs)."""
        b0, b1 = self._read(2)
        n = b1 & 0x7F
        if n == 126:
            n = struct.unpack("!H", self._read(2))[0]
        elif n == 127:
            n = struct.unpack("!Q", self._read(8))[0]
        mask = self._read(4) if b1 & 0x80 else b"\0\0\0\0"
        data = bytes(b ^ mask[i % 4] for i, b in enumerate(self._read(n)))
        return b0 & 0x0F, data

    def receive_json(self):
        while True:
            opcode, data = self.receive()
            if opcode == 8:
                raise ConnectionError("close")
            if opcode == 1:
                return json.loads(data)


class HomeAssistant(SimServer):
    """token: the valid token; admin: whether its user is an administrator; events:
    lists of entries, each sent as one "add" event after the subscription's result."""

    def __init__(self, token, events, admin=True, ping=True, tls=None):
        self.token, self.events, self.admin, self.ping = token, events, admin, ping
        self.tls = tls          # (certificate file, key file): https
        super().__init__()
        self.url = f"{'https' if tls else 'http'}://127.0.0.1:{self.port}"

    def handle(self, sock):
        if self.tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*self.tls)
            sock = context.wrap_socket(sock, server_side=True)
        self._client(WebSocket(sock))

    def _client(self, ws):
        ws.upgrade()
        ws.send({"type": "auth_required", "ha_version": "2026.1.0"})
        auth = ws.receive_json()
        if auth.get("type") != "auth" or auth.get("access_token") != self.token:
            self.log.append("auth_invalid")
            ws.send({"type": "auth_invalid", "message": "Invalid access token or password"})
            return
        self.log.append("auth_ok")
        ws.send({"type": "auth_ok", "ha_version": "2026.1.0"})
        sub = ws.receive_json()
        if sub.get("type") != "bluetooth/subscribe_advertisements":
            return
        if not self.admin:
            self.log.append("unauthorized")
            ws.send({"id": sub["id"], "type": "result", "success": False,
                     "error": {"code": "unauthorized", "message": "Unauthorized"}})
            return
        ws.send({"id": sub["id"], "type": "result", "success": True, "result": None})
        if self.ping:
            ws.send(b"ping-check", opcode=9)
            opcode, data = ws.receive()
            self.log.append("pong" if opcode == 10 and data == b"ping-check" else "no pong")
        for entries in self.events:
            ws.send({"id": sub["id"], "type": "event", "event": {"add": entries}})
        self.log.append("all events sent")
        while True:
            msg = ws.receive_json()
            self.log.append(f"message {msg.get('type')}")
