# SPDX-License-Identifier: GPL-2.0-or-later
"""A small RFC 6455 websocket client (text messages, ping/pong, close) on netio's
bounded reads: Home Assistant's /api/websocket is all the extcap talks to."""
import base64
import hashlib
import os
import ssl
import struct
import time
import urllib.parse

from . import CaptureError, netio
from .netio import Closed, ProtocolError

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
MAX_HEADER = 16384
MAX_MESSAGE = 16 << 20      # the first event lists every advert Home Assistant holds
OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0, 1, 2, 8, 9, 10


def endpoint(url):
    """(secure, host, port, path) of Home Assistant's websocket from its URL:
    http(s)://host[:port][/...] or ws(s)://..., path /api/websocket unless given."""
    parts = urllib.parse.urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https", "ws", "wss") or not parts.hostname:
        raise CaptureError("hass-ble: the URL must be http(s)://host:port, e.g. "
                           "http://homeassistant.local:8123")
    secure = scheme in ("https", "wss")
    try:
        port = parts.port or (443 if secure else 80)
    except ValueError:
        raise CaptureError("hass-ble: the URL's port is not a number") from None
    path = parts.path.rstrip("/")
    if not path.endswith("/api/websocket"):
        path += "/api/websocket"
    return secure, parts.hostname, port, path


class Client:
    """ca_file: a PEM file of certificates trusted next to the system's (a home's own CA or
    self-signed certificate); never a way to skip the check."""

    def __init__(self, url, should_stop, timeout=10, ca_file=None):
        secure, host, port, path = endpoint(url)
        self.host = host
        context = None
        if secure:
            context = ssl.create_default_context()   # verifies the certificate and name
            if ca_file:
                try:
                    context.load_verify_locations(cafile=ca_file)
                except (OSError, ssl.SSLError, ValueError):
                    raise CaptureError(f"hass-ble: the CA file {ca_file} holds no PEM "
                                       "certificate (--ca-file, extcap.hass_ble.cafile)"
                                       ) from None
        sock = netio.connect(host, port, timeout, "hass-ble")
        if secure:
            try:
                sock.settimeout(timeout)
                sock = context.wrap_socket(sock, server_hostname=host)
                sock.settimeout(netio.POLL_S)
            except ssl.SSLCertVerificationError as e:
                sock.close()
                raise CaptureError(f"hass-ble: {host}'s certificate does not verify: "
                                   f"{e.verify_message}; give its CA or self-signed "
                                   "certificate with --ca-file (extcap.hass_ble.cafile)"
                                   ) from None
            except (ssl.SSLError, OSError) as e:
                sock.close()
                raise CaptureError(f"hass-ble: TLS with {host} failed: "
                                   f"{type(e).__name__}", transient=True) from None
        self.sock = sock
        self.reader = netio.Reader(sock, should_stop)
        self.parts, self.size = [], 0      # a fragmented message's frames so far
        self._handshake(host, port, path, timeout)
        self.last_frame = time.monotonic()  # any frame, pings too: the connection lives

    def _handshake(self, host, port, path, timeout):
        key = base64.b64encode(os.urandom(16))
        self.reader.send(
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key.decode()}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode())
        head = b""
        while not head.endswith(b"\r\n\r\n"):
            if len(head) > MAX_HEADER:
                raise ProtocolError("HTTP answer header too long")
            try:
                head += self.reader.exact(1, timeout)
            except TimeoutError:
                raise CaptureError(f"hass-ble: {host} did not answer the websocket "
                                   "request", transient=True) from None
        lines = head.decode("latin-1").split("\r\n")
        status = lines[0].split(" ", 2)
        if len(status) < 2 or status[1] != "101":
            shown = lines[0][:80] if lines[0].isprintable() else "an unreadable status"
            if status[1:2] in (["502"], ["503"], ["504"]):
                # A reverse proxy's answer while Home Assistant is down or restarting.
                raise CaptureError(f"hass-ble: {host} answered {shown}: Home Assistant "
                                   "is not running behind it (restarting?)",
                                   transient=True)
            raise CaptureError(f"hass-ble: {host} refused the websocket ({shown}): is it "
                               "Home Assistant's URL (--url, extcap.hass_ble.url)?")
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        accept = base64.b64encode(hashlib.sha1(key + GUID).digest()).decode()
        if headers.get("sec-websocket-accept") != accept:
            raise ProtocolError("bad Sec-WebSocket-Accept")

    def send_text(self, text):
        self._send(OP_TEXT, text.encode())

    def _send(self, opcode, payload):
        mask = os.urandom(4)
        n = len(payload)
        if n < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        elif n < 1 << 16:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.reader.send(head + mask + masked)

    def _frame(self):
        """(fin, opcode, payload) of the frame buffered whole at the reader's front, or
        None while part of it is still on its way: a frame that stalls half-way stays
        buffered, so the stream never loses its place in the frames."""
        buf = self.reader.buf
        if len(buf) < 2:
            return None
        b0, b1 = buf[0], buf[1]
        if b0 & 0x70:
            raise ProtocolError("reserved bits set in a frame")
        n, pos = b1 & 0x7F, 2
        if n == 126:
            if len(buf) < 4:
                return None
            n, pos = struct.unpack_from("!H", buf, 2)[0], 4
        elif n == 127:
            if len(buf) < 10:
                return None
            n, pos = struct.unpack_from("!Q", buf, 2)[0], 10
        if n > MAX_MESSAGE:
            raise ProtocolError(f"frame of {n} bytes (at most {MAX_MESSAGE})")
        masked = bool(b1 & 0x80)
        if len(buf) < pos + 4 * masked + n:
            return None
        frame = self.reader.exact(pos + 4 * masked + n)
        payload = frame[pos + 4 * masked:]
        if masked:
            mask = frame[pos:pos + 4]
            payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.last_frame = time.monotonic()
        return bool(b0 & 0x80), b0 & 0x0F, payload

    def receive(self, timeout):
        """The next text message (str); TimeoutError when none is whole within timeout s
        (what came of it stays buffered for the next call). Pings are answered."""
        deadline = time.monotonic() + timeout
        while True:
            got = self._frame()
            if got is None:
                self.reader.more(deadline)
                continue
            fin, opcode, payload = got
            if opcode == OP_PING:
                self._send(OP_PONG, payload)
                continue
            if opcode == OP_PONG:
                continue
            if opcode == OP_CLOSE:
                raise Closed()
            if opcode not in (OP_TEXT, OP_BINARY, OP_CONT) or \
                    (opcode == OP_CONT) != bool(self.parts):
                raise ProtocolError(f"unexpected frame opcode {opcode}")
            self.size += len(payload)
            if self.size > MAX_MESSAGE:
                raise ProtocolError(f"message over {MAX_MESSAGE} bytes")
            self.parts.append(payload)
            if fin:
                message, self.parts, self.size = b"".join(self.parts), [], 0
                try:
                    return message.decode("utf-8")
                except UnicodeDecodeError:
                    raise ProtocolError("message is not UTF-8") from None

    def close(self):
        try:
            self._send(OP_CLOSE, struct.pack("!H", 1000))
        except (Closed, OSError):
            pass
        self.sock.close()
