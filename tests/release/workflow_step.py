#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Print the `run:` block of one step of .github/workflows/release.yml, so that the
release dry runs (tests/release) run the workflow's own shell with Linux stand-ins.

    workflow_step.py [--env] "STEP NAME" [EXPR=VALUE...]
    workflow_step.py --if "STEP NAME" [NAME=VALUE...]

Each ${{ EXPR }} in the block is replaced by its VALUE; one without a value is an error
(the dry run would otherwise run something else than the workflow). With --env the step's
own `env:` comes first, as `export NAME=VALUE` lines (the runner sets it for the step).
With --if nothing is printed: the exit
status says whether the step's `if:` holds (0 yes, 1 no; no `if:` holds) for the values
given, in the small part of GitHub's expressions the workflow uses ('strings', names,
==, !=, !, &&, ||, parentheses). A line-based reader: `- name:` lines, `env:` maps of `NAME: value` lines and `run: |`
blocks as the workflow writes them, no YAML library.
"""
import os
import re
import sys

WORKFLOW = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                        ".github", "workflows", "release.yml")


def fail(message):
    """An error: status 2 (1 is --if's "does not hold")."""
    print(message, file=sys.stderr)
    sys.exit(2)


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


def step_if(lines, name):
    """The step's `if:` expression, or None."""
    for i, line in enumerate(lines):
        m = re.match(r"^(\s*)- name: (.*)$", line)
        if not m or m.group(2).strip() != name:
            continue
        for text in lines[i + 1:]:
            if text.strip() and len(text) - len(text.lstrip()) <= len(m.group(1)):
                break
            c = re.match(r"^\s*if: (.*)$", text)
            if c:
                return re.sub(r"^\$\{\{(.*)\}\}$", r"\1", c.group(1).strip()).strip()
        return None
    fail(f"workflow_step: no step named {name!r}")


def holds(expr, values):
    """Evaluates EXPR; a name without a value is an error."""
    tokens = re.findall(r"'[^']*'|==|!=|&&|\|\||!|\(|\)|[A-Za-z_][\w.-]*|\S", expr)
    pos = 0

    def peek():
        return tokens[pos] if pos < len(tokens) else None

    def take():
        nonlocal pos
        pos += 1
        return tokens[pos - 1]

    def atom():
        t = take()
        if t == "(":
            v = either()
            if take() != ")":
                fail(f"workflow_step: no ) in {expr!r}")
            return v
        if t == "!":
            return not atom()
        if t.startswith("'"):
            return t[1:-1]
        if t in ("true", "false"):
            return t == "true"
        if t not in values:
            fail(f"workflow_step: no value for {t} in {expr!r}")
        return values[t]

    def compare():
        v = atom()
        while peek() in ("==", "!="):
            op, w = take(), atom()
            v = (v == w) if op == "==" else (v != w)
        return v

    def chain(op, operand):        # operand (op operand)*, each operand evaluated
        values = [operand()]
        while peek() == op:
            take()
            values.append(operand())
        return all(values) if op == "&&" else any(values)

    def both():
        return chain("&&", compare)

    def either():
        return chain("||", both)

    result = either()
    if pos != len(tokens):
        fail(f"workflow_step: cannot read {expr!r}")
    return bool(result)


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
        fail(f"workflow_step: {len(found)} steps named {name!r} with a run block")
    return found[0]


def main():
    args = sys.argv[1:]
    mode = args[0] if args and args[0] in ("--env", "--if") else None
    args = args[1:] if mode else args
    if not args:
        sys.exit(__doc__)
    values = dict(a.split("=", 1) for a in args[1:])
    with open(WORKFLOW, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if mode == "--if":
        expr = step_if(lines, args[0])
        sys.exit(0 if expr is None or holds(expr, values) else 1)
    block = run_block(lines, args[0], mode == "--env")

    def expr(m):
        key = m.group(1).strip()
        if key not in values:
            fail(f"workflow_step: no value for ${{{{ {key} }}}}")
        return values[key]
    sys.stdout.write(re.sub(r"\$\{\{(.*?)\}\}", expr, block))


if __name__ == "__main__":
    main()
