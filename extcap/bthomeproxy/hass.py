# SPDX-License-Identifier: GPL-2.0-or-later
"""A capture from Home Assistant's websocket: bluetooth/subscribe_advertisements (admin
only), one frame per entry of each "add" event; every JSON value checked before use."""
import json
import time

from . import CaptureError, frames, netio, websocket
from .netio import Closed, ProtocolError, Stopped, scaled

AUTH_TIMEOUT_S = 10
FIRST_EVENT_S = 30      # Home Assistant sends its first event right after the result
DEAD_S = 120            # no frame at all, not even Home Assistant's heartbeat ping (every
                        # 55 s: WebSocketResponse(heartbeat=55), homeassistant/components/
                        # websocket_api/http.py): the connection is half-open
SOURCE_S = 60           # a --source that never matches: say so, naming those seen
MAX_SOURCES = 20
MAX_REMEMBERED = 16384  # last frames kept per (address, source): random addresses rotate
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


def option(flag):
    """An option as both its users type it: the extcap flag (Wireshark's dialog, a
    command line) and tshark's preference, which Wireshark names after the flag."""
    return f"{flag}, tshark -o extcap.hass_ble.{flag.strip('-').replace('-', '')}"


class Session:
    """One capture: connections one after another (netio.reconnecting). Each subscription's
    first event is Home Assistant's history, sent at once even when empty: each device's
    latest advertisement with its old time (_AdvertisementSubscription.async_start in
    homeassistant/components/bluetooth/websocket_api.py, home-assistant/core commit
    0f08be93, 2026). Its frames are marked, or left out with --skip-history."""

    def __init__(self, opts, writer, should_stop, token):
        self.url = opts.url
        self.source = opts.source.strip().upper() if opts.source else None
        self.ca_file = opts.ca_file
        self.skip_history = opts.skip_history
        self.writer = writer
        self.should_stop = should_stop
        self._token = token             # never printed
        self.peer = "Home Assistant"
        self.streamed = False
        self.connection_streamed = False
        self.history = None             # this subscription's first event still to come
        self.last = {}                  # (address, source): the last frame written
        self.sources = {}               # the sources seen (at most MAX_SOURCES), in order
        self.matched = False            # anything from --source yet
        self.stream_began = None        # when the first subscription's stream began

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
        ws = websocket.Client(self.url, self.should_stop, ca_file=self.ca_file)
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

    def _login(self, ws):
        try:
            first = self._message(ws, scaled(AUTH_TIMEOUT_S))
            if first.get("type") != "auth_required":
                raise ProtocolError("no auth_required from Home Assistant")
            ws.send_text(json.dumps({"type": "auth", "access_token": self._token}))
            answer = self._message(ws, scaled(AUTH_TIMEOUT_S))
        except TimeoutError:      # Home Assistant starting may answer late: retried
            raise CaptureError("hass-ble: Home Assistant did not answer the "
                               "authentication", transient=True) from None
        if answer.get("type") == "auth_invalid":
            raise CaptureError("hass-ble: Home Assistant refused the access token "
                               f"(auth_invalid): check the token ({option('--token-file')})")
        if answer.get("type") != "auth_ok":
            raise ProtocolError("no auth_ok from Home Assistant")

    def _session(self, ws):
        self._login(ws)
        ws.send_text(json.dumps({"id": 1, "type": "bluetooth/subscribe_advertisements"}))
        subscribed = time.monotonic()
        self.history = True
        while True:
            try:
                msg = self._message(ws, 1.0)
            except TimeoutError:
                self._watch(ws, subscribed)
                continue
            if msg.get("id") != 1:
                continue
            if msg.get("type") == "result":
                if msg.get("success") is not True:
                    self._refused(msg.get("error"))
                self.writer.start()
            elif msg.get("type") == "event":
                first = self.history
                self._event(msg.get("event"))
                if first:
                    self.streamed = self.connection_streamed = True
                    if self.stream_began is None:
                        self.stream_began = time.monotonic()
            self._watch(ws, subscribed)

    def _watch(self, ws, subscribed):
        """The timers of a live subscription: its first event, a dead connection, a
        --source that never matches."""
        now = time.monotonic()
        if self.history and now - subscribed > scaled(FIRST_EVENT_S):
            raise CaptureError(f"hass-ble: Home Assistant sent no advertisement event "
                               f"{FIRST_EVENT_S} s after subscribing: is its Bluetooth "
                               "integration set up?", transient=True)
        if now - ws.last_frame > scaled(DEAD_S):      # Home Assistant pings every 55 s
            raise Closed()
        if self.source and not self.matched and self.stream_began is not None and \
                now - self.stream_began > scaled(SOURCE_S):
            seen = ", ".join(self.sources) or "none"
            raise CaptureError(f"hass-ble: nothing came from source {self.source} in "
                               f"{SOURCE_S} s ({option('--source')}); sources seen: {seen}")

    def _refused(self, error):
        code = error.get("code") if isinstance(error, dict) else None
        if code == "unauthorized":
            raise CaptureError("hass-ble: the token's user is not an administrator "
                               "(bluetooth/subscribe_advertisements needs admin rights)")
        if code == "unknown_command":     # also while a restarting one loads Bluetooth
            raise CaptureError("hass-ble: this Home Assistant has no "
                               "bluetooth/subscribe_advertisements (too old, or no "
                               "Bluetooth integration)", transient=True)
        message = error.get("message") if isinstance(error, dict) else None
        raise CaptureError(f"hass-ble: Home Assistant refused the subscription: "
                           f"{_printable(code)}: {_printable(message)}")

    def _event(self, event):
        history, self.history = self.history, False
        if not isinstance(event, dict):
            raise ProtocolError("event is not an object")
        added = event.get("add", [])      # "remove" events: a device gone, no advert
        if not isinstance(added, list):
            raise ProtocolError("event's add is not a list")
        if history and self.skip_history:
            return
        when = "before resubscribing" if self.streamed else "before the capture"
        for entry in added:
            got = entry_frame(entry)
            if got is None:
                continue
            stamp, frame, source = got
            if source not in self.sources and len(self.sources) < MAX_SOURCES:
                self.sources[source] = True
            if self.source and source.upper() != self.source:
                continue
            self.matched = True
            key = (entry["address"].upper(), source)
            if history and self.last.get(key) == frame:
                continue          # written already, before a reconnection
            self.last.pop(key, None)            # the newest last, the oldest forgotten
            self.last[key] = frame
            if len(self.last) > MAX_REMEMBERED:
                del self.last[next(iter(self.last))]
            comment = f"heard by {source} (Home Assistant)"
            if history:
                comment = f"history: heard by {source} (Home Assistant, {when})"
            self.writer.packet(stamp, frame, comment)
