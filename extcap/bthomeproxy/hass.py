# SPDX-License-Identifier: GPL-2.0-or-later
"""A capture from Home Assistant's websocket: bluetooth/subscribe_advertisements (admin
only), one frame per entry of each "add" event; every JSON value checked before use."""
import json
import time

from . import CaptureError, frames, netio, websocket
from .netio import Closed, ProtocolError, Stopped

AUTH_TIMEOUT_S = 10
MAX_AD = frames.MAX_PDU_PAYLOAD - 6
BASE_UUID_TAIL = "-0000-1000-8000-00805f9b34fb"


def _printable(text, limit=100):
    text = str(text)[:limit]
    return "".join(c if c.isprintable() else "?" for c in text)


def _hex(value, what):
    if not isinstance(value, str) or len(value) > 2 * 255:
        raise ProtocolError(f"{what} is not hex of at most 255 bytes")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise ProtocolError(f"{what} is not hex") from None


def _uuid_bytes(uuid):
    """A UUID string as it goes into AD data: 2 bytes for the Bluetooth base UUIDs'
    16-bit ones, 4 for their 32-bit ones, else 16 (all little-endian)."""
    if not isinstance(uuid, str) or len(uuid) != 36:
        raise ProtocolError("service UUID is not a 128-bit UUID string")
    uuid = uuid.lower()
    try:
        value = int(uuid.replace("-", ""), 16)
    except ValueError:
        raise ProtocolError("service UUID is not hex") from None
    if uuid.endswith(BASE_UUID_TAIL):
        short = int(uuid[:8], 16)
        return short.to_bytes(2 if short < 1 << 16 else 4, "little")
    return value.to_bytes(16, "little")


def _ad(ad_type, data):
    return bytes([len(data) + 1, ad_type]) + data if len(data) < 255 else b""


def rebuild_ad(entry):
    """AD structures from Home Assistant's parsed fields, where `raw` is null: service
    data first (BTHome's), then manufacturer data, service UUIDs, TX power, name; what
    does not fit into one PDU is left out. Flags are unknown, so there are none."""
    structs = []
    service_data = entry.get("service_data") or {}
    manufacturer = entry.get("manufacturer_data") or {}
    if not isinstance(service_data, dict) or not isinstance(manufacturer, dict):
        raise ProtocolError("service_data or manufacturer_data is not an object")
    for uuid, value in service_data.items():
        short = _uuid_bytes(uuid)
        ad_type = {2: 0x16, 4: 0x20, 16: 0x21}[len(short)]
        structs.append(_ad(ad_type, short + _hex(value, "service data")))
    for company, value in manufacturer.items():
        try:
            cid = int(company)
        except ValueError:
            raise ProtocolError("manufacturer id is not a number") from None
        if not 0 <= cid <= 0xFFFF:
            raise ProtocolError("manufacturer id out of range")
        structs.append(_ad(0xFF, cid.to_bytes(2, "little") + _hex(value, "manufacturer data")))
    uuids = entry.get("service_uuids") or []
    if not isinstance(uuids, list):
        raise ProtocolError("service_uuids is not a list")
    by_size = {}
    for uuid in uuids[:64]:
        short = _uuid_bytes(uuid)
        by_size.setdefault(len(short), []).append(short)
    for size, ad_type in ((2, 0x03), (4, 0x05), (16, 0x07)):
        if size in by_size:
            structs.append(_ad(ad_type, b"".join(by_size[size])[:240]))
    tx_power = entry.get("tx_power")
    if isinstance(tx_power, int) and not isinstance(tx_power, bool) and \
            -127 <= tx_power <= 127:
        structs.append(_ad(0x0A, (tx_power & 0xFF).to_bytes(1, "little")))
    name = entry.get("name")
    if isinstance(name, str) and name and name.replace("-", ":").upper() != \
            str(entry.get("address", "")).upper():   # Home Assistant names nameless ones
        structs.append(_ad(0x09, name.encode()[:240]))   # by their address
    out = b""
    for s in structs:
        if len(out) + len(s) <= MAX_AD:
            out += s
    return out


def entry_frame(entry):
    """(time, frame, source) of one advertisement entry, or None for an entry that is
    not a BLE address (macOS' adapters give UUIDs)."""
    if not isinstance(entry, dict):
        raise ProtocolError("advertisement entry is not an object")
    address = entry.get("address")
    if not isinstance(address, str) or len(address) != 17:
        return None
    rssi = entry.get("rssi")
    if not isinstance(rssi, (int, float)) or isinstance(rssi, bool) or \
            not -128 <= rssi <= 127:            # also NaN and infinity, which JSON allows
        rssi = -127
    raw = entry.get("raw")
    ad = _hex(raw, "raw") if raw is not None else rebuild_ad(entry)
    if len(ad) > MAX_AD:
        raise ProtocolError(f"raw advertisement of {len(ad)} bytes")
    stamp = entry.get("time")
    if not isinstance(stamp, (int, float)) or isinstance(stamp, bool) or \
            not 0 < stamp < 1 << 33:
        stamp = time.time()
    try:
        frame = frames.ll_frame(address, False, ad, rssi, entry.get("connectable") is True)
    except ValueError:
        return None
    source = entry.get("source")
    return stamp, frame, _printable(source) if isinstance(source, str) else "unknown"


class Session:
    def __init__(self, opts, writer, should_stop, token):
        self.url = opts.url
        self.source = opts.source.strip().upper() if opts.source else None
        self.writer = writer
        self.should_stop = should_stop
        self._token = token             # never printed
        self.peer = "Home Assistant"
        self.streamed = False
        self.connection_streamed = False

    def run(self):
        netio.reconnecting(self, "hass-ble")

    def _message(self, ws, timeout):
        text = ws.receive(timeout)
        try:
            msg = json.loads(text)
        except ValueError:
            raise ProtocolError("a message is not JSON") from None
        if not isinstance(msg, dict):
            raise ProtocolError("a message is not a JSON object")
        return msg

    def connection(self):
        ws = websocket.Client(self.url, self.should_stop)
        try:
            self._session(ws)
        except Stopped:
            try:      # unsubscribe, then close the websocket
                ws.send_text(json.dumps({"id": 2, "type": "unsubscribe_events",
                                         "subscription": 1}))
            except (Closed, OSError):
                pass
            raise
        finally:
            ws.close()

    def _session(self, ws):
        try:
            first = self._message(ws, AUTH_TIMEOUT_S)
            if first.get("type") != "auth_required":
                raise ProtocolError("no auth_required from Home Assistant")
            ws.send_text(json.dumps({"type": "auth", "access_token": self._token}))
            answer = self._message(ws, AUTH_TIMEOUT_S)
        except TimeoutError:
            raise CaptureError("hass-ble: Home Assistant did not answer the "
                               "authentication") from None
        if answer.get("type") == "auth_invalid":
            raise CaptureError("hass-ble: Home Assistant refused the access token "
                               "(auth_invalid)")
        if answer.get("type") != "auth_ok":
            raise ProtocolError("no auth_ok from Home Assistant")
        ws.send_text(json.dumps({"id": 1, "type": "bluetooth/subscribe_advertisements"}))
        while True:
            try:
                msg = self._message(ws, 1.0)
            except TimeoutError:
                continue
            if msg.get("id") != 1:
                continue
            if msg.get("type") == "result":
                if msg.get("success") is not True:
                    self._refused(msg.get("error"))
                self.streamed = self.connection_streamed = True
                self.writer.start()
            elif msg.get("type") == "event" and self.connection_streamed:
                self._event(msg.get("event"))

    def _refused(self, error):
        code = error.get("code") if isinstance(error, dict) else None
        if code == "unauthorized":
            raise CaptureError("hass-ble: the token's user is not an administrator "
                               "(bluetooth/subscribe_advertisements needs admin rights)")
        if code == "unknown_command":
            raise CaptureError("hass-ble: this Home Assistant has no "
                               "bluetooth/subscribe_advertisements (too old, or no "
                               "Bluetooth integration)")
        message = error.get("message") if isinstance(error, dict) else None
        raise CaptureError(f"hass-ble: Home Assistant refused the subscription: "
                           f"{_printable(code)}: {_printable(message)}")

    def _event(self, event):
        if not isinstance(event, dict):
            raise ProtocolError("event is not an object")
        added = event.get("add", [])
        if not isinstance(added, list):
            raise ProtocolError("event's add is not a list")
        for entry in added:
            got = entry_frame(entry)
            if got is None:
                continue
            stamp, frame, source = got
            if self.source and source.upper() != self.source:
                continue
            self.writer.packet(stamp, frame, f"heard by {source} (Home Assistant)")
