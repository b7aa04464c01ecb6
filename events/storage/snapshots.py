"""Stored snapshots of a game's walked states (``events/application/states.py``'s ``GameStates``), so a
worker that starts afresh (a restart, a deploy, a game pushed out of its cache) folds a long
game on from the last snapshot instead of from event 1: its first tap and the history pages.

A row per game in ``state_snapshots`` holds the seq and chain hash the states fold up to,
the game's rules version, the version of the code that folded them (a digest of every file
of ``events/`` and ``scoring/``: new rules, upcasters or fold code make every snapshot
stale) and the states themselves, pickled and signed with the app's secret key. Before
use each is verified: its signature, the code version, and that the store's event at its
seq still has its hash (the chain hash covers every event before it, so the same hash
means the same game up to there; a game imported again under the id does not match). A
stale or failing row is ignored and the game folded from event 1, and the new states
replace the row. Snapshot rows are derived data, not events: they are replaced as the game
grows and may all be dropped; the event log stays append-only.
"""
from __future__ import annotations

import hashlib
import hmac
import logging
import pickle
import zlib
from pathlib import Path

from events.storage import sql, store
from events.storage.sql import Statement

log = logging.getLogger(__name__)
FORMAT = 1       # the payload's layout (GameStates.frozen); part of the code version
EVERY = 256      # events folded past the stored snapshot before it is written again
FOLDED_BY = ("events", "scoring")  # the code whose every change makes a snapshot stale


def code_version(root: Path = Path(__file__).resolve().parents[2]) -> str:
    """A digest of the files a fold runs (``FOLDED_BY``: .py and .json, by path and bytes)."""
    digest = hashlib.sha256(f"format {FORMAT}".encode())
    for folder in FOLDED_BY:
        for path in sorted(p for p in (root / folder).rglob("*") if p.suffix in (".py", ".json")):
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:32]


class Snapshots:
    """The store's snapshots as the app reads and writes them, signed with ``key``;
    ``code`` is this process's code version (``code_version()``, once per app)."""

    def __init__(self, key: str | bytes, code: str | None = None):
        self.key = key.encode() if isinstance(key, str) else key
        self.code = code or code_version()

    def _mac(self, game_id: str, seq: int, hash_: str, rules_version: int, data: bytes) -> str:
        head = f"{self.code}\0{game_id}\0{seq}\0{hash_}\0{rules_version}\0".encode()
        return hmac.new(self.key, head + data, hashlib.sha256).hexdigest()

    def restore(self, db, game_id: str) -> dict | None:
        """The stored payload of the game if it is this code's, signed by this key and its
        event still the store's; else None (fold from event 1)."""
        row = read(db, game_id)
        if row is None:
            return None
        seq, hash_, rules_version, code, mac, data = row
        if code != self.code or not hmac.compare_digest(mac, self._mac(game_id, seq, hash_, rules_version, data)):
            return None
        at = store.read_events(db, game_id, after=seq - 1, upto=seq)
        if not at or at[0].hash != hash_:
            return None
        payload = pickle.loads(zlib.decompress(data))
        if payload["count"] != seq or payload["last_hash"] != hash_:
            return None
        return payload

    def pack(self, game_id: str, payload: dict, rules_version: int) -> list:
        """The row that stores ``payload`` (``GameStates.frozen()``), made while nothing
        changes the states (their game's lock held)."""
        data = zlib.compress(pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL), 1)
        seq, hash_ = payload["count"], payload["last_hash"]
        return [game_id, seq, hash_, rules_version, self.code,
                self._mac(game_id, seq, hash_, rules_version, data), data, store.now()]

    def save(self, db, row: list) -> bool:
        """Replace the game's snapshot by ``row`` (``pack``). A snapshot is only a shortcut:
        if the store cannot take it now (locked past its timeout), the request goes on and
        the game is folded from the older one next time."""
        try:
            store.writing(db, write, db, row)
            return True
        except Exception as err:  # sqlite3/psycopg errors alike: never the tap's failure
            log.warning("snapshot of game %s at event %s not stored: %s", row[0], row[1], err)
            return False


_ROW = ("game_id", "seq", "hash", "rules_version", "code_version", "mac", "data", "made_at")
READ = Statement("SELECT seq, hash, rules_version, code_version, mac, data FROM state_snapshots WHERE game_id = :game_id")
WRITE = Statement(
    "INSERT INTO state_snapshots (game_id, seq, hash, rules_version, code_version, mac, data, made_at)"
    " VALUES (:game_id, :seq, :hash, :rules_version, :code_version, :mac, :data, :made_at)"
    " ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash,"
    " rules_version = excluded.rules_version, code_version = excluded.code_version, mac = excluded.mac,"
    " data = excluded.data, made_at = excluded.made_at")


def read(db, game_id: str) -> tuple | None:
    row = sql.one(db, READ, game_id=game_id)
    return None if row is None else (*row[:5], bytes(row[5]))


def write(db, row: list) -> None:
    """One short transaction: the game's row inserted, or replaced (derived data)."""
    with store.write_lock(db):
        sql.run(db, WRITE, **dict(zip(_ROW, row)))
