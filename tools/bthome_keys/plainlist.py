# SPDX-License-Identifier: GPL-2.0-or-later
"""A plain key list: one "MAC KEY [name...]" a line."""
import re

from .common import KeysError, make_row, read_text


def read_plain_list(path, guessed=False):
    """(rows, problems of single lines). guessed: the kind was only guessed, so a file
    where no line starts with anything like a MAC is reported as not recognised, not
    line by line."""
    rows, errors, mac_like = [], [], 0
    shown = "standard input" if path == "-" else path
    for number, line in enumerate(read_text(path, "key list").splitlines(), 1):
        words = line.split(None, 2)
        if not words or words[0].startswith("#"):
            continue
        mac_like += words[0] == "*" or bool(re.match(r"[0-9A-Fa-f]{2}[:-]", words[0]))
        origin = f"{shown} line {number}"
        try:
            if len(words) < 2:
                raise KeysError(f"{origin}: want MAC KEY [name], got only one word")
            rows.append(make_row(words[0], words[1],
                                 words[2].strip() if len(words) > 2 else "", origin))
        except KeysError as e:
            errors.append(str(e))
    if guessed and errors and not rows and not mac_like:
        raise KeysError(f"{shown}: not recognised: no line starts with a MAC (a key list), "
                        "and it is no JSON (Home Assistant) or .yaml/.yml file (ESPHome); "
                        "--from says which it is")
    return rows, errors
