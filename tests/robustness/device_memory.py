# SPDX-License-Identifier: GPL-2.0-or-later
"""Per-device memory of the plugin: peak RSS of tshark on a capture where every frame
comes from another random address, against one of as many frames from 50 devices.

The audit (and the device names) keep state per advertiser address, for the whole
capture file: a crowded place, or an attacker sending from random addresses, must not
make it blow up. Both captures are dissected with and without the plugin; the plugin's
cost per device is the growth it adds on top of Wireshark's own:

    ((RSS_many - RSS_50) with plugin - (RSS_many - RSS_50) without) / (devices - 50)

The captures are written to a temporary folder with captures/make_captures.py's
framing (BLE link layer). With --max-bytes the run fails when a device costs more.

    python3 -m tests.robustness.device_memory --plugin build/bthome.so [--devices 100000]
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from captures.make_captures import LINK_TYPES, Advert, adv_data, one_per_event, write_pcap
from tests.robustness.wrapped import WrappedTshark

FEW_DEVICES = 50
START_US = 1704067200 * 1_000_000


def advert(mac, seq):
    """A plaintext v2 reading with a packet id: what most sensors send."""
    payload = bytes([0x40, 0x00, seq & 0xFF, 0x02]) + (2000 + seq % 500).to_bytes(2, "little")
    return Advert(mac, adv_data(payload), random=True)


def random_macs(count, rng):
    macs = set()
    while len(macs) < count:
        raw = rng.getrandbits(48) | 0xC0 << 40      # random static address
        macs.add(":".join(f"{(raw >> s) & 0xFF:02X}" for s in range(40, -8, -8)))
    return sorted(macs, key=lambda _: rng.random())


def write_capture(path, macs, frames):
    adverts = [advert(macs[i % len(macs)], i) for i in range(frames)]
    linktype, builder = LINK_TYPES["ll"]
    write_pcap(path, linktype, builder(one_per_event(adverts, START_US, 1000)))
    os.chmod(path, 0o644)


def peak_rss_kib(ws, capture):
    """Peak RSS of one tshark run printing every frame's summary (every frame dissected
    once, in order)."""
    with open(os.devnull, "wb") as null:
        proc = subprocess.Popen(ws.command(["-n", "-r", str(capture)]), env=ws.env(),
                                stdout=null, stderr=subprocess.PIPE, cwd=ws.tmp)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        err = proc.stderr.read().decode("utf-8", "replace")
    if proc.returncode != 0:
        raise SystemExit(f"device_memory: tshark exited {proc.returncode}: {err[-2000:]}")
    return usage.ru_maxrss


def measure(ws, many, few):
    return {"many": peak_rss_kib(ws, many), "few": peak_rss_kib(ws, few)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--devices", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--max-bytes", type=int, help="fail above this many bytes a device")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bthome-devices-") as tmp, \
            WrappedTshark(args.plugin) as ws:
        os.chmod(tmp, 0o755)
        many, few = Path(tmp) / "many.pcap", Path(tmp) / "few.pcap"
        write_capture(many, random_macs(args.devices, rng), args.devices)
        write_capture(few, random_macs(FEW_DEVICES, rng), args.devices)
        ws.extra_env = {}       # Wireshark's default allocators: what users run
        plugin = measure(ws, many, few)
        for so in Path(ws.tmp, "plugins").rglob("*.so"):
            so.unlink()                    # the same runs without the plugin
        bare = measure(ws, many, few)
    growth = (plugin["many"] - plugin["few"]) - (bare["many"] - bare["few"])
    per_device = growth * 1024 / (args.devices - FEW_DEVICES)
    print(f"device memory: {args.devices} frames, peak RSS with the plugin "
          f"{plugin['many'] / 1024:.1f} MiB from {args.devices} addresses vs "
          f"{plugin['few'] / 1024:.1f} MiB from {FEW_DEVICES} (without the plugin "
          f"{bare['many'] / 1024:.1f} vs {bare['few'] / 1024:.1f} MiB): "
          f"{per_device:.0f} bytes per device ({time.monotonic() - start:.0f} s)")
    if args.max_bytes is not None and per_device > args.max_bytes:
        print(f"device memory: FAILED, more than {args.max_bytes} bytes per device")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
