"""The hash chain: each event's hash covers the previous hash and this event.

The game id is left out on purpose, so an exported game keeps its chain when it
is imported under a new id.
"""
import hashlib
import json

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
