"""Signed exports (docs/export-format.md, "Signature"): each server signs the games it
exports with an Ed25519 key pair of its own, kept in its instance folder; an import
verifies the signature, and the organiser chooses which servers' keys the group trusts
(this server's always). A game imported without a trusted signature is kept and shown,
marked, and counts in no statistic until the organiser accepts it (group/plays.py).

What is signed covers the whole game: the chain's first and last hash (the chain covers
every event in between, and through the photo events their images' digests), the last
event's number, the game's kind and its identity — the server it was first recorded on
and its id there. A file cut short, an event changed and re-chained, or another identity
no longer matches its signature. Duplicates are found by that signed identity, which
nobody without the key can make, not by a hash anyone can recompute."""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from events.domain.hashing import canonical_json

KEY_FILE = "export-signing-key.pem"
ALGORITHM = "Ed25519"
_DOMAIN = b"tablescribe-export-signature-1\n"  # what else these bytes could be taken for: nothing
_HEX_KEY = 64  # an Ed25519 public key: 32 bytes, as hex

# How an imported file's signature was found (games.import_check)
SIGNED, UNSIGNED, ALTERED = "signed", "unsigned", "altered"


# ---- this server's key pair -----------------------------------------------------------

def key_path(instance_path: str) -> str:
    return os.path.join(instance_path, KEY_FILE)


def load_or_make(path: str) -> Ed25519PrivateKey:
    """The key pair kept at ``path``, made there first when missing (``init-db``, or the
    first start of an instance folder from before signatures). Readable by its owner only;
    the first of several workers starting at once writes it, whole."""
    if not os.path.exists(path):
        made = Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        tmp = f"{path}.{os.getpid()}"
        with open(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as f:
            f.write(made)
        try:
            os.link(tmp, path)  # atomic: the first worker's key wins
        except FileExistsError:
            pass
        finally:
            os.unlink(tmp)
    with open(path, "rb") as f:
        key = serialization.load_pem_private_key(f.read(), password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"{path} holds no Ed25519 private key")
    return key


def public_hex(key: Ed25519PrivateKey) -> str:
    return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()


def fingerprint(public: str) -> str:
    """A key as the organiser compares it by eye: its SHA-256's first 16 hex digits, in fours."""
    short = hashlib.sha256(bytes.fromhex(public)).hexdigest()[:16]
    return " ".join(short[i:i + 4] for i in range(0, 16, 4))


def is_public_key(text: str) -> bool:
    return isinstance(text, str) and len(text) == _HEX_KEY and all(c in "0123456789abcdef" for c in text)


# ---- signing and verifying a file -------------------------------------------------------

def _message(doc: dict, origin: dict, first_hash: str, last_seq: int, last_hash: str) -> bytes:
    """What is signed: the file's format version, the game's kind, identity, first hash, last
    event and hash, and who sat where (``people``, docs/people.md §8: the statistics follow it)."""
    return _DOMAIN + canonical_json({
        "format_version": doc["format_version"], "kind": doc["game"]["kind"], "origin": origin,
        "first_hash": first_hash, "last_seq": last_seq, "last_hash": last_hash,
        "people": doc.get("people")}).encode("utf-8")


def sign(key: Ed25519PrivateKey, doc: dict, origin: dict) -> dict:
    """The ``signature`` member of an export ``doc`` (its events, its people block), the game
    being ``origin`` ({"server": the public key it was first recorded under, "game": its id
    there})."""
    first, last = doc["events"][0], doc["events"][-1]
    message = _message(doc, origin, first["hash"], last["seq"], last["hash"])
    return {"algorithm": ALGORITHM, "key": public_hex(key), "origin": origin, "value": key.sign(message).hex()}


@dataclass(frozen=True)
class Verdict:
    """What an imported file's signature says: ``check`` (SIGNED, UNSIGNED, ALTERED), the
    signing ``key`` and the game's ``origin`` ("server key:game id") when it is SIGNED."""
    check: str
    key: str | None = None
    origin: str | None = None


def verdict(doc: dict, events) -> Verdict:
    """The signature of a file whose events verified (their chain): SIGNED when it
    matches the file as it is, ALTERED when it does not (an event changed and re-chained,
    events cut off its end, another origin), UNSIGNED when there is none."""
    signature = doc.get("signature")
    if signature is None:
        return Verdict(UNSIGNED)
    try:
        key, origin, value = signature["key"], signature["origin"], bytes.fromhex(signature["value"])
        server, game = origin["server"], origin["game"]
        if signature.get("algorithm") != ALGORITHM or not is_public_key(key) or not is_public_key(server) \
                or not isinstance(game, str) or not 0 < len(game) <= 64 or set(origin) != {"server", "game"}:
            return Verdict(ALTERED)
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(key)).verify(
            value, _message(doc, origin, events[0].hash, events[-1].seq, events[-1].hash))
    except (InvalidSignature, KeyError, TypeError, ValueError, AttributeError):
        return Verdict(ALTERED)
    return Verdict(SIGNED, key, f"{server}:{game}")


def origin_of(identity: str) -> dict:
    """{"server", "game"} of a stored "server key:game id"."""
    server, _, game = identity.partition(":")
    return {"server": server, "game": game}
