# SPDX-License-Identifier: GPL-2.0-or-later
"""A bounded random-mutation fuzz of the extcap's parsers of network data: ESPHome's
plaintext frames and protobuf messages, the Noise frame reader, the websocket frame
reader and Home Assistant's JSON events. Every input must end in the parser's own error
(or parse), never another exception, and no read may ask for more than the bounds allow.

    python3 -m tests.extcap.fuzz_test [--seconds S] [--seed N]
"""
import argparse
import json
import random
import sys
import time

from extcap.bthomeproxy import CaptureError, esphome, hass, netio, noise, protobuf, websocket
from extcap.bthomeproxy.netio import Closed, ProtocolError
from tests.extcap import sim_esphome
from tests.lib import wsrun

EXPECTED = (ProtocolError, CaptureError, Closed, protobuf.DecodeError)
MAX_READ = 1 << 24          # websocket.MAX_MESSAGE: the largest read any parser may ask


class FakeReader:
    """Serves fixed bytes; Closed at their end, as a socket would."""

    def __init__(self, data):
        self.data, self.pos, self.largest = bytes(data), 0, 0

    def exact(self, n, timeout=None):
        self.largest = max(self.largest, n)
        if n > MAX_READ:
            raise AssertionError(f"read of {n} bytes asked")
        if self.pos + n > len(self.data):
            raise Closed()
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def wait(self, timeout):
        if self.pos >= len(self.data):
            raise Closed()

    def send(self, data):
        pass


def mutate(rng, data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        op = rng.randrange(6)
        pos = rng.randrange(len(data) + 1)
        if op == 0 and data:
            data[pos % len(data)] ^= 1 << rng.randrange(8)
        elif op == 1 and data:
            data[pos % len(data)] = rng.choice((0, 0x7F, 0x80, 0xFF, rng.randrange(256)))
        elif op == 2:
            data[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 12)))
        elif op == 3:
            del data[pos:pos + rng.randint(1, 12)]
        elif op == 4:
            data[pos:pos] = b"\xff" * rng.randint(1, 11)          # long varints
        else:
            data = data[:pos]
    return bytes(data)


def plain_stream():
    adverts = [(0xA4C138B74E01 + i, -60 - i, i & 1, bytes([2, 1, 6, 5, 0x16, 0xD2, 0xFC,
                                                           0x40, i])) for i in range(5)]
    msgs = [(2, sim_esphome.field_varint(1, 1) + sim_esphome.field_bytes(4, b"proxy")),
            (10, sim_esphome.field_bytes(2, b"proxy") + sim_esphome.field_varint(15, 63)),
            (93, sim_esphome.raw_adverts_message(adverts)), (7, b"")]
    return b"".join(b"\x00" + sim_esphome.varint(len(p)) + sim_esphome.varint(t) + p
                    for t, p in msgs)


def consume_plain(data):
    framer = esphome.PlainFramer(FakeReader(data))
    while True:
        msg_type, payload = framer.read()
        if msg_type == esphome.RAW_ADVERTISEMENTS:
            esphome.parse_adverts(payload)
        elif msg_type == esphome.DEVICE_INFO_RESPONSE:
            esphome.device_info(payload)
        elif msg_type == esphome.HELLO_RESPONSE:
            esphome.version_tuple(esphome.hello_version(payload))
        protobuf.parse(payload)


class NoisePair:
    """A finished handshake between the extcap's initiator and dissononce's responder."""

    def __init__(self):
        psk = bytes(range(32))
        hs = sim_esphome.responder(psk)
        self.initiator = noise.Initiator(psk)
        hs.read_message(self.initiator.write_message(), bytearray())
        reply = bytearray()
        self.r_rx, self.r_tx = hs.write_message(b"", reply)
        self.initiator.read_message(bytes(reply))

    def frames(self, n):
        out = b""
        for i in range(n):
            payload = sim_esphome.raw_adverts_message([(i, -50, 0, b"\x02\x01\x06")])
            plain = (93).to_bytes(2, "big") + len(payload).to_bytes(2, "big") + payload
            out += esphome.noise_frame(self.r_tx.encrypt_with_ad(b"", plain))
        return out


def consume_noise(pair, data):
    framer = esphome.NoiseFramer.__new__(esphome.NoiseFramer)
    framer.reader = FakeReader(data)
    framer.receive = noise.CipherState(pair.initiator.receive.key)
    framer.noise = noise
    while True:
        msg_type, payload = framer.read()
        if msg_type == esphome.RAW_ADVERTISEMENTS:
            esphome.parse_adverts(payload)


def ws_stream():
    out = b""
    for text in ('{"type":"auth_required"}', '{"id":1,"type":"result","success":true}'):
        out += bytes([0x81, len(text)]) + text.encode()
    out += bytes([0x89, 2]) + b"hi"                                   # a ping
    big = json.dumps({"id": 1, "type": "event", "event": {"add": []}}).encode() * 3
    out += bytes([0x01, 126]) + (len(big) // 2).to_bytes(2, "big") + big[:len(big) // 2]
    out += bytes([0x80, 126]) + (len(big) - len(big) // 2).to_bytes(2, "big") + \
        big[len(big) // 2:]
    return out


class ChunkReader(netio.Reader):
    """netio.Reader over fixed bytes that arrive in pieces of 1 to 64 bytes, as TCP may
    cut them; Closed at their end."""

    def __init__(self, data):
        super().__init__(None)
        self.data, self.rng = bytes(data), random.Random(len(data))

    def _fill(self, deadline):
        if not self.data:
            raise Closed()
        n = self.rng.randint(1, 64)
        self.buf += self.data[:n]
        self.data = self.data[n:]

    def send(self, data, timeout=10):
        pass


def consume_ws(data):
    client = websocket.Client.__new__(websocket.Client)
    client.reader = ChunkReader(data)
    client.parts, client.size = [], 0
    while True:
        client.receive(1)


class NullWriter:
    def start(self):
        pass

    def packet(self, *_):
        pass


def ha_event(rng):
    entry = {"address": "54:48:E6:8F:80:A5", "rssi": -60, "name": "kitchen",
             "connectable": False, "source": "AA:BB:CC:DD:EE:01", "time": 1767225600.5,
             "tx_power": -4, "raw": "020106", "service_uuids": ["0000fcd2-0000-1000-8000-"
                                                               "00805f9b34fb"],
             "manufacturer_data": {"76": "0215"},
             "service_data": {"0000fcd2-0000-1000-8000-00805f9b34fb": "40020a09"}}
    weird = [None, True, -1, 2 ** 70, 1e308, "", "zz", "0" * 600, [], {}, [1, "a"],
             {"x": 1}, "54:48:E6:8F:80:A5", "ffff", "0000fcd2-0000-1000-8000-00805f9b34fb",
             float("nan"), float("inf")]
    for _ in range(rng.randint(1, 4)):
        key = rng.choice(list(entry))
        entry[key] = rng.choice(weird)
        if rng.random() < 0.3:      # JSON object keys are strings: odd ones, odd values
            entry["service_data"] = {rng.choice(["", "zz", "fcd2", weird[14]]):
                                     rng.choice(weird)}
    return rng.choice([{"add": [entry]}, {"add": entry}, [entry], {"add": [entry, 5]}])


def consume_ha(session, event):
    session._event(event)


def fuzz(check, name, seconds, rng, make, consume):
    end = time.monotonic() + seconds
    runs, bad = 0, None
    while time.monotonic() < end and bad is None:
        data = make(rng)
        runs += 1
        try:
            consume(data)
        except EXPECTED:
            pass
        except Exception as e:          # noqa: BLE001 (any other exception is the finding)
            bad = f"{type(e).__name__}: {e} on {data!r:.300}"
    check(bad is None and runs > 100, f"{name}: {runs} mutated inputs, only the "
          "parser's own errors", bad or "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=6, help="per parser")
    ap.add_argument("--seed", type=int, default=int(time.time()))
    args = ap.parse_args()
    print(f"fuzz seed {args.seed} (--seed to replay)")
    rng = random.Random(args.seed)
    check = wsrun.Checks()
    stream = plain_stream()
    try:
        consume_plain(stream)
    except Closed:
        check(True, "the unmutated ESPHome stream parses to its end")
    fuzz(check, "ESPHome plaintext frames and protobuf", args.seconds, rng,
         lambda r: mutate(r, stream), consume_plain)
    fuzz(check, "protobuf messages alone", args.seconds / 2, rng,
         lambda r: mutate(r, sim_esphome.raw_adverts_message(
             [(1, -1, 1, bytes(62)), (2 ** 47, -128, 0, b"")])), esphome.parse_adverts)
    pair = NoisePair()
    good = pair.frames(4)
    saved = pair.initiator.receive.key
    try:
        consume_noise(pair, good)
    except Closed:
        check(True, "the unmutated Noise frames decrypt")
    pair.initiator.receive.key = saved
    fuzz(check, "Noise frame reader", args.seconds, rng, lambda r: mutate(r, good),
         lambda d: consume_noise(pair, d))
    wsdata = ws_stream()
    fuzz(check, "websocket frame reader", args.seconds, rng, lambda r: mutate(r, wsdata),
         consume_ws)

    class Opts:
        url, source, ca_file, skip_history = "http://127.0.0.1:1", None, None, False
    session = hass.Session(Opts, NullWriter(), lambda: False, "token")
    fuzz(check, "Home Assistant events (JSON values)", args.seconds, rng, ha_event,
         lambda e: consume_ha(session, e))
    text = json.dumps({"id": 1, "type": "event", "event": ha_event(rng)}).encode()

    class FakeWs:
        def __init__(self, raw):
            self.raw = raw

        def receive(self, timeout):
            return self.raw.decode("utf-8", "replace")

    def consume_text(raw):
        msg = session._message(FakeWs(raw), 1)
        if msg.get("type") == "event":
            session._event(msg.get("event"))
    fuzz(check, "Home Assistant messages (JSON text)", args.seconds, rng,
         lambda r: mutate(r, text), consume_text)
    return check.summary("extcap fuzz")


if __name__ == "__main__":
    sys.exit(main())
