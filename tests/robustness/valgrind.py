# SPDX-License-Identifier: GPL-2.0-or-later
"""valgrind memcheck of tshark with the plugin over all the sample captures.

The captures are concatenated with mergecap into one pcapng per job (a few tshark
starts under valgrind instead of one per capture, the jobs side by side) and dissected
with `tshark -nVx` and every key of captures/*.keys. Passes when no memcheck error and no definite leak has a stack frame
in the plugin (bthome.so); errors and leaks of Wireshark and its libraries are counted
and shown, not judged.

    python3 -m tests.robustness.valgrind --plugin build/bthome.so --captures captures \
        [--keep-xml DIR]
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from tests.robustness.wrapped import WrappedTshark, key_options, merge, sample_captures

# tshark unloads its plugins before the leak check: --keep-debuginfo keeps the plugin's
# symbols, or its leaks would have anonymous frames and escape attribution.
MEMCHECK = ["valgrind", "--tool=memcheck", "--error-limit=no", "--num-callers=40",
            "--leak-check=full", "--show-leak-kinds=definite",
            "--errors-for-leak-kinds=definite", "--child-silent-after-fork=yes",
            "--keep-debuginfo=yes"]
PLUGIN_OBJECT = "bthome.so"
PLUGIN_SOURCES = {p.name for p in (Path(__file__).resolve().parents[2] / "plugin").glob("*.c")}


def stack(error):
    """(object, function, file:line) of each frame of an error's first stack."""
    frames = []
    trace = error.find("stack")
    for frame in trace.iter("frame") if trace is not None else ():
        where = ""
        if frame.findtext("file"):
            where = f"{frame.findtext('file')}:{frame.findtext('line')}"
        frames.append((frame.findtext("obj") or "", frame.findtext("fn") or "?", where))
    return frames


def in_plugin(frames):
    return any(obj.endswith(PLUGIN_OBJECT) or where.split(":")[0] in PLUGIN_SOURCES
               for obj, _, where in frames)


def describe(error):
    text = error.findtext("what") or error.findtext("xwhat/text") or error.findtext("kind")
    frames = [f"    {fn} ({where or obj})" for obj, fn, where in stack(error)[:12]]
    return "\n".join([f"  {error.findtext('kind')}: {text}"] + frames)


def summarise(xml_path):
    root = ET.parse(xml_path).getroot()
    errors = root.findall("error")
    leaks = [e for e in errors if e.findtext("kind", "").startswith("Leak_")]
    others = [e for e in errors if e not in leaks]
    return {
        "errors": others,
        "plugin_errors": [e for e in others if in_plugin(stack(e))],
        "leaks": leaks,
        "plugin_leaks": [e for e in leaks if in_plugin(stack(e))],
    }


def split(captures, parts):
    """Captures in `parts` groups of about the same size (largest first, to the lightest)."""
    groups = [[] for _ in range(parts)]
    sizes = [0] * parts
    for path in sorted(captures, key=lambda p: -p.stat().st_size):
        i = sizes.index(min(sizes))
        groups[i].append(path)
        sizes[i] += path.stat().st_size
    return [g for g in groups if g]


def run_group(ws, out, index, captures, keys):
    """One tshark under memcheck over a group of captures; (BTHome trees, XML path), or
    an error text."""
    merged = out / f"captures-{index}.pcapng"
    merge(captures, merged)
    xml_path = out / f"memcheck-{index}.xml"
    text = out / f"tshark-{index}.txt"
    cmd = ws.command(["-n", "-V", "-x", "-r", str(merged)] + keys)
    i = cmd.index(ws.tshark)
    cmd[i:i] = MEMCHECK + ["--xml=yes", f"--xml-file={xml_path}"]
    with open(text, "wb") as f:
        proc = subprocess.run(cmd, env=ws.env(), stdout=f, stderr=subprocess.PIPE,
                              cwd=ws.tmp, timeout=1200)
    if proc.returncode != 0 or not xml_path.exists():
        return f"tshark exited {proc.returncode}\n{proc.stderr.decode()[-5000:]}"
    return text.read_bytes().count(b"\nBTHome Sensor Data v"), xml_path


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--captures", type=Path, required=True)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2,
                        help="valgrind runs side by side, each over part of the captures")
    parser.add_argument("--keep-xml", type=Path, help="copy valgrind's XML reports here")
    args = parser.parse_args()
    captures = sample_captures(args.captures)
    keys = key_options(args.captures)
    found = {"errors": [], "plugin_errors": [], "leaks": [], "plugin_leaks": []}
    trees = 0
    start = time.monotonic()
    with WrappedTshark(args.plugin) as ws:
        out = Path(ws.writable_dir("valgrind"))
        groups = split(captures, args.jobs)
        with concurrent.futures.ThreadPoolExecutor(len(groups)) as pool:
            results = list(pool.map(lambda ig: run_group(ws, out, ig[0], ig[1], keys),
                                    enumerate(groups)))
        for result in results:
            if isinstance(result, str):
                print(f"valgrind: {result}")
                return 1
            trees += result[0]
            for key, errors in summarise(result[1]).items():
                found[key] += errors
            if args.keep_xml:
                args.keep_xml.mkdir(parents=True, exist_ok=True)
                shutil.copy(result[1], args.keep_xml)
    elapsed = time.monotonic() - start
    print(f"valgrind: {len(captures)} captures in {len(groups)} runs, {trees} BTHome trees "
          f"({elapsed:.0f} s): {len(found['errors'])} memcheck errors "
          f"({len(found['plugin_errors'])} in the plugin), {len(found['leaks'])} definite "
          f"leaks ({len(found['plugin_leaks'])} from the plugin)")
    shown = set()
    for error in found["plugin_errors"] + found["plugin_leaks"]:
        text = describe(error)
        site = text.split("\n", 1)[-1]        # each job reports the same site again
        if site not in shown:
            shown.add(site)
            print(text)
    if trees == 0:
        print("valgrind: FAILED, the plugin dissected nothing")
        return 1
    return 1 if found["plugin_errors"] or found["plugin_leaks"] else 0


if __name__ == "__main__":
    sys.exit(main())
