# SPDX-License-Identifier: GPL-2.0-or-later
"""hass-ble left running: the real tshark captures through the extcap from a simulated
Home Assistant that restarts (connection refused, a reverse proxy's 503, unknown_command
while Bluetooth loads, a slow login), pings, stalls a frame half-way, goes half-open, and
sends its history first; plus --skip-history, --source, --ca-file and the errors' names.
The extcap's timers are shortened by BTHOME_PROXY_TEST_TIMERS (the simulator's too).

    python3 -m tests.extcap.hass_live_test --plugin build/bthome.so
"""
import os
import re
import sys
import time

from tests.extcap import extcap_test, sim_hass
from tests.extcap.extcap_test import HASS_SOURCE, TOKEN

FAST = "0.05"           # 120 s without a frame: 6 s; a 55 s heartbeat: 2.75 s


def comments(proc):
    """The frame comments of `tshark -V` output, in order."""
    return re.findall(r"^    ((?:history: )?heard by .*)$", proc.stdout, re.M)


def addresses(proc):
    return re.findall(r"Advertising Address: .*\((\S+)\)$", proc.stdout, re.M)


class HassLive(extcap_test.Suite):
    def timers(self, factor):
        if factor:
            os.environ["BTHOME_PROXY_TEST_TIMERS"] = factor
        else:
            os.environ.pop("BTHOME_PROXY_TEST_TIMERS", None)

    def entries(self):
        """Distinct adverts (address, AD) as Home Assistant entries, and each one's
        address as tshark shows it."""
        out, seen = [], set()
        for _, entry in self.hass_entries(raw=True):
            if (entry["address"], entry["raw"]) not in seen:
                seen.add((entry["address"], entry["raw"]))
                out.append(entry)
        return out

    def live_hass(self, plans, n, seconds, **prefs):
        with sim_hass.HomeAssistant(TOKEN, [], plans=plans) as sim:
            prefs.setdefault("tokenfile", self.token_file)
            proc = self.hass(sim, n, seconds, **prefs)
            return proc, list(sim.log), sim.connections

    def test_restart(self):
        """A capture left running through Home Assistant's restart holds every advert
        sent once the stream is back, each once; the history already written is not
        written again, the new one is marked."""
        self.timers(FAST)
        e = self.entries()
        old = dict(e[0], time=e[0]["time"] - 3600)
        plans = [{"history": [old], "events": [[e[1]], [e[2]]], "end": "close",
                  "down_after": 2},
                 {"http": "503 Service Unavailable"},
                 {"unknown_command": True},
                 {"auth_delay": 1.5},
                 {"history": [e[2], e[3]], "events": [[e[4]], [e[5]]]}]
        proc, log, connections = self.live_hass(plans, 7, 20)
        want = [x["address"].lower() for x in (old, e[1], e[2], e[3], e[4], e[5])]
        got = addresses(proc)
        self.check(got == want, "restart: every advert once, in order, none twice "
                   "(6 frames)", f"{got} want {want}; {proc.stderr[-300:]}")
        for step in ("down", "up", "http 503", "unknown_command", "slow auth"):
            self.check(step in log, f"restart: the extcap rode through '{step}'", str(log))
        self.check(connections >= 5, "restart: it connected again after each failure",
                   str(connections))
        c = comments(proc)
        self.check(c[:1] == [f"history: heard by {HASS_SOURCE} (Home Assistant, before "
                             "the capture)"] and c[3:4] ==
                   [f"history: heard by {HASS_SOURCE} (Home Assistant, before "
                    "resubscribing)"] and sum(x.startswith("history") for x in c) == 2,
                   "restart: history marked, before the capture and before resubscribing",
                   str(c))
        self.no_secret(proc, "restart")

    def test_first_connection(self):
        """Before any stream worked, a failure ends the capture at once."""
        self.timers(FAST)
        start = time.monotonic()
        proc, _, connections = self.live_hass([{"http": "503 Service Unavailable"}], 1, 60)
        self.expect_error(proc, r"hass-ble: 127\.0\.0\.1 answered HTTP/1\.1 503 Service "
                          r"Unavailable: Home Assistant is not running behind it",
                          "a 503 at the first connection")
        self.check(connections == 1 and time.monotonic() - start < 45,   # tshark's own
                   "first 503: ends at once, not retried",        # start may be slow
                   f"{connections} connections, {time.monotonic() - start:.1f} s")
        proc, _, _ = self.live_hass([{"history": None}], 1, 20)
        self.expect_error(proc, r"hass-ble: Home Assistant sent no advertisement event 30 s "
                          r"after subscribing", "a subscription that brings nothing")

    def test_history(self):
        self.timers(FAST)
        e = self.entries()
        plans = [{"history": [e[0], e[1]], "events": [[e[2]]]}]
        proc, _, _ = self.live_hass(plans, 3, 15)
        c = comments(proc)
        self.check(c == [f"history: heard by {HASS_SOURCE} (Home Assistant, before the "
                         "capture)"] * 2 + [f"heard by {HASS_SOURCE} (Home Assistant)"],
                   "history: the first event's frames marked", str(c))
        proc, _, _ = self.live_hass(plans, 3, 8, skiphistory="true")
        c = comments(proc)
        self.check(c == [f"heard by {HASS_SOURCE} (Home Assistant)"],
                   "--skip-history (extcap.hass_ble.skiphistory) leaves it out", str(c))

    def test_stalled_frame(self):
        """An event fragmented, its second frame stalled half-way for longer than a read
        waits (30 s): buffered, and the stream keeps its place. Real timers."""
        self.timers(None)
        e = self.entries()
        plans = [{"history": [], "events": [[e[0]], [e[1]]], "split": 32}]
        proc, log, connections = self.live_hass(plans, 2, 80)
        got = addresses(proc)
        self.check(len(got) == 2 and connections == 1 and "stalled" in log,
                   "stalled frame: both events whole, on one connection",
                   f"{got} {connections} {log}; {proc.stderr[-300:]}")

    def test_half_open(self):
        """Heartbeat pings keep a quiet connection; no frame at all for 120 s (6 s here):
        dead, connect again."""
        self.timers(FAST)
        e = self.entries()
        plans = [{"history": [], "events": [[e[0]]], "quiet": 8, "end": "silent"},
                 {"history": [e[0]], "events": [[e[1]]]}]
        proc, log, connections = self.live_hass(plans, 3, 30)
        self.check("quiet over, connections 1" in log and "heartbeat pong" in log,
                   "heartbeat: pings answered, the quiet connection kept", str(log))
        got = addresses(proc)
        self.check(connections == 2 and len(got) == 2,
                   "half-open: connects again, both adverts once",
                   f"{connections} connections, {got}; {proc.stderr[-300:]}")

    def test_source_never_matches(self):
        self.timers(FAST)
        e = self.entries()
        plans = [{"history": [e[0]], "events": [[dict(e[1], source="11:22:33:44:55:66")]]}]
        proc, _, _ = self.live_hass(plans, 1, 20, source="AA:AA:AA:AA:AA:AA")
        self.expect_error(proc, r"hass-ble: nothing came from source AA:AA:AA:AA:AA:AA in "
                          r"60 s \(--source, tshark -o extcap\.hass_ble\.source\); sources "
                          rf"seen: {HASS_SOURCE}, 11:22:33:44:55:66", "a --source never seen")

    def test_ca_file(self):
        """https with a self-signed certificate, trusted through --ca-file."""
        self.timers(FAST)
        cert, key = extcap_test.self_signed(self.ws)
        e = self.entries()
        with sim_hass.HomeAssistant(TOKEN, [[e[0]]], tls=(cert, key)) as sim:
            proc = self.hass(sim, 1, 15, tokenfile=self.token_file, cafile=cert)
        self.check(len(addresses(proc)) == 1, "--ca-file (extcap.hass_ble.cafile): https "
                   "with a self-signed certificate", proc.stderr[-300:])
        with sim_hass.HomeAssistant(TOKEN, [], tls=(cert, key)) as sim:
            proc = self.hass(sim, 1, 15, tokenfile=self.token_file)
        self.expect_error(proc, r"certificate does not verify: .*--ca-file "
                          r"\(extcap\.hass_ble\.cafile\)", "unverified: the error names "
                          "--ca-file and its preference")

    def test_errors_name_preferences(self):
        self.timers(FAST)
        bad = self.ws.secret_file("bad.token", "not-the-token")
        proc, _, _ = self.live_hass([{}], 1, 15, tokenfile=bad)
        self.expect_error(proc, r"auth_invalid\): check the token \(--token-file, tshark "
                          r"-o extcap\.hass_ble\.tokenfile\)", "bad token: flag and "
                          "preference named")
        with sim_hass.HomeAssistant(TOKEN, []) as sim:
            proc = self.ws.live("hass-ble", {"url": sim.url}, 1, 15)
        self.expect_error(proc, r"hass-ble: no access token \(--token or --token-file, "
                          r"tshark -o extcap\.hass_ble\.tokenfile\)", "no token: flag and "
                          "preference named")


if __name__ == "__main__":
    sys.exit(extcap_test.main(HassLive, "hass-ble left running"))
