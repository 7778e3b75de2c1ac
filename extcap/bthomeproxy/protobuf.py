# SPDX-License-Identifier: GPL-2.0-or-later
"""The little of protobuf the ESPHome API needs: varints, and messages as field lists,
every length checked against what is left (bytes from the network are never trusted)."""


class DecodeError(ValueError):
    pass


MAX_VARINT_BYTES = 10


def encode_varint(value):
    if value < 0:
        value += 1 << 64          # int32/int64 negatives take ten bytes, as protobuf does
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def decode_varint(data, pos=0):
    """(value, next position); at most 10 bytes, never past the data."""
    value = 0
    for i in range(MAX_VARINT_BYTES):
        if pos + i >= len(data):
            raise DecodeError("varint cut short")
        byte = data[pos + i]
        value |= (byte & 0x7F) << (7 * i)
        if not byte & 0x80:
            if value >= 1 << 64:
                raise DecodeError("varint over 64 bits")
            return value, pos + i + 1
    raise DecodeError("varint longer than 10 bytes")


def zigzag(value):
    """sint32/sint64 from their wire value."""
    return (value >> 1) ^ -(value & 1)


def int32(value):
    """int32 from a varint (negatives are sign-extended to 64 bits)."""
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value & 0x80000000 else value


def parse(data):
    """{field number: [values]}: varints as ints, length-delimited fields as bytes,
    fixed32/fixed64 as ints."""
    fields = {}
    pos = 0
    while pos < len(data):
        key, pos = decode_varint(data, pos)
        number, wire = key >> 3, key & 7
        if number == 0:
            raise DecodeError("field number 0")
        if wire == 0:
            value, pos = decode_varint(data, pos)
        elif wire == 2:
            length, pos = decode_varint(data, pos)
            if length > len(data) - pos:
                raise DecodeError("length past the message")
            value, pos = bytes(data[pos:pos + length]), pos + length
        elif wire in (1, 5):
            size = 8 if wire == 1 else 4
            if size > len(data) - pos:
                raise DecodeError("fixed field cut short")
            value, pos = int.from_bytes(data[pos:pos + size], "little"), pos + size
        else:
            raise DecodeError(f"wire type {wire}")
        fields.setdefault(number, []).append(value)
    return fields


def first(fields, number, default=None):
    values = fields.get(number)
    return values[0] if values else default


def encode(*fields):
    """A message from (number, value) pairs: ints as varints, str/bytes length-delimited;
    None and False are left out, as proto3 leaves defaults out."""
    out = bytearray()
    for number, value in fields:
        if value is None or value is False:
            continue
        if isinstance(value, str):
            value = value.encode()
        if isinstance(value, (bytes, bytearray)):
            out += encode_varint(number << 3 | 2) + encode_varint(len(value)) + value
        else:
            out += encode_varint(number << 3) + encode_varint(int(value))
    return bytes(out)
