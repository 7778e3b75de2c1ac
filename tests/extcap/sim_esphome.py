# SPDX-License-Identifier: GPL-2.0-or-later
"""A simulated ESPHome Bluetooth proxy on 127.0.0.1 for the extcap's tests and benchmark:
the native API's plaintext or Noise framing (the Noise responder is python3-dissononce,
an implementation independent of the extcap's), and firmware behaviours chosen per test.
Written from the API's documented framing and message numbers; it runs in a thread of
the test and every wait in it is bounded."""
import socket
import struct
import time
from dataclasses import dataclass, field

from tests.extcap.simserver import ClientSocket, SimServer

PROLOGUE = b"NoiseAPIInit\x00\x00"


def responder(psk):
    """dissononce's Noise_NNpsk0 responder (imported here: only an encrypted device needs
    it, so a plaintext one runs where python3-dissononce is missing)."""
    from dissononce.cipher.chachapoly import ChaChaPolyCipher
    from dissononce.dh.x25519.x25519 import X25519DH
    from dissononce.hash.sha256 import SHA256Hash
    from dissononce.processing.handshakepatterns.interactive.NN import NNHandshakePattern
    from dissononce.processing.impl.cipherstate import CipherState
    from dissononce.processing.impl.handshakestate import HandshakeState
    from dissononce.processing.impl.symmetricstate import SymmetricState
    from dissononce.processing.modifiers.psk import PSKPatternModifier
    hs = HandshakeState(SymmetricState(CipherState(ChaChaPolyCipher()), SHA256Hash()),
                        X25519DH())
    hs.initialize(PSKPatternModifier(0).modify(NNHandshakePattern()), False, PROLOGUE,
                  psks=(psk,))
    return hs


def varint(value):
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def field_varint(number, value):
    return varint(number << 3) + varint(value)


def field_bytes(number, value):
    return varint(number << 3 | 2) + varint(len(value)) + value


def raw_adverts_message(adverts):
    """BluetoothLERawAdvertisementsResponse from (address int, rssi, type, data)."""
    out = b""
    for address, rssi, address_type, data in adverts:
        zigzag = ((rssi << 1) ^ (rssi >> 31)) & 0xFFFFFFFF      # sint32
        entry = field_varint(1, address) + field_varint(2, zigzag)
        entry += field_varint(3, address_type) + field_bytes(4, data)
        out += field_bytes(1, entry)
    return out


def release(version):
    """(year, month) of "2026.7.0"."""
    return tuple(int(x) for x in version.split(".")[:2]) if version else None


@dataclass
class Firmware:
    """What the simulated device does."""
    key: bytes = None                # Noise PSK; None: plaintext API
    name: str = "bt-proxy-sim"
    password: str = None             # pre-2026.1 API password (checked in message 3)
    requires_auth: bool = False      # closes on a subscription before message 3
    # DeviceInfo field 15, still sent with API 1.15 (passive scan, active connections,
    # remote caching, pairing, cache clearing, raw advertisements 0x20, state and mode);
    # None: left out (no Bluetooth proxy)
    feature_flags: int = 0x7F
    api_minor: int = 15
    # ESPHome release: DeviceInfo field 4 and HelloResponse server_info ("NAME (esphome
    # vX)" before 2025.9, bare after); None: neither says it
    version: str = "2026.6.2"
    info_version: bool = True        # False: field 4 left out, only the hello says it
    scanner_state: bool = True       # message 126 after the subscription (2025.5+)
    # Home Assistant holds the subscriber slot: before 2026.7 the first subscriber keeps
    # it and a later one is refused without a word; from 2026.7 the newest takes it
    # (esphome/esphome PR #17423)
    other_subscriber: bool = False
    stale_slot_s: float = 0.0        # a dropped connection holds the slot this long
    noise_padding: int = 0           # zero bytes after each encrypted message
    noise_length_extra: int = 0      # inner length larger than the message (malformed)
    ping_first: bool = True          # pings, and holds the adverts until answered
    adverts: list = field(default_factory=list)
    batch: int = 16                  # adverts per message 93
    drop_after: int = None           # first connection closes after this many adverts
    interval_s: float = 0.0          # between messages 93
    rate: float = None               # adverts per second on average (benchmark pacing)
    on_send: object = None           # callback(index, time) per advert sent (benchmark)


class Connection(ClientSocket):
    """One client: framing both ways (plaintext or Noise)."""

    def __init__(self, sock, fw):
        super().__init__(sock)
        self.fw = fw
        self.tx = self.rx = None

    def linger(self):
        """Close as a device does after its error: what the client sent is read, so the
        close is a FIN after the error frame, not a reset that may discard it."""
        self.sock.shutdown(socket.SHUT_WR)
        end = time.monotonic() + 2
        while time.monotonic() < end and self.sock.recv(65536):
            pass

    def _varint(self):
        value = shift = 0
        while True:
            byte = self._read(1)[0]
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                return value

    def _noise_frame(self):
        head = self._read(3)
        if head[0] != 1:
            raise ConnectionError("bad indicator")
        return self._read(struct.unpack(">H", head[1:])[0])

    def _send_noise_frame(self, payload):
        self.sock.sendall(b"\x01" + struct.pack(">H", len(payload)) + payload)

    def handshake(self, log):
        """Noise handshake as the responder (dissononce); False when it failed."""
        first = self._read(1)
        if self.fw.key is None:
            if first != b"\x00":
                log.append("encrypted hello to a plaintext device")
                return False        # a plaintext device drops a Noise client
            self.buf = first + self.buf
            return True
        if first != b"\x01":
            log.append("plaintext hello to an encrypted device")
            self._send_noise_frame(b"\x01Bad indicator byte")
            self.linger()
            return False
        self.buf = first + self.buf
        self._noise_frame()                                  # client hello (empty)
        msg1 = self._noise_frame()
        self._send_noise_frame(b"\x01" + self.fw.name.encode() + b"\x00" +
                               b"AA:BB:CC:DD:EE:FF\x00")
        hs = responder(self.fw.key)
        try:
            hs.read_message(bytes(msg1[1:]), bytearray())
        except Exception:                                   # the tag does not verify
            log.append("handshake MAC failure")
            self._send_noise_frame(b"\x01Handshake MAC failure")
            return False
        reply = bytearray()
        self.rx, self.tx = hs.write_message(b"", reply)
        self._send_noise_frame(b"\x00" + bytes(reply))
        log.append("noise ok")
        return True

    def read(self):
        if self.fw.key is None:
            if self._read(1) != b"\x00":
                raise ConnectionError("bad indicator")
            length = self._varint()
            msg_type = self._varint()
            return msg_type, self._read(length)
        plain = self.rx.decrypt_with_ad(b"", self._noise_frame())
        return struct.unpack(">H", plain[:2])[0], plain[4:]

    def send(self, msg_type, payload):
        if self.fw.key is None:
            self.sock.sendall(b"\x00" + varint(len(payload)) + varint(msg_type) + payload)
        else:
            plain = struct.pack(">HH", msg_type, len(payload) + self.fw.noise_length_extra)
            plain += payload + bytes(self.fw.noise_padding)
            self._send_noise_frame(self.tx.encrypt_with_ad(b"", plain))


class Proxy(SimServer):
    """Serves connections one after another; log lists what happened, in order."""

    def __init__(self, fw, port=0):
        self.fw = fw
        self.sent = 0
        self.stale_until = 0.0       # a dropped connection holds the slot until then
        super().__init__(port)

    def _take_slot(self):
        """Whether a subscription gets the stream, by the firmware's rule."""
        fw, log = self.fw, self.log
        holder = ("Home Assistant" if fw.other_subscriber else
                  "a dead connection" if time.monotonic() < self.stale_until else None)
        if holder is None:
            return True
        if fw.version is None or release(fw.version) >= (2026, 7):
            log.append(f"subscription taken from {holder}")
            return True
        log.append(f"subscription refused: {holder} holds the slot")
        return False

    def handle(self, sock):
        self._client(Connection(sock, self.fw))

    def _client(self, conn):
        fw, log = self.fw, self.log
        if not conn.handshake(log):
            return
        authed = subscribed = False
        while True:
            msg_type, payload = conn.read()
            log.append(f"message {msg_type}")
            if msg_type == 1:
                info = ""
                if fw.version:
                    info = (fw.version if release(fw.version) >= (2025, 9) else
                            f"{fw.name} (esphome v{fw.version})")
                conn.send(2, field_varint(1, 1) + field_varint(2, fw.api_minor) +
                          field_bytes(3, info.encode()) + field_bytes(4, fw.name.encode()))
            elif msg_type == 3:
                authed = True
                given = payload[2:2 + payload[1]].decode() if payload else ""
                if fw.password is not None and given != fw.password:
                    conn.send(4, field_varint(1, 1))          # invalid_password
                    return
                conn.send(4, b"")
            elif msg_type == 9:
                info = field_bytes(2, fw.name.encode()) + field_bytes(3, b"AA:BB:CC:DD:EE:FF")
                if fw.version and fw.info_version:
                    info += field_bytes(4, fw.version.encode())
                if fw.feature_flags is not None:
                    info += field_varint(15, fw.feature_flags)
                conn.send(10, info)
            elif msg_type == 66 and not subscribed:
                if fw.requires_auth and not authed:
                    log.append("subscription before message 3: closing")
                    return
                if not self._take_slot():
                    continue
                subscribed = True
                if fw.scanner_state:
                    conn.send(126, field_varint(1, 1) + field_varint(2, 1))
                if fw.ping_first:
                    conn.send(7, b"")
                    answer = conn.read()[0]
                    while answer == 66:             # a repeated subscription crossed it
                        answer = conn.read()[0]
                    if answer != 8:
                        log.append("ping not answered")
                        return
                    log.append("pong")
                if self._stream(conn):
                    return
            elif msg_type == 7:
                conn.send(8, b"")
            elif msg_type == 5:
                conn.send(6, b"")
                return

    def _stream(self, conn):
        """Send the adverts not sent yet; True when the connection is to be dropped."""
        fw = self.fw
        while self.sent < len(fw.adverts):
            if fw.drop_after is not None and self.connections == 1 and \
                    self.sent >= fw.drop_after:
                self.log.append("dropping the connection")
                self.stale_until = time.monotonic() + fw.stale_slot_s
                return True
            end = len(fw.adverts)
            if fw.drop_after is not None and self.connections == 1:
                end = min(end, fw.drop_after)
            batch = fw.adverts[self.sent:min(end, self.sent + fw.batch)]
            conn.send(93, raw_adverts_message(batch))
            if fw.on_send:
                for i in range(len(batch)):
                    fw.on_send(self.sent + i, time.time())
            self.sent += len(batch)
            if fw.interval_s:
                time.sleep(fw.interval_s)
            if fw.rate:
                self.started = getattr(self, "started", None) or time.monotonic()
                time.sleep(max(0.0, self.started + self.sent / fw.rate - time.monotonic()))
        self.log.append("all adverts sent")
        return False
