"""Whom the group trusts (events/application/signing.py, docs/export-format.md "Signature"): the
servers' public keys the organiser chose (this server's own always among them), the
imported games the organiser accepted, and from both which imported games count.

A game counts in the statistics, the CSV, the BG Stats files and the ratings when it was
recorded here, or imported with a signature that matches it by a trusted key, or accepted
by the organiser; any other imported game is kept, shown and marked (``mark``), and left
out (``not_counted``: group/plays.py:left_out, the one place every figure asks)."""
from __future__ import annotations

from events.application import signing
from events.storage import store


def trust_own(db, public: str) -> None:
    """This server's key, trusted from its first start on (not withdrawable)."""
    with db.atomic():
        db.execute("INSERT INTO trusted_keys (public_key, name, added_at, own) VALUES (?,?,?,1)"
                   " ON CONFLICT (public_key) DO UPDATE SET own = 1", [public, "", store.now()])


def trust(db, public: str, name: str) -> None:
    with db.atomic():
        db.execute("INSERT INTO trusted_keys (public_key, name, added_at, own) VALUES (?,?,?,0)"
                   " ON CONFLICT (public_key) DO UPDATE SET name = excluded.name", [public, name, store.now()])


def distrust(db, public: str) -> None:
    """Another server's key no longer trusted (this server's own stays)."""
    with db.atomic():
        db.execute("DELETE FROM trusted_keys WHERE public_key = ? AND own = 0", [public])


def trusted(db) -> list[dict]:
    """The trusted keys, this server's first, then by name."""
    return list(db.query("SELECT public_key, name, added_at, own FROM trusted_keys ORDER BY own DESC, name, public_key"))


def own_keys(db) -> set[str]:
    return {r[0] for r in db.execute("SELECT public_key FROM trusted_keys WHERE own = 1").fetchall()}


def accept(db, game_id: str) -> None:
    with db.atomic():
        db.execute("INSERT INTO accepted_games (game_id, accepted_at) VALUES (?,?) ON CONFLICT (game_id) DO NOTHING",
                   [game_id, store.now()])


def withdraw(db, game_id: str) -> None:
    with db.atomic():
        db.execute("DELETE FROM accepted_games WHERE game_id = ?", [game_id])


_UNCOUNTED = ("FROM games g LEFT JOIN trusted_keys k ON k.public_key = g.signer"
              " LEFT JOIN accepted_games a ON a.game_id = g.id"
              " WHERE g.imported_from IS NOT NULL AND k.public_key IS NULL AND a.game_id IS NULL")


def not_counted(db) -> dict[str, str]:
    """{game id: how its signature was found} of every imported game that counts nowhere
    until the organiser accepts it (or trusts the key that signed it)."""
    return {r[0]: r[1] or signing.UNSIGNED
            for r in db.execute(f"SELECT g.id, g.import_check {_UNCOUNTED} ORDER BY g.id").fetchall()}


def imported(db) -> list[dict]:
    """Every imported game, newest first, with its signature, its signer (trusted or not),
    whether the organiser accepted it and whether it counts: the organiser's page."""
    rows = db.query("SELECT g.id, g.kind, g.players, g.updated_at, g.import_check, g.signer, g.origin,"
                    " k.public_key AS trusted_key, a.accepted_at FROM games g"
                    " LEFT JOIN trusted_keys k ON k.public_key = g.signer"
                    " LEFT JOIN accepted_games a ON a.game_id = g.id"
                    " WHERE g.imported_from IS NOT NULL ORDER BY g.updated_at DESC, g.id")
    return [{**r, "import_check": r["import_check"] or signing.UNSIGNED,
             "counts": bool(r["trusted_key"] or r["accepted_at"])} for r in rows]


def mark(db, game_id: str) -> dict | None:
    """What the game's pages say of an imported game that does not count: {"check"} (its
    signature: unsigned, altered, or signed by a key not trusted), else None."""
    found = db.execute(f"SELECT g.import_check {_UNCOUNTED} AND g.id = ?", [game_id]).fetchone()
    return {"check": found[0] or signing.UNSIGNED} if found else None


def game_of_origin(db, origin: str) -> str | None:
    """The game here whose signed identity is ``origin``: recorded here under one of this
    database's own keys, or imported with that identity before."""
    server, _, game = origin.partition(":")
    if server in own_keys(db) and db.execute("SELECT 1 FROM games WHERE id = ?", [game]).fetchone():
        return game
    row = db.execute("SELECT id FROM games WHERE origin = ? ORDER BY id LIMIT 1", [origin]).fetchone()
    return row[0] if row else None


def export_origin(db, game_id: str, own: str) -> dict | None:
    """The identity an export of ``game_id`` signs ({"server", "game"}), or None: a game
    that does not count here is not vouched for (its export goes unsigned)."""
    row = db.execute("SELECT imported_from, origin FROM games WHERE id = ?", [game_id]).fetchone()
    if row is None or game_id in not_counted(db):
        return None
    return signing.origin_of(row[1]) if row[1] else {"server": own, "game": game_id}


def mark_import(db, game_id: str, found: signing.Verdict) -> None:
    """Inside the import's write transaction: the imported game's signature as found."""
    db.execute("UPDATE games SET origin = ?, signer = ?, import_check = ? WHERE id = ?",
               [found.origin, found.key, found.check, game_id])
