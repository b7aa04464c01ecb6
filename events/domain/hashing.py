"""The hash chain: each event's hash covers the previous hash and this event.

The game id is left out on purpose, so an exported game keeps its chain when it
is imported under a new id.
"""
import hashlib
import json

import orjson

GENESIS = ""
HASHED_FIELDS = ("seq", "type", "version", "data", "seat", "device", "recorded_at",
                 "client_event_id")


def canonical_json(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def chain_hash(prev_hash: str, envelope: dict) -> str:
    body = canonical_json({k: envelope[k] for k in HASHED_FIELDS})
    return hashlib.sha256((prev_hash + body).encode("utf-8")).hexdigest()


def first_broken_link(envelopes, prev: str = GENESIS, expected_seq: int = 1) -> tuple[int, str] | None:
    """Walk a game's events in order; return (seq, reason) of the first bad one. ``prev``
    and ``expected_seq``: go on from a verified prefix (its last hash, the next seq)."""
    for env in envelopes:
        if env["seq"] != expected_seq:
            return env["seq"], f"expected event {expected_seq}, found {env['seq']}"
        if chain_hash(prev, env) != env["hash"]:
            return env["seq"], "hash does not match its content and the previous hash"
        prev, expected_seq = env["hash"], expected_seq + 1
    return None


def first_broken_row(fields: tuple[str, ...], rows, prev: str = GENESIS, expected_seq: int = 1) -> tuple[int, str] | None:
    """``first_broken_link`` over rows as the store holds them (``fields``: their columns'
    names; ``data`` the payload's stored JSON text), without making an event of each: a
    cold page at 10,000 events spent most of its verification decoding and re-encoding
    payloads with the standard library (docs/decisions.md, "Verifying a chain from its
    stored rows")."""
    at = {name: i for i, name in enumerate(fields)}
    seq_at, hash_at, data_at = at["seq"], at["hash"], at["data"]
    head = [(name, at.get(name)) for name in HASHED_FIELDS if name != "data"]
    for row in rows:
        if row[seq_at] != expected_seq:
            return row[seq_at], f"expected event {expected_seq}, found {row[seq_at]}"
        envelope = {name: (None if i is None else row[i]) for name, i in head}
        if _quick_hash(prev, envelope, row[data_at]) != row[hash_at]:
            envelope["data"] = json.loads(row[data_at])
            if chain_hash(prev, envelope) != row[hash_at]:
                return row[seq_at], "hash does not match its content and the previous hash"
        prev, expected_seq = row[hash_at], expected_seq + 1
    return None


def _quick_hash(prev: str, envelope: dict, data_text) -> str | None:
    """``chain_hash`` of the envelope with ``data_text`` read and the canonical text written
    by orjson (several times the standard library's speed), or None where orjson refuses
    it. A hash that matches is proof enough: it is the stored hash of exactly this text, and
    orjson reads only strict JSON (no NaN, Infinity or overflowing numbers) to the values
    the standard library reads, but integers beyond 64 bits, which it reads as floats and
    writes with an exponent ("1e29") that ``canonical_json`` never writes ("1e+29"): such
    a payload, and any whose text orjson writes otherwise, is hashed as ``chain_hash``
    does."""
    try:
        body = orjson.dumps({**envelope, "data": orjson.loads(data_text)}, option=orjson.OPT_SORT_KEYS)
    except (orjson.JSONDecodeError, TypeError):  # orjson.JSONEncodeError is a TypeError
        return None
    return hashlib.sha256(prev.encode("utf-8") + body).hexdigest()
