"""Whom the group trusts (events/application/signing.py, docs/export-format.md "Signature"): the
servers' public keys the organiser chose (this server's own always among them), the
imported games the organiser accepted, and from both which imported games count.

A game counts in the statistics, the CSV, the BG Stats files and the ratings when it was
recorded here, or imported with a signature that matches it by a trusted key, or accepted
by the organiser; any other imported game is kept, shown and marked (``mark``), and left
out (``not_counted``: group/plays.py:left_out, the one place every figure asks)."""
from __future__ import annotations

from events.application import signing
from events.storage import sql, store
from events.storage import statements as S


def trust_own(db, public: str) -> None:
    """This server's key, trusted from its first start on (not withdrawable)."""
    with db.atomic():
        sql.run(db, S.TRUST_OWN_KEY, public_key=public, at=store.now())


def trust(db, public: str, name: str) -> None:
    with db.atomic():
        sql.run(db, S.TRUST_KEY, public_key=public, name=name, at=store.now())


def distrust(db, public: str) -> None:
    """Another server's key no longer trusted (this server's own stays)."""
    with db.atomic():
        sql.run(db, S.DISTRUST_KEY, public_key=public)


def trusted(db) -> list[dict]:
    """The trusted keys, this server's first, then by name."""
    return sql.dicts(db, S.TRUSTED_KEYS)


def own_keys(db) -> set[str]:
    return set(sql.column(db, S.OWN_KEYS))


def accept(db, game_id: str) -> None:
    with db.atomic():
        sql.run(db, S.ACCEPT_GAME, game_id=game_id, at=store.now())


def withdraw(db, game_id: str) -> None:
    with db.atomic():
        sql.run(db, S.WITHDRAW_GAME, game_id=game_id)


def not_counted(db) -> dict[str, str]:
    """{game id: how its signature was found} of every imported game that counts nowhere
    until the organiser accepts it (or trusts the key that signed it)."""
    return {r[0]: r[1] or signing.UNSIGNED
            for r in sql.run(db, S.NOT_COUNTED).fetchall()}


def imported(db) -> list[dict]:
    """Every imported game, newest first, with its signature, its signer (trusted or not),
    whether the organiser accepted it and whether it counts: the organiser's page."""
    rows = sql.dicts(db, S.IMPORTED_GAMES)
    return [{**r, "import_check": r["import_check"] or signing.UNSIGNED,
             "counts": bool(r["trusted_key"] or r["accepted_at"])} for r in rows]


def mark(db, game_id: str) -> dict | None:
    """What the game's pages say of an imported game that does not count: {"check"} (its
    signature: unsigned, altered, or signed by a key not trusted), else None."""
    found = sql.one(db, S.NOT_COUNTED_GAME, game_id=game_id)
    return {"check": found[0] or signing.UNSIGNED} if found else None


def game_of_origin(db, origin: str) -> str | None:
    """The game here whose signed identity is ``origin``: recorded here under one of this
    database's own keys, or imported with that identity before."""
    server, _, game = origin.partition(":")
    if server in own_keys(db) and store.game_row(db, game) is not None:
        return game
    return sql.value(db, S.GAME_OF_ORIGIN, origin=origin)


def export_origin(db, game_id: str, own: str) -> dict | None:
    """The identity an export of ``game_id`` signs ({"server", "game"}), or None: a game
    that does not count here is not vouched for (its export goes unsigned)."""
    row = sql.one(db, S.IMPORT_OF_GAME, game_id=game_id)
    if row is None or game_id in not_counted(db):
        return None
    return signing.origin_of(row[1]) if row[1] else {"server": own, "game": game_id}


def mark_import(db, game_id: str, found: signing.Verdict) -> None:
    """Inside the import's write transaction: the imported game's signature as found."""
    sql.run(db, S.MARK_IMPORT, origin=found.origin, signer=found.key, import_check=found.check, game_id=game_id)
