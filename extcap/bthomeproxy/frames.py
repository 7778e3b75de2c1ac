# SPDX-License-Identifier: GPL-2.0-or-later
"""Advertisements as BLE link-layer frames (LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR, 256) in a
pcapng stream.

A proxy or Home Assistant hands over the address, its type, the RSSI and the AD bytes; the
rest of the frame is synthetic: the access address of advertising channels, the PDU type
(ADV_IND when the advert says it is connectable, else ADV_NONCONN_IND; a scan response
is appended to the AdvData as the proxy delivers it), RF channel 37 (RF channel 0 in
LINKTYPE 256 numbering) and a CRC-24 computed over the PDU, so it checks as good.
"""
import struct

LINKTYPE_BLE_LL_PHDR = 256
ACCESS_ADDRESS = 0x8E89BED6
ADV_IND, ADV_NONCONN_IND = 0x0, 0x2
RF_CHANNEL_37 = 0            # LINKTYPE 256 numbers RF channels, not channel indexes
# Pseudo-header flags: dewhitened (0x1) and signal power valid (0x2); nothing else the
# proxy knows (noise power, CRC checked and the reference access address stay unset).
PHDR_FLAGS = 0x0001 | 0x0002
MAX_PDU_PAYLOAD = 255        # the PDU length byte


def crc24(data, init=0x555555):
    """BLE CRC-24 (polynomial 0x65B) over the PDU, bits least significant first; the 3
    bytes as they follow the PDU on air."""
    state = int(f"{init:024b}"[::-1], 2)   # the register, reflected
    for byte in data:
        for bit in range(8):
            if (state ^ (byte >> bit)) & 1:
                state = (state >> 1) ^ 0xDA6000
            else:
                state >>= 1
    return state.to_bytes(3, "little")


def address_bytes(address):
    """A 48-bit address (int, most significant byte first as ESPHome gives it, or
    "AA:BB:CC:DD:EE:FF") in on-air order: least significant byte first."""
    if isinstance(address, str):
        parts = address.split(":")
        if len(parts) != 6 or any(len(p) != 2 for p in parts):
            raise ValueError("not a MAC address")
        address = int("".join(parts), 16)
    if not 0 <= address < 1 << 48:
        raise ValueError("address out of range")
    return address.to_bytes(6, "little")


def ll_frame(address, random, ad, rssi, connectable=False):
    """One advertising channel PDU with its RF pseudo-header."""
    payload = address_bytes(address) + bytes(ad)
    if len(payload) > MAX_PDU_PAYLOAD:
        raise ValueError("advertisement longer than a PDU holds")
    pdu_type = ADV_IND if connectable else ADV_NONCONN_IND
    pdu = bytes([pdu_type | (0x40 if random else 0), len(payload)]) + payload
    rssi = max(-128, min(127, int(rssi)))
    # channel, signal power (dBm), noise power, access address offenses, reference access
    # address, flags
    phdr = struct.pack("<BbbBIH", RF_CHANNEL_37, rssi, 0, 0, 0, PHDR_FLAGS)
    return phdr + struct.pack("<I", ACCESS_ADDRESS) + pdu + crc24(pdu)


def _option(code, value):
    return struct.pack("<HH", code, len(value)) + value + bytes(-len(value) % 4)


def _block(block_type, body):
    length = 12 + len(body)
    return struct.pack("<II", block_type, length) + body + struct.pack("<I", length)


class PcapngWriter:
    """pcapng to Wireshark's fifo: one interface (its description names the source), one
    enhanced packet block per advertisement, a comment naming the proxy or adapter."""

    def __init__(self, stream, description):
        self.stream = stream
        self.description = description
        self.started = False

    def start(self):
        """The header, written once the capture works: an extcap that fails before it
        leaves Wireshark with its error and no capture."""
        if self.started:
            return
        end = _option(0, b"")
        shb = struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1)
        shb += _option(4, b"bthome-proxy") + end                       # shb_userappl
        idb = struct.pack("<HHI", LINKTYPE_BLE_LL_PHDR, 0, 0)
        idb += _option(3, self.description.encode()[:1000])           # if_description
        idb += _option(9, b"\x06") + end                                # if_tsresol: us
        self.stream.write(_block(0x0A0D0D0A, shb) + _block(1, idb))
        self.stream.flush()
        self.started = True

    def packet(self, time_s, frame, comment=None):
        self.start()
        t = int(round(time_s * 1_000_000))
        epb = struct.pack("<IIIII", 0, t >> 32, t & 0xFFFFFFFF, len(frame), len(frame))
        epb += frame + bytes(-len(frame) % 4)
        if comment:
            epb += _option(1, comment.encode()[:1000]) + _option(0, b"")
        self.stream.write(_block(6, epb))
        self.stream.flush()
