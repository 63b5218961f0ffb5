#!/usr/bin/env python3
"""Checks Caddie's protocol test vectors against the prose specifications, independently of the Swift code.

Usage:  Deploy/tools/check-vectors.py [VECTORS_DIR]

VECTORS_DIR defaults to Protocol/vectors. Everything here is written from Protocol/op-format.md and
Protocol/wire.md alone: the op, payload, bundle, handshake, key schedule, transport and message layouts are
decoded field by field, every signature, MAC, hash, key derivation and encryption is verified and recomputed
from the vector's inputs, every decoded op and message is encoded again and compared with the original bytes,
and tampered copies (each byte of each signed, sealed or MAC'd thing flipped in turn) must be refused. The
examples written in wire.md are compared with the message vectors, and every change tag, value tag, set kind and
message type the specifications name must appear in some vector.

Prints one line per vector and ends with "vectors: N passed, M failed". Exits 1 if any vector failed or if
fewer vectors were found than the specifications describe. Needs PyNaCl (Deploy/vector-check.sh installs it).
"""

import hashlib
import hmac
import json
import math
import os
import re
import struct
import sys

try:
    import nacl.bindings as sodium
    import nacl.exceptions
    import nacl.signing
except ImportError:
    sys.exit("check-vectors: PyNaCl is missing: run Deploy/vector-check.sh, which installs it in a venv")

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# How many vectors each file holds, as the specifications describe them (see the checks below).
EXPECTED = {"op-v1.json": 18, "handshake-v1.json": 6, "membership-v1.json": 6, "messages-v1.json": 17, "card-v1.json": 1,
            "committee-v1.json": 3, "Protocol/op-format.md": 1}

MAX_SEQ = 2**63 - 1  # seqs and hlcs must fit a signed 64-bit integer (op-format, "The op")
ZERO32 = bytes(32)


class Refused(Exception):
    """The bytes break a rule of the specification."""


# --- Bytes in and out --------------------------------------------------------------------------------


class Reader:
    """Reads big-endian fields from bytes, refusing anything shorter than its fields say."""

    def __init__(self, data, what):
        self.data = bytes(data)
        self.pos = 0
        self.what = what

    def take(self, n):
        if n > len(self.data) - self.pos:
            raise Refused(f"{self.what}: needs {n} bytes at offset {self.pos}, {len(self.data) - self.pos} left")
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def u8(self):
        return self.take(1)[0]

    def u16(self):
        return int.from_bytes(self.take(2), "big")

    def u32(self):
        return int.from_bytes(self.take(4), "big")

    def u64(self):
        return int.from_bytes(self.take(8), "big")

    def text(self, count, lo, hi, what):
        raw = self.take(count)
        if not lo <= len(raw) <= hi:
            raise Refused(f"{self.what}: {what} of {len(raw)} bytes is outside {lo}...{hi}")
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise Refused(f"{self.what}: {what} is not UTF-8") from None

    def string8(self, lo, hi, what):
        return self.text(self.u8(), lo, hi, what)

    def string16(self, lo, hi, what):
        return self.text(self.u16(), lo, hi, what)

    def end(self):
        if self.pos != len(self.data):
            raise Refused(f"{self.what}: {len(self.data) - self.pos} bytes after the last field")


def u8(n):
    return n.to_bytes(1, "big")


def u16(n):
    return n.to_bytes(2, "big")


def u32(n):
    return n.to_bytes(4, "big")


def u64(n):
    return n.to_bytes(8, "big")


def string8(s):
    raw = s.encode("utf-8")
    return u8(len(raw)) + raw


def string16(s):
    raw = s.encode("utf-8")
    return u16(len(raw)) + raw


def seq_in_range(seq, lowest, what):
    if not lowest <= seq <= MAX_SEQ:
        raise Refused(f"{what} {seq} is outside {lowest}...2^63-1")
    return seq


# --- Primitives (op-format and wire, "Conventions") ---------------------------------------------------


def blake2b256(*parts):
    """BLAKE2b with a 32-byte digest, unkeyed (libsodium crypto_generichash, outlen 32)."""
    return hashlib.blake2b(b"".join(parts), digest_size=32).digest()


def keyed(key, *parts):
    """Blake2b.keyed: BLAKE2b-256 in keyed mode over the concatenated parts, no length prefixes."""
    if not 16 <= len(key) <= 64:
        raise ValueError("every key of the protocol is 16...64 bytes")
    return sodium.crypto_generichash_blake2b_salt_personal(b"".join(parts), digest_size=32, key=key)


def hmac_sha512_256(key, message):
    """libsodium crypto_auth: HMAC-SHA-512 truncated to 32 bytes."""
    return hmac.new(key, message, hashlib.sha512).digest()[:32]


def ed25519_public(seed):
    return nacl.signing.SigningKey(seed).verify_key.encode()


def ed25519_sign(seed, message):
    return nacl.signing.SigningKey(seed).sign(message).signature


def ed25519_verifies(public, message, signature):
    try:
        nacl.signing.VerifyKey(public).verify(message, signature)
        return True
    except (nacl.exceptions.BadSignatureError, nacl.exceptions.CryptoError, ValueError, TypeError):
        return False


def x25519_public(secret):
    return sodium.crypto_scalarmult_base(secret)


def x25519(secret, public):
    try:
        shared = sodium.crypto_scalarmult(secret, public)
    except nacl.exceptions.RuntimeError:  # libsodium refuses a result of all zeros
        shared = ZERO32
    if shared == ZERO32:
        raise Refused("bad ephemeral key (X25519 gave 32 zero bytes)")
    return shared


def nonce(n):
    """16 zero bytes and n as a u64: the 24-byte XChaCha20-Poly1305 nonce of frame n."""
    return bytes(16) + u64(n)


def aead_seal(key, n, ad, plaintext):
    return sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(plaintext, ad, nonce(n), key)


def aead_open(key, n, ad, sealed):
    try:
        return sodium.crypto_aead_xchacha20poly1305_ietf_decrypt(sealed, ad, nonce(n), key)
    except nacl.exceptions.CryptoError:
        raise Refused("a frame failed authentication") from None


# --- The op (op-format, "The op") --------------------------------------------------------------------

OP_CONTEXT = b"caddie-op-v1"


def decode_op(data):
    r = Reader(data, "op")
    op = {"version": r.u8()}
    if op["version"] != 1:
        raise Refused(f"op version {op['version']} is not 1")
    op["space"] = r.take(16)
    op["device"] = r.take(32)
    op["seq"] = seq_in_range(r.u64(), 1, "seq")
    op["prev"] = r.take(32)
    op["hlc"] = seq_in_range(r.u64(), 0, "hlc")
    count = r.u16()
    if count > 64:
        raise Refused(f"pred count {count} is over 64")
    op["pred"] = [(r.take(32), seq_in_range(r.u64(), 1, "pred seq")) for _ in range(count)]
    length = r.u32()
    if length > 65536:
        raise Refused(f"payload length {length} is over 65536")
    op["payload"] = r.take(length)
    op["signature"] = r.take(64)
    r.end()
    return op


def encode_op_unsigned(op):
    out = u8(op["version"]) + op["space"] + op["device"] + u64(op["seq"]) + op["prev"] + u64(op["hlc"])
    out += u16(len(op["pred"])) + b"".join(device + u64(seq) for device, seq in op["pred"])
    return out + u32(len(op["payload"])) + op["payload"]


def encode_op(op):
    return encode_op_unsigned(op) + op["signature"]


def op_signature_verifies(data):
    """The device's signature over "caddie-op-v1" and every byte before the signature."""
    op = decode_op(data)
    return ed25519_verifies(op["device"], OP_CONTEXT + data[:-64], op["signature"])


# --- Payloads (op-format, "Payload") -----------------------------------------------------------------

SET_KINDS = {1: "space", 2: "player", 3: "course", 4: "game", 5: "invite", 6: "competition"}


def decode_value(r, in_set):
    tag = r.u8()
    if tag == 0:
        return ("null", None)
    if tag == 1:
        return ("text", r.string16(0, 1024 if in_set else 65535, "text value"))
    if tag == 2:
        return ("integer", struct.unpack(">q", r.take(8))[0])
    if tag == 3:
        number = struct.unpack(">d", r.take(8))[0]
        if math.isnan(number) or math.isinf(number):
            raise Refused("a number value is NaN or infinite")
        return ("number", number)
    if tag == 4:
        return ("bytes", r.take(r.u32()))
    raise Refused(f"unknown value tag {tag}")


def encode_value(value):
    kind, body = value
    if kind == "null":
        return u8(0)
    if kind == "text":
        return u8(1) + string16(body)
    if kind == "integer":
        return u8(2) + struct.pack(">q", body)
    if kind == "number":
        return u8(3) + struct.pack(">d", body)
    return u8(4) + u32(len(body)) + body


def recorded(value, top):
    """A score statistic: 0...top, or 0xFF for "not recorded" (None)."""
    if value == 0xFF:
        return None
    if value > top:
        raise Refused(f"statistic {value} is outside 0...{top}")
    return value


def decode_change(r):
    tag = r.u8()
    if tag == 0x01:
        c = {"user": r.take(32), "certifiedAt": r.u64(), "certificate": r.take(64), "proof": r.take(32)}
        c["name"] = r.string16(1, 1024, "user name")
        return ("join", c)
    if tag == 0x02:
        return ("revoke", {"device": r.take(32), "lastValidSeq": seq_in_range(r.u64(), 0, "last valid seq"),
                           "signature": r.take(64)})
    if tag == 0x03:
        c = {"user": r.take(32), "ownerSalt": r.take(16)}
        count = r.u16()
        if count > 1024:
            raise Refused(f"remove device count {count} is over 1024")
        c["devices"] = [(r.take(32), seq_in_range(r.u64(), 0, "last valid seq")) for _ in range(count)]
        return ("remove", c)
    if tag == 0x04:
        c = {"epoch": r.u32(), "ownerSalt": r.take(16), "keyCheck": r.take(8)}
        if c["epoch"] < 1:
            raise Refused("rotate epoch 0")
        count = r.u16()
        if count > 4096:
            raise Refused(f"rotate device count {count} is over 4096")
        c["sealed"] = [(r.take(32), r.take(80)) for _ in range(count)]
        return ("rotate", c)
    if tag == 0x10:
        kind = r.u8()
        if kind not in SET_KINDS:
            raise Refused(f"set kind {kind} is unknown")
        c = {"kind": SET_KINDS[kind], "entity": r.take(8), "fields": []}
        count = r.u16()
        if count < 1:
            raise Refused("a set change with no field")
        for _ in range(count):
            name = r.string8(1, 64, "field name")
            if any(name == seen for seen, _ in c["fields"]):
                raise Refused(f"field {name!r} appears twice")
            c["fields"].append((name, decode_value(r, in_set=True)))
        return ("set", c)
    if tag == 0x11:
        return ("rosterAdd", {"game": r.take(8), "player": r.take(8)})
    if tag == 0x12:
        c = {"game": r.take(8), "player": r.take(8)}
        count = r.u16()
        if count > 1024:
            raise Refused(f"observed count {count} is over 1024")
        c["observed"] = [(r.take(32), seq_in_range(r.u64(), 1, "observed seq")) for _ in range(count)]
        return ("rosterRemove", c)
    if tag in (0x20, 0x22):
        c = {"game": r.take(8), "player": r.take(8), "hole": r.u8(), "strokes": r.u8()}
        if not 1 <= c["hole"] <= 36 or not 1 <= c["strokes"] <= 30:
            raise Refused(f"hole {c['hole']} or strokes {c['strokes']} out of range")
        c["putts"] = recorded(r.u8(), c["strokes"])
        c["penalties"] = recorded(r.u8(), c["strokes"])
        if tag == 0x20:
            return ("score", c)
        c["fairway"] = recorded(r.u8(), 2)
        c["greenInRegulation"] = recorded(r.u8(), 1)
        if c["fairway"] is None and c["greenInRegulation"] is None:
            raise Refused("a score with statistics records neither")
        return ("scoreStats", c)
    if tag == 0x21:
        return ("attest", {"game": r.take(8), "player": r.take(8), "cardHash": r.take(32)})
    if tag == 0x23:
        c = {"game": r.take(8), "player": r.take(8), "hole": r.u8()}
        if not 1 <= c["hole"] <= 36:
            raise Refused(f"hole {c['hole']} out of range")
        return ("pickUp", c)
    raise Refused(f"unknown change tag 0x{tag:02x}")


def decode_payload(data):
    r = Reader(data, "payload")
    if r.u8() != 1:
        raise Refused("payload version is not 1")
    count = r.u8()
    if count == 0:
        raise Refused("a payload with no change")
    changes = [decode_change(r) for _ in range(count)]
    r.end()
    if len(changes) > 1 and any(kind in ("score", "scoreStats", "pickUp") for kind, _ in changes):
        raise Refused("a score change does not travel alone")
    return changes


def stat(value):
    return 0xFF if value is None else value


def encode_change(change):
    kind, c = change
    if kind == "join":
        return (u8(0x01) + c["user"] + u64(c["certifiedAt"]) + c["certificate"] + c["proof"]
                + string16(c["name"]))
    if kind == "revoke":
        return u8(0x02) + c["device"] + u64(c["lastValidSeq"]) + c["signature"]
    if kind == "remove":
        return (u8(0x03) + c["user"] + c["ownerSalt"] + u16(len(c["devices"]))
                + b"".join(d + u64(s) for d, s in c["devices"]))
    if kind == "rotate":
        return (u8(0x04) + u32(c["epoch"]) + c["ownerSalt"] + c["keyCheck"] + u16(len(c["sealed"]))
                + b"".join(d + box for d, box in c["sealed"]))
    if kind == "set":
        kind_byte = next(k for k, name in SET_KINDS.items() if name == c["kind"])
        return (u8(0x10) + u8(kind_byte) + c["entity"] + u16(len(c["fields"]))
                + b"".join(string8(name) + encode_value(value) for name, value in c["fields"]))
    if kind == "rosterAdd":
        return u8(0x11) + c["game"] + c["player"]
    if kind == "rosterRemove":
        return (u8(0x12) + c["game"] + c["player"] + u16(len(c["observed"]))
                + b"".join(d + u64(s) for d, s in c["observed"]))
    if kind in ("score", "scoreStats"):
        body = c["game"] + c["player"] + bytes([c["hole"], c["strokes"], stat(c["putts"]), stat(c["penalties"])])
        if kind == "score":
            return u8(0x20) + body
        return u8(0x22) + body + bytes([stat(c["fairway"]), stat(c["greenInRegulation"])])
    if kind == "attest":
        return u8(0x21) + c["game"] + c["player"] + c["cardHash"]
    if kind == "pickUp":
        return u8(0x23) + c["game"] + c["player"] + u8(c["hole"])
    raise ValueError(kind)


def encode_payload(changes):
    return u8(1) + u8(len(changes)) + b"".join(encode_change(c) for c in changes)


# --- Signed statements (op-format, "Signed statements") ----------------------------------------------


def certificate_message(user, device, certified_at):
    return b"caddie-cert-v1" + user + device + u64(certified_at)


def membership_message(space, device, user):
    return b"caddie-join-v1" + space + device + user


def revocation_message(space, device, last_valid_seq):
    return b"caddie-revoke-v1" + space + device + u64(last_valid_seq)


def owned_space_id(owner, salt):
    return keyed(salt, b"caddie-space-owner-v1", owner)[:16]


def key_check(key):
    return keyed(key, b"caddie-epoch-check")[:8]


# --- Bundle (op-format, "Bundle file") ---------------------------------------------------------------


def decode_bundle(data):
    if len(data) < 61 or not data.startswith(b"CADDIEB1"):
        raise Refused("not a bundle (short, or no CADDIEB1 magic)")
    if blake2b256(data[:-32]) != data[-32:]:
        raise Refused("bundle checksum does not match")
    r = Reader(data[:-32], "bundle")
    r.take(8)
    if r.u8() != 1:
        raise Refused("bundle version is not 1")
    bundle = {"space": r.take(16), "ops": []}
    count = r.u32()
    if count > 10_000_000:
        raise Refused("bundle op count over 10 000 000")
    for _ in range(count):
        length = r.u32()
        if length > 131072:
            raise Refused(f"bundle op of {length} bytes")
        bundle["ops"].append(r.take(length))
    r.end()
    return bundle


def encode_bundle(space, ops):
    body = b"CADDIEB1" + u8(1) + space + u32(len(ops)) + b"".join(u32(len(op)) + op for op in ops)
    return body + blake2b256(body)


# --- Compact wire ops (wire, "`0x02` ops") -----------------------------------------------------------


def compact(op):
    return op[0:1] + op[17:57] + op[89:]


def restore(compact_op, space, prev):
    if len(compact_op) < 41:
        raise Refused("an op too short to name its device")
    return compact_op[0:1] + space + compact_op[1:41] + prev + compact_op[41:]


# --- Transport messages (wire, "Messages") -----------------------------------------------------------


def decode_message(data):
    r = Reader(data, "message")
    kind = r.u8()
    m = {}
    if kind == 0x01:
        m["flags"] = r.u8()
        if m["flags"] not in (0, 1):
            raise Refused(f"unknown vector flags {m['flags']}")
        count = r.u16()
        if count > 10000:
            raise Refused("vector of more than 10 000 entries")
        m["entries"] = [(r.take(32), seq_in_range(r.u64(), 0, "vector seq"), r.take(32)) for _ in range(count)]
        name = "vector"
    elif kind == 0x02:
        m["batch"], m["flags"] = r.u32(), r.u8()
        if m["flags"] not in (0, 1):
            raise Refused(f"unknown ops flags {m['flags']}")
        count = r.u16()
        if count > 1000:
            raise Refused("ops message of more than 1 000 ops")
        m["ops"] = []
        for _ in range(count):
            form = r.u8()
            if form == 0:
                length = r.u32()
                if length > 69632:
                    raise Refused("full op over 69 632 bytes")
                m["ops"].append(("full", r.take(length)))
            elif form == 1:
                m["ops"].append(("compact", r.take(r.u16())))
            else:
                raise Refused(f"unknown wire op form {form}")
        name = "ops"
    elif kind == 0x03:
        m["batch"], m["applied"] = r.u32(), r.u32()
        name = "ack"
    elif kind == 0x04:
        name = "done"
    elif kind == 0x05:
        m["reason"] = r.u8()
        m["text"] = r.string16(0, 65535, "close text")
        name = "close"
    elif kind == 0x06:
        m["digest"] = r.take(32)
        name = "digest"
    elif kind == 0x07:
        m["spaceKey"] = r.take(32)
        m["name"] = r.string8(0, 255, "space name")
        m["earlierKeys"] = [r.take(32) for _ in range(r.u8())]
        name = "welcome"
    elif kind == 0x08:
        # Version 2: one op of the sender's own device, its compact form less the device (the session's peer).
        m["body"] = r.take(len(data) - 1)
        if len(m["body"]) < 9:
            raise Refused("a live op shorter than its version and seq")
        name = "live"
    else:
        raise Refused(f"unknown message type 0x{kind:02x}")
    r.end()
    return name, m


def encode_message(name, m):
    if name == "vector":
        return (u8(0x01) + u8(m["flags"]) + u16(len(m["entries"]))
                + b"".join(d + u64(s) + h for d, s, h in m["entries"]))
    if name == "ops":
        out = u8(0x02) + u32(m["batch"]) + u8(m["flags"]) + u16(len(m["ops"]))
        for form, body in m["ops"]:
            out += u8(0) + u32(len(body)) + body if form == "full" else u8(1) + u16(len(body)) + body
        return out
    if name == "ack":
        return u8(0x03) + u32(m["batch"]) + u32(m["applied"])
    if name == "done":
        return u8(0x04)
    if name == "close":
        return u8(0x05) + u8(m["reason"]) + string16(m["text"])
    if name == "digest":
        return u8(0x06) + m["digest"]
    if name == "welcome":
        return u8(0x07) + m["spaceKey"] + string8(m["name"]) + u8(len(m["earlierKeys"])) + b"".join(m["earlierKeys"])
    if name == "live":
        return u8(0x08) + m["body"]
    raise ValueError(name)


def live_body(op):
    """A live message's op: the compact form less the device."""
    c = compact(op)
    return c[0:1] + c[33:]


def from_live(body, device):
    """The compact op a live message carries, its device the session's peer's."""
    return body[0:1] + device + body[1:]


# --- Handshake (wire, "Handshake") -------------------------------------------------------------------

VERSION = 1  # what the handshake vectors' message 1 offers
VERSIONS = (1, 2)  # what a responder of this version answers


def handshake_key(space_key, space):
    return keyed(space_key, b"caddie-handshake-v1", space)


def invite_key(secret, space):
    return keyed(secret, b"caddie-invite-v1", space)


def tag1(hk, version, e_i):
    return keyed(hk, b"caddie-m1", u8(version), e_i)


def encode_message1(hk, e_i):
    return b"CDY" + u8(VERSION) + e_i + tag1(hk, VERSION, e_i)


def responder_reads_message1(frame, hk):
    """The responder's steps on a first frame, for one handshake key: returns e_i or refuses."""
    if len(frame) < 4 or frame[:3] != b"CDY":
        raise Refused("not a caddie handshake")
    if frame[3] not in VERSIONS:
        raise Refused(f"version refusal: the peer speaks version {frame[3]}")
    if len(frame) != 68:
        raise Refused("message 1 length")
    e_i = frame[4:36]
    if not hmac.compare_digest(tag1(hk, frame[3], e_i), frame[36:68]):
        raise Refused("tag1 matches no space (decoy)")
    return e_i


def session_keys(hk, dh, e_i, e_r):
    ck = keyed(hk, b"caddie-ck", dh, e_i, e_r)
    return {"ck": ck, "k2": keyed(ck, b"caddie-k2"), "k3": keyed(ck, b"caddie-k3"),
            "i2r": keyed(ck, b"caddie-i2r"), "r2i": keyed(ck, b"caddie-r2i")}


def responder_signature_message(space, e_i, e_r):
    return b"caddie-hs-r" + space + e_i + e_r


def initiator_signature_message(space, e_i, e_r, responder_device):
    return b"caddie-hs-i" + space + e_i + e_r + responder_device


def identity_block(device_seed, user_seed, certified_at, signature_message):
    device, user = ed25519_public(device_seed), ed25519_public(user_seed)
    return (device + user + u64(certified_at) + ed25519_sign(user_seed, certificate_message(user, device, certified_at))
            + ed25519_sign(device_seed, signature_message))


def read_identity_block(block, signature_message):
    """PeerIdentity.verify as wire.md describes it: length, certificate, then handshake signature."""
    if len(block) != 200:
        raise Refused("identity block length")
    r = Reader(block, "identity block")
    ident = {"device": r.take(32), "user": r.take(32), "certifiedAt": r.u64(),
             "certificate": r.take(64), "handshakeSignature": r.take(64)}
    cert = certificate_message(ident["user"], ident["device"], ident["certifiedAt"])
    if not ed25519_verifies(ident["user"], cert, ident["certificate"]):
        raise Refused("the device certificate is not signed by its user")
    if not ed25519_verifies(ident["device"], signature_message, ident["handshakeSignature"]):
        raise Refused("the handshake signature does not verify")
    return ident


def encode_identity(ident):
    return (ident["device"] + ident["user"] + u64(ident["certifiedAt"]) + ident["certificate"]
            + ident["handshakeSignature"])


# --- Running checks ----------------------------------------------------------------------------------


def show(value):
    if isinstance(value, (bytes, bytearray)):
        text = bytes(value).hex()
        return text if len(text) <= 40 else f"{text[:36]}...({len(value)} bytes)"
    if isinstance(value, (list, tuple)):
        text = ", ".join(show(item) for item in value)
        return f"[{text}]" if len(text) <= 200 else f"[{text[:196]}...]"
    return repr(value)


def difference(found, want):
    """Where the vector's value first differs from the specification's, in words."""
    if isinstance(found, (bytes, bytearray)) and isinstance(want, (bytes, bytearray)):
        at = next((i for i, (a, b) in enumerate(zip(found, want)) if a != b), min(len(found), len(want)))
        if at < min(len(found), len(want)):
            return f"byte {at} of {len(found)} is {found[at]:02x} in the vector, {want[at]:02x} by the spec"
        return f"{len(found)} bytes in the vector, {len(want)} by the spec"
    if isinstance(found, (list, tuple)) and isinstance(want, (list, tuple)) and len(found) == len(want):
        at = next(i for i, (a, b) in enumerate(zip(found, want)) if a != b)
        return f"item {at}: " + difference(found[at], want[at])
    if isinstance(found, dict) and isinstance(want, dict) and found.keys() == want.keys():
        key = next(k for k in found if found[k] != want[k])
        return f"{key}: " + difference(found[key], want[key])
    return f"{show(found)} in the vector, {show(want)} by the spec"


def flip(data, index):
    out = bytearray(data)
    out[index] ^= 0x01
    return bytes(out)


class Vector:
    """The checks of one vector: each check counts, and any problem fails the vector."""

    def __init__(self, name):
        self.name = name
        self.checks = 0
        self.tampered = 0
        self.problems = []

    def outcome(self, ok, problem):
        self.checks += 1
        if not ok:
            self.problems.append(problem)
        return ok

    def check(self, ok, requirement):
        """requirement says what must hold; a failure reads "requirement: no"."""
        return self.outcome(ok, f"{requirement}: no")

    def same(self, found, want, what):
        """found comes from the vector, want from the specification."""
        return self.outcome(found == want, f"{what}: {difference(found, want)}" if found != want else "")

    def rebuilt(self, computed, original, what):
        """Bytes computed again from the inputs must equal the vector's."""
        return self.same(original, computed, what)

    def refuses(self, step, data, what):
        """step(data) must raise Refused (a decoder or verifier saying no) or return False."""
        try:
            accepted = step(data) is not False
        except Refused:
            accepted = False
        return self.outcome(not accepted, f"{what} was accepted")

    def rejects_tampering(self, accept, data, positions, what):
        """accept(data) holds for the original, and for no copy with one byte flipped at any of positions."""
        try:
            original = accept(data) is not False
        except Refused as error:
            original, what = False, f"{what} ({error})"
        if not self.outcome(original, f"{what}: the untouched original is refused"):
            return
        let_through = []
        for i in positions:
            try:
                ok = accept(flip(data, i)) is not False
            except Refused:
                ok = False
            self.tampered += 1
            if ok:
                let_through.append(i)
        self.outcome(not let_through, f"{what}: copies with byte {let_through[:5]} flipped were accepted")


class Fields:
    """A vector file's JSON object; remembers which fields were read, so that none goes unchecked."""

    def __init__(self, obj, path=""):
        self.obj = obj
        self.path = path
        self.read = set()

    def raw(self, key):
        self.read.add(key)
        return self.obj[key]

    def hex(self, key):
        return bytes.fromhex(self.raw(key))

    def unread(self):
        return sorted(set(self.obj) - self.read)


# --- op-v1.json (op-format, "Test vectors") ----------------------------------------------------------

GAME = bytes.fromhex("a0a1a2a3a4a5a6a7")
PLAYER = bytes.fromhex("b0b1b2b3b4b5b6b7")
COURSE = bytes.fromhex("c0c1c2c3c4c5c6c7")
INVITE = bytes.fromhex("d0d1d2d3d4d5d6d7")
COMPETITION = bytes.fromhex("e0e1e2e3e4e5e6e7")
OP_NAMES = ["join", "player", "game", "score", "correction", "attest", "choices", "statistics", "roster remove",
            "course", "revoke", "space", "invite", "pick-up", "competition"]


def expected_changes(seq, f):
    """The changes of op seq, from the table in op-format.md, built from the vector's inputs."""
    if seq == 1:
        return [("join", {"user": f["user"], "certifiedAt": f["certifiedAt"], "certificate": f["certificate"],
                          "proof": f["proof"], "name": "Ana"})]
    if seq == 2:
        return [("set", {"kind": "player", "entity": PLAYER,
                         "fields": [("index", ("number", 12.4)), ("name", ("text", "Ana"))]})]
    if seq == 3:
        return [("set", {"kind": "game", "entity": GAME,
                         "fields": [("finished", ("integer", 0)), ("tee", ("text", "White"))]}),
                ("rosterAdd", {"game": GAME, "player": PLAYER})]
    if seq == 4:
        return [("score", {"game": GAME, "player": PLAYER, "hole": 7, "strokes": 5, "putts": 2, "penalties": None})]
    if seq == 5:
        return [("score", {"game": GAME, "player": PLAYER, "hole": 7, "strokes": 4, "putts": None, "penalties": None})]
    if seq == 6:
        return [("attest", {"game": GAME, "player": PLAYER, "cardHash": b"\x44" * 32})]
    if seq == 7:
        # Hole choices (docs/data-model.md, "hole.N.KEY"): a player's id as bytes, "lone" as text, a cleared one as null.
        return [("set", {"kind": "game", "entity": GAME,
                         "fields": [("hole.3.wolf", ("bytes", PLAYER)), ("hole.4.wolf", ("text", "lone")),
                                    ("hole.5.bingo", ("null", None))]})]
    if seq == 8:
        # A score with statistics (0x22): fairway 1 = missed left, green in regulation 0 = no.
        return [("scoreStats", {"game": GAME, "player": PLAYER, "hole": 8, "strokes": 4, "putts": 2, "penalties": 0,
                                "fairway": 1, "greenInRegulation": 0})]
    if seq == 9:
        return [("rosterRemove", {"game": GAME, "player": PLAYER, "observed": [(f["device"], 3)]})]
    if seq == 10:
        return [("set", {"kind": "course", "entity": COURSE, "fields": [("name", ("text", "Sample Links"))]})]
    if seq == 11:
        # The user revokes another of their devices (seed 0x55) before its first op: the revocation statement
        # (op-format, "Revocation") signed by the user key.
        other = ed25519_public(b"\x55" * 32)
        return [("revoke", {"device": other, "lastValidSeq": 0,
                            "signature": ed25519_sign(f["userSeed"], revocation_message(f["space"], other, 0))})]
    if seq == 12:
        # The space record's name, with owner fields that do not give the space's id (salt 0x99 x 16).
        return [("set", {"kind": "space", "entity": b"\x00" * 8,
                         "fields": [("name", ("text", "Saturday")), ("owner", ("bytes", f["user"])),
                                    ("ownerSalt", ("bytes", b"\x99" * 16))]})]
    if seq == 13:
        # An invite's record: whom it admitted (the device of seed 0x66, with its user), when it expires, its uses.
        admitted = ed25519_public(b"\x66" * 32)
        return [("set", {"kind": "invite", "entity": INVITE,
                         "fields": [("admitted." + admitted[:16].hex(), ("bytes", admitted + f["user"])),
                                    ("expires", ("integer", f["certifiedAt"] + 86400000)), ("uses", ("integer", 2))]})]
    if seq == 14:
        # A pick-up (0x23) on hole 9: the game, the player and the hole, nothing else.
        return [("pickUp", {"game": GAME, "player": PLAYER, "hole": 9})]
    if seq == 15:
        # A competition (kind 6) and the game made one of its groups: its `competition` field holds the id.
        return [("set", {"kind": "competition", "entity": COMPETITION,
                         "fields": [("name", ("text", "Medal")), ("scoring", ("text", "gross"))]}),
                ("set", {"kind": "game", "entity": GAME, "fields": [("competition", ("bytes", COMPETITION))]})]
    raise Refused(f"the vectors hold no op {seq}")


def join_accepted(op_bytes, space, space_key):
    """A seq-1 op as a receiver judges it: signature, one join, its certificate and membership proof."""
    if not op_signature_verifies(op_bytes):
        return False
    op = decode_op(op_bytes)
    changes = decode_payload(op["payload"])
    if op["seq"] != 1 or len(changes) != 1 or changes[0][0] != "join":
        return False
    join = changes[0][1]
    cert = certificate_message(join["user"], op["device"], join["certifiedAt"])
    proof = hmac_sha512_256(space_key, membership_message(space, op["device"], join["user"]))
    return ed25519_verifies(join["user"], cert, join["certificate"]) and hmac.compare_digest(proof, join["proof"])


def resign(op_bytes, seed):
    unsigned = op_bytes[:-64]
    return unsigned + ed25519_sign(seed, OP_CONTEXT + unsigned)


def check_op_file(f, run):
    inputs = {}

    def keys(v):
        v.same(f.raw("format"), "Caddie op format version 1; see Protocol/op-format.md", "format")
        user_seed, device_seed = f.hex("userSeed"), f.hex("deviceSeed")
        v.same(user_seed, b"\x11" * 32, "userSeed")
        v.same(device_seed, b"\x22" * 32, "deviceSeed")
        v.same(f.hex("userPublicKey"), ed25519_public(user_seed), "userPublicKey from userSeed")
        v.same(f.hex("devicePublicKey"), ed25519_public(device_seed), "devicePublicKey from deviceSeed")
        v.same(f.hex("space"), bytes(range(16)), "space")
        v.same(f.hex("spaceKey"), b"\x33" * 32, "spaceKey")
        v.same(f.raw("certifiedAt"), "1763683200000", "certifiedAt")
        inputs.update(userSeed=user_seed, deviceSeed=device_seed, user=ed25519_public(user_seed),
                      device=ed25519_public(device_seed), space=f.hex("space"), spaceKey=f.hex("spaceKey"),
                      certifiedAt=int(f.raw("certifiedAt")))

    def certificate(v):
        message, signature = f.hex("certificateMessage"), f.hex("certificateSignature")
        inputs["certificate"] = signature
        r = Reader(message, "certificate message")
        v.same(r.take(14), b"caddie-cert-v1", "certificate context")
        v.same(r.take(32), inputs["user"], "certificate user")
        v.same(r.take(32), inputs["device"], "certificate device")
        v.same(r.u64(), inputs["certifiedAt"], "certificate certified-at")
        r.end()
        v.same(len(message), 86, "certificate message length")
        v.same(message, certificate_message(inputs["user"], inputs["device"], inputs["certifiedAt"]),
               "certificate message re-encoded")
        v.check(ed25519_verifies(inputs["user"], message, signature),
                "certificate signature verifies under the user key")
        v.check(not ed25519_verifies(inputs["device"], message, signature),
                "the certificate signature does not verify under the device key")
        v.same(signature, ed25519_sign(inputs["userSeed"], message), "certificate signature re-signed with userSeed")
        v.rejects_tampering(lambda blob: ed25519_verifies(inputs["user"], blob[:86], blob[86:]),
                            message + signature, range(86 + 64), "certificate message and signature")

    def proof(v):
        tag = f.hex("membershipProof")
        inputs["proof"] = tag
        message = membership_message(inputs["space"], inputs["device"], inputs["user"])
        v.same(len(message), 94, "membership message length")
        v.same(tag, hmac_sha512_256(inputs["spaceKey"], message), "membership proof (HMAC-SHA-512-256 under spaceKey)")
        v.check(tag != hmac_sha512_256(b"\x34" * 32, message), "another space key gives another membership proof")
        v.rejects_tampering(lambda blob: hmac.compare_digest(hmac_sha512_256(inputs["spaceKey"], blob[:94]), blob[94:]),
                            message + tag, range(94 + 32), "membership message and proof")

    run("keys and inputs", keys)
    run("device certificate", certificate)
    run("membership proof", proof)

    ops = f.raw("ops") if "ops" in f.obj else []
    previous = {"hash": ZERO32, "op": None}
    for index, entry in enumerate(ops):
        def one_op(v, entry=entry, seq=index + 1):
            v.same(sorted(entry), ["bytes", "hash", "hlc", "name", "payload", "prev", "seq"], "fields of the op entry")
            data, payload = bytes.fromhex(entry["bytes"]), bytes.fromhex(entry["payload"])
            v.same(entry["name"], OP_NAMES[seq - 1] if seq <= len(OP_NAMES) else None, "name")
            v.same(entry["seq"], seq, "seq field")
            ms = inputs["certifiedAt"] + 60000 * seq
            v.same(int(entry["hlc"]), ms << 16, "hlc field (certifiedAt + 60 000 x seq, counter 0)")
            v.same(bytes.fromhex(entry["prev"]), previous["hash"], "prev field (hash of the previous op)")
            v.same(bytes.fromhex(entry["hash"]), blake2b256(data), "hash field (BLAKE2b-256 of bytes)")
            # The op's fields.
            op = decode_op(data)
            v.same(op["version"], 1, "version")
            v.same(op["space"], inputs["space"], "space")
            v.same(op["device"], inputs["device"], "device")
            v.same(op["seq"], seq, "seq")
            v.same(op["prev"], previous["hash"], "prev")
            v.same(op["hlc"], int(entry["hlc"]), "hlc")
            v.same((op["hlc"] >> 16, op["hlc"] & 0xFFFF), (ms, 0), "hlc milliseconds and counter")
            want_pred = [(inputs["device"], 4)] if seq == 5 else []
            v.same(op["pred"], want_pred, "pred")
            v.same(op["payload"], payload, "payload")
            v.same(len(data), 167 + 40 * len(op["pred"]) + len(op["payload"]), "length 167 + 40n + L")
            v.rebuilt(encode_op(op), data, "op re-encoded from its decoded fields")
            # The signature.
            v.check(op_signature_verifies(data), "op signature verifies under the device key")
            v.same(op["signature"], ed25519_sign(inputs["deviceSeed"], OP_CONTEXT + data[:-64]),
                   "op signature re-signed with deviceSeed")
            # The payload.
            changes = decode_payload(payload)
            want = expected_changes(seq, inputs)
            v.same(changes, want, "payload changes")
            v.rebuilt(encode_payload(changes), payload, "payload re-encoded from its decoded changes")
            for kind, change in changes:
                if kind == "set":
                    names = [name for name, _ in change["fields"]]
                    v.same(names, sorted(names), "set field names in ascending order")
            if seq == 5 and previous["op"] is not None:
                replaced = decode_payload(previous["op"]["payload"])[0][1]
                v.same((replaced["game"], replaced["player"], replaced["hole"]),
                       (changes[0][1]["game"], changes[0][1]["player"], changes[0][1]["hole"]),
                       "pred names a score of the same game, player and hole")
            # The whole op built again from the spec's inputs alone.
            built = {"version": 1, "space": inputs["space"], "device": inputs["device"], "seq": seq,
                     "prev": previous["hash"], "hlc": ms << 16, "pred": want_pred, "payload": encode_payload(want)}
            unsigned = encode_op_unsigned(built)
            v.rebuilt(unsigned + ed25519_sign(inputs["deviceSeed"], OP_CONTEXT + unsigned), data,
                      "op built from the inputs and signed")
            # The compact wire form (wire.md, "`0x02` ops") restores to the same bytes.
            small = compact(data)
            v.same(len(small), len(data) - 48, "compact form is 48 bytes shorter")
            v.same((small[1:33], int.from_bytes(small[33:41], "big")), (inputs["device"], seq),
                   "compact form: device at offset 1, seq at offset 33")
            v.rebuilt(restore(small, inputs["space"], previous["hash"]), data, "compact form restored")
            # Tampering: every byte is covered by the signature.
            v.rejects_tampering(op_signature_verifies, data, range(len(data)), "op bytes")
            if seq == 1:
                v.check(join_accepted(data, inputs["space"], inputs["spaceKey"]), "the join is accepted")
                v.refuses(lambda d: join_accepted(d, inputs["space"], b"\x34" * 32), data,
                          "the join under another space key")
                # Flip the join's user key, certified-at, certificate and proof, then sign the op again:
                # the op signature holds, and the join's own checks must refuse it.
                start = 103 + 3  # payload offset in an op without pred, then version, count and tag
                v.rejects_tampering(
                    lambda d: join_accepted(resign(d, inputs["deviceSeed"]), inputs["space"], inputs["spaceKey"]),
                    data, range(start, start + 32 + 8 + 64 + 32),
                    "join user, certified-at, certificate and proof (op re-signed)")

        run(f"op {index + 1} {entry.get('name', '?')}", one_op)
        # The next op links to this one's bytes as the file gives them, whatever this op's checks found.
        try:
            previous["hash"] = blake2b256(bytes.fromhex(entry["bytes"]))
            previous["op"] = decode_op(bytes.fromhex(entry["bytes"]))
        except (KeyError, ValueError, Refused):
            previous["op"] = None

    def bundle(v):
        data = f.hex("bundle")
        op_bytes = [bytes.fromhex(entry["bytes"]) for entry in ops]
        v.same(len(op_bytes), len(OP_NAMES), "one op for each of OP_NAMES")
        decoded = decode_bundle(data)
        v.same(data[:9], b"CADDIEB1\x01", "magic and version")
        v.same(decoded["space"], inputs["space"], "bundle space")
        v.same(decoded["ops"], op_bytes, "bundle ops are the ops of the vector, in order")
        v.same(data[-32:], blake2b256(data[:-32]), "bundle checksum")
        v.rebuilt(encode_bundle(decoded["space"], decoded["ops"]), data, "bundle re-encoded")
        v.rebuilt(encode_bundle(inputs["space"], op_bytes), data, "bundle built from the ops")
        v.refuses(decode_bundle, data[:-1], "a truncated bundle")
        v.refuses(decode_bundle, data + b"\x00", "a bundle with a trailing byte")
        v.rejects_tampering(decode_bundle, data, range(len(data)), "bundle bytes")

    run("bundle", bundle)

    def state(v):
        # docs/data-model.md, "State hash": the sections, their columns, the encoding of each value.
        state = f.raw("state")
        sections = state["sections"]
        names = [f"{table}: " + ", ".join(f"{table}.{c}" for c in columns) for table, columns in STATE_TABLES]
        names += ["roster", "standing score: " + ", ".join("s." + c for c in STATE_SCORE_COLUMNS)]
        v.same([s["name"] for s in sections], names, "the sections, their columns and their order")
        rows = {s["name"].split(":")[0]: [[plain(value) for value in row] for row in s["rows"]] for s in sections}
        # What importing the ops of this file leaves (the ops above): Ana a member, one standing roster pair (the
        # removal of seq 9 cancelled only the add of seq 3; her scores keep her), the correction (seq 5, 4 strokes)
        # standing and the first entry superseded, hole 8 with its statistics, the attestation of seq 6, the
        # revocation of seq 11, the pick-up of seq 14 (stored as strokes 0, nothing else recorded).
        game, player = bytes.fromhex("a0a1a2a3a4a5a6a7"), bytes.fromhex("b0b1b2b3b4b5b6b7")
        device = inputs["device"]
        v.same(rows["member"], [[device, inputs["user"], "Ana", inputs["certifiedAt"]]], "the member row")
        v.same(rows["roster"], [[game, player]], "the standing roster")
        scores = rows["standing score"]
        v.same(len(scores), 3, "three standing score entries")
        v.same(scores[:1], [[device, 5, game, player, 7, scores[0][5], 4, None, None, None, None]],
               "hole 7: the correction alone")
        v.same(scores[1:2], [[device, 8, game, player, 8, scores[1][5], 4, 2, 0, 1, 0]],
               "hole 8: 4 strokes, 2 putts, no penalty, fairway missed left (1), no green in regulation (0)")
        v.same(scores[2:], [[device, 14, game, player, 9, scores[2][5], 0, None, None, None, None]],
               "hole 9: the pick-up, strokes 0 and nothing recorded")
        v.same(rows["revocation"], [[inputs["user"], ed25519_public(b"\x55" * 32), 0, device, 11]], "the revocation row")
        v.same(rows["attestation"], [[device, 6, inputs["user"], game, player, b"\x44" * 32]], "the attestation row")
        v.same([row[:3] for row in rows["lww"]], sorted(row[:3] for row in rows["lww"]), "fields ordered by kind, id, field")
        v.same(len(rows["lww"]), 15,
               "fifteen fields: the player's name and index, the game's tee, finished and competition, three choices, "
               "the course's name, the space's name, the invite's admission, expiry and uses, the competition's name "
               "and scoring")
        v.same([row[2:4] for row in rows["lww"] if row[0] == 6 and row[1] == COMPETITION],
               [["name", encode_value(("text", "Medal"))], ["scoring", encode_value(("text", "gross"))]],
               "the competition record's fields")
        v.same([row[3] for row in rows["lww"] if row[0] == 4 and row[1] == GAME and row[2] == "competition"],
               [encode_value(("bytes", COMPETITION))], "the game names its competition")
        # The space record's owner fields apply only when they give the op's space id (op-format, "The space
        # record"): owned_space_id(user, 0x99 x 16) is not this space, so only the name stands.
        v.check(owned_space_id(inputs["user"], b"\x99" * 16) != inputs["space"], "the vector's space is not owned")
        v.same([row[2:4] for row in rows["lww"] if row[0] == 1 and row[1] == b"\x00" * 8],
               [["name", encode_value(("text", "Saturday"))]], "the space record: its name, no owner fields")
        v.same([row[2] for row in rows["lww"] if row[0] == 5 and row[1] == INVITE],
               sorted(["admitted." + ed25519_public(b"\x66" * 32)[:16].hex(), "expires", "uses"]),
               "the invite record's fields")
        digest = state_hash(sections)
        v.same(bytes.fromhex(state["stateHash"]), digest, "the state hash over the sections")
        for index, section in enumerate(sections):
            for r, row in enumerate(section["rows"]):
                for c in range(len(row)):
                    changed = json.loads(json.dumps(sections))
                    value = changed[index]["rows"][r][c]
                    kind = next(iter(value))
                    value[kind] = {"integer": lambda x: str(int(x) + 1), "text": lambda x: x + "x",
                                   "blob": lambda x: x + "00", "real": lambda x: "1" + x,
                                   "null": lambda x: None}[kind](value[kind])
                    if kind == "null":
                        changed[index]["rows"][r][c] = {"integer": "0"}
                    v.check(state_hash(changed) != digest, f"a changed {section['name'].split(':')[0]} value changes the hash")

    run("state hash", state)


# The state hash's tables and columns (docs/data-model.md, "State hash"), each table hashed whole.
STATE_TABLES = [
    ("member", ["device", "user", "user_name", "certified_at"]),
    ("revocation", ["user", "device", "last_valid_seq", "by_device", "by_seq"]),
    ("lww", ["kind", "id", "field", "value", "hlc", "device", "seq"]),
    ("attestation", ["device", "seq", "user", "game", "player", "card_hash"]),
    ("removal", ["user", "by_device", "by_seq"]),
    ("space_key", ["epoch", "key_check", "device", "sealed", "by_device", "by_seq"]),
]
STATE_SCORE_COLUMNS = ["device", "seq", "game", "player", "hole", "hlc", "strokes", "putts", "penalties", "fairway", "gir"]


def plain(value):
    """A vector's typed column value as Python: None, an int, a str, bytes, or a float."""
    kind, content = next(iter(value.items()))
    if kind == "null":
        return None
    if kind == "integer":
        return int(content)
    if kind == "text":
        return content
    if kind == "blob":
        return bytes.fromhex(content)
    if kind == "real":
        return struct.unpack(">d", int(content, 16).to_bytes(8, "big"))[0]
    raise Refused(f"unknown column type {kind}")


def state_item(value):
    """One column value as the state hash takes it: a type byte, then the value."""
    value = plain(value)
    if value is None:
        return b"\x00"
    if isinstance(value, bool):
        raise Refused("a boolean is no SQLite value")
    if isinstance(value, int):
        return b"\x01" + struct.pack(">q", value)
    if isinstance(value, float):
        return b"\x02" + struct.pack(">d", value)
    if isinstance(value, str):
        return b"\x03" + value.encode("utf-8")
    return b"\x04" + value


def state_hash(sections):
    """BLAKE2b-256 over length-prefixed items: each section's name, then each value of each of its rows."""
    items = []
    for section in sections:
        items.append(section["name"].encode("utf-8"))
        for row in section["rows"]:
            items.extend(state_item(value) for value in row)
    return blake2b256(*(struct.pack(">I", len(item)) + item for item in items))


# --- handshake-v1.json (wire, "Test vectors") --------------------------------------------------------


def check_handshake_file(f, run):
    s = {}

    def hk_vector(v):
        s["space"], s["spaceKey"] = f.hex("space"), f.hex("spaceKey")
        v.same(f.hex("initiatorEphemeralSecret"), b"\x66" * 32, "initiatorEphemeralSecret")
        v.same(f.hex("responderEphemeralSecret"), b"\x77" * 32, "responderEphemeralSecret")
        hk = f.hex("handshakeKey")
        v.same(hk, handshake_key(s["spaceKey"], s["space"]), "hk = Blake2b.keyed(spaceKey, caddie-handshake-v1, space)")
        v.rejects_tampering(lambda blob: handshake_key(blob[:32], blob[32:]) == hk, s["spaceKey"] + s["space"],
                            range(48), "space key and space")
        s["hk"] = hk
        for side in ("initiator", "responder"):
            s[side] = {"userSeed": f.hex(side + "UserSeed"), "deviceSeed": f.hex(side + "DeviceSeed"),
                       "secret": f.hex(side + "EphemeralSecret")}
            s[side]["device"] = ed25519_public(s[side]["deviceSeed"])
            s[side]["public"] = x25519_public(s[side]["secret"])
        s["certifiedAt"] = int(f.raw("certifiedAt"))

    def message1(v):
        m1 = f.hex("message1")
        e_i = s["initiator"]["public"]
        v.same(len(m1), 68, "message 1 length")
        v.same(m1[:3], b"CDY", "magic")
        v.same(m1[3], 1, "version")
        v.same(m1[4:36], e_i, "e_i = X25519 base of initiatorEphemeralSecret")
        v.same(m1[36:], tag1(s["hk"], 1, e_i), "tag1")
        v.same(responder_reads_message1(m1, s["hk"]), e_i, "the responder reads e_i")
        v.rebuilt(encode_message1(s["hk"], e_i), m1, "message 1 re-encoded")
        v.refuses(lambda m: responder_reads_message1(m, handshake_key(b"\x34" * 32, s["space"])), m1,
                  "message 1 under another space key")
        v.rejects_tampering(lambda m: responder_reads_message1(m, s["hk"]), m1, range(68), "message 1")
        s["e_i"] = e_i

    def message2(v):
        m2 = f.hex("message2")
        e_i, e_r = s["e_i"], s["responder"]["public"]
        v.same(len(m2), 248, "message 2 length")
        v.same(m2[:32], e_r, "e_r = X25519 base of responderEphemeralSecret")
        dh = x25519(s["initiator"]["secret"], m2[:32])
        v.same(dh, x25519(s["responder"]["secret"], e_i), "both sides compute the same dh")
        keys = session_keys(s["hk"], dh, e_i, e_r)
        v.check(len({keys["k2"], keys["k3"], keys["i2r"], keys["r2i"]}) == 4, "k2, k3, k_i2r, k_r2i are distinct")
        block = aead_open(keys["k2"], 0, e_i + e_r, m2[32:])
        v.same(len(block), 200, "identity block length")
        sigmsg = responder_signature_message(s["space"], e_i, e_r)
        v.same(len(sigmsg), 91, "responder signature message length")
        ident = read_identity_block(block, sigmsg)
        v.same(ident["device"], s["responder"]["device"], "responder device key")
        v.same(ident["user"], ed25519_public(s["responder"]["userSeed"]), "responder user key")
        v.same(ident["certifiedAt"], s["certifiedAt"], "responder certified-at")
        v.rebuilt(encode_identity(ident), block, "identity block re-encoded")
        rebuilt = identity_block(s["responder"]["deviceSeed"], s["responder"]["userSeed"], s["certifiedAt"], sigmsg)
        v.rebuilt(rebuilt, block, "identity block re-signed from the seeds")
        v.rebuilt(e_r + aead_seal(keys["k2"], 0, e_i + e_r, rebuilt), m2, "message 2 re-sealed from the inputs")
        v.refuses(lambda b: read_identity_block(b, initiator_signature_message(s["space"], e_i, e_r, ident["device"])),
                  block, "the responder's block against the initiator's signature message")

        def initiator_reads(frame):
            if len(frame) != 248:
                raise Refused("message 2 length")
            d = x25519(s["initiator"]["secret"], frame[:32])
            k = session_keys(s["hk"], d, e_i, frame[:32])
            return read_identity_block(aead_open(k["k2"], 0, e_i + frame[:32], frame[32:]), sigmsg)

        v.rejects_tampering(initiator_reads, m2, range(248), "message 2")
        # Flip each byte of the identity block and seal it properly: the AEAD opens, the signatures must not.
        v.rejects_tampering(lambda b: initiator_reads(e_r + aead_seal(keys["k2"], 0, e_i + e_r, b)), block,
                            range(200), "responder identity block (re-sealed)")
        s.update(e_r=e_r, keys=keys, responderDevice=ident["device"])

    def message3(v):
        m3 = f.hex("message3")
        e_i, e_r, keys = s["e_i"], s["e_r"], s["keys"]
        v.same(len(m3), 216, "message 3 length")
        block = aead_open(keys["k3"], 0, e_i + e_r, m3)
        sigmsg = initiator_signature_message(s["space"], e_i, e_r, s["responderDevice"])
        v.same(len(sigmsg), 123, "initiator signature message length")
        ident = read_identity_block(block, sigmsg)
        v.same(ident["device"], s["initiator"]["device"], "initiator device key")
        v.same(ident["user"], ed25519_public(s["initiator"]["userSeed"]), "initiator user key")
        v.same(ident["certifiedAt"], s["certifiedAt"], "initiator certified-at")
        v.rebuilt(encode_identity(ident), block, "identity block re-encoded")
        rebuilt = identity_block(s["initiator"]["deviceSeed"], s["initiator"]["userSeed"], s["certifiedAt"], sigmsg)
        v.rebuilt(rebuilt, block, "identity block re-signed from the seeds")
        v.rebuilt(aead_seal(keys["k3"], 0, e_i + e_r, rebuilt), m3, "message 3 re-sealed from the inputs")
        v.refuses(lambda m: aead_open(keys["k2"], 0, e_i + e_r, m), m3, "message 3 opened with k2")
        v.refuses(lambda b: read_identity_block(b, initiator_signature_message(s["space"], e_i, e_r, b"\x00" * 32)),
                  block, "the initiator's block naming another responder device")

        def responder_reads(frame):
            return read_identity_block(aead_open(keys["k3"], 0, e_i + e_r, frame), sigmsg)

        v.rejects_tampering(responder_reads, m3, range(216), "message 3")
        v.rejects_tampering(lambda b: responder_reads(aead_seal(keys["k3"], 0, e_i + e_r, b)), block,
                            range(200), "initiator identity block (re-sealed)")

    def transport(field, key_name, other_key, plain, message_name):
        def check(v):
            frame = f.hex(field)
            key = s["keys"][key_name]
            v.same(len(frame), len(plain) + 16, "frame body length (plaintext + 16)")
            opened = aead_open(key, 0, b"", frame)
            v.same(opened, plain, "plaintext")
            name, message = decode_message(opened)
            v.same(name, message_name, "message type")
            if name == "vector":
                v.same((message["flags"], message["entries"]), (0, []), "empty vector, flags 0")
            v.rebuilt(encode_message(name, message), opened, "message re-encoded")
            v.rebuilt(aead_seal(key, 0, b"", plain), frame, "frame re-sealed with counter 0")
            v.refuses(lambda b: aead_open(key, 1, b"", b), frame, "the frame opened with counter 1 (replayed)")
            v.refuses(lambda b: aead_open(s["keys"][other_key], 0, b"", b), frame,
                      "the frame opened with the other direction's key")
            v.refuses(decode_message, opened + b"\x00", "the message with a trailing byte")
            v.rejects_tampering(lambda b: aead_open(key, 0, b"", b), frame, range(len(frame)), "frame body")
        return check

    run("handshake key", hk_vector)
    run("message 1", message1)
    run("message 2", message2)
    run("message 3", message3)
    run("first initiator frame (vector)", transport("firstInitiatorFrameVectorEmpty", "i2r", "r2i",
                                                      bytes.fromhex("01000000"), "vector"))
    run("first responder frame (done)", transport("firstResponderFrameDone", "r2i", "i2r", bytes.fromhex("04"), "done"))


# --- membership-v1.json (wire, "Test vectors") -------------------------------------------------------


def check_membership_file(f, run):
    s = {}

    def owned(v):
        owner_seed, salt = f.hex("ownerUserSeed"), f.hex("ownerSalt")
        v.same(owner_seed, b"\x11" * 32, "ownerUserSeed")
        v.same(salt, b"\x99" * 16, "ownerSalt")
        owner = ed25519_public(owner_seed)
        space = f.hex("ownedSpaceID")
        v.same(len(space), 16, "space id length")
        v.same(space, owned_space_id(owner, salt), "owned space id = BLAKE2b-256 keyed with the salt, first 16 bytes")
        v.check(owned_space_id(ed25519_public(b"\x44" * 32), salt) != space,
                "another user's key and the salt give another space id")
        v.rejects_tampering(lambda b: owned_space_id(owner, b) == space, salt, range(16), "owner salt")
        s.update(owner=owner, ownerSeed=owner_seed, salt=salt, space=space)

    def invite_hk(v):
        secret = f.hex("inviteSecret")
        v.same(secret, b"\x55" * 32, "inviteSecret")
        hk = f.hex("inviteHandshakeKey")
        v.same(hk, invite_key(secret, s["space"]), "invite hk = Blake2b.keyed(secret, caddie-invite-v1, owned space)")
        v.rejects_tampering(lambda b: invite_key(b, s["space"]) == hk, secret, range(32), "invite secret")
        s["hk"] = hk

    def invite_m1(v):
        m1 = f.hex("inviteMessage1")
        e_i = x25519_public(b"\x66" * 32)  # the redeemer's ephemeral secret, as wire.md states
        v.same(len(m1), 68, "message 1 length")
        v.same(m1[:4], b"CDY\x01", "magic and version")
        v.same(m1[4:36], e_i, "e_i = X25519 base of 0x66 x 32")
        v.same(m1[36:], tag1(s["hk"], 1, e_i), "tag1 under the invite's hk")
        v.rebuilt(encode_message1(s["hk"], e_i), m1, "message 1 re-encoded")
        v.refuses(lambda m: responder_reads_message1(m, handshake_key(f.hex("newKey"), s["space"])), m1,
                  "the invite's message 1 under the space key's hk")
        v.rejects_tampering(lambda m: responder_reads_message1(m, s["hk"]), m1, range(68), "invite message 1")

    def check_vector(v):
        key = f.hex("newKey")
        v.same(key, b"\x33" * 32, "newKey")
        check = f.hex("keyCheck")
        v.same(check, key_check(key),
               "key check = BLAKE2b-256 keyed with the key over caddie-epoch-check, first 8 bytes")
        v.rejects_tampering(lambda b: key_check(b[:32]) == b[32:], key + check, range(40), "new key and key check")
        s["newKey"] = key

    def removal(v):
        payload = f.hex("removeAndRotatePayload")
        member_seed = f.hex("memberUserSeed")
        v.same(member_seed, b"\x44" * 32, "memberUserSeed")
        member = ed25519_public(member_seed)
        changes = decode_payload(payload)
        v.same([kind for kind, _ in changes], ["remove", "rotate"], "changes")
        remove, rotate = changes[0][1], changes[1][1]
        v.same(remove["user"], member, "removed user = the member's public key")
        v.same(remove["ownerSalt"], s["salt"], "remove owner salt")
        v.same(remove["devices"], [(member, 5)], "removed devices: the member's key, last valid seq 5")
        v.check(remove["user"] != s["owner"], "the owner removes someone other than themselves")
        v.same(rotate["epoch"], 1, "rotate epoch")
        v.same(rotate["ownerSalt"], s["salt"], "rotate owner salt")
        v.same(rotate["keyCheck"], key_check(s["newKey"]), "rotate key check")
        v.same(rotate["sealed"], [(s["owner"], b"\xbb" * 80)], "sealed keys: the owner's key, box 0xBB x 80")
        v.rebuilt(encode_payload(changes), payload, "payload re-encoded")
        v.rebuilt(encode_payload([
            ("remove", {"user": member, "ownerSalt": s["salt"], "devices": [(member, 5)]}),
            ("rotate", {"epoch": 1, "ownerSalt": s["salt"], "keyCheck": key_check(s["newKey"]),
                        "sealed": [(s["owner"], b"\xbb" * 80)]})]), payload, "payload built from the inputs")
        # A real sealed box of a 32-byte key to the X25519 form of a device key is 80 bytes and opens.
        box = sodium.crypto_box_seal(s["newKey"], sodium.crypto_sign_ed25519_pk_to_curve25519(s["owner"]))
        v.same(len(box), 80, "crypto_box_seal of a 32-byte key")
        secret = sodium.crypto_sign_ed25519_sk_to_curve25519(sodium.crypto_sign_seed_keypair(s["ownerSeed"])[1])
        v.same(sodium.crypto_box_seal_open(box, sodium.crypto_sign_ed25519_pk_to_curve25519(s["owner"]), secret),
               s["newKey"], "the sealed key opens with the device's X25519 secret")
        v.refuses(decode_payload, payload[:-1], "a truncated payload")
        v.refuses(decode_payload, payload + b"\x00", "a payload with a trailing byte")

        # What a receiver holding the new key checks: both salts name this space under the signer's user key,
        # and the key check matches the key.
        def owner_accepts(p):
            (_, rm), (_, rot) = decode_payload(p)
            return (owned_space_id(s["owner"], rm["ownerSalt"]) == s["space"]
                    and owned_space_id(s["owner"], rot["ownerSalt"]) == s["space"]
                    and rm["user"] != s["owner"] and rot["keyCheck"] == key_check(s["newKey"]))

        salt1 = 3 + 32
        salt2 = 3 + 32 + 16 + 2 + 40 * len(remove["devices"]) + 1 + 4
        authenticated = [*range(salt1, salt1 + 16), *range(salt2, salt2 + 16 + 8)]
        v.rejects_tampering(owner_accepts, payload, authenticated, "owner salts and key check")

    def welcome(v):
        data = f.hex("welcome")
        name, m = decode_message(data)
        v.same(name, "welcome", "message type")
        v.same(m["spaceKey"], s["newKey"], "welcome space key = newKey")
        v.same(m["name"], "Saturday", "space name")
        v.same(m["earlierKeys"], [b"\x77" * 32], "one earlier key, 0x77 x 32")
        v.rebuilt(encode_message(name, m), data, "welcome re-encoded")
        v.refuses(decode_message, data[:-1], "a truncated welcome")
        v.refuses(decode_message, data + b"\x00", "a welcome with a trailing byte")

    run("owned space id", owned)
    run("invite handshake key", invite_hk)
    run("invite message 1", invite_m1)
    run("key check", check_vector)
    run("remove and rotate payload", removal)
    run("welcome", welcome)


# --- Main --------------------------------------------------------------------------------------------


CHANGE_NAMES = {"join": 0x01, "revoke": 0x02, "remove": 0x03, "rotate": 0x04, "set": 0x10, "rosterAdd": 0x11,
                "rosterRemove": 0x12, "score": 0x20, "attest": 0x21, "scoreStats": 0x22,
                "pickUp": 0x23}
VALUE_TAGS = {"null": 0, "text": 1, "integer": 2, "number": 3, "bytes": 4}


# --- messages-v1.json (wire, "Messages" and "Examples") ----------------------------------------------


def op_file(folder):
    """The ops of op-v1.json by seq: (bytes, hash), for the message vectors that carry or name them."""
    with open(os.path.join(folder, "op-v1.json"), encoding="utf-8") as handle:
        data = json.load(handle)
    return bytes.fromhex(data["space"]), {e["seq"]: (bytes.fromhex(e["bytes"]), bytes.fromhex(e["hash"])) for e in data["ops"]}


def wire_examples():
    """The hex of wire.md's "Examples": each row of its table, and each indented block, as bytes."""
    with open(os.path.join(REPO, "Protocol", "wire.md"), encoding="utf-8") as handle:
        text = handle.read()
    section = text[text.index("## Examples"):text.index("## Test vectors")]
    rows = {name.replace("`", ""): bytes.fromhex(hexa.replace(" ", "")) for name, hexa in
            re.findall(r"^\| (.+?) \| `([0-9a-f ]+)` \|$", section, re.M)}
    blocks, current = [], ""
    for line in section.split("\n") + [""]:
        if line.startswith("    ") and re.fullmatch(r"[0-9a-f ]+", line.strip()):
            current += line.strip().replace(" ", "")
        elif current:
            blocks.append(bytes.fromhex(current))
            current = ""
    return rows, blocks


MESSAGE_FIELDS = {"vector": ["entries", "flags"], "ops": ["batch", "flags", "ops", "restores"], "ack": ["applied", "batch"],
                  "done": [], "close": ["reason", "text"], "digest": ["of"], "live": ["body", "restores"]}


def check_messages_file(f, run):
    folder = os.path.dirname(f.path)
    space, ops = op_file(folder)

    def header(v):
        v.same(f.raw("format"), "Caddie wire protocol version 1, transport messages; see Protocol/wire.md", "format")

    run("format", header)
    for entry in f.raw("messages"):
        def one(v, entry=entry):
            data, kind, fields = bytes.fromhex(entry["bytes"]), entry["message"], entry["fields"]
            v.same(sorted(fields), MESSAGE_FIELDS.get(kind), "the fields a " + kind + " vector carries")
            name, decoded = decode_message(data)
            v.same(name, kind, "message type")
            v.rebuilt(encode_message(name, decoded), data, "message re-encoded from its decoded fields")
            if kind == "live":
                # The op runs to the frame's end: no trailing byte to refuse, but a body too short to hold a seq.
                v.refuses(decode_message, data[:9], "a live op of 8 bytes")
            else:
                v.refuses(decode_message, data + b"\x00", "the message with a trailing byte")
                if len(data) > 1:
                    v.refuses(decode_message, data[:-1], "the message cut short by one byte")
            if kind == "vector":
                want = [(bytes.fromhex(e["device"]), e["seq"], bytes.fromhex(e["head"])) for e in fields["entries"]]
                v.same((decoded["flags"], decoded["entries"]), (fields["flags"], want), "flags and entries")
                v.rebuilt(encode_message("vector", {"flags": fields["flags"], "entries": want}), data,
                          "vector built from its fields")
                for device, seq, head in want:
                    if device == ed25519_public(b"\x22" * 32):
                        v.same(head, ops[seq][1], f"the head of seq {seq}: the hash of op {seq} of op-v1.json")
                v.refuses(decode_message, data[:1] + b"\x02" + data[2:], "a vector with flags 2")
            elif kind == "ops":
                v.same((decoded["batch"], decoded["flags"]), (fields["batch"], fields["flags"]), "batch and flags")
                want = [(o["form"], bytes.fromhex(o["body"])) for o in fields["ops"]]
                v.same(decoded["ops"], want, "the wire ops")
                # Each restores to the op of op-v1.json it names (wire.md, "Restoring"): prev is the hash of the
                # op before, from the receiver's store or from the op restored just before it in this message.
                prev = None
                for (form, body), seq in zip(decoded["ops"], fields["restores"]):
                    if form == "compact":
                        v.same(body, compact(ops[seq][0]), f"op {seq} in its compact form")
                        v.same((body[1:33], int.from_bytes(body[33:41], "big")), (ed25519_public(b"\x22" * 32), seq),
                               "the compact op names its device and seq")
                        before = prev if prev is not None else (ops[seq - 1][1] if seq > 1 else ZERO32)
                        restored = restore(body, space, before)
                    else:
                        restored = body
                    v.rebuilt(ops[seq][0], restored, f"op {seq} restored")
                    v.check(op_signature_verifies(restored), f"restored op {seq} verifies")
                    prev = blake2b256(restored)
                v.refuses(decode_message, data[:5] + b"\x02" + data[6:], "an ops message with flags 2")
            elif kind == "live":
                # wire.md, "0x08 live": the op of op-v1.json it names, with the device, space and prev restored.
                seq = fields["restores"]
                v.same(decoded["body"], bytes.fromhex(fields["body"]), "the live op")
                v.same(decoded["body"], live_body(ops[seq][0]), f"op {seq} less its space, device and prev")
                device = ed25519_public(b"\x22" * 32)
                restored = restore(from_live(decoded["body"], device), space, ops[seq - 1][1] if seq > 1 else ZERO32)
                v.rebuilt(ops[seq][0], restored, f"op {seq} restored from the session's peer, space and prev")
                v.check(op_signature_verifies(restored), f"restored op {seq} verifies")
                v.check(len(data) + 4 + 16 <= 132, f"a live score edit takes {len(data) + 20} bytes on the wire")
            elif kind == "ack":
                v.same((decoded["batch"], decoded["applied"]), (fields["batch"], fields["applied"]), "batch and applied")
            elif kind == "close":
                v.same((decoded["reason"], decoded["text"]), (fields["reason"], fields["text"]), "reason and text")
            elif kind == "digest":
                entries = sorted((bytes.fromhex(e["device"]), e["seq"], bytes.fromhex(e["head"])) for e in fields["of"])
                v.same(decoded["digest"], blake2b256(b"".join(d + u64(q) + h for d, q, h in entries)),
                       "BLAKE2b-256 of the entries sorted by device, 72 bytes each")

        run(f"{entry['message']}: {entry['name']}", one)

    def examples(v):
        # wire.md's "Examples" are these vectors' bytes, so the prose is checked with them.
        rows, blocks = wire_examples()
        have = {bytes.fromhex(e["bytes"]) for e in f.raw("messages")}
        v.check(len(rows) >= 7 and len(blocks) >= 3, f"wire.md's Examples: {len(rows)} rows, {len(blocks)} blocks")
        for name, data in rows.items():
            if name.startswith("version refusal"):
                v.same(data, b"CDY\xff\x02", "the version refusal: the newest version the responder speaks")
                continue
            v.check(data in have, f"the example {name!r} is a vector")
        for data in blocks:
            v.check(data in have, f"the example {data[:6].hex()}... is a vector")

    run("wire.md Examples", examples)


def documented_messages():
    """The message types wire.md's "Messages" table names."""
    with open(os.path.join(REPO, "Protocol", "wire.md"), encoding="utf-8") as handle:
        text = handle.read()
    section = text[text.index("## Messages"):text.index("### `0x01` vector")]
    return {name for _, name in re.findall(r"^\| `0x([0-9a-f]{2})` \| (\w+) \|$", section, re.M)}


# --- card-v1.json (op-format, "Card hash") -------------------------------------------------------------


def check_card_file(f, run):
    folder = os.path.dirname(f.path)

    def card(v):
        v.same(f.raw("source"), "the card the ops of op-v1.json leave", "source")
        game, player, holes = f.hex("game"), f.hex("player"), f.raw("holeCount")
        v.same((game, player), (GAME, PLAYER), "the game and player of op-v1.json")
        # The card those ops leave: the game names no course, so 18 holes; the player's shown values are the
        # correction on hole 7 (4, nothing else), the statistics op on hole 8 (4, 2 putts, no penalty) and the
        # pick-up on hole 9 (strokes 0, putts and penalties not recorded).
        v.same(holes, 18, "hole count: no course record, the larger of 18 and the highest hole scored")
        cells = f.raw("cells")
        v.same(cells, [[7, 4, None, None], [8, 4, 2, 0], [9, 0, None, None]], "the shown values of op-v1.json's card")
        with open(os.path.join(folder, "op-v1.json"), encoding="utf-8") as handle:
            sections = json.load(handle)["state"]["sections"]
        standing = next(s for s in sections if s["name"].startswith("standing score"))
        scores = [[plain(value) for value in row] for row in standing["rows"]]
        v.same([[row[4], row[6], row[7], row[8]] for row in scores if row[2] == game and row[3] == player], cells,
               "the cells are the standing scores of op-v1.json's state")
        statement = b"caddie-card-v1" + game + player + b"".join(
            bytes([hole, strokes, 0xFF if putts is None else putts, 0xFF if penalties is None else penalties])
            for hole, strokes, putts, penalties in sorted(cells) if 1 <= hole <= holes)
        v.rebuilt(statement, f.hex("statement"), "the statement built from the cells")
        v.same(f.hex("cardHash"), blake2b256(statement), "the card hash: BLAKE2b-256 of the statement")
        v.rejects_tampering(lambda d: blake2b256(d) == f.hex("cardHash"), statement, range(len(statement)),
                            "statement bytes")

    run("card hash", card)


def documented_tags():
    """The change tags that Protocol/op-format.md's table of tags names, and its value tags."""
    with open(os.path.join(REPO, "Protocol", "op-format.md"), encoding="utf-8") as handle:
        text = handle.read()
    changes = {int(tag, 16) for tag in re.findall(r"^\| `0x([0-9a-f]{2})` \| ", text, re.M)}
    return changes


def check_coverage(folder, run):
    """Every change tag Protocol/op-format.md names appears in some vector, decoded from its genuine bytes."""
    def coverage(v):
        with open(os.path.join(folder, "op-v1.json"), encoding="utf-8") as handle:
            ops = json.load(handle)["ops"]
        with open(os.path.join(folder, "membership-v1.json"), encoding="utf-8") as handle:
            removal = json.load(handle)["removeAndRotatePayload"]
        payloads = [bytes.fromhex(entry["payload"]) for entry in ops] + [bytes.fromhex(removal)]
        seen, values, kinds = set(), set(), set()
        for payload in payloads:
            for kind, change in decode_payload(payload):
                seen.add(CHANGE_NAMES[kind])
                if kind == "set":
                    kinds.add(change["kind"])
                    values.update(VALUE_TAGS[value[0]] for _, value in change["fields"])
        documented = documented_tags()
        v.check(len(documented) >= 10, f"op-format.md names {len(documented)} change tags")
        missing = sorted(documented - seen)
        v.check(not missing, "change tags no vector covers: " + ", ".join(f"0x{tag:02x}" for tag in missing))
        v.same(values, set(VALUE_TAGS.values()), "every value tag appears in a set change of a vector")
        v.same(kinds, set(SET_KINDS.values()), "every set kind appears in a set change of a vector")
        with open(os.path.join(folder, "messages-v1.json"), encoding="utf-8") as handle:
            messages = {entry["message"] for entry in json.load(handle)["messages"]} | {"welcome"}
        documented = documented_messages()
        v.check(len(documented) >= 6, f"wire.md names {len(documented)} message types")
        v.check(not documented - messages,
                "message types no vector covers: " + ", ".join(sorted(documented - messages)))

    run("every change and value tag of op-format.md", coverage)


# --- committee-v1.json (op-format, "A competition record" and "A competition's group") ---------------------


def owned_competition_id(owner, salt):
    return keyed(salt, b"caddie-competition-owner-v1", owner)[:8]


def committee_state(ops, users, competition, game):
    """What a node holds of the competition, its group's game and the game's roster once it holds `ops` (decoded,
    each with its device's user), by the committee's rule, worked out from the ops alone: their order in the list
    does not matter."""
    writes = []
    for op in ops:
        for index, (name, change) in enumerate(decode_payload(op["payload"])):
            writes.append(((op["hlc"], op["device"], op["seq"], index), users.get(op["device"]), name, change))
    writes.sort(key=lambda w: w[0])

    def is_set(w, kind, entity):
        return w[2] == "set" and w[3]["kind"] == kind and w[3]["entity"] == entity

    def proves(w):
        f, author = dict(w[3]["fields"]), w[1]
        salt = f.get("ownerSalt", ("", b""))
        return (author is not None and f.get("owner") == ("bytes", author) and salt[0] == "bytes"
                and 16 <= len(salt[1]) <= 64 and owned_competition_id(author, salt[1]) == competition)

    record = [w for w in writes if is_set(w, "competition", competition)]
    creator = next((w[1] for w in record if proves(w)), None)
    naming = {}
    for w in record:
        if creator is None or w[1] != creator:
            continue
        for name, value in w[3]["fields"]:
            if name.startswith("committee.") and not (name in naming and naming[name][1][:3] == w[0][:3]):
                naming[name] = (value, w[0])

    def named(user, hlc):
        held = naming.get("committee." + user[:8].hex())
        return held is not None and held[0] == ("bytes", user) and held[1][0] <= hlc

    def on_committee(author, named_competition, hlc):
        if named_competition != competition or creator is None:
            return True  # a competition whose creator is not held takes everyone's writes
        return author is not None and (author == creator or named(author, hlc))

    def lww(entries):
        out = {}
        for order, fields in entries:
            for name, value in fields.items():
                if name not in out or order[:3] > out[name][0][:3]:
                    out[name] = (order, value)
        return sorted([name, encode_value(value).hex()] for name, (_, value) in out.items())

    counted = []
    for w in record:
        f = dict(w[3]["fields"])
        rest = f if proves(w) else {k: v for k, v in f.items() if k not in ("owner", "ownerSalt")}
        who = w[1] if proves(w) else creator
        if who is None:
            counted.append((w[0], rest))
        elif w[1] is None:
            continue
        elif w[1] == who:
            counted.append((w[0], rest))
        elif named(w[1], w[0][0]):
            counted.append((w[0], {k: v for k, v in rest.items() if not k.startswith("committee.")}))
    bound, bound_by, fields, adds, cancels = None, None, [], set(), set()
    for w in writes:
        if is_set(w, "game", game):
            f = dict(w[3]["fields"])
            kept = dict(f)
            if bound is not None and not on_committee(w[1], bound, w[0][0]):
                kept = {k: v for k, v in f.items() if k.startswith("track/")}
            binding = kept.get("competition")
            if (binding is not None and binding[0] == "bytes" and len(binding[1]) == 8 and binding[1] != bound
                    and not on_committee(w[1], binding[1], w[0][0])):
                del kept["competition"]
            fields.append((w[0], kept))
            if "competition" in kept and (bound_by is None or bound_by[:3] != w[0][:3]):
                value = kept["competition"]
                bound = value[1] if value[0] == "bytes" and len(value[1]) == 8 else None
                bound_by = w[0]
        elif w[2] in ("rosterAdd", "rosterRemove") and w[3]["game"] == game:
            if bound is not None and not on_committee(w[1], bound, w[0][0]):
                continue
            if w[2] == "rosterAdd":
                adds.add((w[3]["player"], w[0][1], w[0][2]))
            else:
                cancels |= {(w[3]["player"], device, seq) for device, seq in w[3]["observed"]}
    roster = sorted({player.hex() for player, device, seq in adds if (player, device, seq) not in cancels})
    return {"competition": lww(counted), "game": lww(fields), "roster": roster}


def check_committee_file(f, run):
    s = {}

    def header(v):
        v.same(f.raw("format"), "Caddie op format version 1, the committee's rule; see Protocol/op-format.md", "format")
        space, key = f.hex("space"), f.hex("spaceKey")
        members = f.raw("members")
        v.same([m["name"] for m in members], ["Ana", "Mia", "Pat"], "the members")
        keys = {m["name"]: (ed25519_public(bytes.fromhex(m["userSeed"])), ed25519_public(bytes.fromhex(m["deviceSeed"])))
                for m in members}
        salt = f.hex("creatorSalt")
        competition = f.hex("competition")
        v.same(competition, owned_competition_id(keys["Ana"][0], salt),
               "the competition's id: BLAKE2b-256 keyed with the salt over the creator's user key, first 8 bytes")
        v.rejects_tampering(lambda b: owned_competition_id(keys["Ana"][0], b) == competition, salt, range(16),
                            "creator salt")
        s.update(space=space, key=key, keys=keys, competition=competition, game=f.hex("game"))

    run("keys and the competition's id", header)

    def ops(v):
        decoded, users, prevs = [], {}, {}
        for entry in f.raw("ops"):
            data = bytes.fromhex(entry["bytes"])
            op = decode_op(data)
            v.check(op_signature_verifies(data), f"{entry['name']}: the device's signature")
            v.same((op["device"].hex(), op["seq"]), (entry["device"], entry["seq"]), f"{entry['name']}: device and seq")
            v.same(op["space"], s["space"], f"{entry['name']}: space")
            v.same(op["prev"], prevs.get(op["device"], ZERO32), f"{entry['name']}: prev, the hash of the device's op before")
            prevs[op["device"]] = blake2b256(data)
            if op["seq"] == 1:
                v.check(join_accepted(data, s["space"], s["key"]), f"{entry['name']}: the join proves the space key")
                users[op["device"]] = decode_payload(op["payload"])[0][1]["user"]
            decoded.append(op)
        v.same(sorted(users.values()), sorted(k[0] for k in s["keys"].values()), "each device joined under its user")
        s.update(ops=decoded, users=users)

    run("ops: signatures, chains, joins", ops)

    def held(v):
        state = committee_state(s["ops"], s["users"], s["competition"], s["game"])
        want = f.raw("held")
        v.same(state, want, "what a node holds, worked out from the ops by the committee's rule")
        # The same ops in the reverse order of the list: the same state (the rule reads the ops, not their order).
        v.same(committee_state(list(reversed(s["ops"])), s["users"], s["competition"], s["game"]), state,
               "the ops in reverse order")
        fields = dict(want["competition"])
        status = "status." + ("b1" * 8)
        v.check(fields.get("name") == encode_value(("text", "Medal")).hex(), "the creator's name stands, not Pat's")
        v.check(status in fields and "hide" not in fields, "Mia's DQ after her naming counts, her hide before it does not")
        v.check(not any(k.startswith("committee.") and bytes.fromhex(fields[k])[-32:] == s["keys"]["Pat"][0]
                        for k in fields), "Pat did not name himself")
        game = dict(want["game"])
        v.check(game.get("competition") == encode_value(("bytes", s["competition"])).hex() and "finished" not in game,
                "the group stays bound and unfinished")
        v.same(want["roster"], ["b1" * 8, "b2" * 8], "P2 stays on the roster, P4 is not added")
        # Without the creator's naming of Mia, her writes do not count: the rule decides, not the list.
        naming = next(op for op in s["ops"] if op["device"] == s["keys"]["Ana"][1] and op["seq"] == 3)
        without = committee_state([op for op in s["ops"] if op is not naming], s["users"], s["competition"], s["game"])
        v.check(status not in dict(without["competition"]), "without Mia's naming her DQ does not count")

    run("held: the record, the group, the roster", held)


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "Protocol", "vectors")
    passed = failed = found = 0
    checkers = {"op-v1.json": check_op_file, "handshake-v1.json": check_handshake_file,
                "membership-v1.json": check_membership_file, "messages-v1.json": check_messages_file,
                "card-v1.json": check_card_file, "committee-v1.json": check_committee_file}

    def runner(filename):
        def run(name, check):
            nonlocal passed, failed, found
            found += 1
            v = Vector(name)
            try:
                check(v)
            except (Refused, nacl.exceptions.CryptoError, KeyError, ValueError, TypeError, IndexError,
                    OSError) as error:
                v.problems.append(f"stopped: {type(error).__name__}: {error}")
            label = f"{filename}: {name}"
            if v.problems:
                failed += 1
                print(f"FAIL {label}: {v.checks} checks; " + "; ".join(v.problems[:6]))
            else:
                passed += 1
                extra = f", {v.tampered} tampered copies refused" if v.tampered else ""
                print(f"ok   {label}: {v.checks} checks{extra}")
        return run

    for filename, checker in checkers.items():
        path = os.path.join(folder, filename)
        try:
            with open(path, encoding="utf-8") as handle:
                fields = Fields(json.load(handle), path)
        except (OSError, ValueError) as error:
            print(f"FAIL {filename}: cannot read it: {error}")
            failed += 1
            continue
        checker(fields, runner(filename))
        unread = fields.unread()
        if unread:
            print(f"FAIL {filename}: fields no check reads: {', '.join(unread)}")
            failed += 1
    check_coverage(folder, runner("Protocol/op-format.md"))
    expected = sum(EXPECTED.values())
    if found < expected:
        print(f"check-vectors: found {found} vectors in {folder}, expected {expected}")
    print(f"vectors: {passed} passed, {failed} failed")
    return 1 if failed or passed < expected else 0


if __name__ == "__main__":
    sys.exit(main())
