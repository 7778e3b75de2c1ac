# SPDX-License-Identifier: GPL-2.0-or-later
"""Whole-dissector mutation test, in the style of Wireshark's tools/fuzz-test.sh.

Corrupts the sample captures at random with `editcap -E PROB --seed N` (several
probabilities, a new seed per file; every third group also cut to a snap length with
`-s LEN`, 12 to 59 bytes, so that frames end inside the service data) and runs
`tshark -nVxr` with the plugin on each result: every other run with all the keys of
captures/*.keys configured, every other pair of runs with two passes (-2: the second
pass takes the audit's findings from the first, as the GUI does when it re-dissects).
The plugin should be built with ASan and UBSan: the mutation stage runs the sanitizer
tree's tshark and plugin (--runtime ""); with a plugin built alone, libasan is preloaded
into tshark (--runtime). Wireshark's allocators are told to use malloc for every block so
that ASan sees their bounds. To start tshark less often, each run reads GROUP mutated
files concatenated with mergecap; a run with a finding is repeated file by file to name
the culprit.

A finding, which fails the test:
  - a sanitizer report (ASan, UBSan) or a crash (signal, timeout);
  - an exception escaping from the BTHome code: "[Malformed Packet: BTHome]",
    "[Dissector bug, protocol BTHome: ...]" and the like in the tree (an expert info is
    the right outcome for bad data, an exception is not); "[Packet size limited during
    capture: BTHome truncated]" is the right outcome only in a frame the capture cut
    short (fewer bytes captured than on the wire);
  - GLib criticals or errors on stderr.
Culprit files are kept in --findings with a note of how to remake them.

    python3 -m tests.robustness.mutate --plugin PLUGIN.so [--runtime LIBASAN] --captures captures \
        [--files 400] [--seconds 90] [--jobs 2] [--seed 1]
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from tests.robustness.wrapped import WrappedTshark, key_options, merge, sample_captures

PROBABILITIES = (0.005, 0.01, 0.02, 0.05, 0.1)
ESCAPES = (b"Malformed Packet", b"Unreassembled Packet", b"Dissector bug")
ESCAPES_UNLESS_CUT = (b"Packet size limited",)


def escape_pattern(kinds):
    return re.compile(rb"^\s*\[(" + b"|".join(kinds) + rb")[^\n]*BTHome[^\n]*", re.MULTILINE)


ESCAPED_IN_WHOLE_FRAME = escape_pattern(ESCAPES + ESCAPES_UNLESS_CUT)
ESCAPED_IN_CUT_FRAME = escape_pattern(ESCAPES)
FRAME_LENGTHS = re.compile(rb"(\d+) bytes on wire \(\d+ bits\), (\d+) bytes captured")
SNAP_GROUP_EVERY = 3
SANITIZER = re.compile(r"ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|"
                       r"UndefinedBehaviorSanitizer")
GLIB_PROBLEM = re.compile(r"CRITICAL \*\*|ERROR \*\*")
SANITIZER_ENV = {      # leaks are the valgrind stage's: tshark itself is not instrumented
    "ASAN_OPTIONS": "detect_leaks=0:exitcode=86:halt_on_error=1",
    "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1:exitcode=87",
}
RUN_TIMEOUT = 120
KEYED, TWO_PASS = 1, 2      # run variants, by group number


class Mutant:
    def __init__(self, capture, probability, seed, folder, snap=None):
        self.capture, self.probability, self.seed, self.snap = capture, probability, seed, snap
        cut = f"-s{snap}" if snap else ""
        self.path = folder / f"{capture.stem}-E{probability}{cut}-seed{seed}{capture.suffix}"

    def options(self):
        return (["-E", str(self.probability), "--seed", str(self.seed)]
                + (["-s", str(self.snap)] if self.snap else []))

    def make(self):
        subprocess.run(["editcap"] + self.options() + [str(self.capture), str(self.path)],
                       check=True, capture_output=True)
        os.chmod(self.path, 0o644)

    def recipe(self):
        return f"editcap {' '.join(self.options())} {self.capture} {self.path.name}"


def asan_runtime():
    path = subprocess.run(["gcc", "-print-file-name=libasan.so"], capture_output=True,
                          text=True).stdout.strip()
    return os.path.realpath(path) if os.path.isabs(path) else None


def escapes(stdout):
    """Exceptions escaping from BTHome, frame by frame: a bounds exception is Wireshark's
    mark of a frame the capture cut short, and an escape in any other."""
    found = set()
    for frame in re.split(rb"\nFrame (?=\d+: )", stdout):
        lengths = FRAME_LENGTHS.search(frame)
        cut = lengths and int(lengths.group(2)) < int(lengths.group(1))
        pattern = ESCAPED_IN_CUT_FRAME if cut else ESCAPED_IN_WHOLE_FRAME
        found |= {m.group(0).strip().decode("utf-8", "replace")
                  for m in pattern.finditer(frame)}
    return sorted(found)


def problems(returncode, stderr, stdout):
    found = []
    if returncode < 0 or returncode in (86, 87):
        found.append(f"tshark died (exit {returncode})")
    found += sorted({m.group(0) for m in SANITIZER.finditer(stderr)})
    found += sorted({m.group(0).strip() for m in GLIB_PROBLEM.finditer(stderr)})
    found += escapes(stdout)
    return found


class Campaign:
    def __init__(self, args):
        self.args = args
        self.keys = key_options(args.captures)
        wrapper = ["env", f"LD_PRELOAD={args.runtime}"] if args.runtime else []
        self.ws = WrappedTshark(args.plugin, wrapper, SANITIZER_ENV)
        self.work = Path(self.ws.writable_dir("mutants"))
        self.deadline = time.monotonic() + args.seconds
        self.files = self.cut_files = self.runs = self.keyed_runs = self.two_pass_runs = 0
        self.trees = 0
        self.findings = []
        self.lock = threading.Lock()        # the counters above, from the worker threads

    def run(self, capture, variant, tag):
        out = self.work / f"{tag}.txt"
        args = ["-n", "-V", "-x", "-r", str(capture)]
        args += (self.keys if variant & KEYED else []) + (["-2"] if variant & TWO_PASS else [])
        rc, err = self.ws.run_to_file(args, out, RUN_TIMEOUT)
        stdout = out.read_bytes()
        out.unlink()
        with self.lock:
            self.trees += stdout.count(b"\nBTHome Sensor Data v")
        return problems(rc, err, stdout), err

    def group(self, index, mutants):
        if time.monotonic() > self.deadline:
            return
        for m in mutants:
            m.make()
        merged = self.work / f"group{index}.pcapng"
        merge([m.path for m in mutants], merged)
        variant = index % 4
        found, _ = self.run(merged, variant, f"group{index}")
        with self.lock:
            self.files += len(mutants)
            self.cut_files += sum(1 for m in mutants if m.snap)
            self.runs += 1
            self.keyed_runs += bool(variant & KEYED)
            self.two_pass_runs += bool(variant & TWO_PASS)
        if found:
            self.deadline = 0       # fail fast: no new runs once something is found
            self.isolate(merged, mutants, variant, found)
        for m in mutants:
            m.path.unlink()
        merged.unlink()

    def isolate(self, merged, mutants, variant, group_found):
        """Re-runs the group's files one by one; keeps the culprits."""
        culprits = []
        for m in mutants:
            found, err = self.run(m.path, variant, m.path.stem)
            if found:
                culprits.append((m.path, m.recipe(), found, err))
        if not culprits:                        # only the files together trigger it
            culprits.append((merged, "mergecap -F pcapng -a of: " +
                             "; ".join(m.recipe() for m in mutants), group_found, ""))
        self.args.findings.mkdir(parents=True, exist_ok=True)
        for path, recipe, found, err in culprits:
            kept = self.args.findings / path.name
            shutil.copy(path, kept)
            kept.with_suffix(".txt").write_text(
                f"{recipe}\nkeys: {'all of captures/*.keys' if variant & KEYED else 'none'}"
                f"{', two passes (-2)' if variant & TWO_PASS else ''}\n"
                + "\n".join(found) + "\n\n" + err[-20000:], encoding="utf-8")
            with self.lock:
                self.findings.append(f"{kept}: {'; '.join(found)}")

    def plan(self):
        captures = sample_captures(self.args.captures)
        size = self.args.group
        mutants = [Mutant(captures[i % len(captures)],
                          PROBABILITIES[(i // len(captures)) % len(PROBABILITIES)],
                          self.args.seed + i, self.work,
                          12 + (self.args.seed + i) % 48
                          if (i // size) % SNAP_GROUP_EVERY == SNAP_GROUP_EVERY - 1 else None)
                   for i in range(self.args.files)]
        return [mutants[i:i + size] for i in range(0, len(mutants), size)]

    def execute(self):
        start = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(self.args.jobs) as pool:
            for future in [pool.submit(self.group, i, g) for i, g in enumerate(self.plan())]:
                future.result()
        return time.monotonic() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--captures", type=Path, required=True)
    parser.add_argument("--files", type=int, default=400, help="mutated files at most")
    parser.add_argument("--seconds", type=float, default=90,
                        help="start no new run after this long")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--group", type=int, default=8, help="mutated files per tshark run")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first file")
    parser.add_argument("--findings", type=Path,
                        default=Path(tempfile.gettempdir()) / "bthome-mutation-findings")
    parser.add_argument("--runtime", default=asan_runtime(),
                        help="sanitizer runtime to preload ('' for none)")
    args = parser.parse_args()
    campaign = Campaign(args)
    try:
        elapsed = campaign.execute()
    finally:
        campaign.ws.close()
    print(f"mutation: {campaign.files} mutated files in {campaign.runs} tshark runs "
          f"({campaign.keyed_runs} with keys, {campaign.two_pass_runs} two-pass, "
          f"{campaign.cut_files} files cut to a snap length) in "
          f"{elapsed:.0f} s, seeds {args.seed}.."
          f"{args.seed + campaign.files - 1}, {campaign.trees} BTHome trees, "
          f"{len(campaign.findings)} finding(s)")
    for finding in campaign.findings:
        print(f"  FINDING {finding}")
    if campaign.files == 0 or campaign.trees == 0:
        print("mutation: FAILED, nothing was dissected by the plugin")
        return 1
    return 1 if campaign.findings else 0


if __name__ == "__main__":
    sys.exit(main())
