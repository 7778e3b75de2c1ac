#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The release job's decision (.github/workflows/release.yml): publish every file that the
build jobs uploaded, and name what is missing.

A build job uploads its file only after the file loaded into the official Wireshark of
its X.Y on its platform (tests/release/load-test.sh), so whatever is in DIST may be published;
the profile zip and the bthome-keys zip come from one job of their own (EXTRAS_JOB).
This script checks each file against the SHA-256 its job computed (FILE.sha256), writes
SHA256SUMS, lists the files to attach (one a line, SHA256SUMS last) and writes the
release notes: which file is for whom, and each Wireshark series x platform whose file
is missing, with a link to its job (or to the run when the job is not in the list).

    release-notes.py --dist DIST --jobs JOBS --run-url URL --notes NOTES --files FILES \
                     [--docs-url URL]     (docs/install.md at this commit, for the link)

JOBS: the run's jobs as the GitHub API lists them (GET .../actions/runs/ID/attempts/N/jobs,
the whole answer or one {"name", "conclusion", "html_url"} object a line, as
`gh api --paginate --jq '.jobs[]'` prints them). Build jobs are those named
"Wireshark X.Y.Z, OS ARCH" (the workflow's build job name).

Exit status: 0 every job passed and every file is there; 1 something is missing or a job
did not pass (the files that are there are still listed: publish them, and fail the run);
an extra (profile or keys zip) that does not match its SHA-256 is left out and counts as
one missing file; 2 an error (a plugin file that does not match its SHA-256, unreadable
JOBS): publish nothing.
"""
import argparse
import glob
import hashlib
import json
import os
import re
import sys

BUILD_JOB = re.compile(r"^Wireshark (\d+)\.(\d+)\.(\d+), (\S+) (\S+)$")
EXTRAS = (("profile", "the BTHome profile for Wireshark's Import (bthome-VERSION-profile.zip)"),
          ("keys", "bthome-keys for Windows and macOS (bthome-VERSION-keys.zip)"))
EXTRAS_JOB = "The profile zip and bthome-keys"     # the workflow's extras job name
EXTRA_FILE = re.compile(r"^bthome-[0-9.]+-(profile|keys)\.zip$")
OS_NAMES = {"linux": "Linux", "windows": "Windows", "macos": "macOS"}


def read_jobs(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        data = json.loads(text)
        jobs = data["jobs"] if isinstance(data, dict) else data
    except json.JSONDecodeError:
        jobs = [json.loads(line) for line in text.splitlines() if line.strip()]
    return [j for j in jobs if isinstance(j, dict) and "name" in j]


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def check_sums(dist):
    """{file name: digest} of the files in DIST, each checked against its .sha256, and
    the errors, each "NAME: what is wrong" (NAME the file the .sha256 is for)."""
    sums, errors = {}, []
    for path in sorted(glob.glob(os.path.join(dist, "*.sha256"))):
        with open(path, encoding="utf-8") as f:
            fields = f.read().split()
        name = os.path.basename(path)[:-len(".sha256")]
        target = os.path.join(dist, name)
        if len(fields) != 2 or fields[1].lstrip("*") != name:
            errors.append(f"{name}: its .sha256 is not one line 'DIGEST  {name}'")
        elif not os.path.isfile(target):
            errors.append(f"{name}: a {name}.sha256 but no {name}")
        elif sha256(target) != fields[0].lower():
            errors.append(f"{name}: its SHA-256 is not the one its job computed")
        else:
            sums[name] = fields[0].lower()
    for path in sorted(glob.glob(os.path.join(dist, "bthome-*"))):
        name = os.path.basename(path)
        if not name.endswith(".sha256") and name not in sums and \
                not any(e.startswith(f"{name}:") for e in errors):
            errors.append(f"{name}: no {name}.sha256")
    return sums, errors


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for opt in ("--dist", "--jobs", "--run-url", "--notes", "--files"):
        ap.add_argument(opt, required=True)
    ap.add_argument("--docs-url")
    args = ap.parse_args()
    docs = f"[docs/install.md]({args.docs_url})" if args.docs_url else "docs/install.md"

    try:
        jobs = read_jobs(args.jobs)
    except (OSError, ValueError, KeyError) as e:
        print(f"release-notes: cannot read the jobs ({args.jobs}): {e}", file=sys.stderr)
        return 2
    sums, errors = check_sums(args.dist) if os.path.isdir(args.dist) else ({}, [])
    # A bad extra is left out (one missing file); any other bad file publishes nothing.
    bad_extras = {}
    for e in errors:
        name, why = e.split(": ", 1)
        if EXTRA_FILE.match(name):
            bad_extras[EXTRA_FILE.match(name)[1]] = (name, why)
        print(f"release-notes: {e}", file=sys.stderr)
    if len(bad_extras) != len(errors):
        return 2
    extras_job = next((j for j in jobs if j["name"] == EXTRAS_JOB), None)
    extras_link = (extras_job or {}).get("html_url") or args.run_url

    builds = []
    for job in jobs:
        m = BUILD_JOB.match(job["name"])
        if m:
            builds.append((f"{m[1]}.{m[2]}", m[4], m[5], job))
    if not builds:
        print("release-notes: no build job in the jobs list", file=sys.stderr)
        return 2
    builds.sort(key=lambda b: ([-int(x) for x in b[0].split(".")], b[1], b[2]))

    present, missing = [], []
    for series, os_name, arch, job in builds:
        suffix = re.compile(rf"^bthome-.+-wireshark-{re.escape(series)}-{re.escape(os_name)}"
                            rf"-{re.escape(arch)}\.(so|dll)$")
        files = [n for n in sums if suffix.match(n)]
        where = f"Wireshark {series}, {OS_NAMES.get(os_name, os_name)} {arch}"
        if files:
            present += files
        else:
            link = job.get("html_url") or args.run_url
            missing.append(f"- {where}: not built or not loaded, see [its job]({link})"
                           f" ({job.get('conclusion') or 'did not finish'})")
    extras = []
    for kind, what in EXTRAS:
        files = [n for n in sums if EXTRA_FILE.match(n) and EXTRA_FILE.match(n)[1] == kind]
        extras += files
        if kind in bad_extras:
            name, why = bad_extras[kind]
            missing.append(f"- {what}: {name} left out ({why}), see [its job]({extras_link})")
        elif not files:
            missing.append(f"- {what}: not made, see [its job]({extras_link})")
    failed = [j for _, _, _, j in builds if j.get("conclusion") != "success"]
    if extras_job and extras_job.get("conclusion") != "success":
        failed.append(extras_job)

    with open(os.path.join(args.dist, "SHA256SUMS") if os.path.isdir(args.dist)
              else os.devnull, "w", encoding="utf-8") as f:
        for name in sorted(present + extras):
            f.write(f"{sums[name]}  {name}\n")
    with open(args.files, "w", encoding="utf-8") as f:
        for name in sorted(present) + sorted(extras):
            f.write(os.path.join(args.dist, name) + "\n")
        if present or extras:
            f.write(os.path.join(args.dist, "SHA256SUMS") + "\n")

    notes = [
        "The plugin built for each supported Wireshark series, on Windows, macOS and Linux. "
        f"Which file to take and where it goes: {docs}. Each plugin file loaded "
        "into the official Wireshark of its series on its platform (the distribution's "
        "package on Linux) before it was attached; SHA256SUMS lists the SHA-256 of every "
        "file.",
    ]
    if extras:
        notes += ["", "Also attached: the BTHome profile zip (Edit > Configuration Profiles > "
                      "Import > from zip file) and bthome-keys for Windows and macOS (needs "
                      "Python 3; on Windows run bthome-keys.bat), made once by one job; "
                      "the same script's zips were tested with the official Wireshark on "
                      "the Windows and macOS runners."]
    if missing:
        notes += ["", "**Missing from this release** (the workflow run failed for them; "
                      "a re-run of the failed jobs adds them):", ""] + missing
    elif failed:
        notes += ["", f"Every file is here, but a job did not pass: see [the run]"
                      f"({args.run_url})."]
    with open(args.notes, "w", encoding="utf-8") as f:
        f.write("\n".join(notes) + "\n")

    print(f"release-notes: {len(present) + len(extras)} files to attach, "
          f"{len(missing)} missing, {len(failed)} jobs did not pass")
    for line in missing:
        print(f"release-notes: missing {line[2:]}")
    return 1 if missing or failed else 0


if __name__ == "__main__":
    sys.exit(main())
