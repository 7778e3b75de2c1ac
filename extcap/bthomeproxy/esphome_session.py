# SPDX-License-Identifier: GPL-2.0-or-later
"""One capture from an ESPHome Bluetooth proxy: connect, hello, password message,
device info, subscribe to raw advertisements, write a frame per advertisement; answer
pings; reconnect with backoff when the device drops; unsubscribe and disconnect on stop."""
import time

from . import CaptureError, esphome, frames, netio
from .netio import Closed, ProtocolError, Stopped

IDLE_PING_S = 20        # ping a silent device after this long...
IDLE_DROP_S = 50        # ...and take it for gone after this long


class Session:
    def __init__(self, opts, writer, should_stop, psk=None, password=""):
        self.host, self.port = opts.host, opts.port
        self.stream_timeout = opts.stream_timeout
        self.writer = writer
        self.should_stop = should_stop
        self._psk = psk                 # 32 bytes or None; never printed
        self._password = password       # never printed
        self.peer = opts.host
        self.streamed = False           # a subscription has worked once
        self.connection_streamed = False
        self.source = None

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
        subscribed_at = None
        last_rx = started = time.monotonic()
        pinged = False
        try:
            while True:
                try:
                    reader.wait(1.0)
                except TimeoutError:
                    now = time.monotonic()
                    if subscribed_at and not self.connection_streamed and \
                            now - subscribed_at > self.stream_timeout:
                        raise CaptureError(
                            f"esphome-ble: no scanner state and no advertisement "
                            f"{self.stream_timeout:g} s after subscribing: another client "
                            "holds this proxy's stream: Home Assistant?") from None
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
                                           "Give its encryption key") from None
                    raise
                last_rx, pinged = time.monotonic(), False
                if msg_type == esphome.PING_REQUEST:
                    framer.write(esphome.PING_RESPONSE, b"")
                elif msg_type == esphome.AUTH_RESPONSE:
                    if esphome.protobuf.first(esphome.protobuf.parse(payload), 1):
                        raise CaptureError("esphome-ble: the device refused the password")
                elif msg_type == esphome.DEVICE_INFO_RESPONSE and subscribed_at is None:
                    dev_name, mac, flags = esphome.device_info(payload)
                    if flags is not None and not flags & esphome.FEATURE_RAW_ADVERTISEMENTS:
                        raise CaptureError(f"esphome-ble: {dev_name or self.host} does not "
                                           "forward raw advertisements (is it a Bluetooth "
                                           "proxy, firmware 2023.6 or later?)")
                    self.source = dev_name or name or self.host
                    framer.write(esphome.SUBSCRIBE_ADVERTISEMENTS,
                                 esphome.protobuf.encode((1, esphome.SUBSCRIBE_RAW)))
                    subscribed_at = time.monotonic()
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

    def _streaming(self):
        if not self.connection_streamed:
            self.connection_streamed = self.streamed = True
            self.writer.start()

    def _write(self, adverts):
        now = time.time()
        comment = f"heard by {self.source} (ESPHome proxy {self.host})"
        for address, rssi, address_type, data in adverts:
            # ESPHome gives no PDU type: ADV_NONCONN_IND (frames.py)
            self.writer.packet(now, frames.ll_frame(address, address_type == 1, data, rssi),
                               comment)

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
