# SPDX-License-Identifier: GPL-2.0-or-later
"""What the extcap's tests and benchmark share: the isolated tshark with the extcap in
its personal extcap folder, adverts read from the test captures, live runs."""
import os
import shutil
import struct

from tests.lib import wsrun

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

CAPTURES = os.path.join(ROOT, "captures")


class ExtcapTshark(wsrun.IsolatedTshark):
    """IsolatedTshark with a copy of extcap/ (the folder alone, as an install puts it) in
    the personal extcap folders: 4.0 reads <config dir>/extcap, 4.2 and later
    ~/.local/lib/wireshark/extcap."""

    def __init__(self, plugin, **kw):
        super().__init__(plugin, **kw)
        for folder in (os.path.join(self.tmp, "config", "extcap"),
                       os.path.join(self.tmp, ".local", "lib", "wireshark", "extcap")):
            shutil.copytree(os.path.join(ROOT, "extcap"), folder,
                            ignore=shutil.ignore_patterns("__pycache__"))
        if self.as_root:        # readable by nobody; only the launcher executable (the
            for root, dirs, files in os.walk(self.tmp):     # .bat is for Windows)
                for name in dirs:
                    os.chmod(os.path.join(root, name), 0o755)
                for name in files:
                    os.chmod(os.path.join(root, name),
                             0o755 if name == "bthome-proxy" or root.endswith("epan")
                             else 0o644)

    def secret_file(self, name, text):
        """A key or token file tshark's extcap (run as nobody when we are root) reads."""
        return self.write_config(name, text)

    def live(self, interface, prefs, count, seconds, extra=()):
        args = ["-i", interface, "-c", str(count), "-a", f"duration:{seconds}"]
        for name, value in prefs.items():
            args += ["-o", f"extcap.{interface.replace('-', '_')}.{name}:{value}"]
        return self.run(args + list(extra), check=False)


def read_ll_phdr(name):
    """The adverts of captures/<name> (LINKTYPE 256 pcap) as (address int, rssi,
    address type, AD bytes, frame bytes)."""
    with open(os.path.join(CAPTURES, name), "rb") as f:
        data = f.read()
    magic, linktype = struct.unpack("<I", data[:4])[0], struct.unpack("<I", data[20:24])[0]
    assert magic == 0xA1B2C3D4 and linktype == 256, name
    pos, out = 24, []
    while pos < len(data):
        incl = struct.unpack("<I", data[pos + 8:pos + 12])[0]
        frame = data[pos + 16:pos + 16 + incl]
        pos += 16 + incl
        rssi = struct.unpack("<b", frame[1:2])[0]
        header, length = frame[14], frame[15]
        address = int.from_bytes(frame[16:22], "little")
        ad = frame[22:16 + length]
        out.append((address, rssi, 1 if header & 0x40 else 0, ad, frame))
    return out


def sections(verbose, headings):
    """Per frame, the lines of the top-level sections of `tshark -V` output whose heading
    starts with one of headings (text without the sections that legitimately differ)."""
    frames, keep = [], False
    for line in verbose.splitlines():
        if line.startswith("Frame "):
            frames.append([])
            keep = False
            continue
        if line and not line.startswith(" "):
            keep = line.startswith(headings)
        if keep and frames and line.strip():
            frames[-1].append(line)
    return frames


def mac_text(address):
    return ":".join(f"{b:02x}" for b in address.to_bytes(6, "big"))
