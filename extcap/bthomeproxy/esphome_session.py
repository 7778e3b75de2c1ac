# SPDX-License-Identifier: GPL-2.0-or-later
"""One capture from an ESPHome Bluetooth proxy: connect, hello, password message,
device info, subscribe to raw advertisements, write a frame per advertisement; answer
pings; reconnect with backoff when the device drops; unsubscribe and disconnect on stop.

The proxy has one subscriber slot. Before ESPHome 2026.7 the first subscriber keeps it,
and a connection that died without a goodbye holds it until the firmware reaps it (about
150 s); from 2026.7 the newest subscriber takes it (esphome/esphome PR #17423), so
subscribing would take Home Assistant's stream: that needs --take-stream."""
import time

from . import CaptureError, esphome, frames, netio
from .netio import Closed, ProtocolError, Stopped, log

IDLE_PING_S = 20        # ping a silent device after this long...
IDLE_DROP_S = 50        # ...and take it for gone after this long
# A subscription that brings nothing after a reconnect is sent again after 10 s, 30 s,
# then every 60 s, as Home Assistant's scanner does (bleak-esphome PR #394, July 2026):
# the slot frees when the firmware reaps the dead connection.
RESUBSCRIBE_S = (10, 30, 60)
HASS_HINT = ("capture through Home Assistant instead (interface hass-ble), which shares "
             "the stream it holds")


class Session:
    def __init__(self, opts, writer, should_stop, psk=None, password=""):
        self.host, self.port = opts.host, opts.port
        self.stream_timeout = opts.stream_timeout
        self.take_stream = opts.take_stream
        self.scale = netio.scaled(1.0)   # the tests shorten the stream timers
        self.writer = writer
        self.should_stop = should_stop
        self._psk = psk                 # 32 bytes or None; never printed
        self._password = password       # never printed
        self.peer = opts.host
        self.streamed = False           # a subscription has worked once
        self.connection_streamed = False
        self.source = None
        self.taking_logged = False

    def run(self):
        """Until stopped; CaptureError on a failure to report."""
        netio.reconnecting(self, "esphome-ble")

    def connection(self):
        sock = netio.connect(self.host, self.port, 10, "esphome-ble")
        try:
            self._session(netio.Reader(sock, self.should_stop))
        finally:
            sock.close()

    def _session(self, reader):
        if self._psk:
            framer = esphome.NoiseFramer(reader, self._psk)
            name = framer.server_name
        else:
            framer = esphome.PlainFramer(reader)
            name = None
        framer.write(esphome.HELLO_REQUEST, esphome.hello_request())
        # Firmware before 2026.1 closes the connection on a subscription that comes before
        # the password message; later firmware ignores it.
        framer.write(esphome.AUTH_REQUEST, esphome.auth_request(self._password))
        framer.write(esphome.DEVICE_INFO_REQUEST, b"")
        subscribed_at = resubscribe_at = None
        resubscribes = 0
        hello_version = ""
        last_rx = started = time.monotonic()
        pinged = False
        try:
            while True:
                now = time.monotonic()
                if subscribed_at and not self.connection_streamed:
                    if not self.streamed and \
                            now - subscribed_at > self.stream_timeout * self.scale:
                        raise CaptureError(
                            f"esphome-ble: no scanner state and no advertisement "
                            f"{self.stream_timeout:g} s after subscribing: another client "
                            f"holds this proxy's stream (Home Assistant?): {HASS_HINT}")
                    if self.streamed and now >= resubscribe_at:
                        # A dead connection of ours may hold the slot: ask again.
                        framer.write(esphome.SUBSCRIBE_ADVERTISEMENTS,
                                     esphome.protobuf.encode((1, esphome.SUBSCRIBE_RAW)))
                        resubscribes += 1
                        resubscribe_at = now + self.scale * RESUBSCRIBE_S[
                            min(resubscribes, len(RESUBSCRIBE_S) - 1)]
                try:
                    reader.wait(min(1.0, 0.1 + 10 * self.scale))
                except TimeoutError:
                    now = time.monotonic()
                    if not subscribed_at and now - last_rx > esphome.HANDSHAKE_TIMEOUT_S:
                        raise CaptureError(f"esphome-ble: {self.host} did not answer the "
                                           "hello", transient=True) from None
                    if now - last_rx > IDLE_DROP_S:
                        raise Closed() from None
                    if now - last_rx > IDLE_PING_S and not pinged:
                        framer.write(esphome.PING_REQUEST, b"")
                        pinged = True
                    continue
                try:
                    msg_type, payload = framer.read()
                except Closed:
                    if subscribed_at is None and not self._psk and \
                            last_rx == started:
                        raise CaptureError(f"esphome-ble: {self.host} closed the connection "
                                           "at the plaintext hello: is its API encrypted? "
                                           "Give its encryption key ("
                                           f"{esphome.option('--encryption-key-file')})"
                                           ) from None
                    raise
                last_rx, pinged = time.monotonic(), False
                if msg_type == esphome.PING_REQUEST:
                    framer.write(esphome.PING_RESPONSE, b"")
                elif msg_type == esphome.AUTH_RESPONSE:
                    if esphome.protobuf.first(esphome.protobuf.parse(payload), 1):
                        raise CaptureError("esphome-ble: the device refused the password "
                                           f"({esphome.option('--password-file')})")
                elif msg_type == esphome.HELLO_RESPONSE:
                    hello_version = esphome.hello_version(payload)
                elif msg_type == esphome.DEVICE_INFO_RESPONSE and subscribed_at is None:
                    dev_name, _mac, version, flags = esphome.device_info(payload)
                    self.source = dev_name or name or self.host
                    self._check_device(flags, version or hello_version)
                    framer.write(esphome.SUBSCRIBE_ADVERTISEMENTS,
                                 esphome.protobuf.encode((1, esphome.SUBSCRIBE_RAW)))
                    subscribed_at = time.monotonic()
                    resubscribe_at = subscribed_at + self.scale * RESUBSCRIBE_S[0]
                elif msg_type == esphome.SCANNER_STATE and subscribed_at:
                    self._streaming()
                elif msg_type == esphome.RAW_ADVERTISEMENTS and subscribed_at:
                    self._streaming()
                    self._write(esphome.parse_adverts(payload))
                elif msg_type == esphome.DISCONNECT_REQUEST:
                    framer.write(esphome.DISCONNECT_RESPONSE, b"")
                    raise Closed()
        except Stopped:
            self._goodbye(framer, reader, subscribed_at)
            raise
        except esphome.protobuf.DecodeError as e:
            raise ProtocolError(f"malformed message ({e})") from None

    def _check_device(self, flags, version):
        """Raw advertisements forwarded, and a subscriber rule that leaves Home Assistant
        its stream (or --take-stream)."""
        if flags is None or not flags & esphome.FEATURE_RAW_ADVERTISEMENTS:
            raise CaptureError(f"esphome-ble: {self.source} does not forward raw "
                               "advertisements: not a Bluetooth proxy, or firmware before "
                               "2023.6")
        release = esphome.version_tuple(version)
        if release and release < esphome.NEWEST_SUBSCRIBER_WINS:
            return
        rule = (f"{self.source} runs ESPHome {release[0]}.{release[1]}, which gives"
                if release else f"{self.source} does not give its ESPHome version; "
                "from 2026.7 ESPHome gives")
        take = esphome.option("--take-stream", "true")
        if not self.take_stream:
            raise CaptureError(
                f"esphome-ble: {rule} the Bluetooth stream to its newest subscriber: "
                f"subscribing would take it from Home Assistant; {HASS_HINT}, or take it "
                f"anyway ({take})")
        if not self.taking_logged:
            self.taking_logged = True
            log(f"esphome-ble: taking {self.source}'s Bluetooth stream ({take}): Home "
                "Assistant loses it until its ESPHome entry for the proxy is reloaded or "
                "the proxy reboots")

    def _streaming(self):
        if not self.connection_streamed:
            self.connection_streamed = self.streamed = True
            with netio.output():
                self.writer.start()

    def _write(self, adverts):
        now = time.time()
        comment = f"heard by {self.source} (ESPHome proxy {self.host})"
        with netio.output():
            for address, rssi, address_type, data in adverts:
                # ESPHome gives no PDU type: ADV_NONCONN_IND (frames.py)
                self.writer.packet(now, frames.ll_frame(address, address_type == 1, data,
                                                        rssi), comment)

    def _goodbye(self, framer, reader, subscribed):
        """Unsubscribe, then ask to disconnect; wait a moment for the answer."""
        reader.should_stop = lambda: False
        try:
            if subscribed:
                framer.write(esphome.UNSUBSCRIBE_ADVERTISEMENTS, b"")
            framer.write(esphome.DISCONNECT_REQUEST, b"")
            end = time.monotonic() + 1.0
            while time.monotonic() < end:
                reader.wait(end - time.monotonic())
                if framer.read(1.0)[0] == esphome.DISCONNECT_RESPONSE:
                    break
        except (Closed, TimeoutError, ProtocolError, CaptureError):
            pass
