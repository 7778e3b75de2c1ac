# SPDX-License-Identifier: GPL-2.0-or-later
"""End to end: the real tshark captures live through the extcap (extcap/bthome-proxy,
from a copy of its folder in a temporary personal extcap folder) from a simulated ESPHome
proxy and a simulated Home Assistant, with the plugin decoding.

Each live capture's BLE link layer, RSSI line and BTHome tree must equal what tshark shows
for the same adverts read from the test capture they come from (captures/*-ll-phdr.pcap),
plus values checked by name; each failure must give its one-line error and no packet.

    python3 -m tests.extcap.extcap_test --plugin build/bthome.so
"""
import argparse
import base64
import os
import re
import sys
import time

from tests.extcap import common, sim_esphome, sim_hass
from tests.extcap.common import CAPTURES, ExtcapTshark, mac_text, read_ll_phdr, sections, wsrun

KEY = bytes(range(1, 33))                    # the proxies' Noise key
KEY_B64 = base64.b64encode(KEY).decode()
TOKEN = "sim-long-lived-token-" + "x" * 150  # as long as Home Assistant's JWTs
COMPARED = ("Bluetooth Low Energy Link Layer", "BTHome")
HASS_SOURCE = "AA:BB:CC:DD:EE:01"


def self_signed(ws):
    """A self-signed certificate for 127.0.0.1 (python3-cryptography): (cert, key) files."""
    import datetime
    import ipaddress
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(x509.NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .sign(key, hashes.SHA256()))
    cert_file = ws.write_config("sim.crt", cert.public_bytes(
        serialization.Encoding.PEM).decode())
    key_file = ws.write_config("sim.key", key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()).decode())
    return cert_file, key_file


def verbose_of_file(ws, name, keys=()):
    return ws.run(["-r", os.path.join(CAPTURES, name), "-V"] + list(keys)).stdout


def rssi_lines(verbose):
    return re.findall(r"^ +Signal dBm: (-?\d+)$", verbose, re.M)


class Suite:
    def __init__(self, plugin):
        self.ws = ExtcapTshark(plugin)
        self.check = wsrun.Checks()
        self.enc_keys = wsrun.key_options(os.path.join(CAPTURES, "encrypted.keys"))
        self.key_file = self.ws.secret_file("esphome.key", KEY_B64 + "\n")
        self.token_file = self.ws.secret_file("hass.token", TOKEN + "\n")
        self.encrypted = read_ll_phdr("encrypted-ll-phdr.pcap")
        self.plain = read_ll_phdr("spec-examples-ll-phdr.pcap")[:24]
        self.enc_file = verbose_of_file(self.ws, "encrypted-ll-phdr.pcap", self.enc_keys)
        self.plain_file = verbose_of_file(self.ws, "spec-examples-ll-phdr.pcap")

    def no_secret(self, proc, what):
        text = proc.stdout + proc.stderr
        self.check(KEY_B64 not in text and TOKEN not in text and "sim-long" not in text,
                   f"{what}: no key or token in the output")

    def same_as_file(self, proc, file_verbose, n, what):
        live, want = sections(proc.stdout, COMPARED), sections(file_verbose, COMPARED)[:n]
        self.check(len(live) == n, f"{what}: {n} frames captured", f"got {len(live)}: "
                   f"{proc.stderr[-500:]}")
        diff = next((i for i, (a, b) in enumerate(zip(live, want)) if a != b), None)
        self.check(diff is None and len(live) == n, f"{what}: link layer and BTHome trees "
                   "equal the test capture's",
                   "" if diff is None else f"frame {diff + 1}:\n" +
                   "\n".join(l for l in live[diff] if l not in want[diff])[:800])

    def expect_error(self, proc, pattern, what):
        frames = sections(proc.stdout, ("Bluetooth",))
        self.check(re.search(pattern, proc.stderr, re.M) is not None and not frames,
                   f"{what}: error /{pattern}/ and no packet",
                   f"stderr: {proc.stderr[-400:]!r}, {len(frames)} frames")
        self.no_secret(proc, what)

    def esphome(self, fw, n, seconds=25, **prefs):
        with sim_esphome.Proxy(fw) as proxy:
            prefs = dict(host="127.0.0.1", port=proxy.port, **prefs)
            proc = self.ws.live("esphome-ble", prefs, n, seconds, ["-V"] + self.enc_keys)
            time.sleep(0.5)           # the proxy logs the goodbye
            return proc, proxy

    # ------------------------------------------------------------------ ESPHome
    def test_list(self):
        out = self.ws.run(["-D"]).stdout
        self.check("esphome-ble" in out and "hass-ble" in out,
                   "tshark -D lists esphome-ble and hass-ble", out[-600:])

    def test_plaintext(self):
        adverts = [a[:4] for a in self.plain]
        fw = sim_esphome.Firmware(adverts=adverts, batch=5)     # API 1.15
        proc, proxy = self.esphome(fw, len(adverts))
        self.same_as_file(proc, self.plain_file, len(adverts), "plaintext proxy, API 1.15")
        comments = re.findall(r"^    heard by bt-proxy-sim \(ESPHome proxy 127\.0\.0\.1\)$",
                              proc.stdout, re.M)
        self.check(len(comments) == len(adverts),
                   "plaintext: each frame's comment names the proxy", str(len(comments)))
        self.check(rssi_lines(proc.stdout) == rssi_lines(self.plain_file)[:len(adverts)],
                   "plaintext: RSSI in the pseudo-header", str(rssi_lines(proc.stdout)))
        self.check("Incorrect CRC" not in proc.stdout and
                   proc.stdout.count("CRC: 0x") == len(adverts), "plaintext: CRCs correct")
        self.check("pong" in proxy.log, "plaintext: the extcap answers the proxy's ping",
                   str(proxy.log))
        self.check(proxy.log[-2:] == ["message 87", "message 5"],
                   "plaintext: on stop, unsubscribe (87) then disconnect (5)",
                   str(proxy.log[-4:]))

    def test_noise(self):
        adverts = [a[:4] for a in self.encrypted]
        fw = sim_esphome.Firmware(key=KEY, adverts=adverts, batch=2)
        proc, proxy = self.esphome(fw, len(adverts), encryptionkeyfile=self.key_file)
        self.check("noise ok" in proxy.log, "noise: handshake with dissononce as the "
                   "responder", str(proxy.log))
        self.same_as_file(proc, self.enc_file, len(adverts), "noise proxy")
        # 4.0 shows BTHome as a top-level tree, 4.4 and later inside the service data
        first = (re.split(r"^Frame \d+:", proc.stdout, flags=re.M) + ["", ""])[1]
        self.check(all(re.search(p, first, re.M) for p in (
                   r"^ +Temperature: 25\.06 °C$", r"^ +Humidity: 50\.55 %$",
                   r"^ +\[Decrypted: True\]$")),
                   "noise: the spec's advert decrypts to 25.06 °C, 50.55 %", first[-1500:])
        self.check(re.search(r"Advertising Address: \S+_8f:80:a5 \(54:48:e6:8f:80:a5\)",
                             proc.stdout) is not None,    # the vendor's name differs
                   "noise: AdvA in on-air order shows 54:48:e6:8f:80:a5")
        self.check(rssi_lines(proc.stdout) == rssi_lines(self.enc_file)[:len(adverts)],
                   "noise: RSSI", str(rssi_lines(proc.stdout)))
        self.no_secret(proc, "noise")

    def test_auth_required(self):
        adverts = [a[:4] for a in self.plain[:3]]
        fw = sim_esphome.Firmware(adverts=adverts, requires_auth=True, password="pw",
                                  feature_flags=0x7F, scanner_state=False)
        pw = self.ws.secret_file("api.password", "pw\n")
        proc, proxy = self.esphome(fw, 3, passwordfile=pw)
        self.same_as_file(proc, self.plain_file, 3, "firmware that requires message 3 "
                          "(old firmware: feature flags, no scanner state)")
        self.check("subscription before message 3: closing" not in proxy.log,
                   "message 3 comes before the subscription")
        bad = self.ws.secret_file("bad.password", "wrong\n")
        proc, _ = self.esphome(fw, 1, 15, passwordfile=bad)
        self.expect_error(proc, r"esphome-ble: the device refused the password",
                          "wrong password")

    def test_wrong_key(self):
        fw = sim_esphome.Firmware(key=KEY, adverts=[a[:4] for a in self.encrypted])
        other = self.ws.secret_file("other.key", base64.b64encode(bytes(32)).decode())
        proc, proxy = self.esphome(fw, 1, 15, encryptionkeyfile=other)
        self.expect_error(proc, r"esphome-ble: wrong encryption key \(the device answered: "
                          r"Handshake MAC failure\)", "wrong key")
        self.check("handshake MAC failure" in proxy.log, "wrong key: the responder's tag "
                   "check failed", str(proxy.log))
        notkey = self.ws.secret_file("not.key", "not-base64!")
        proc, _ = self.esphome(fw, 1, 15, encryptionkeyfile=notkey)
        self.expect_error(proc, r"esphome-ble: the encryption key is not base64 of 32 "
                          r"bytes", "a key that is not base64 of 32 bytes")

    def test_mismatch(self):
        fw = sim_esphome.Firmware(key=KEY, adverts=[a[:4] for a in self.plain[:2]])
        proc, _ = self.esphome(fw, 1, 15)
        self.expect_error(proc, r"esphome-ble: the device encrypts its API: give its "
                          r"encryption key", "plaintext client, encrypted device")
        fw = sim_esphome.Firmware(adverts=[a[:4] for a in self.plain[:2]])
        proc, _ = self.esphome(fw, 1, 15, encryptionkeyfile=self.key_file)
        self.expect_error(proc, r"esphome-ble: the device closed the connection during "
                          r"the encrypted hello: its API may not be encrypted",
                          "encrypted client, plaintext device")

    def test_no_scanner_state(self):
        fw = sim_esphome.Firmware(adverts=[a[:4] for a in self.plain[:2]],
                                  other_subscriber=True)
        proc, _ = self.esphome(fw, 1, 20, streamtimeout=2)
        self.expect_error(proc, r"esphome-ble: no scanner state and no advertisement 2 s "
                          r"after subscribing: another client holds this proxy's stream "
                          r"\(Home Assistant\?\)", "a proxy that never sends its scanner state")
        fw = sim_esphome.Firmware(adverts=[a[:4] for a in self.plain[:2]], feature_flags=1)
        proc, _ = self.esphome(fw, 1, 15)
        self.expect_error(proc, r"esphome-ble: bt-proxy-sim does not forward raw "
                          r"advertisements", "feature flags without raw advertisements")

    def test_reconnect(self):
        adverts = [a[:4] for a in self.encrypted]
        fw = sim_esphome.Firmware(key=KEY, adverts=adverts, batch=1, drop_after=4)
        proc, proxy = self.esphome(fw, len(adverts), 30, encryptionkeyfile=self.key_file)
        self.check(proxy.connections == 2 and "dropping the connection" in proxy.log,
                   "drop: the extcap connects again", str(proxy.log))
        self.same_as_file(proc, self.enc_file, len(adverts), "drop and reconnect")

    def test_refused(self):
        import socket
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()                                   # nothing listens there now
        proc = self.ws.live("esphome-ble", {"host": "127.0.0.1", "port": port}, 1, 15)
        self.expect_error(proc, rf"esphome-ble: connection refused by 127\.0\.0\.1 port "
                          rf"{port}$", "connection refused")

    def test_orphan(self):
        """An extcap whose parent (Wireshark) ended without stopping it stops by itself,
        unsubscribing, instead of reconnecting to the proxy for ever."""
        import subprocess
        import threading
        fw = sim_esphome.Firmware(adverts=[a[:4] for a in self.plain[:3]])
        fifo = os.path.join(self.ws.tmp, "orphan.fifo")
        os.mkfifo(fifo)
        extcap = os.path.join(common.ROOT, "extcap", "bthome-proxy")
        with sim_esphome.Proxy(fw) as proxy:
            parent = subprocess.Popen(
                [sys.executable, "-c", "import subprocess, sys, time\n"
                 "p = subprocess.Popen(sys.argv[1:]); print(p.pid, flush=True)\n"
                 "time.sleep(4)", sys.executable, extcap, "--capture",
                 "--extcap-interface", "esphome-ble", "--fifo", fifo,
                 "--host", "127.0.0.1", "--port", str(proxy.port)],
                stdout=subprocess.PIPE, text=True)
            pid = int(parent.stdout.readline())
            data = []
            reader = threading.Thread(target=lambda: data.append(open(fifo, "rb").read()),
                                      daemon=True)
            reader.start()
            parent.wait(20)
            gone = False
            for _ in range(50):         # 5 s
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    gone = True
                    break
                time.sleep(0.1)
            if not gone:
                os.kill(pid, 9)
            reader.join(5)
            time.sleep(0.5)
        self.check(gone, "orphan: the extcap ends when its parent is gone")
        self.check("message 87" in proxy.log and proxy.connections == 1,
                   "orphan: it unsubscribed and did not reconnect", str(proxy.log))
        self.check(bool(data) and data[0].count(bytes([2, 1, 6])) >= 3,
                   "orphan: the adverts reached the fifo before",
                   f"{len(data[0]) if data else 0} bytes")

    # ------------------------------------------------------------ Home Assistant
    def hass_entries(self, raw):
        """Entries for the encrypted set's adverts from public addresses (Home Assistant
        gives no address type, so the frames say public)."""
        out = []
        for i, (address, rssi, address_type, ad, _) in enumerate(self.encrypted):
            if address_type:
                continue
            entry = {"address": mac_text(address).upper(), "rssi": rssi,
                     "name": mac_text(address).upper().replace(":", "-"),
                     "connectable": False, "source": HASS_SOURCE,
                     "time": 1767225600.25 + i, "tx_power": None,
                     "raw": ad.hex() if raw else None, "service_uuids": [],
                     "manufacturer_data": {}, "service_data": {}}
            if not raw:
                sd = ad[ad.index(b"\x16\xd2\xfc") + 3:ad[0] + 1 + ad[1 + ad[0]] + 1]
                entry["service_data"] = {"0000fcd2-0000-1000-8000-00805f9b34fb": sd.hex()}
            out.append((i, entry))
        return out

    def hass(self, sim, n, seconds=25, extra=(), **prefs):
        prefs = dict(url=sim.url, **prefs)
        proc = self.ws.live("hass-ble", prefs, n, seconds, ["-V"] + self.enc_keys +
                            list(extra))
        time.sleep(0.5)
        return proc

    def test_hass_raw(self):
        entries = self.hass_entries(raw=True)
        other = dict(entries[0][1], source="11:22:33:44:55:66")
        events = [[other, entries[0][1]], [e for _, e in entries[1:]]]
        with sim_hass.HomeAssistant(TOKEN, events) as sim:
            proc = self.hass(sim, len(entries), tokenfile=self.token_file,
                             source=HASS_SOURCE.lower())
            log = sim.log
        want = sections(self.enc_file, COMPARED)
        live = sections(proc.stdout, COMPARED)
        self.check(len(live) == len(entries) and
                   all(live[k] == want[i] for k, (i, _) in enumerate(entries)),
                   "hass raw: link layer and BTHome trees equal the test capture's "
                   "(--source keeps one proxy's)", f"{len(live)} frames; {proc.stderr[-300:]}")
        times = re.findall(r"Epoch (?:Arrival )?Time: (\d+\.\d+)", proc.stdout)  # 4.4 on
        self.check(times[:1] == ["1767225600.250000000"], "hass: timestamps are the "
                   "advert's time", str(times[:2]))
        self.check(rssi_lines(proc.stdout) == [str(e["rssi"]) for _, e in entries],
                   "hass: RSSI", str(rssi_lines(proc.stdout)))
        self.check(f"heard by {HASS_SOURCE} (Home Assistant)" in proc.stdout,
                   "hass: the comment names the source")
        self.check("pong" in log, "hass: websocket pings answered", str(log))
        self.check("message unsubscribe_events" in log, "hass: unsubscribes on stop",
                   str(log))
        self.no_secret(proc, "hass raw")

    def test_hass_rebuilt(self):
        entries = self.hass_entries(raw=False)
        with sim_hass.HomeAssistant(TOKEN, [[e for _, e in entries]]) as sim:
            proc = self.hass(sim, len(entries), tokenfile=self.token_file)
        want = sections(self.enc_file, ("BTHome",))
        live = sections(proc.stdout, ("BTHome",))
        self.check(len(live) == len(entries) and
                   all(live[k] == want[i] for k, (i, _) in enumerate(entries)),
                   "hass raw null: AD rebuilt from service_data, BTHome trees equal the "
                   "test capture's", f"{len(live)} frames; {proc.stderr[-300:]}")
        self.check("Temperature: 25.06 °C" in proc.stdout and
                   "Incorrect CRC" not in proc.stdout, "hass raw null: 25.06 °C, CRC good")

    def test_hass_errors(self):
        with sim_hass.HomeAssistant(TOKEN, []) as sim:
            bad = self.ws.secret_file("bad.token", "not-the-token")
            proc = self.hass(sim, 1, 15, tokenfile=bad)
        self.expect_error(proc, r"hass-ble: Home Assistant refused the access token "
                          r"\(auth_invalid\)", "token invalid")
        with sim_hass.HomeAssistant(TOKEN, [], admin=False) as sim:
            proc = self.hass(sim, 1, 15, tokenfile=self.token_file)
        self.expect_error(proc, r"hass-ble: the token's user is not an administrator",
                          "token without admin rights")

    def test_hass_tls(self):
        """https verifies the certificate: a self-signed one is refused."""
        cert, key = self_signed(self.ws)
        with sim_hass.HomeAssistant(TOKEN, [], tls=(cert, key)) as sim:
            proc = self.hass(sim, 1, 15, tokenfile=self.token_file)
            log = sim.log
        self.expect_error(proc, r"hass-ble: 127\.0\.0\.1's certificate does not verify",
                          "https with a self-signed certificate")
        self.check("auth_ok" not in log and "auth_invalid" not in log,
                   "https: no token sent to an unverified server", str(log))


def main(suite_class=Suite, title="extcap end to end"):
    """Runs the test_ methods suite_class defines itself (-k: those whose name holds it)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("-k", help="only tests whose name contains this")
    args = ap.parse_args()
    suite = suite_class(args.plugin)
    try:
        for name in sorted(n for n in vars(suite_class) if n.startswith("test_")):
            if args.k and args.k not in name:
                continue
            print(f"{name}:")
            sys.stdout.flush()
            getattr(suite, name)()
    finally:
        suite.ws.close()
    return suite.check.summary(title)


if __name__ == "__main__":
    sys.exit(main())
