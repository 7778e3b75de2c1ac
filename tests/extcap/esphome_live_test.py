# SPDX-License-Identifier: GPL-2.0-or-later
"""esphome-ble left running in a home: the real tshark captures through the extcap from
the simulated proxy (sim_esphome.py) with the firmware's subscriber rule (first subscriber
keeps the stream before ESPHome 2026.7, newest takes it from 2026.7), a dead connection
holding the slot after a Wi-Fi drop, versions, feature flags and Noise padding.

The extcap's stream timers run at BTHOME_PROXY_TEST_TIMERS (here 1/20), and so does
the simulated firmware's reaping of a dead connection (150 s).

    python3 -m tests.extcap.esphome_live_test --plugin build/bthome.so
"""
import os
import re
import subprocess
import sys
import time

from tests.extcap import common, extcap_test, sim_esphome
from tests.extcap.extcap_test import KEY

SCALE = 0.05
SLOT_REAPED_S = 150          # what the firmware takes to reap a dead connection
HASS_LINE = (r"Home Assistant.*capture through Home Assistant instead \(interface "
             r"hass-ble\)")


class Live(extcap_test.Suite):
    def adverts(self, n=None):
        return [a[:4] for a in self.plain[:n]]

    def refused(self, proc, proxy, what):
        self.check("message 66" not in proxy.log and
                   not any(e.startswith("subscription") for e in proxy.log),
                   f"{what}: no subscription sent", str(proxy.log))

    # ------------------------------------------------------- subscriber rule
    def test_subscriber_rule(self):
        """2026.7 and later, or no version: no subscription by default; one line naming
        Home Assistant, hass-ble and the option that takes the stream. Before 2026.7:
        subscribed."""
        fw = sim_esphome.Firmware(adverts=self.adverts(3), version="2026.7.1",
                                  other_subscriber=True)
        proc, proxy = self.esphome(fw, 1, 15)
        self.expect_error(proc, r"esphome-ble: bt-proxy-sim runs ESPHome 2026\.7, which "
                          r"gives the Bluetooth stream to its newest subscriber: "
                          r"subscribing would take it from " + HASS_LINE + r".*take it "
                          r"anyway \(--take-stream / -o extcap\.esphome_ble\.takestream:"
                          r"true\)$", "2026.7.1: refused")
        self.refused(proc, proxy, "2026.7.1")
        lines = [l for l in proc.stderr.splitlines() if "esphome-ble:" in l]
        self.check(len(lines) == 1, "2026.7.1: one line", str(lines))
        # The version from the hello alone: bare from 2025.9 on.
        fw = sim_esphome.Firmware(adverts=self.adverts(3), version="2026.8.0",
                                  info_version=False, other_subscriber=True)
        proc, proxy = self.esphome(fw, 1, 15)
        self.expect_error(proc, r"esphome-ble: bt-proxy-sim runs ESPHome 2026\.8, which "
                          r"gives the Bluetooth stream to its newest subscriber",
                          "2026.8.0 from the hello's bare server_info: refused")
        self.refused(proc, proxy, "2026.8.0 (hello)")
        # Unknown version: taken as the newest-wins rule.
        fw = sim_esphome.Firmware(adverts=self.adverts(3), version=None,
                                  other_subscriber=True)
        proc, proxy = self.esphome(fw, 1, 15)
        self.expect_error(proc, r"esphome-ble: bt-proxy-sim does not give its ESPHome "
                          r"version; from 2026\.7 ESPHome gives the Bluetooth stream to "
                          r"its newest subscriber: subscribing would take it from " +
                          HASS_LINE, "unknown version: refused")
        self.refused(proc, proxy, "unknown version")

        # Before 2026.7 the extcap subscribes; the version is read from DeviceInfo or
        # from the hello's "NAME (esphome vX)" (before 2025.9).
        for version, info in (("2026.6.2", True), ("2025.8.0", False)):
            fw = sim_esphome.Firmware(adverts=self.adverts(4), version=version,
                                      info_version=info)
            proc, proxy = self.esphome(fw, 4)
            what = f"{version} ({'device info' if info else 'hello server_info'})"
            self.same_as_file(proc, self.plain_file, 4, what)

    def test_take_stream(self):
        """--take-stream on 2026.7: the stream is taken, and the log says that Home
        Assistant loses it and how it gets it back."""
        fw = sim_esphome.Firmware(adverts=self.adverts(5), version="2026.7.1",
                                  other_subscriber=True)
        proc, proxy = self.esphome(fw, 5, takestream="true")
        self.same_as_file(proc, self.plain_file, 5, "--take-stream")
        self.check("subscription taken from Home Assistant" in proxy.log,
                   "--take-stream: the proxy gave the stream to the extcap", str(proxy.log))
        self.check(re.search(r"esphome-ble: taking bt-proxy-sim's Bluetooth stream "
                             r"\(--take-stream / -o extcap\.esphome_ble\.takestream:true\): "
                             r"Home Assistant loses it until its ESPHome entry for the proxy "
                             r"is reloaded or the proxy reboots", proc.stderr) is not None,
                   "--take-stream: the log says Home Assistant loses the stream",
                   proc.stderr[-400:])

    def test_first_subscription_nothing(self):
        """First subscription refused by a first-wins proxy that Home Assistant holds:
        the default 30 s (scaled), then the line naming Home Assistant and hass-ble; the
        same on firmware before 2025.5, which sends no scanner state."""
        for version, state in (("2026.6.2", True), ("2025.4.0", False)):
            fw = sim_esphome.Firmware(adverts=self.adverts(2), version=version,
                                      scanner_state=state, other_subscriber=True)
            start = time.monotonic()
            proc, proxy = self.esphome(fw, 1, 40)
            took = time.monotonic() - start
            self.expect_error(proc, r"esphome-ble: no scanner state and no advertisement "
                              r"30 s after subscribing: another client holds this proxy's "
                              r"stream \(" + HASS_LINE, f"{version}: nothing comes")
            self.check("subscription refused: Home Assistant holds the slot" in proxy.log
                       and took < 20, f"{version}: ends after the (scaled) 30 s",
                       f"{took:.1f} s, {proxy.log}")

    # ------------------------------------------------ Wi-Fi drop, dead slot
    def test_wifi_drop(self):
        """A capture left running through a Wi-Fi drop: the dead connection holds the
        slot (150 s, scaled); the extcap resubscribes (10 s, 30 s, 60 s...) until it
        lands, and every advert sent once the stream is back is captured, once."""
        adverts = [a[:4] for a in self.encrypted]
        for version, state in (("2026.6.2", True), ("2025.4.0", False)):
            fw = sim_esphome.Firmware(key=KEY, adverts=adverts, batch=1, drop_after=4,
                                      version=version, scanner_state=state,
                                      stale_slot_s=SLOT_REAPED_S * SCALE)
            proc, proxy = self.esphome(fw, len(adverts), 60,
                                       encryptionkeyfile=self.key_file)
            what = f"Wi-Fi drop ({version})"
            refusals = proxy.log.count("subscription refused: a dead connection holds "
                                       "the slot")
            self.check(proxy.connections == 2 and refusals >= 2,
                       f"{what}: one reconnection, resubscribed while the slot was held",
                       f"{proxy.connections} connections, {refusals} refusals: "
                       f"{proc.stderr[-300:]}")
            self.same_as_file(proc, self.enc_file, len(adverts),
                              f"{what}: every advert, each once, in order")

    def test_dead_slot_newest_wins(self):
        """2026.7 with --take-stream: after the drop the new subscription takes the slot
        from the dead connection at once."""
        adverts = self.adverts(8)
        fw = sim_esphome.Firmware(adverts=adverts, batch=1, drop_after=3,
                                  version="2026.7.1", stale_slot_s=SLOT_REAPED_S)
        proc, proxy = self.esphome(fw, len(adverts), 30, takestream="true")
        self.check("subscription taken from a dead connection" in proxy.log and
                   not any(e.startswith("subscription refused") for e in proxy.log),
                   "2026.7 drop: the slot taken from the dead connection", str(proxy.log))
        self.same_as_file(proc, self.plain_file, len(adverts), "2026.7 drop")

    # ------------------------------------------------------ device checks
    def test_feature_flags(self):
        """No field 15, or no raw-advertisements bit: said at once, nothing subscribed."""
        for flags in (None, 0x1F):
            fw = sim_esphome.Firmware(adverts=self.adverts(2), feature_flags=flags)
            start = time.monotonic()
            proc, proxy = self.esphome(fw, 1, 40, streamtimeout=600)
            took = time.monotonic() - start
            what = "no field 15" if flags is None else f"flags 0x{flags:02x}"
            self.expect_error(proc, r"esphome-ble: bt-proxy-sim does not forward raw "
                              r"advertisements: not a Bluetooth proxy, or firmware before "
                              r"2023\.6$", what)
            self.check(took < 10, f"{what}: at once", f"{took:.1f} s")
            self.refused(proc, proxy, what)

    def test_noise_padding(self):
        """A Noise frame padded after its message is sliced; an inner length past the
        frame is an error."""
        adverts = [a[:4] for a in self.encrypted]
        fw = sim_esphome.Firmware(key=KEY, adverts=adverts, batch=2, noise_padding=7)
        proc, _ = self.esphome(fw, len(adverts), encryptionkeyfile=self.key_file)
        self.same_as_file(proc, self.enc_file, len(adverts), "padded Noise frames")
        fw = sim_esphome.Firmware(key=KEY, adverts=adverts, noise_length_extra=3)
        proc, _ = self.esphome(fw, 1, 15, encryptionkeyfile=self.key_file)
        self.expect_error(proc, r"esphome-ble: 127\.0\.0\.1: encrypted frame shorter than "
                          r"the length it gives$", "Noise inner length past the frame")

    # --------------------------------------------------- options, Windows
    def test_option_names(self):
        """Errors name the extcap flag and tshark's preference; the dialog has the
        take-stream checkbox and a 30 s stream timeout."""
        notkey = self.ws.secret_file("not.key", "not-base64!")
        fw = sim_esphome.Firmware(adverts=self.adverts(2))
        proc, _ = self.esphome(fw, 1, 15, encryptionkeyfile=notkey)
        self.expect_error(proc, r"esphome-ble: the encryption key is not base64 of 32 "
                          r"bytes .*--encryption-key-file / -o extcap\.esphome_ble\."
                          r"encryptionkeyfile", "bad key: flag and preference named")
        fw = sim_esphome.Firmware(key=KEY, adverts=self.adverts(2))
        proc, _ = self.esphome(fw, 1, 15)
        self.expect_error(proc, r"give its encryption key \(--encryption-key-file / -o "
                          r"extcap\.esphome_ble\.encryptionkeyfile\)",
                          "encrypted device, no key: flag and preference named")
        out = subprocess.run([sys.executable, os.path.join(common.ROOT, "extcap",
                                                           "bthome-proxy"),
                              "--extcap-interface", "esphome-ble", "--extcap-config"],
                             capture_output=True, text=True, timeout=30).stdout
        self.check(re.search(r"\{call=--take-stream\}.*\{type=boolflag\}", out) and
                   re.search(r"\{call=--stream-timeout\}.*\{default=30\}", out),
                   "config: --take-stream checkbox, stream timeout 30 s", out)

    def test_output_closed(self):
        """Wireshark's pipe gone, as Windows reports it (EINVAL): the extcap
        unsubscribes, disconnects and ends quietly, like a broken pipe."""
        script = (
            "import errno, sys\n"
            "from bthomeproxy import cli, frames\n"
            "count = [0]\n"
            "real = frames.PcapngWriter.packet\n"
            "def packet(self, *a, **k):\n"
            "    count[0] += 1\n"
            "    if count[0] > 2:\n"
            "        raise OSError(errno.EINVAL, 'Invalid argument')\n"
            "    real(self, *a, **k)\n"
            "frames.PcapngWriter.packet = packet\n"
            "sys.exit(cli.main(sys.argv[1:]))\n")
        out = os.path.join(self.ws.tmp, "einval.pcapng")
        fw = sim_esphome.Firmware(adverts=self.adverts(6), batch=1)
        with sim_esphome.Proxy(fw) as proxy:
            # the extcap's own folder on the child's path, as bthome-proxy has it
            env = dict(os.environ, PYTHONPATH=os.path.join(common.ROOT, "extcap"))
            proc = subprocess.run(
                [sys.executable, "-c", script,
                 "--capture", "--extcap-interface", "esphome-ble", "--fifo", out,
                 "--host", "127.0.0.1", "--port", str(proxy.port)],
                env=env, capture_output=True, text=True, timeout=60)
            time.sleep(0.5)
        self.check(proc.returncode == 0 and not proc.stderr,
                   "EINVAL on the pipe: the capture ends quietly",
                   f"exit {proc.returncode}: {proc.stderr[-300:]}")
        self.check(proxy.log[-2:] == ["message 87", "message 5"],
                   "EINVAL on the pipe: unsubscribe (87), disconnect (5)",
                   str(proxy.log[-4:]))

    def test_windows_ancestors(self):
        """Windows: the ancestors watched are those up to the .bat's cmd.exe (the one
        Wireshark ends), through the py launcher or not."""
        try:
            from extcap.bthomeproxy import winparent
        except ImportError:
            self.check(False, "winparent: the module exists")
            return
        procs = {40: (30, "python.exe"), 30: (20, "py.exe"), 20: (10, "cmd.exe"),
                 10: (4, "Wireshark.exe"), 4: (0, "System")}
        self.check(winparent.watched(procs, 40) == [30, 20],
                   "windows: python <- py <- cmd: py and cmd watched",
                   str(winparent.watched(procs, 40)))
        procs = {40: (20, "python.exe"), 20: (10, "CMD.EXE"), 10: (4, "Wireshark.exe")}
        self.check(winparent.watched(procs, 40) == [20],
                   "windows: python <- cmd: cmd watched", str(winparent.watched(procs, 40)))


def main():
    os.environ["BTHOME_PROXY_TEST_TIMERS"] = str(SCALE)
    return extcap_test.main(Live, "esphome-ble left running")


if __name__ == "__main__":
    sys.exit(main())
