# SPDX-License-Identifier: GPL-2.0-or-later
"""A simulated Home Assistant websocket (/api/websocket) on 127.0.0.1 for the extcap's
tests: auth_required, auth with a token, bluetooth/subscribe_advertisements (admin only),
then "add" events. A small RFC 6455 server from the standard library; bounded waits."""
import base64
import hashlib
import json
import os
import socket
import ssl
import struct
import time

from tests.extcap.simserver import ClientSocket, SimServer

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

    @staticmethod
    def frame(data, opcode=1, fin=True):
        n, b0 = len(data), (0x80 if fin else 0) | opcode
        if n < 126:
            head = struct.pack("!BB", b0, n)
        elif n < 1 << 16:
            head = struct.pack("!BBH", b0, 126, n)
        else:
            head = struct.pack("!BBQ", b0, 127, n)
        return head + data

    def send(self, obj, opcode=1, fin=True):
        data = obj if isinstance(obj, bytes) else json.dumps(obj).encode()
        self.sock.sendall(self.frame(data, opcode, fin))

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


HEARTBEAT_S = 55    # aiohttp's WebSocketResponse(heartbeat=55): homeassistant/components/
                    # websocket_api/http.py (home-assistant/core 2026)


def heartbeat_s():
    """HEARTBEAT_S shortened by the factor the tests give the extcap's timers."""
    factor = os.environ.get("BTHOME_PROXY_TEST_TIMERS")
    return HEARTBEAT_S * float(factor) if factor else HEARTBEAT_S


class HomeAssistant(SimServer):
    """token: the valid token; admin: whether its user is an administrator; history: the
    entries of the first event, which Home Assistant sends right after the
    subscription's result, even empty (homeassistant/components/bluetooth/websocket_api.py,
    home-assistant/core commit 0f08be93); events: lists of entries, each sent as one "add"
    event after it.

    plans: one dict a connection (the last one repeats), for a restart and other faults;
    without, every connection gets {"history": history, "events": events}. Keys:
      http: a status line ("503 Service Unavailable": a reverse proxy before a stopped
            Home Assistant) answered instead of the websocket;
      auth_delay: seconds before auth_ok (a Home Assistant starting);
      unknown_command: the subscription refused as while the Bluetooth integration loads;
      history (None: no first event at all), events;
      split: each event but the history in two fragments, the second stalled `split`
            seconds half-way;
      quiet: seconds of heartbeat pings alone after the events, then later (events);
      end: "hold" (default: heartbeat pings, messages read), "close" (Home Assistant
            stopping: a close frame), "silent" (half-open: the socket kept, nothing sent
            or read again);
      down_after: seconds without a listener (connections refused) after this one."""

    def __init__(self, token, events, admin=True, ping=True, tls=None, history=(),
                 plans=None):
        self.token, self.admin, self.ping = token, admin, ping
        self.tls = tls          # (certificate file, key file): https
        self.plans = plans or [{"history": list(history), "events": events}]
        self.held = []          # half-open connections' sockets
        super().__init__()
        self.url = f"{'https' if tls else 'http'}://127.0.0.1:{self.port}"

    def close(self):
        super().close()
        for sock in self.held:
            sock.close()

    def handle(self, sock):
        plan = self.plans[min(self.connections, len(self.plans)) - 1]
        self.raw = sock
        if self.tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*self.tls)
            sock = context.wrap_socket(sock, server_side=True)
        try:
            self._client(WebSocket(sock), plan)
        finally:
            if plan.get("down_after"):
                self._down(plan["down_after"])

    def _down(self, seconds):
        """No listener for a while: connections are refused, as while Home Assistant
        restarts without a reverse proxy."""
        self.server.close()
        self.log.append("down")
        time.sleep(seconds)
        self.server = socket.create_server(("127.0.0.1", self.port))
        self.server.settimeout(0.2)
        self.log.append("up")

    def _client(self, ws, plan):
        if plan.get("http"):
            ws.sock.sendall(f"HTTP/1.1 {plan['http']}\r\nContent-Length: 0\r\n"
                            "Connection: close\r\n\r\n".encode())
            self.log.append(f"http {plan['http'][:3]}")
            return
        ws.upgrade()
        ws.send({"type": "auth_required", "ha_version": "2026.1.0"})
        auth = ws.receive_json()
        if auth.get("type") != "auth" or auth.get("access_token") != self.token:
            self.log.append("auth_invalid")
            ws.send({"type": "auth_invalid", "message": "Invalid access token or password"})
            return
        if plan.get("auth_delay"):
            time.sleep(plan["auth_delay"])
            self.log.append("slow auth")
        self.log.append("auth_ok")
        ws.send({"type": "auth_ok", "ha_version": "2026.1.0"})
        sub = ws.receive_json()
        if sub.get("type") != "bluetooth/subscribe_advertisements":
            return
        if plan.get("unknown_command"):
            self.log.append("unknown_command")
            ws.send({"id": sub["id"], "type": "result", "success": False,
                     "error": {"code": "unknown_command", "message": "Unknown command."}})
            self._hold(ws, 5)
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
        if plan.get("history") is not None:
            self._event(ws, sub["id"], plan["history"], None)
        for entries in plan.get("events", []):
            self._event(ws, sub["id"], entries, plan.get("split"))
        self.log.append("all events sent")
        if plan.get("quiet"):
            self._hold(ws, plan["quiet"])
            self.log.append(f"quiet over, connections {self.connections}")
            for entries in plan.get("later", []):
                self._event(ws, sub["id"], entries, plan.get("split"))
        end = plan.get("end", "hold")
        if end == "close":
            ws.send(struct.pack("!H", 1001), opcode=8)
            self.log.append("closed")
        elif end == "silent":
            self.held.append(self.raw.dup())     # the connection stays open, mute
            self.log.append("silent")
        else:
            self._hold(ws, None)

    def _event(self, ws, sub_id, entries, split):
        data = json.dumps({"id": sub_id, "type": "event", "event": {"add": entries}}
                          ).encode()
        if not split:
            ws.send(data)
            return
        half = len(data) // 2                   # a text frame without FIN, then its
        ws.send(data[:half], opcode=1, fin=False)    # continuation, stalled half-way
        frame = ws.frame(data[half:], opcode=0)
        ws.sock.sendall(frame[:len(frame) // 2])
        self.log.append("stalled")
        time.sleep(split)
        ws.sock.sendall(frame[len(frame) // 2:])

    def _hold(self, ws, seconds):
        """Messages read and logged, a heartbeat ping every HEARTBEAT_S, for seconds (None:
        until the server closes or the client goes)."""
        end = None if seconds is None else time.monotonic() + seconds
        beat = time.monotonic() + heartbeat_s()
        ws.sock.settimeout(0.2)
        while not self.stopping and (end is None or time.monotonic() < end):
            if time.monotonic() > beat:
                ws.send(b"heartbeat", opcode=9)
                beat = time.monotonic() + heartbeat_s()
            try:
                opcode, data = ws.receive()
            except socket.timeout:
                continue
            if opcode == 8:
                self.log.append("close")
                return
            if opcode == 10 and data == b"heartbeat":
                self.log.append("heartbeat pong")
            elif opcode == 1:
                self.log.append(f"message {json.loads(data).get('type')}")
