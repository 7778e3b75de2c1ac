# SPDX-License-Identifier: GPL-2.0-or-later
"""Noise_NNpsk0_25519_ChaChaPoly_SHA256, initiator side, as ESPHome's API encryption uses
it (prologue "NoiseAPIInit" 00 00). Handshake: -> psk, e   <- e, ee   then two cipher
states. Written from the Noise specification (revision 34) with python3-cryptography's
X25519 and ChaCha20-Poly1305; HMAC-SHA256 from the standard library."""
import hashlib
import hmac
import struct

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.x25519 import (X25519PrivateKey,
                                                              X25519PublicKey)
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

PROTOCOL_NAME = b"Noise_NNpsk0_25519_ChaChaPoly_SHA256"
PROLOGUE = b"NoiseAPIInit\x00\x00"
DH_LEN = 32
TAG_LEN = 16
MAX_NONCE = (1 << 64) - 1     # reserved by the spec: the cipher state is used up


class NoiseError(Exception):
    """A handshake or frame that does not authenticate."""


def _hkdf(chaining_key, ikm, outputs):
    temp = hmac.new(chaining_key, ikm, hashlib.sha256).digest()
    out, prev = [], b""
    for i in range(1, outputs + 1):
        prev = hmac.new(temp, prev + bytes([i]), hashlib.sha256).digest()
        out.append(prev)
    return out


def _public_bytes(public_key):
    return public_key.public_bytes(serialization.Encoding.Raw,
                                   serialization.PublicFormat.Raw)


class CipherState:
    def __init__(self, key=None):
        self.key = key
        self.aead = ChaCha20Poly1305(key) if key else None
        self.nonce = 0

    def _next_nonce(self):
        if self.nonce >= MAX_NONCE:
            raise NoiseError("nonce space used up")
        nonce = struct.pack("<IQ", 0, self.nonce)
        self.nonce += 1
        return nonce

    def encrypt(self, ad, plaintext):
        if self.aead is None:
            return bytes(plaintext)
        return self.aead.encrypt(self._next_nonce(), bytes(plaintext), ad)

    def decrypt(self, ad, ciphertext):
        if self.aead is None:
            return bytes(ciphertext)
        nonce = self._next_nonce()
        try:
            return self.aead.decrypt(nonce, bytes(ciphertext), ad)
        except InvalidTag:
            raise NoiseError("authentication failed") from None


class Initiator:
    """The client's side of the handshake. psk: the 32-byte key (never logged)."""

    def __init__(self, psk, ephemeral=None):
        if len(psk) != 32:
            raise ValueError("the Noise pre-shared key has 32 bytes")
        self._psk = bytes(psk)
        self._e = ephemeral or X25519PrivateKey.generate()
        self.h = hashlib.sha256(PROTOCOL_NAME).digest()   # the name is over 32 bytes
        self.ck = self.h
        self.cipher = CipherState()
        self._mix_hash(PROLOGUE)

    def _mix_hash(self, data):
        self.h = hashlib.sha256(self.h + bytes(data)).digest()

    def _mix_key(self, ikm):
        self.ck, temp_k = _hkdf(self.ck, ikm, 2)
        self.cipher = CipherState(temp_k)

    def _mix_key_and_hash(self, ikm):
        self.ck, temp_h, temp_k = _hkdf(self.ck, ikm, 3)
        self._mix_hash(temp_h)
        self.cipher = CipherState(temp_k)

    def _encrypt_and_hash(self, plaintext):
        ciphertext = self.cipher.encrypt(self.h, plaintext)
        self._mix_hash(ciphertext)
        return ciphertext

    def _decrypt_and_hash(self, ciphertext):
        plaintext = self.cipher.decrypt(self.h, ciphertext)
        self._mix_hash(ciphertext)
        return plaintext

    def write_message(self, payload=b""):
        """Message 1: psk, e (and, psk mode, e also mixed into the key)."""
        self._mix_key_and_hash(self._psk)
        e_pub = _public_bytes(self._e.public_key())
        self._mix_hash(e_pub)
        self._mix_key(e_pub)
        return e_pub + self._encrypt_and_hash(payload)

    def read_message(self, message):
        """Message 2: e, ee; returns its payload and leaves (send, receive) ciphers."""
        if len(message) < DH_LEN + TAG_LEN:
            raise NoiseError("handshake reply too short")
        re_pub = bytes(message[:DH_LEN])
        self._mix_hash(re_pub)
        self._mix_key(re_pub)
        try:
            shared = self._e.exchange(X25519PublicKey.from_public_bytes(re_pub))
        except ValueError:
            raise NoiseError("bad ephemeral key") from None
        self._mix_key(shared)
        payload = self._decrypt_and_hash(message[DH_LEN:])
        k1, k2 = _hkdf(self.ck, b"", 2)
        self.send, self.receive = CipherState(k1), CipherState(k2)
        self._psk = None
        return payload
