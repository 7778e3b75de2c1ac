# SPDX-License-Identifier: GPL-2.0-or-later
"""The extcap's Noise_NNpsk0_25519_ChaChaPoly_SHA256 initiator against an independent
implementation, python3-dissononce, as the responder: the handshake, transport messages
both ways with their nonces, a wrong key, a tampered reply and a tampered frame."""
import os
import sys

from extcap.bthomeproxy import noise
from tests.extcap.sim_esphome import responder
from tests.lib import wsrun


def main():
    check = wsrun.Checks()
    psk = os.urandom(32)
    hs = responder(psk)
    ini = noise.Initiator(psk)
    msg1 = ini.write_message()
    check(len(msg1) == 48, "message 1: ephemeral key and the empty payload's tag (48 bytes)")
    payload = bytearray()
    hs.read_message(msg1, payload)
    check(payload == b"", "dissononce reads message 1")
    reply = bytearray()
    r_rx, r_tx = hs.write_message(b"hi", reply)
    check(ini.read_message(bytes(reply)) == b"hi", "the initiator reads message 2's payload")
    check(ini.h == hs.symmetricstate.get_handshake_hash(),
          "both sides end with the same handshake hash")
    ok = True
    for i in range(3):
        ok &= r_rx.decrypt_with_ad(b"", ini.send.encrypt(b"", b"up %d" % i)) == b"up %d" % i
        ok &= ini.receive.decrypt(b"", r_tx.encrypt_with_ad(b"", b"down %d" % i)) == \
            b"down %d" % i
    check(ok, "transport messages both ways, nonces in step (3 each)")
    frame = bytearray(r_tx.encrypt_with_ad(b"", b"x"))
    frame[0] ^= 1
    try:
        ini.receive.decrypt(b"", bytes(frame))
        check(False, "a tampered transport frame fails")
    except noise.NoiseError:
        check(True, "a tampered transport frame fails")

    wrong = responder(os.urandom(32))
    try:
        wrong.read_message(noise.Initiator(psk).write_message(), bytearray())
        check(False, "a responder with another key rejects message 1")
    except Exception:                           # dissononce's tag failure
        check(True, "a responder with another key rejects message 1")

    hs = responder(psk)
    ini = noise.Initiator(psk)
    hs.read_message(ini.write_message(), bytearray())
    reply = bytearray()
    hs.write_message(b"", reply)
    reply[-1] ^= 0x80
    try:
        ini.read_message(bytes(reply))
        check(False, "a tampered message 2 fails on the initiator")
    except noise.NoiseError:
        check(True, "a tampered message 2 fails on the initiator")
    return check.summary("extcap noise")


if __name__ == "__main__":
    sys.exit(main())
