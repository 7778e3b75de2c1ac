#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every relative link of the documentation resolves: the file or folder it names exists
(relative to the document), and its #anchor, if any, is a heading of the target document
(GitHub's heading ids: lower case, punctuation dropped, spaces to hyphens, -1, -2, ... for
repeats). Links to other sites (http:, https:, mailto:) are not fetched.

    docs_links_test.py --root SOURCE_DIR [FILE.md ...]

Without files it checks README.md, docs/*.md, bench/README.md and captures/README.md.
"""
import argparse
import glob
import os
import re
import sys
from urllib.parse import unquote

INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^[ \t]{0,3}\[[^\]]+\]:[ \t]*<?(\S+?)>?(?:[ \t]+.*)?$", re.M)
HTML = re.compile(r"""<(?:a|img)\s[^>]*?(?:href|src)=["']([^"']+)["']""", re.I)
FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.M | re.S)
CODE = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
DEFAULT = ["README.md", "docs/*.md", "bench/README.md", "captures/README.md"]


def prose(text):
    """The text without code blocks and inline code, whose brackets are no links."""
    text = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    return CODE.sub(lambda m: "\n" * m.group(0).count("\n"), text)


def slug(heading):
    text = re.sub(r"`([^`]*)`", r"\1", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)   # a link in a heading: its text
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


_ANCHORS = {}


def anchors(path):
    """The heading ids of a Markdown file."""
    cache = _ANCHORS
    if path not in cache:
        with open(path, encoding="utf-8") as f:
            text = FENCE.sub("", f.read())
        seen, ids = {}, set()
        for m in HEADING.finditer(text):
            base = slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            ids.add(base if n == 0 else f"{base}-{n}")
        cache[path] = ids
    return cache[path]


def links(text):
    text = prose(text)
    for pattern in (INLINE, REFERENCE, HTML):
        for m in pattern.finditer(text):
            yield text.count("\n", 0, m.start()) + 1, m.group(1)


def check(doc, root):
    problems, count = [], 0
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    for line, target in links(text):
        if EXTERNAL.match(target):
            continue
        count += 1
        where = f"{os.path.relpath(doc, root)}:{line}: {target}"
        path, _, anchor = target.partition("#")
        path = unquote(path)
        if path.startswith("/"):
            problems.append(f"{where}: absolute path, use one relative to the document")
            continue
        dest = os.path.normpath(os.path.join(os.path.dirname(doc), path)) if path else doc
        if os.path.relpath(dest, root).split(os.sep)[0] == "..":
            problems.append(f"{where}: leaves the source tree")
        elif not os.path.exists(dest):
            problems.append(f"{where}: no such file or folder")
        elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
            problems.append(f"{where}: no heading #{anchor} in {os.path.relpath(dest, root)}")
    return problems, count


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True, help="the project's source folder")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    files = [os.path.join(root, f) for f in args.files] if args.files else sorted(
        p for pattern in DEFAULT for p in glob.glob(os.path.join(root, pattern)))
    if not files:
        print("FAIL: no documents found")
        return 1
    problems, total = [], 0
    for doc in files:
        found, count = check(doc, root)
        problems += found
        total += count
    if problems:
        print("\n".join(problems))
        print(f"FAIL: {len(problems)} of {total} relative links do not resolve")
        return 1
    print(f"ok: {total} relative links in {len(files)} documents resolve")
    return 0


if __name__ == "__main__":
    sys.exit(main())
