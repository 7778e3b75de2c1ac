# SPDX-License-Identifier: GPL-2.0-or-later
"""What the sources and the profile writer share: the values (MAC, key, name) as the
plugin takes them, the uat field escaping, the messages that never show a key, and
KeysError."""
import json
import re
import sys

PROG = "bthome-keys"
UAT_NAME = "bthome_keys"

EXIT_BAD_INPUT = 1      # nothing written (argparse's command line errors are 2)
EXIT_LEFT_OUT = 3       # the rest imported; conflicts or rejected entries left out


class KeysError(Exception):
    """Bad input or an unusable destination: reported, nothing written."""


# ---- values -------------------------------------------------------------------------------

MAC_RE = re.compile(r"[0-9A-Fa-f]{2}(?:[:-][0-9A-Fa-f]{2}){5}")


def parse_mac(text):
    """"AA:BB:CC:DD:EE:FF" for a MAC as the plugin takes it (':' or '-', any case; it
    accepts either separator at every place), None otherwise."""
    if not isinstance(text, str) or len(text) != 17 or not MAC_RE.fullmatch(text):
        return None
    return ":".join(text[i:i + 2] for i in range(0, 17, 3)).upper()


def parse_key(text):
    """32 lower-case hex digits for a key as the plugin takes it (':', '-' and spaces
    between digits ignored), None otherwise."""
    if not isinstance(text, str):
        return None
    digits = re.sub(r"[:\- ]", "", text)
    if len(digits) != 32 or not re.fullmatch(r"[0-9A-Fa-f]{32}", digits):
        return None
    return digits.lower()


def uat_escape(text):
    """A field as uat_save writes it: '"', '\\' and non-printable bytes as \\xhh."""
    out = []
    for b in text.encode("utf-8"):
        if b in (0x22, 0x5C) or not 0x20 <= b < 0x7F:
            out.append("\\x%02x" % b)
        else:
            out.append(chr(b))
    return "".join(out)


def uat_row(mac, key, name):
    return ",".join('"%s"' % uat_escape(v) for v in (mac, key, name))


CONTROL_NAMES = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def one_line(text):
    """text with control and other unprintable characters escaped (\\t, \\n, \\xhh,
    \\uhhhh), so a message stays on one line."""
    out = []
    for c in str(text):
        if c in CONTROL_NAMES:
            out.append(CONTROL_NAMES[c])
        elif c.isprintable():
            out.append(c)
        else:
            out.append("\\x%02x" % ord(c) if ord(c) < 0x100 else "\\u%04x" % ord(c))
    return "".join(out)


def quote(text):
    """A value from a source as messages show it: in quotes once, on one line. Double
    quotes, or single ones when the text holds double quotes and no single one; a quote
    or backslash inside is escaped with a backslash. A value that is not text (JSON)
    is shown as JSON."""
    if not isinstance(text, str):
        return json.dumps(text)
    q = "'" if '"' in text and "'" not in text else '"'
    return q + one_line(text.replace("\\", "\\\\").replace(q, "\\" + q)) + q


CHAR_NAMES = {"\t": "a tab", "\n": "a newline", "\r": "a carriage return"}
HEX = "0123456789abcdefABCDEF"


def may_show(text):
    """Whether a value from a source may appear in a message: text with no three hex
    digits in a row and at most 12 of them (what a MAC has). Anything else may be a key
    or part of one, and keys are never shown, not even a rejected one."""
    return (isinstance(text, str) and not re.search(r"[0-9A-Fa-f]{3}", text)
            and sum(c in HEX for c in text) <= 12)


def shown(text):
    """A value from a source as messages show it: quoted, or only described when it may
    be a key (may_show)."""
    if may_show(text) or not isinstance(text, str):
        return quote(text)
    return (f"a value of {len(text)} characters, {sum(c in HEX for c in text)} of them "
            "hex digits (not shown: it may be a key)")


def row_shape(line):
    """A line of a bthome_keys file as messages describe it: its length and how many
    double quotes and commas it has (the line itself may hold a key)."""
    line = line.strip()
    return (f"{len(line)} characters, {line.count(chr(34))} double quotes, "
            f"{line.count(',')} commas; want \"MAC\",\"KEY\",\"NAME\"")


def char_name(c):
    return CHAR_NAMES.get(c) or (quote(c) if c.isprintable() else "U+%04X" % ord(c))


def key_problem(text):
    """What is wrong with a key the plugin would not take, in words; the key itself is
    never shown, only how many digits it has and which characters are not hex."""
    if not isinstance(text, str):
        return (f"key is a JSON {'null' if text is None else type(text).__name__}, not text "
                "(want 32 hex digits)")
    digits = sum(c in HEX for c in text)
    others = []
    for position, c in enumerate(text, 1):
        if c not in HEX and c not in ":- ":
            name = char_name(c)
            if not any(o.startswith(name + " ") for o in others):
                others.append(f"{name} (character {position})")
    if others:
        return (f"key has {digits} hex digits and also {', '.join(others)} "
                "(a key is 32 hex digits, with ':', '-' or spaces between them)")
    return f"key has {digits} hex digits, not 32"


class Row:
    """A key from a source: normalised MAC and key, name, and where it was read."""

    def __init__(self, mac, key, name, origin):
        self.mac, self.key, self.name, self.origin = mac, key, name, origin


def make_row(mac_text, key_text, name, origin):
    mac = parse_mac(mac_text)
    if mac is None:
        if mac_text == "*":
            raise KeysError(f'{origin}: "*" is not a device MAC (add "*" rows in '
                            "Wireshark's table itself)")
        raise KeysError(f"{origin}: {shown(mac_text)} is not a MAC (write AA:BB:CC:DD:EE:FF)")
    key = parse_key(key_text)
    if key is None:
        raise KeysError(f"{origin}: {key_problem(key_text)}")
    return Row(mac, key, name, origin)


def os_problem(path, e):
    """The message for an OSError on path: a permission problem said as such."""
    if isinstance(e, PermissionError):
        return f"{path}: permission denied"
    return f"{path}: cannot read it: {e.strerror}"


def read_text(path, what, may_be_empty=False):
    """The text of a file (a UTF-8 BOM dropped, as editors on Windows write one). An
    empty file is an error unless may_be_empty: no source is empty on purpose."""
    shown = "standard input" if path == "-" else path
    try:
        if path == "-":
            text = sys.stdin.buffer.read().decode("utf-8-sig")
        else:
            with open(path, encoding="utf-8-sig") as f:
                text = f.read()
    except FileNotFoundError:
        raise KeysError(f"{path}: no such file ({what})")
    except IsADirectoryError:
        raise KeysError(f"{path}: is a folder, not a file ({what})")
    except UnicodeDecodeError as e:
        raise KeysError(f"{shown}: not UTF-8 text ({e.reason} at byte {e.start})")
    except OSError as e:
        raise KeysError(os_problem(path, e) + f" ({what})")
    if not text.strip() and not may_be_empty:
        raise KeysError(f"{shown}: empty file, no {what}")
    return text
