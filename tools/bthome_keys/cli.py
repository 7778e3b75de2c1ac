# SPDX-License-Identifier: GPL-2.0-or-later
"""The command line: which sources, where the keys go, what is said and the exit
status."""
import argparse
import os
import shlex
import sys

from .common import EXIT_BAD_INPUT, EXIT_LEFT_OUT, PROG, UAT_NAME, KeysError, uat_row
from .esphome import read_esphome
from .homeassistant import HA_STORAGE, ha_storage, read_home_assistant
from .plainlist import read_plain_list
from .profile import KeysFile, check_folder, destination, merge, write_keys

HELP = """\
Read BTHome keys (device MAC + 32-hex-digit key + name) from the places they already are
and merge them into the "BTHome keys" table of a Wireshark profile (its bthome_keys file),
or print them as tshark -o options.

Sources (the kind is recognised: a folder, a file named core.config_entries or a
JSON file is Home Assistant's, *.yaml/*.yml ESPHome's, anything else a plain list;
--from forces it; a UTF-8 BOM is skipped):
  Home Assistant   its configuration folder, its .storage folder, or
                   .storage/core.config_entries itself:
                   every entry of the "bthome" integration that has a "bindkey"; the
                   entry's unique_id is the MAC and its title the name. Entries without
                   a bindkey (unencrypted devices) and other integrations (xiaomi_ble,
                   ...) are skipped. "--from ha -" reads that file on standard input
                   (ssh USER@homeassistant.local cat /config/.storage/core.config_entries
                   | bthome-keys --profile BTHome --from ha -).
  plain list       one "MAC KEY [name...]" a line, the name the rest of the line;
                   blank lines and lines starting with # are skipped. '-' reads
                   standard input.
  ESPHome YAML     a *.yaml/*.yml node config: each "sensor:" item with
                   "platform: bthome_mithermometer", its mac_address and bindkey (plain,
                   quoted or !secret from secrets.yaml beside it); its id is the name.
                   Items without a bindkey are skipped.
A MAC is AA:BB:CC:DD:EE:FF (any case, ':' or '-'); a key 32 hex digits, ':' '-' or
spaces between them allowed (in the plain list the key is one word).

Where the keys go (one of):
  (default)            the default profile: $WIRESHARK_CONFIG_DIR if set; on Windows
                       %APPDATA%\\Wireshark; elsewhere $XDG_CONFIG_HOME/wireshark
                       (~/.config/wireshark) if it exists, else ~/.wireshark if it
                       exists, else the XDG folder (created)
  --profile NAME       that folder's profiles/NAME (as tshark -C NAME, wireshark -C NAME).
                       When you have no profile NAME but Wireshark has a global one (the
                       BTHome profile the package installs), your profile is made first
                       as Wireshark makes it when you select a global profile: a copy of
                       the global profile's files. A profile of yours that holds nothing
                       but bthome_keys (made by an older bthome-keys) gets those files
                       too. The global profiles are in Wireshark's global data folder:
                       $WIRESHARK_DATA_DIR if set, else the one tshark -G folders names
                       ("Global configuration"), else the usual place of the system.
  --keys-file PATH     that bthome_keys file
  --print-o            nothing written: one shell-quoted -o 'uat:bthome_keys:...' a line

Merging: rows already in the file stay as they are (also "*" rows and rows Wireshark
refuses). A key for a MAC already there with the same key is skipped; with another key
it is reported and left alone, unless --replace (the new row takes the place of that
MAC's rows). MACs compare in any case. The file is written whole to a temporary file in
the same folder, mode 0600, then renamed over the old one; run as root it keeps the
owner of the file it replaces (a new file gets the folder's owner).

Any bad input (an empty, unreadable or malformed file, a MAC that is not one, a key
that is not 32 hex digits, one MAC with two keys in the sources, a profile folder
missing or not writable) is reported with the file and the line or Home Assistant
entry, and nothing is written. With --skip-invalid, bad entries (a bad MAC or key, an
entry or line it cannot read, a MAC with two keys in the sources) are listed on
standard error as "rejected" and the good ones are imported; a file it cannot read at
all still stops everything.

Exit status:
  0  everything imported (or already there), or nothing to import
  1  bad input or an unusable destination: nothing written
  2  a wrong command line
  3  imported, but not everything: a MAC kept its other key (a conflict left alone,
     see --replace) or --skip-invalid rejected entries; each is named on standard
     error. --dry-run exits as the import would.

Examples:
  bthome-keys /srv/homeassistant                      # into the default profile
  bthome-keys --dry-run --profile BLE ha-config/.storage/core.config_entries
  bthome-keys --profile BTHome /srv/homeassistant     # into the BTHome profile
  bthome-keys --profile BLE --create-profile keys.txt esphome/living-room.yaml
  eval "opts=($(bthome-keys --print-o keys.txt))"; tshark -r x.pcap "${opts[@]}"   # bash
"""


def source_kind(path):
    """A folder or JSON (a UTF-8 BOM, then "{" or "[") is Home Assistant's, as is a file
    named core.config_entries; *.yaml/*.yml ESPHome's; anything else a key list."""
    if path == "-":
        return "list"
    if os.path.isdir(path) or os.path.basename(path) == os.path.basename(HA_STORAGE):
        return "ha"
    if path.lower().endswith((".yaml", ".yml")):
        return "esphome"
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return "list"                               # read_text reports it
    head = head[3:] if head.startswith(b"\xef\xbb\xbf") else head
    return "ha" if head.lstrip()[:1] in (b"{", b"[") else "list"

def read_source(path, kind):
    """(rows, problems of single entries or lines) of one source."""
    guessed = kind == "auto"
    kind = source_kind(path) if guessed else kind
    if kind == "ha":
        return read_home_assistant(ha_storage(path) if os.path.isdir(path) else path)
    if kind == "esphome":
        return read_esphome(path)
    return read_plain_list(path, guessed)


def gather(paths, kind, skip_invalid=False):
    """(rows, rejected): the rows of every source, one per MAC: the same MAC and key
    twice is one row (the first name); the same MAC with two keys is an error. Any error
    is raised, unless skip_invalid: then the bad entries are left out and listed (a MAC
    with two keys entirely)."""
    rows, errors, clashing = {}, [], set()
    for path in paths:
        found, problems = read_source(path, kind)
        errors += problems
        for row in found:
            seen = rows.get(row.mac)
            if seen is None:
                rows[row.mac] = row
            elif seen.key != row.key:
                clashing.add(row.mac)
                errors.append(f"{row.origin}: another key for {row.mac} than "
                              f"{seen.origin}; keep the right one")
    if errors and not skip_invalid:
        raise KeysError("\n".join(errors))
    return [r for r in rows.values() if r.mac not in clashing], errors


# ---- command line -------------------------------------------------------------------------

def print_options(rows):
    for row in rows:
        print("-o " + shlex.quote(f"uat:{UAT_NAME}:" + uat_row(row.mac, row.key, row.name)))


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog=PROG, usage="%(prog)s [options] SOURCE...",
        description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sources", nargs="+", metavar="SOURCE",
                    help="Home Assistant folder or core.config_entries, plain list, "
                         "ESPHome YAML, or - (plain list on standard input)")
    ap.add_argument("--from", dest="kind", choices=("auto", "ha", "list", "esphome"),
                    default="auto", help="the kind of every SOURCE (default: recognised)")
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--profile", metavar="NAME", help="the Wireshark profile NAME")
    where.add_argument("--keys-file", metavar="PATH", help="this bthome_keys file")
    where.add_argument("--print-o", action="store_true",
                       help="print tshark -o options instead of writing")
    ap.add_argument("--create-profile", action="store_true",
                    help="make an empty --profile folder when there is no profile NAME, "
                         "neither yours nor a global one (a global one is always copied)")
    ap.add_argument("--replace", action="store_true",
                    help="a MAC already in the file with another key gets the new key")
    ap.add_argument("--skip-invalid", action="store_true",
                    help="import the good entries, list the bad ones on standard error "
                         "(exit status 3); without it one bad entry stops everything")
    ap.add_argument("-n", "--dry-run", action="store_true",
                    help="show what would change, write nothing")
    args = ap.parse_args(argv)
    if args.create_profile and not args.profile:
        ap.error("--create-profile goes with --profile NAME")
    if args.print_o and (args.replace or args.dry_run):
        ap.error("--print-o writes nothing: no --replace or --dry-run with it")

    try:
        rows, rejected = gather(args.sources, args.kind, args.skip_invalid)
        for line in rejected:
            print(f"{PROG}: rejected: {line}", file=sys.stderr)
        if args.print_o:
            print_options(rows)
            if not rows:
                print(f"{PROG}: no BTHome keys in {', '.join(args.sources)}", file=sys.stderr)
            return left_out(rejected, [])
        dest = destination(args)
        path = dest.path
        if not dest.missing:
            check_folder(os.path.dirname(os.path.realpath(path)))
        keys_file = KeysFile(dest.source())
        text, report, counts, conflicts = merge(keys_file, rows, args.replace)
        state = "" if os.path.lexists(path) else " (new file)"
        print(f"{path}{state}:")
        for line in report:
            print(line)
        if not rows:
            print(f"  no BTHome keys in {', '.join(args.sources)}")
        summary = (f"{counts['added']} added, {counts['replaced']} replaced, "
                   f"{counts['same']} already there, {counts['conflicts']} conflicting "
                   "left as they are")
        if args.dry_run:
            if dest.missing:
                print(f"would create {', '.join(dest.missing)}")
            if dest.template and (text is not None or not dest.missing):
                print(f"would copy the global profile {dest.template} into "
                      f"{os.path.dirname(path)}")
            print(f"dry run, nothing written: {summary}")
        elif write_keys(dest, text):
            print(f"wrote {path}: {summary}")
        else:
            print(f"nothing to write: {summary}")
        return left_out(rejected, conflicts)
    except KeysError as e:
        for line in str(e).splitlines():
            print(f"{PROG}: {line}", file=sys.stderr)
        print(f"{PROG}: nothing written", file=sys.stderr)
        return EXIT_BAD_INPUT


def left_out(rejected, conflicts):
    """The exit status once the rest is imported: EXIT_LEFT_OUT, with every conflict
    named on standard error (the rejected entries are already), when something was left
    out."""
    for line in conflicts:
        print(f"{PROG}: conflict: {line}", file=sys.stderr)
    if not rejected and not conflicts:
        return 0
    what = []
    if rejected:
        what.append(f"{len(rejected)} rejected (--skip-invalid)")
    if conflicts:
        what.append(f"{len(conflicts)} conflicting left as they are (--replace takes the "
                    "new keys)")
    print(f"{PROG}: not everything imported: {', '.join(what)}", file=sys.stderr)
    return EXIT_LEFT_OUT
