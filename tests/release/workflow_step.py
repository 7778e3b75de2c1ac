#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Print the `run:` block of one step of .github/workflows/release.yml, so that the
release dry runs (tests/release) run the workflow's own shell with Linux stand-ins.

    workflow_step.py [--env] "STEP NAME" [EXPR=VALUE...]

Each ${{ EXPR }} in the block is replaced by its VALUE; one without a value is an error
(the dry run would otherwise run something else than the workflow). With --env the step's
own `env:` comes first, as `export NAME=VALUE` lines (the runner sets it for the step).
A line-based reader: `- name:` lines, `env:` maps of `NAME: value` lines and `run: |`
blocks as the workflow writes them, no YAML library.
"""
import os
import re
import sys

WORKFLOW = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                        ".github", "workflows", "release.yml")


def step_env(lines, start, step_indent):
    """The step's env: map, from the line after its `- name:`, as export lines."""
    out = []
    for j in range(start, len(lines)):
        text = lines[j]
        indent = len(text) - len(text.lstrip())
        if text.strip() and indent <= step_indent:
            break
        if re.match(r"^\s*env:\s*$", text):
            for k in range(j + 1, len(lines)):
                t = lines[k]
                if t.strip() and len(t) - len(t.lstrip()) <= indent:
                    break
                e = re.match(r"^\s*([A-Za-z_][A-Za-z0-9_]*):\s*(.*)$", t)
                if not e:
                    continue
                value = e.group(2)
                q = re.match(r"""^(["'])(.*?)\1""", value)
                value = q.group(2) if q else re.sub(r"\s+#.*$", "", value).strip()
                out.append(f"export {e.group(1)}='{value}'\n")
            break
    return "".join(out)


def run_block(lines, name, with_env=False):
    found = []
    for i, line in enumerate(lines):
        m = re.match(r"^(\s*)- name: (.*)$", line)
        if not m or m.group(2).strip() != name:
            continue
        step_indent = len(m.group(1))
        env = step_env(lines, i + 1, step_indent) if with_env else ""
        for j in range(i + 1, len(lines)):
            text = lines[j]
            indent = len(text) - len(text.lstrip())
            if text.strip() and indent <= step_indent:
                break
            r = re.match(r"^\s*run: (.*)$", text)
            if not r:
                continue
            if r.group(1).strip() != "|":
                found.append(env + r.group(1) + "\n")
                break
            body = []
            for k in range(j + 1, len(lines)):
                t = lines[k]
                if t.strip() and len(t) - len(t.lstrip()) <= indent:
                    break
                body.append(t)
            width = min(len(t) - len(t.lstrip()) for t in body if t.strip())
            found.append(env + "\n".join(t[width:] for t in body).rstrip() + "\n")
            break
    if len(found) != 1:
        sys.exit(f"workflow_step: {len(found)} steps named {name!r} with a run block")
    return found[0]


def main():
    args = sys.argv[1:]
    with_env = bool(args) and args[0] == "--env"
    args = args[1:] if with_env else args
    if not args:
        sys.exit(__doc__)
    values = dict(a.split("=", 1) for a in args[1:])
    with open(WORKFLOW, encoding="utf-8") as f:
        block = run_block(f.read().splitlines(), args[0], with_env)

    def expr(m):
        key = m.group(1).strip()
        if key not in values:
            sys.exit(f"workflow_step: no value for ${{{{ {key} }}}}")
        return values[key]
    sys.stdout.write(re.sub(r"\$\{\{(.*?)\}\}", expr, block))


if __name__ == "__main__":
    main()
