#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Benchmark: what the BTHome plugin costs in tshark, against the baseline (the same
tshark with the plugin disabled) and against a reference Lua dissector.

One command builds what it needs, writes the captures into a scratch folder (kept and
reused), runs every configuration on the same file with a warm-up and then alternating
rounds, and prints the tables (median, ratio to the baseline, min-max of the rounds):

    bench/bench.py                 # 1M adverts, 5 rounds, Wireshark 4.0 (host) and 4.6
    bench/bench.py --quick         # 100k adverts, 3 rounds: a few minutes
    bench/bench.py --versions 4.0,4.4 --reps 7 --linearity --callgrind

A benchmark, not a test: it fails only when something does not run. See bench/README.md.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent
LUA_SCRIPT = SRC / "bench" / "lua" / "bthome_ref.lua"
GENERATOR = SRC / "captures" / "make_captures.py"
CHROOT_CACHE = Path(os.environ.get("BTHOME_CHROOT_CACHE", "/var/cache/bthome-chroots"))
CHROOTS = {"4.4": "trixie", "4.6": "forky"}
NOBODY = 65534

MODES = {  # name -> (tshark arguments with {p} for the protocol name, what it is)
    "summary": ([], "summary lines to /dev/null"),
    "filter": (["-Y", "{p}.temperature > 25"], "-Y '{p}.temperature > 25'"),
    "fields": (["-T", "fields", "-e", "{p}.temperature", "-e", "{p}.humidity"],
               "-T fields -e {p}.temperature -e {p}.humidity"),
    "verbose": (["-V"], "-V > /dev/null"),
}
DISABLE = ["--disable-protocol", "bthome"]


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def run_checked(cmd, **kw):
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if proc.returncode != 0:
        sys.exit(f"bench: {' '.join(map(str, cmd))} failed ({proc.returncode}):\n"
                 f"{proc.stdout[-3000:]}{proc.stderr[-3000:]}")
    return proc


PATCHES = []  # --patch: applied to the snapshot before building


def copy_tree(dest):
    """A snapshot of the source tree without build output (as tests/stages/chroot-suite.sh),
    with the --patch files applied (to time a change before making it)."""
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    tar = subprocess.Popen(["tar", "-C", str(SRC), "--exclude=./build", "--exclude=./build-*",
                            "--exclude=./.git", "-cf", "-", "."], stdout=subprocess.PIPE)
    subprocess.run(["tar", "-C", str(dest), "-xf", "-"], stdin=tar.stdout, check=True)
    tar.wait()
    for patch in PATCHES:
        run_checked(["patch", "-p1", "-d", str(dest), "-i", str(patch)])


def tree_version():
    """The commit the snapshot was taken from, '+' when core/ or plugin/ had uncommitted
    changes."""
    head = subprocess.run(["git", "-C", str(SRC), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True).stdout.strip() or "unknown"
    dirty = subprocess.run(["git", "-C", str(SRC), "status", "--porcelain", "--", "plugin",
                            "core"], capture_output=True, text=True).stdout.strip()
    return head + ("+ (uncommitted changes in core/ or plugin/)" if dirty else "")


def open_up(path):
    """Readable (and dirs enterable) by nobody, who runs tshark."""
    for root, dirs, files in os.walk(path):
        for d in dirs:
            os.chmod(os.path.join(root, d), 0o755)
        for f in files:
            os.chmod(os.path.join(root, f), 0o644 if not f.endswith(".so") else 0o755)
    os.chmod(path, 0o755)


# ---------------------------------------------------------------------------------------
# Wireshark versions: the host's tshark, or one in a cached chroot (tests/lib/chroot.sh)


class Target:
    def __init__(self, version, scratch):
        self.version = version
        self.suite = CHROOTS.get(version)
        if self.suite:
            self.root = Path(run_checked([str(SRC / "tests" / "lib" / "chroot.sh"), self.suite])
                             .stdout.strip().splitlines()[-1])
            # one folder per scratch dir, so that two benches never share a build
            self.inner = Path("/bthome-bench") / scratch.name   # as tshark sees it
            self.work = self.root / self.inner.relative_to("/")  # as the host sees it
        else:
            self.root = None
            self.work = scratch / f"ws-{version}"
            self.inner = self.work
        self.work.mkdir(parents=True, exist_ok=True)
        for d in [self.work] + list(self.work.parents)[:2]:
            if self.root and str(d).startswith(str(self.root) + "/"):
                os.chmod(d, 0o755)
        self.plugin = None
        self.real_version = None

    def inside(self, host_path):
        """The path tshark sees for a file under self.work."""
        return self.inner / Path(host_path).relative_to(self.work)

    def shell(self, script, user=False):
        """Runs a shell script as root (build) in the target."""
        if self.root:
            cmd = ["chroot", str(self.root), "/usr/bin/env", "-i",
                   "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C.UTF-8", "sh", "-c", script]
        else:
            cmd = ["sh", "-c", script]
        return run_checked(cmd)

    def tshark_version(self):
        out = self.shell("tshark --version 2>/dev/null | head -n 1").stdout
        m = re.search(r"(\d+)\.(\d+)\.(\d+)", out)
        if not m:
            sys.exit(f"bench: no tshark in the {self.version} target")
        self.real_version = m.group(0)
        if f"{m.group(1)}.{m.group(2)}" != self.version:
            sys.exit(f"bench: the {self.version} target has tshark {self.real_version}")
        return self.real_version

    def build(self):
        src = self.work / "src"
        copy_tree(src)
        build = self.work / "build"
        log(f"bench: building the plugin for Wireshark {self.version} in {build}")
        self.shell(f"cmake -S {self.inside(src)} -B {self.inside(build)} "
                   "-DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=OFF >/dev/null && "
                   f"cmake --build {self.inside(build)} -j2 --target bthome"
                   " >/dev/null")
        self.plugin = build / "bthome.so"

    def environment(self, name, keys=None):
        """A Wireshark home: the plugin alone in its plugin dir, a config dir with the
        bthome_keys UAT when keys is given. Returns its host path."""
        home = self.work / "env" / name
        shutil.rmtree(home, ignore_errors=True)
        epan = home / "plugins" / self.version / "epan"
        epan.mkdir(parents=True)
        (home / "config").mkdir()
        shutil.copy(self.plugin, epan)
        if keys:
            shutil.copy(keys, home / "config" / "bthome_keys")
        shutil.copy(LUA_SCRIPT, home / "bthome_ref.lua")
        (home / "out").mkdir()
        open_up(home)
        os.chmod(home / "out", 0o777)
        return home

    def command(self, home, args, prefix=()):
        """argv running tshark (after prefix, e.g. valgrind) as nobody in home."""
        env = [f"HOME={self.inside(home)}",
               f"WIRESHARK_CONFIG_DIR={self.inside(home / 'config')}",
               f"WIRESHARK_PLUGIN_DIR={self.inside(home / 'plugins')}", "LC_ALL=C.UTF-8",
               "PATH=/usr/bin:/bin"]
        tshark = list(prefix) + ["tshark"] + list(args)
        if self.root:
            # /proc in a private mount namespace (valgrind needs it; another session's
            # tests/stages/chroot-suite.sh may unmount the shared one at any time); unshare,
            # sh, chroot and env all exec, so tshark keeps the pid we wait for.
            chroot = ["chroot", f"--userspec={NOBODY}:{NOBODY}", str(self.root),
                      "/usr/bin/env", "-i"] + env + tshark
            return ["unshare", "--mount", "--propagation", "private", "sh", "-c",
                    'mount -t proc proc "$0/proc" && exec "$@"', str(self.root)] + chroot
        return ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
                "/usr/bin/env", "-i"] + env + tshark

    def place(self, data_file):
        """The capture inside the target (a hard link when possible)."""
        dest = self.work / "data" / data_file.name
        dest.parent.mkdir(exist_ok=True)
        os.chmod(dest.parent, 0o755)
        if not dest.exists() or dest.stat().st_size != data_file.stat().st_size:
            dest.unlink(missing_ok=True)
            try:
                os.link(data_file, dest)
            except OSError:
                shutil.copy(data_file, dest)
        os.chmod(dest, 0o644)
        return self.inside(dest)


def measure(cmd):
    """Runs cmd (stdout to /dev/null): (cpu seconds user+sys, wall seconds, peak RSS KiB).
    wait4 gives the rusage of the process itself: chroot, env and setpriv exec tshark."""
    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        _, status, ru = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            sys.exit(f"bench: {' '.join(cmd)} exited {proc.returncode}:\n"
                     f"{err.read().decode(errors='replace')[-3000:]}")
    return ru.ru_utime + ru.ru_stime, wall, ru.ru_maxrss


# ---------------------------------------------------------------------------------------
# Captures


def generate(out_dir, packets, devices, share, links):
    tag = f"{packets}-{devices}d-{round(share * 100)}enc"
    paths = {link: out_dir / f"large-{tag}-{link}.pcap" for link in links}
    keys = out_dir / f"large-{tag}.keys"
    if all(p.exists() for p in paths.values()) and keys.exists():
        return paths, keys
    log(f"bench: writing {packets} adverts ({devices} devices, {share:.0%} encrypted) "
        f"into {out_dir}")
    t0 = time.time()
    run_checked([sys.executable, str(GENERATOR), "--large", str(packets), "--devices",
                 str(devices), "--encrypted-share", str(share), "--links", ",".join(links),
                 "--out", str(out_dir)])
    log(f"bench:   {time.time() - t0:.0f} s")
    return paths, keys


def write_no_ble(path, packets):
    """A capture with no Bluetooth at all: Ethernet, IPv4, DNS queries and answers over
    UDP and TCP segments of a web exchange, 1 ms apart."""
    if path.exists():
        return path
    log(f"bench: writing {packets} non-Bluetooth packets into {path}")

    def csum(data):
        if len(data) % 2:
            data += b"\0"
        s = sum(struct.unpack(f"!{len(data) // 2}H", data))
        while s >> 16:
            s = (s & 0xFFFF) + (s >> 16)
        return ~s & 0xFFFF

    def ipv4(src, dst, proto, payload, ident):
        hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), ident & 0xFFFF, 0x4000,
                          64, proto, 0, bytes(src), bytes(dst))
        return hdr[:10] + struct.pack("!H", csum(hdr)) + hdr[12:] + payload

    def eth(payload, a, b):
        return bytes(a) + bytes(b) + b"\x08\x00" + payload

    mac_a, mac_b = [0x52, 0x54, 0, 0x12, 0x34, 0x56], [0x52, 0x54, 0, 0xab, 0xcd, 0xef]
    host, dns, web = [192, 168, 7, 10], [192, 168, 7, 1], [192, 168, 7, 80]
    names = [b"sensor%d.example.org" % i for i in range(50)]
    out = [struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1)]
    seq = 1000
    for i in range(packets):
        kind = i % 4
        if kind < 2:  # DNS query, then its answer
            qid = (i // 2) & 0xFFFF
            qname = b"".join(bytes([len(p)]) + p for p in names[(i // 2) % 50].split(b".")) + b"\0"
            question = qname + b"\x00\x01\x00\x01"
            if kind == 0:
                dns_msg = struct.pack("!HHHHHH", qid, 0x0100, 1, 0, 0, 0) + question
                udp = struct.pack("!HHHH", 40000 + qid % 1000, 53, 8 + len(dns_msg), 0) + dns_msg
                frame = eth(ipv4(host, dns, 17, udp, i), mac_b, mac_a)
            else:
                answer = b"\xc0\x0c\x00\x01\x00\x01\x00\x00\x01\x2c\x00\x04" + bytes(
                    [10, 0, (i >> 8) & 0xFF, i & 0xFF])
                dns_msg = struct.pack("!HHHHHH", qid, 0x8180, 1, 1, 0, 0) + question + answer
                udp = struct.pack("!HHHH", 53, 40000 + qid % 1000, 8 + len(dns_msg), 0) + dns_msg
                frame = eth(ipv4(dns, host, 17, udp, i), mac_a, mac_b)
        else:  # a TCP segment with an HTTP request, then the ACK
            payload = (b"GET /api/sensors/%d HTTP/1.1\r\nHost: example.org\r\n\r\n" % (i % 50)
                       if kind == 2 else b"")
            src, dst = (host, web) if kind == 2 else (web, host)
            tcp = struct.pack("!HHIIBBHHH", 50000 if kind == 2 else 80, 80 if kind == 2 else 50000,
                              seq, seq + 7, 0x50, 0x18 if payload else 0x10, 65535, 0, 0) + payload
            seq += len(payload)
            frame = eth(ipv4(src, dst, 6, tcp, i), mac_b, mac_a)
        t = 1722506400 * 1_000_000 + i * 1000
        out.append(struct.pack("<IIII", t // 1_000_000, t % 1_000_000, len(frame), len(frame)))
        out.append(frame)
    path.write_bytes(b"".join(out))
    return path


# ---------------------------------------------------------------------------------------
# Runs


class Config:
    def __init__(self, name, home, extra, proto="bthome", baseline=False):
        self.name, self.home, self.extra, self.proto = name, home, extra, proto
        self.baseline = baseline


def mode_args(mode, proto):
    return [a.format(p=proto) for a in MODES[mode][0]]


def run_group(target, capture, mode, configs, reps):
    """Warm-up, then reps rounds running every config once, in an order rotated by one
    each round. Returns {config name: [(cpu, wall, rss), ...]}."""
    results = {c.name: [] for c in configs}

    def cmd(c):
        return target.command(c.home, ["-n", "-r", str(capture)] + c.extra
                              + mode_args(mode, c.proto))

    for c in configs:
        measure(cmd(c))
    for r in range(reps):
        order = configs[r % len(configs):] + configs[:r % len(configs)]
        for c in order:
            results[c.name].append(measure(cmd(c)))
    return results


def check_outputs(target, capture, homes, lua):
    """The plugin and the Lua reference see the same readings in the first 2000 frames of
    a plaintext capture (the Lua one is a fair reference), and the baseline none."""
    def fields(home, proto, extra):
        cmd = target.command(home, ["-n", "-r", str(capture), "-c", "2000"] + extra
                             + ["-Y", f"{proto}.temperature > 25", "-T", "fields", "-e",
                                "frame.number", "-e", f"{proto}.temperature", "-e",
                                f"{proto}.humidity"])
        return run_checked(cmd).stdout.split()

    plugin = fields(homes["plugin"], "bthome", [])
    base = fields(homes["plugin"], "bthome", DISABLE)
    if not plugin or base:
        sys.exit(f"bench: plugin gives {len(plugin)} values, baseline {len(base)}")
    if lua:
        ref = fields(homes["plugin"], "bthome_lua", lua)
        if [round(float(x), 6) for x in ref] != [round(float(x), 6) for x in plugin]:
            sys.exit("bench: the Lua reference and the plugin disagree on the readings")


def stats(values):
    return statistics.median(values), min(values), max(values)


def summarize(results, base_name, packets):
    """Rows: name, pps, cpu (med, min, max), ratio, wall median, rss MiB, rss ratio,
    added cpu (med, min, max)."""
    base = results[base_name]
    rows = {}
    for name, runs in results.items():
        cpu = [r[0] for r in runs]
        rss = [r[2] / 1024 for r in runs]
        ratio = [r[0] / b[0] for r, b in zip(runs, base)]
        rss_ratio = [r[2] / b[2] for r, b in zip(runs, base)]
        added = [r[0] - b[0] for r, b in zip(runs, base)]
        rows[name] = {
            "pps": packets / statistics.median(cpu), "cpu": stats(cpu),
            "wall": statistics.median(r[1] for r in runs), "ratio": stats(ratio),
            "rss": stats(rss), "rss_ratio": stats(rss_ratio), "added": stats(added),
            "runs": runs,
        }
    return rows


def fmt_range(triple, f="{:.2f}"):
    med, lo, hi = triple
    return f"{f.format(med)} [{f.format(lo)}-{f.format(hi)}]"


def table(title, groups, packets):
    """Markdown table of the groups: [(file label, mode, rows)]."""
    out = [f"### {title}", "",
           "| capture | mode | run | packets/s | CPU s | time ratio | peak RSS MiB | RSS ratio "
           "| BTHome part s | Lua / plugin |",
           "|---|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for label, mode, rows in groups:
        plugin_added = rows.get("plugin", {}).get("added")
        for name, r in rows.items():
            lua_vs = ""
            if name == "lua" and plugin_added and plugin_added[0] > 0:
                ratios = [l[0] - b[0] for l, b in zip(r["runs"], rows["baseline"]["runs"])]
                pl = [p[0] - b[0] for p, b in zip(rows["plugin"]["runs"],
                                                  rows["baseline"]["runs"])]
                per_round = [a / p for a, p in zip(ratios, pl) if p > 0]
                if per_round:
                    lua_vs = fmt_range((r["added"][0] / plugin_added[0], min(per_round),
                                        max(per_round)), "{:.1f}") + " x"
            out.append(
                f"| {label} | {mode} | {name} | {r['pps']:,.0f} | {fmt_range(r['cpu'])} | "
                + ("1" if name == "baseline" else fmt_range(r["ratio"], "{:.3f}")) + " | "
                + fmt_range(r["rss"], "{:.0f}") + " | "
                + ("1" if name == "baseline" else fmt_range(r["rss_ratio"], "{:.3f}")) + " | "
                + ("" if name == "baseline" else fmt_range(r["added"])) + f" | {lua_vs} |")
    return "\n".join(out)


# ---------------------------------------------------------------------------------------
# callgrind: instructions per BTHome packet, repeatable on a noisy machine

# Wireshark's own libraries: what the plugin calls there (tree items, columns, expert
# infos, tvbs, wmem) is Wireshark's work on its behalf, which any dissector adding the
# same items pays; the rest of its hook (its code, libc helpers, libgcrypt) is its own.
WIRESHARK_OBJECTS = ("libwireshark.so", "libwsutil.so", "libglib-2.0.so")


def read_callgrind(path):
    """Total Ir, and the inclusive Ir of the calls from the plugin's code into Wireshark's
    libraries, from callgrind's records (cob= names the callee's object for the next
    calls= line, else it is the caller's)."""
    names, fn_names, cur_ob, callee_ob, callee_fn, pending = {}, {}, "", None, "", False
    total, called = None, 0

    def object_name(value, table=names):
        m = re.match(r"\((\d+)\)(?: (.*))?", value)
        if m.group(2):
            table[m.group(1)] = m.group(2)
        return table[m.group(1)]

    with open(path) as f:
        for line in f:
            if pending:     # the call's cost line: its inclusive Ir last
                pending = False
                callee = callee_ob or cur_ob
                # 4.0's hook calls BTHome through call_dissector: that call is the
                # plugin's own dissection, not Wireshark's work for it
                if cur_ob.endswith("bthome.so") and any(o in callee for o in WIRESHARK_OBJECTS) \
                        and not callee_fn.startswith("call_dissector"):
                    called += int(line.split()[-1])
                callee_ob = None
            elif line.startswith("ob="):
                cur_ob, callee_ob = object_name(line[3:].strip()), None
            elif line.startswith("cob="):
                callee_ob = object_name(line[4:].strip())
            elif line.startswith("cfn="):
                callee_fn = object_name(line[4:].strip(), fn_names)
            elif line.startswith("calls="):
                pending = True
            elif line.startswith("fn="):
                object_name(line[3:].strip(), fn_names)
                callee_ob = None
            elif line.startswith(("summary:", "totals:")):
                total = int(line.split()[1])
    return total, called


def callgrind_totals(path):
    """Total Ir, the inclusive Ir of the plugin's entry points, and of its calls into
    Wireshark (as "wireshark_called")."""
    total, called = read_callgrind(path)
    annotate = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100",
                               str(path)], capture_output=True, text=True).stdout
    inclusive = {}
    for line in annotate.splitlines():
        m = re.match(r"\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(?:\S*:)?(\w+)\b", line)
        if m and m.group(2) in ("dissect_bthome", "dissect_frame_search", "epan_dissect_run",
                                "call_all_postdissectors"):
            inclusive[m.group(2)] = max(inclusive.get(m.group(2), 0),
                                        int(m.group(1).replace(",", "")))
    inclusive["wireshark_called"] = called
    return total, inclusive


def ensure_valgrind(target):
    if shutil.which("valgrind") is None:
        sys.exit("bench: --callgrind needs valgrind on the host (apt-get install valgrind)")
    if target.root and subprocess.run(["chroot", str(target.root), "sh", "-c",
                                       "command -v valgrind"], capture_output=True).returncode:
        log(f"bench: installing valgrind into the {target.suite} chroot")
        target.shell("DEBIAN_FRONTEND=noninteractive apt-get -o Acquire::Check-Valid-Until="
                     "false install -y -q --no-install-recommends valgrind >/dev/null 2>&1 || "
                     "{ apt-get -o Acquire::Check-Valid-Until=false update -q >/dev/null && "
                     "DEBIAN_FRONTEND=noninteractive apt-get install -y -q "
                     "--no-install-recommends valgrind >/dev/null; }")


def callgrind(target, capture, packets, homes, modes, runs=1):
    """Instructions per advert: the baseline's (startup, i.e. an empty capture, taken
    off), what the plugin adds to the whole tshark run, and what runs inside its hook.
    runs > 1 alternates that many baseline and plugin runs: tshark's own count moves a
    little from run to run (hash tables seeded at random), the plugin's does not; the
    added figure is then the median of the pairs' differences, with their range."""
    ensure_valgrind(target)

    def run(name, home, extra, capture, mode):
        cg = home / "out" / f"callgrind-{mode}-{name}.out"
        cg.unlink(missing_ok=True)
        cmd = target.command(home, ["-n", "-r", str(capture)] + extra
                             + mode_args(mode, "bthome"),
                             prefix=["valgrind", "--tool=callgrind",
                                     f"--callgrind-out-file={target.inside(cg)}"])
        log(f"bench: callgrind {target.version} {mode} {name}")
        measure(cmd)
        return callgrind_totals(cg)

    empty = target.inside(target.work / "data" / "empty.pcap")
    startup = run("startup", homes["plugin"], DISABLE, empty, "summary")[0]
    out = []
    for mode in modes:
        pairs = []
        for _ in range(runs):
            pairs.append((run("baseline", homes["plugin"], DISABLE, capture, mode),
                          run("plugin", homes["plugin"], [], capture, mode)))
        res = {"plugin+keys": run("plugin+keys", homes["keys"], [], capture, mode)}
        base_totals = sorted(b[0] for b, _ in pairs)
        base_total = base_totals[len(base_totals) // 2]
        added = sorted((p[0] - b[0]) / packets for b, p in pairs)
        res["plugin"] = pairs[0][1]
        for name in ("plugin", "plugin+keys"):
            total, inc = res[name]
            # 4.0: the postdissector holds everything; 4.2+: the table calls dissect_bthome
            entry = inc.get("dissect_frame_search") or inc.get("dissect_bthome", 0)
            row = {"mode": mode, "run": name,
                   "added_per_packet": (total - base_total) / packets,
                   "plugin_per_packet": entry / packets,
                   "own_per_packet": (entry - inc["wireshark_called"]) / packets,
                   "dissect_bthome_per_packet": inc.get("dissect_bthome", 0) / packets,
                   "baseline_per_packet": (base_total - startup) / packets,
                   "startup": startup, "runs": 1}
            if name == "plugin" and runs > 1:
                row.update(added_per_packet=added[len(added) // 2], runs=runs,
                           added_range=(added[0], added[-1]))
            out.append(row)
    return out


def callgrind_table(version, rows, packets, share):
    lines = [f"### Instructions per BTHome packet, Wireshark {version} (callgrind, "
             f"{packets:,} adverts, {share * 100:.0f} % encrypted)", "",
             "| mode | run | baseline tshark (startup off) | added by the plugin | ratio | "
             "inside the plugin's hook | of which dissect_bthome | the plugin's own code | "
             "ratio without it |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        base, added = r["baseline_per_packet"], r["added_per_packet"]
        if r.get("added_range"):    # median of the runs [min-max]
            lo, hi = r["added_range"]
            added_text = f"{added:,.0f} [{lo:,.0f}-{hi:,.0f}]"
            ratio_text = f"{1 + added / base:.3f} [{1 + lo / base:.3f}-{1 + hi / base:.3f}]"
        else:
            added_text, ratio_text = f"{added:,.0f}", f"{1 + added / base:.3f}"
        lines.append(f"| {r['mode']} | {r['run']}"
                     + (f" ({r['runs']} runs)" if r["runs"] > 1 else "")
                     + f" | {base:,.0f} | {added_text} | {ratio_text} | "
                     f"{r['plugin_per_packet']:,.0f} | "
                     f"{r['dissect_bthome_per_packet']:,.0f} | "
                     f"{r['own_per_packet']:,.0f} | "
                     f"{1 + (added - r['own_per_packet']) / base:.3f} |")
    if rows:
        lines.append(f"\nStartup (empty capture, not counted above): "
                     f"{rows[0]['startup'] / 1e6:,.0f} M instructions. "
                     "The plugin's own code: its hook less its calls into Wireshark's "
                     "libraries (libwireshark, libwsutil, GLib); \"ratio without it\" is "
                     "what remains, Wireshark's work for the plugin's items, columns and "
                     "expert infos inside the hook and everything outside it.")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--versions", default="4.0,4.6",
                    help="Wireshark versions: 4.0 (host), 4.4, 4.6 (chroots) (default 4.0,4.6)")
    ap.add_argument("--packets", type=int, default=1_000_000, help="adverts per capture")
    ap.add_argument("--devices", type=int, default=50)
    ap.add_argument("--reps", type=int, default=5, help="rounds after the warm-up")
    ap.add_argument("--quick", action="store_true", help="100k adverts, 3 rounds")
    ap.add_argument("--modes", default="summary,filter,fields,verbose")
    ap.add_argument("--links", default="nrf-sniffer",
                    help="link types to time: nrf-sniffer, hci-h4 or both (comma-separated)")
    ap.add_argument("--verbose-packets", type=int, default=200_000,
                    help="-V reads the first N frames of the file (-c N; 0: all; "
                         "default 200000)")
    ap.add_argument("--no-lua", action="store_true")
    ap.add_argument("--full", action="store_true",
                    help="every mode on every capture (default: Lua and -V on the plaintext "
                         "capture only; summary and fields on the one without Bluetooth)")
    ap.add_argument("--data", type=Path, help="captures folder (default SCRATCH/data; "
                    "two benches may share one)")
    ap.add_argument("--skip-no-ble", action="store_true",
                    help="skip the capture without Bluetooth")
    ap.add_argument("--linearity", action="store_true",
                    help="also the 100k / 1M / 3M points and 50 / 5000 devices (summary)")
    ap.add_argument("--linearity-points", default="100000,1000000,3000000")
    ap.add_argument("--linearity-devices", default="5000")
    ap.add_argument("--callgrind", type=int, nargs="?", const=20_000, default=None,
                    metavar="N", help="instructions per packet on N adverts (default 20000)")
    ap.add_argument("--callgrind-encrypted", type=float, default=0.3, metavar="SHARE",
                    help="share of encrypting devices in the --callgrind capture (default "
                         "0.3; 0 for the plaintext one the summary target is about)")
    ap.add_argument("--callgrind-runs", type=int, default=1, metavar="K",
                    help="alternate K baseline and plugin runs under callgrind and print the "
                         "median of what the plugin adds, with its range (default 1)")
    ap.add_argument("--no-tables", "--callgrind-only", dest="no_tables", action="store_true",
                    help="skip the main timed tables (run only --linearity / --callgrind)")
    ap.add_argument("--scratch", type=Path, default=Path(os.environ.get(
        "BTHOME_BENCH_DIR", "/var/tmp/bthome-bench")))
    ap.add_argument("--json", type=Path, help="write all results here too")
    ap.add_argument("--patch", type=Path, action="append", default=[],
                    help="apply this patch (-p1) to the snapshot of the tree before building")
    args = ap.parse_args()
    if args.callgrind_runs < 1:
        ap.error("--callgrind-runs needs at least 1 run")
    PATCHES.extend(p.resolve() for p in args.patch)
    if os.getuid() != 0:
        sys.exit("bench: run as root (tshark runs as nobody; chroots need root)")
    if args.quick:
        args.packets, args.reps = 100_000, 3
    modes = args.modes.split(",")
    links = args.links.split(",")
    args.scratch.mkdir(parents=True, exist_ok=True)
    os.chmod(args.scratch, 0o755)
    data = args.data or args.scratch / "data"
    data.mkdir(parents=True, exist_ok=True)

    targets = [Target(v, args.scratch) for v in args.versions.split(",")]
    for t in targets:
        t.tshark_version()
        t.build()

    mixed, mixed_keys = generate(data, args.packets, args.devices, 0.3, links)
    plain, _ = generate(data, args.packets, args.devices, 0.0, links)
    no_ble = write_no_ble(data / f"no-ble-{args.packets}.pcap", args.packets)

    report = [("Patched with " + ", ".join(p.name for p in PATCHES) + ". " if PATCHES else "")
              + f"Benchmark: {args.packets:,} adverts from {args.devices} devices, "
              f"{args.reps} rounds after a warm-up, CPU time (user+sys) of tshark, "
              "median [min-max of the rounds]; ratios are per round against the baseline "
              "of the same round. Machine: "
              f"{os.cpu_count()} cores, {time.strftime('%Y-%m-%d %H:%M %Z')}, tree "
              f"{tree_version()}."]
    everything = {"packets": args.packets, "devices": args.devices, "reps": args.reps,
                  "versions": {}}
    for t in targets:
        homes = {"plugin": t.environment("plugin"), "keys": t.environment("keys", mixed_keys)}
        lua = None if args.no_lua else ["-X", f"lua_script:{t.inside(homes['plugin'] / 'bthome_ref.lua')}"]
        vres = everything["versions"].setdefault(t.real_version, {})
        empty = t.work / "data" / "empty.pcap"
        empty.parent.mkdir(exist_ok=True)
        os.chmod(empty.parent, 0o755)
        empty.write_bytes(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 272))
        os.chmod(empty, 0o644)
        if not args.no_tables:
            startup = summarize(run_group(t, t.inside(empty), "summary", [
                Config("baseline", homes["plugin"], DISABLE, baseline=True),
                Config("plugin", homes["plugin"], [])], args.reps), "baseline", 1)
            vres["startup"] = {k: v["cpu"] for k, v in startup.items()}
            log(f"bench: {t.real_version} startup CPU: baseline "
                f"{startup['baseline']['cpu'][0]:.2f} s, plugin {startup['plugin']['cpu'][0]:.2f} s")
            groups = []
            for link in links:
                check_outputs(t, t.place(plain[link]), homes, lua)
                # The Lua reference decrypts nothing: it runs on the plaintext capture.
                # -V runs on the plaintext one only, unless --full.
                files = [("plaintext " + link, plain[link], False),
                         ("30 % encrypted " + link, mixed[link], True)]
                for label, path, has_keys in files:
                    inside = t.place(path)
                    for mode in modes:
                        if has_keys and mode == "verbose" and not args.full:
                            continue
                        configs = [Config("baseline", homes["plugin"], DISABLE, baseline=True),
                                   Config("plugin", homes["plugin"], [])]
                        if has_keys:
                            configs.append(Config("plugin+keys", homes["keys"], []))
                        if lua and (not has_keys or args.full):
                            configs.append(Config("lua", homes["plugin"], DISABLE + lua,
                                                  proto="bthome_lua"))
                        n = args.packets
                        mode_label = mode
                        if mode == "verbose" and 0 < args.verbose_packets < n:
                            n = args.verbose_packets
                            mode_label = f"verbose (first {n:,})"
                            for c in configs:
                                c.extra = c.extra + ["-c", str(n)]
                        log(f"bench: {t.real_version} {label} {mode}")
                        res = run_group(t, inside, mode, configs, args.reps)
                        rows = summarize(res, "baseline", n)
                        groups.append((label, mode_label, rows))
                        vres[f"{label}/{mode}"] = rows
            if not args.skip_no_ble:
                inside = t.place(no_ble)
                for mode in [m for m in modes if m in ("summary", "fields") or args.full]:
                    log(f"bench: {t.real_version} no BLE {mode}")
                    res = run_group(t, inside, mode, [
                        Config("baseline", homes["plugin"], DISABLE, baseline=True),
                        Config("plugin", homes["plugin"], [])], args.reps)
                    rows = summarize(res, "baseline", args.packets)
                    groups.append(("no Bluetooth (Ethernet/IP)", mode, rows))
                    vres[f"no-ble/{mode}"] = rows
            report.append(table(f"Wireshark {t.real_version}"
                                + (" (postdissector hook)" if t.version == "4.0"
                                   else " (btcommon.eir_ad.entry.uuid table)"),
                                groups, args.packets))
            report.append(f"Startup alone (empty capture): baseline "
                          f"{fmt_range(startup['baseline']['cpu'])} s, plugin "
                          f"{fmt_range(startup['plugin']['cpu'])} s CPU.")
            print("\n\n".join(report[-2:]), flush=True)

        if args.linearity:
            lin = []
            points = [(int(p), args.devices) for p in args.linearity_points.split(",")]
            points += [(args.packets, int(d)) for d in args.linearity_devices.split(",") if d]
            link = links[0]
            for n, devs in points:
                paths, keys = generate(data, n, devs, 0.3, [link])
                home = t.environment(f"keys-{devs}", keys)
                log(f"bench: {t.real_version} linearity {n} adverts {devs} devices")
                res = run_group(t, t.place(paths[link]), "summary", [
                    Config("baseline", home, DISABLE, baseline=True),
                    Config("plugin+keys", home, [])], max(3, args.reps // 2))
                rows = summarize(res, "baseline", n)
                lin.append((n, devs, rows))
            vres["linearity"] = [(n, d, rows) for n, d, rows in lin]
            lines = [f"### Linearity, Wireshark {t.real_version} ({link}, summary, keys "
                     "configured, 30 % encrypted)", "",
                     "| adverts | devices | baseline CPU s | plugin CPU s | added CPU s | "
                     "added µs/advert | baseline RSS MiB | plugin RSS MiB | added RSS MiB |",
                     "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
            for n, devs, rows in lin:
                b, p = rows["baseline"], rows["plugin+keys"]
                lines.append(f"| {n:,} | {devs} | {fmt_range(b['cpu'])} | {fmt_range(p['cpu'])} "
                             f"| {fmt_range(p['added'])} | {p['added'][0] / n * 1e6:.2f} | "
                             f"{b['rss'][0]:.0f} | {p['rss'][0]:.0f} | "
                             f"{p['rss'][0] - b['rss'][0]:+.1f} |")
            report.append("\n".join(lines))
            print("\n\n" + report[-1], flush=True)

        if args.callgrind:
            paths, keys = generate(data, args.callgrind, args.devices,
                                   args.callgrind_encrypted, [links[0]])
            homes_cg = {"plugin": homes["plugin"], "keys": t.environment("keys-cg", keys)}
            rows = callgrind(t, t.place(paths[links[0]]), args.callgrind, homes_cg,
                             [m for m in ("summary", "filter", "fields") if m in modes]
                             or ["summary"],
                             args.callgrind_runs)
            vres["callgrind"] = rows
            report.append(callgrind_table(t.real_version, rows, args.callgrind,
                                          args.callgrind_encrypted))
            print("\n\n" + report[-1], flush=True)

    (args.scratch / "results.md").write_text("\n\n".join(report) + "\n")
    if args.json:
        args.json.write_text(json.dumps(everything, indent=1, default=str))
    log(f"bench: tables in {args.scratch / 'results.md'}")


if __name__ == "__main__":
    main()
