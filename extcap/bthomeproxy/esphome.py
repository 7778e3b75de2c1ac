# SPDX-License-Identifier: GPL-2.0-or-later
"""ESPHome native API client (TCP 6053): the frames, plaintext or Noise, and the messages
that subscribe to a Bluetooth proxy's raw advertisements."""
import re

from . import CaptureError, netio, protobuf
from .netio import Closed, ProtocolError

# Message types (ESPHome api.proto)
HELLO_REQUEST, HELLO_RESPONSE = 1, 2
AUTH_REQUEST, AUTH_RESPONSE = 3, 4
DISCONNECT_REQUEST, DISCONNECT_RESPONSE = 5, 6
PING_REQUEST, PING_RESPONSE = 7, 8
DEVICE_INFO_REQUEST, DEVICE_INFO_RESPONSE = 9, 10
SUBSCRIBE_ADVERTISEMENTS = 66
UNSUBSCRIBE_ADVERTISEMENTS = 87
RAW_ADVERTISEMENTS = 93
SCANNER_STATE = 126

SUBSCRIBE_RAW = 1                     # SubscribeBluetoothLEAdvertisementsRequest.flags
FEATURE_RAW_ADVERTISEMENTS = 1 << 5   # DeviceInfoResponse.bluetooth_proxy_feature_flags
# From ESPHome 2026.7.0 the newest advertisement subscriber takes the proxy's single slot
# (esphome/esphome PR #17423, esphome/components/bluetooth_proxy/bluetooth_proxy.cpp,
# BluetoothProxy::subscribe_api_connection); before, the first one keeps it.
NEWEST_SUBSCRIBER_WINS = (2026, 7)
PREFERENCE_PREFIX = "extcap.esphome_ble."
MAX_PLAIN_MESSAGE = 1 << 16           # a batch of raw adverts is a few kB
MAX_AD_BYTES = 62                     # advertising data + scan response
MAX_TYPE = 0xFFFF
HANDSHAKE_TIMEOUT_S = 10


class PlainFramer:
    """0x00, varint length, varint type, message."""

    def __init__(self, reader):
        self.reader = reader

    def _varint(self, timeout):
        raw = b""
        for _ in range(protobuf.MAX_VARINT_BYTES):
            raw += self.reader.exact(1, timeout)
            if not raw[-1] & 0x80:
                return protobuf.decode_varint(raw)[0]
        raise ProtocolError("varint longer than 10 bytes")

    def read(self, timeout=netio.FRAME_TIMEOUT_S):
        indicator = self.reader.exact(1, timeout)[0]
        if indicator == 0x01:
            raise CaptureError("esphome-ble: the device encrypts its API: give its "
                               f"encryption key ({option('--encryption-key-file')})")
        if indicator != 0x00:
            raise ProtocolError(f"bad frame indicator 0x{indicator:02x}")
        length = self._varint(timeout)
        msg_type = self._varint(timeout)
        if length > MAX_PLAIN_MESSAGE or msg_type > MAX_TYPE:
            raise ProtocolError(f"message of {length} bytes, type {msg_type}: too large")
        return msg_type, self.reader.exact(length, timeout)

    def write(self, msg_type, payload):
        self.reader.send(b"\x00" + protobuf.encode_varint(len(payload)) +
                         protobuf.encode_varint(msg_type) + payload)


def read_noise_frame(reader, timeout=netio.FRAME_TIMEOUT_S):
    """0x01, big-endian 16-bit length, frame (the length bounds it)."""
    header = reader.exact(3, timeout)
    if header[0] == 0x00:
        raise CaptureError("esphome-ble: the device's API is not encrypted: leave the "
                           f"encryption key empty ({option('--encryption-key-file')})")
    if header[0] != 0x01:
        raise ProtocolError(f"bad frame indicator 0x{header[0]:02x}")
    return reader.exact(int.from_bytes(header[1:], "big"), timeout)


def noise_frame(payload):
    if len(payload) > 0xFFFF:
        raise ValueError("frame too long")
    return b"\x01" + len(payload).to_bytes(2, "big") + payload


class NoiseFramer:
    """The handshake, then frames holding encrypted (16-bit type, 16-bit length,
    message)."""

    def __init__(self, reader, psk):
        self.reader = reader
        self.server_name = None
        self.server_mac = None
        try:        # python3-cryptography: only encrypted devices need it
            from . import noise
        except ImportError:
            raise CaptureError("esphome-ble: an encrypted API needs the Python package "
                               "cryptography (Debian: python3-cryptography)") from None
        self.noise = noise
        state = noise.Initiator(psk)
        reader.send(noise_frame(b"") + noise_frame(b"\x00" + state.write_message()))
        try:
            hello = read_noise_frame(reader, HANDSHAKE_TIMEOUT_S)
            self._server_hello(hello)
            reply = read_noise_frame(reader, HANDSHAKE_TIMEOUT_S)
        except Closed:
            raise CaptureError("esphome-ble: the device closed the connection during the "
                               "encrypted hello: its API may not be encrypted",
                               transient=True) from None
        except TimeoutError:
            raise CaptureError("esphome-ble: no answer to the encrypted hello: its API "
                               "may not be encrypted", transient=True) from None
        if not reply or reply[0] != 0x00:
            reason = printable(reply[1:]) if reply else "empty"
            if reason == "Handshake MAC failure":
                raise CaptureError("esphome-ble: wrong encryption key (the device "
                                   "answered: Handshake MAC failure)")
            raise CaptureError(f"esphome-ble: the device refused the handshake: {reason}")
        try:
            state.read_message(reply[1:])
        except noise.NoiseError:
            raise CaptureError("esphome-ble: wrong encryption key (the handshake reply "
                               "does not authenticate)") from None
        self.send, self.receive = state.send, state.receive

    def _server_hello(self, hello):
        if not hello or hello[0] != 0x01:
            raise ProtocolError("the device chose an unknown encryption protocol")
        parts = bytes(hello[1:]).split(b"\x00")
        self.server_name = printable(parts[0]) if parts[0] else None
        if len(parts) > 2 and parts[1]:
            self.server_mac = printable(parts[1])

    def read(self, timeout=netio.FRAME_TIMEOUT_S):
        frame = read_noise_frame(self.reader, timeout)
        try:
            plain = self.receive.decrypt(b"", frame)
        except self.noise.NoiseError:
            raise ProtocolError("an encrypted frame does not authenticate") from None
        if len(plain) < 4:
            raise ProtocolError("encrypted frame shorter than its header")
        length = int.from_bytes(plain[2:4], "big")
        # A frame may carry zero padding after the message (esphome/components/api/
        # api_frame_helper.cpp, 2024.11, read_packet: only data_len > size is refused).
        if length > len(plain) - 4:
            raise ProtocolError("encrypted frame shorter than the length it gives")
        return int.from_bytes(plain[:2], "big"), plain[4:4 + length]

    def write(self, msg_type, payload):
        plain = msg_type.to_bytes(2, "big") + len(payload).to_bytes(2, "big") + payload
        self.reader.send(noise_frame(self.send.encrypt(b"", plain)))


def option(flag, value=""):
    """An extcap option as Wireshark's dialog passes it and as tshark names its
    preference (the flag without dashes): --encryption-key-file /
    -o extcap.esphome_ble.encryptionkeyfile."""
    pref = PREFERENCE_PREFIX + flag.lstrip("-").replace("-", "")
    return f"{flag} / -o {pref}{':' + value if value else ''}"


def printable(raw, limit=80):
    """Text from the device, safe to show on one line."""
    text = bytes(raw[:limit]).decode("utf-8", "replace")
    return "".join(c if c.isprintable() else "?" for c in text)


def hello_request():
    # client_info, api_version_major, api_version_minor
    return protobuf.encode((1, "bthome-proxy (Wireshark extcap)"), (2, 1), (3, 10))


def auth_request(password):
    return protobuf.encode((1, password or None))


def parse_adverts(payload):
    """BluetoothLERawAdvertisementsResponse: [(address int, rssi, address_type, data)]."""
    try:
        fields = protobuf.parse(payload)
        out = []
        for entry in fields.get(1, []):
            if not isinstance(entry, bytes):
                raise ProtocolError("advertisement is not a message")
            f = protobuf.parse(entry)
            address = protobuf.first(f, 1, 0)
            data = protobuf.first(f, 4, b"")
            if not isinstance(address, int) or not isinstance(data, bytes):
                raise ProtocolError("advertisement fields of the wrong type")
            if address >= 1 << 48:
                raise ProtocolError("address over 48 bits")
            if len(data) > MAX_AD_BYTES:
                raise ProtocolError(f"advertisement data of {len(data)} bytes "
                                    f"(at most {MAX_AD_BYTES})")
            rssi = protobuf.zigzag(protobuf.first(f, 2, 0) & 0xFFFFFFFF)
            out.append((address, max(-128, min(127, rssi)),
                        protobuf.first(f, 3, 0), data))
        return out
    except protobuf.DecodeError as e:
        raise ProtocolError(f"malformed advertisement message ({e})") from None


def _text(fields, number):
    value = protobuf.first(fields, number, b"")
    return printable(value) if isinstance(value, bytes) else ""


def device_info(payload):
    """(name, mac, ESPHome version text, bluetooth proxy feature flags or None).
    Field 15 is still sent after API 1.15, which adds DeviceCapabilities (messages
    149/150) for newer clients: without it, the device is no Bluetooth proxy or older
    than raw advertisements (2023.6)."""
    try:
        f = protobuf.parse(payload)
    except protobuf.DecodeError as e:
        raise ProtocolError(f"malformed device info ({e})") from None
    flags = protobuf.first(f, 15)
    return (_text(f, 2), _text(f, 3), _text(f, 4),
            flags if isinstance(flags, int) else None)


def hello_version(payload):
    """HelloResponse.server_info (field 3): "NAME (esphome vX)" (esphome/components/api/
    api_connection.cpp, 2024.11) before 2025.9, the bare version after."""
    try:
        return _text(protobuf.parse(payload), 3)
    except protobuf.DecodeError as e:
        raise ProtocolError(f"malformed hello response ({e})") from None


def version_tuple(text):
    """(year, month) of an ESPHome version ("2026.7.0", "2025.8.0-dev",
    "NAME (esphome v2025.8.0)"), or None."""
    m = re.search(r"(?:^|esphome v)(\d{4})\.(\d{1,2})(?!\d)", text or "")
    return (int(m.group(1)), int(m.group(2))) if m else None
