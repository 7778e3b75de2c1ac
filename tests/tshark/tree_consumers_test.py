#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The plugin builds no BTHome tree when nothing would see it (a tree that is not shown
and has no BTHome or expert field in a filter). Whatever does look at it must still find
it: display filters on BTHome fields, on its expert infos (bthome.expert.*, and the
generic _ws.expert.* ones) and the expert tap (-z expert) give in a summary run what they
give when the whole tree is built and shown (-V), and custom columns of BTHome fields show
what -T fields prints.

    tree_consumers_test.py --plugin bthome.so --capture captures/X.pcap [--keys X.keys]
                           [--filter F ...]
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from wsrun import IsolatedTshark, key_options  # noqa: E402

FILTERS = [
    "bthome",
    "bthome.temperature > 25",
    "bthome.temperature#1 > 25",    # the fields' layer number: BTHome's first layer
    "bthome.info.encrypted == 1",
    "bthome.object_id == 0x02",
    "bthome.encryption.counter == 101",
    "bthome.encryption.prev_frame",
    "bthome.expert.duplicate",
    "bthome.expert.no_key",
    "bthome.expert.downgrade",
    "_ws.expert",
    '_ws.expert.message contains "Retransmission"',
    '_ws.expert.message contains "no key configured for"',
]

def summary_frames(ws, capture, options, dfilter):
    out = ws.run(["-n", "-r", capture, "-Y", dfilter, *options]).stdout
    return [int(line.split()[0]) for line in out.splitlines() if line.strip()]


def shown_tree_frames(ws, capture, options, dfilter):
    out = ws.run(["-n", "-V", "-r", capture, "-Y", dfilter, *options]).stdout
    return [int(n) for n in re.findall(r"^Frame (\d+):", out, re.M)]


def custom_column(ws, capture, options, field):
    """Frame number and a custom column of field, from summary lines."""
    column = f'gui.column.format:"No.","%m","Value","%Cus:{field}"'
    out = ws.run(["-n", "-r", capture, "-o", column, *options]).stdout
    rows = [line.split(None, 1) for line in out.splitlines() if line.strip()]
    return [row if len(row) == 2 else row + [""] for row in rows]


def without_unit(column_text):
    """A custom column's values without their unit: 4.2+ show "25.06 °C" or, for the
    units Wireshark writes without a space, "25.06°C" where -T fields prints 25.06."""
    def value(text):
        token = text.strip().split(" ")[0]
        m = re.fullmatch(r"(-?[0-9.]+(?:e[-+]?[0-9]+)?)([^0-9:.\-].*)?", token)
        return m.group(1) if m else token
    return ",".join(value(v) for v in column_text.split(","))


def field_values(ws, capture, options, field):
    out = ws.run(["-n", "-r", capture, "-T", "fields", "-e", "frame.number", "-e", field,
                  *options]).stdout
    return [line.split("\t") for line in out.splitlines()]


def expert_tap(ws, capture, options, dfilter=None):
    args = ["-n", "-q", "-z", "expert", "-r", capture, *options]
    if dfilter:
        args += ["-Y", dfilter]
    return ws.run(args).stdout


def expert_column(ws, capture, options, extra=()):
    """Frame number and the Expert column (the severity of the frame's expert infos)."""
    column = 'gui.column.format:"No.","%m","Expert","%a"'
    out = ws.run(["-n", "-r", capture, "-o", column, *options, *extra]).stdout
    return [line.split() for line in out.splitlines()
            if re.fullmatch(r"\s*\d+(\s+[A-Z][a-z]+)?\s*", line)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--capture", required=True)
    ap.add_argument("--keys")
    ap.add_argument("--filter", action="append",
                    help="check these filters instead of the built-in ones (repeatable)")
    args = ap.parse_args()
    options = key_options(args.keys)
    failures = []
    with IsolatedTshark(args.plugin) as ws:
        for dfilter in args.filter or FILTERS:
            quiet = summary_frames(ws, args.capture, options, dfilter)
            shown = shown_tree_frames(ws, args.capture, options, dfilter)
            verdict = "ok" if quiet == shown and shown else "FAIL"
            print(f"{verdict} -Y '{dfilter}': {len(quiet)} frames in a summary run, "
                  f"{len(shown)} with the tree shown")
            if verdict != "ok":
                failures.append(dfilter)
        # a custom column of a BTHome field shows what -T fields prints
        for field in ("bthome.temperature", "bthome.device"):
            column = custom_column(ws, args.capture, options, field)
            fields = field_values(ws, args.capture, options, field)
            same = [[n.strip(), without_unit(v)] for n, v in column] == \
                [[n, v] for n, v in fields]
            valued = sum(1 for _, v in fields if v)
            print(f"{'ok' if same and valued else 'FAIL'} custom column {field}: "
                  f"{valued} frames with a value")
            if not (same and valued):
                failures.append(f"custom column {field}")
        # the same expert tap output whether or not a filter makes the tree be built
        plain = expert_tap(ws, args.capture, options)
        built = expert_tap(ws, args.capture, options, "bthome || !bthome")
        texts = re.findall(r"BTHome\s+(.+)", plain)
        ok = plain == built and (bool(args.filter) or any(
            re.search(r"[0-9A-F]{2}(:[0-9A-F]{2}){5}", t) for t in texts))
        print(f"{'ok' if ok else 'FAIL'} -z expert: {len(texts)} BTHome lines, "
              f"{'same' if plain == built else 'different'} with the tree built")
        if not ok:
            failures.append("-z expert")
            print(plain)
            print(built)
        # an Expert column reads every expert info, also where no tree and no expert tap
        # listener would (the plugin spares those once their severity is reached)
        plain = expert_column(ws, args.capture, options)
        tapped = expert_column(ws, args.capture, options, ["-z", "expert"])
        rated = sum(1 for row in plain if len(row) == 2)
        ok = plain == tapped and (bool(args.filter) or rated > 1)
        print(f"{'ok' if ok else 'FAIL'} Expert column: {rated} frames with a severity, "
              f"{'same' if plain == tapped else 'different'} with an expert tap listener")
        if not ok:
            failures.append("Expert column")
    if failures:
        print(f"FAIL {args.capture}: {len(failures)} consumer(s) see less of BTHome")
        return 1
    print(f"ok {args.capture}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
