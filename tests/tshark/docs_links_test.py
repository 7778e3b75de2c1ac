# SPDX-License-Identifier: GPL-2.0-or-later
"""Every relative link of the documentation resolves: the file or folder it names exists
(relative to the document), and its #anchor, if any, is a heading of the target document
(GitHub's heading ids: lower case, punctuation dropped, spaces to hyphens, -1, -2, ... for
repeats). Links to other sites (http:, https:, mailto:) are not fetched.

It checks README.md, docs/*.md, bench/README.md and captures/README.md, a test each
(python3 -m pytest tests/tshark/docs_links_test.py -k user-guide).
"""
import os
import re
from pathlib import Path
from urllib.parse import unquote

import pytest

pytestmark = pytest.mark.source_only

ROOT = Path(__file__).resolve().parents[2]

INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^[ \t]{0,3}\[[^\]]+\]:[ \t]*<?(\S+?)>?(?:[ \t]+.*)?$", re.M)
HTML = re.compile(r"""<(?:a|img)\s[^>]*?(?:href|src)=["']([^"']+)["']""", re.I)
FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.M | re.S)
CODE = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
DOCUMENTS = ["README.md", "docs/*.md", "bench/README.md", "captures/README.md"]


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


def broken_links(doc, root=ROOT):
    """([problem], number of relative links) of a document."""
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


def documents():
    return sorted(str(p.relative_to(ROOT)) for pattern in DOCUMENTS for p in ROOT.glob(pattern))


def test_documents_found():
    assert len(documents()) > 3, f"too few documents found: {documents()}"


@pytest.mark.parametrize("doc", documents())
def test_relative_links_resolve(doc):
    problems, count = broken_links(str(ROOT / doc))
    assert not problems, f"{len(problems)} of {count} relative links of {doc} do not " \
        "resolve:\n" + "\n".join(problems)
