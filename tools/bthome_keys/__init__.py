# SPDX-License-Identifier: GPL-2.0-or-later
"""bthome-keys' modules: bring the BTHome keys you already have into Wireshark's
"BTHome keys" table (the bthome_keys file of a Wireshark profile), or print them as
tshark -o options. One module a source (homeassistant, esphome, plainlist), one for the
profile it writes (profile), what they share (common) and the command line (cli);
tools/bthome-keys runs cli.main.

Python 3 standard library only. The file it writes is the one Wireshark itself reads and
writes (epan/uat.c uat_save, epan/uat_load.l, Wireshark 4.0 to 4.6): one row a line,
"MAC","KEY","NAME", each field in double quotes, '"', '\\' and every byte that is not
printable ASCII written as \\xhh.
"""
