# SPDX-License-Identifier: GPL-2.0-or-later
"""Benchmark of the live-capture extcap (extcap/bthome-proxy): adverts per second from a
simulated ESPHome proxy (tests/extcap/sim_esphome.py, Noise-encrypted or plaintext API)
into `tshark -i esphome-ble` with the plugin decoding every one, and the delay from the
proxy's send to the frame reaching tshark.

    python3 -m bench.extcap_bench --plugin build/bthome.so
    python3 -m bench.extcap_bench --plugin build/bthome.so --adverts 20000 --rates 3000,0 \
        --plaintext

Each advert carries a distinct temperature, so the run counts how many tshark decoded
(all, or the run says so). Rate 0 is a flood (as fast as the proxy can send, in batches
of 16 as ESPHome sends them): the sustained rate. At a paced rate the delays are:
  capture delay: the proxy's send to the frame's timestamp (the extcap's receive time);
  decode delay:  the proxy's send to tshark printing the decoded advert (-l, one line per
                 packet): what a user sees, including dumpcap and the dissection.
A benchmark, not a test: it fails only when something does not run.
"""
import argparse
import base64
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time

from tests.extcap import sim_esphome
from tests.extcap.common import ExtcapTshark

HERE = os.path.dirname(os.path.abspath(__file__))

KEY = bytes(range(32))
BATCH = 16


def adverts(n):
    """BTHome v2 plaintext adverts, temperature (object 0x02, 0.01 °C) = i - 16000."""
    out = []
    for i in range(n):
        value = (i - 16000).to_bytes(2, "little", signed=True)
        ad = bytes([2, 1, 6, 7, 0x16, 0xD2, 0xFC, 0x40, 0x02]) + value
        out.append((0xA4C138000001 + i % 50, -60 - i % 30, 0, ad))
    return out


def run(ws, n, rate, key, key_file):
    sends = [0.0] * n
    fw = sim_esphome.Firmware(key=key, adverts=adverts(n), batch=BATCH,
                              rate=rate or None, ping_first=False,
                              on_send=lambda i, t: sends.__setitem__(i, t))
    with sim_esphome.Proxy(fw) as proxy:
        args = ["-i", "esphome-ble", "-o", "extcap.esphome_ble.host:127.0.0.1",
                "-o", f"extcap.esphome_ble.port:{proxy.port}", "-c", str(n),
                "-a", f"duration:{max(60, 3 * n // max(rate, 500))}", "-l", "-n",
                "-T", "fields", "-e", "frame.time_epoch", "-e", "bthome.temperature"]
        if key:
            args += ["-o", f"extcap.esphome_ble.encryptionkeyfile:{key_file}"]
        proc = subprocess.Popen(ws.command(args), env=ws.env(), cwd=ws.tmp,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        err = []
        threading.Thread(target=lambda: err.append(proc.stderr.read()), daemon=True).start()
        seen = {}
        for line in proc.stdout:
            arrived = time.time()
            stamp, _, temp = line.rstrip("\n").partition("\t")
            if temp:
                i = round(float(temp) * 100) + 16000
                seen.setdefault(i, (float(stamp), arrived))
        proc.wait()
    if len(seen) < n:
        print(f"  only {len(seen)} of {n} adverts decoded; tshark said: "
              f"{''.join(err)[-300:]}")
    first = min(sends[:n])
    last = max(a for _, a in seen.values()) if seen else first
    capture = [s - sends[i] for i, (s, _) in seen.items()]
    decode = [a - sends[i] for i, (_, a) in seen.items()]
    return len(seen), len(seen) / (last - first), capture, decode


def run_alone(n, rate, key, key_file):
    """The extcap alone, writing into a fifo the benchmark reads (no dumpcap, no tshark):
    (adverts read, sustained rate, delays)."""
    sends = [0.0] * n
    fw = sim_esphome.Firmware(key=key, adverts=adverts(n), batch=BATCH,
                              rate=rate or None, ping_first=False,
                              on_send=lambda i, t: sends.__setitem__(i, t))
    tmp = tempfile.mkdtemp(prefix="bthome-extcap-bench-")
    fifo = os.path.join(tmp, "fifo")
    os.mkfifo(fifo)
    got = {}
    with sim_esphome.Proxy(fw) as proxy:
        cmd = [sys.executable, os.path.join(HERE, "..", "extcap", "bthome-proxy"),
               "--capture", "--extcap-interface", "esphome-ble", "--fifo", fifo,
               "--host", "127.0.0.1", "--port", str(proxy.port)]
        if key:
            cmd += ["--encryption-key-file", key_file]
        proc = subprocess.Popen(cmd)
        with open(fifo, "rb") as f:
            buf = b""
            while len(got) < n:
                chunk = f.read1(65536)
                if not chunk:
                    break
                arrived = time.time()
                buf += chunk
                while len(buf) >= 12:
                    block_type, length = struct.unpack("<II", buf[:8])
                    if len(buf) < length:
                        break
                    if block_type == 6:          # an enhanced packet: its frame's value
                        caplen = struct.unpack("<I", buf[20:24])[0]
                        frame = buf[28:28 + caplen]
                        value = int.from_bytes(frame[-5:-3], "little", signed=True)
                        got.setdefault(value + 16000, arrived)
                    buf = buf[length:]
        proc.terminate()
        proc.wait()
    shutil.rmtree(tmp, ignore_errors=True)
    first = min(sends)
    delays = [a - sends[i] for i, a in got.items()]
    return len(got), len(got) / (max(got.values()) - first), delays


def ms(values, q):
    values = sorted(values)
    return 1000 * values[min(len(values) - 1, int(q * len(values)))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--adverts", type=int, default=20000, help="per run (at most 32000)")
    ap.add_argument("--rates", default="0,3000", help="adverts/s per run, 0: flood")
    ap.add_argument("--plaintext", action="store_true", help="plaintext API (default Noise)")
    args = ap.parse_args()
    key = None if args.plaintext else KEY
    with ExtcapTshark(args.plugin) as ws:
        key_file = ws.secret_file("bench.key", base64.b64encode(KEY).decode())
        api = "plaintext" if args.plaintext else "Noise"
        print(f"extcap benchmark: {args.adverts} adverts per run, {api} API, "
              f"batches of {BATCH}, {os.cpu_count()} CPUs")
        print("rate asked | decoded | sustained/s | capture delay p50/p99/max ms | "
              "decode delay p50/p99/max ms")
        for rate in (int(r) for r in args.rates.split(",")):
            got, sustained, capture, decode = run(ws, args.adverts, rate, key, key_file)
            print(f"{rate or 'flood':>10} | {got:>7} | {sustained:>11.0f} | "
                  f"{ms(capture, .5):.1f} / {ms(capture, .99):.1f} / {ms(capture, 1):.1f} | "
                  f"{ms(decode, .5):.1f} / {ms(decode, .99):.1f} / {ms(decode, 1):.1f}")
            sys.stdout.flush()
        print("the extcap alone (into a fifo the benchmark reads, no dumpcap or tshark):")
        print("rate asked | read    | sustained/s | delay p50/p99/max ms")
        for rate in (int(r) for r in args.rates.split(",")):
            got, sustained, delays = run_alone(args.adverts, rate, key, key_file)
            print(f"{rate or 'flood':>10} | {got:>7} | {sustained:>11.0f} | "
                  f"{ms(delays, .5):.1f} / {ms(delays, .99):.1f} / {ms(delays, 1):.1f}")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
