"""Board profiles: what a table knows of a physical board, in insert-only versions.

A game kind with a ``boards`` declaration (scoring/base.py ``Boards``) validates the
data; this module only stores, lists, exports and imports it. A saved version is
never changed: editing saves a new version, and a game pins the version it used.
"""
from __future__ import annotations

import json
import re

from events.storage import sql
from events.storage import statements as S
from events.storage.store import WithTheEvent, lock_game, now, write_lock
from scoring.base import FormError, GameKind, Problem, Text
from scoring.i18n import msg, msgp
from scoring import text
from scoring.schema import unencodable_path

FORMAT = "tablescribe-board"
FORMAT_VERSION = 1
PROFILE_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")


class BadProfile(ValueError):
    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(p.en for p in problems))
        self.problems = problems


def _problem(message: Text) -> Problem:
    return Problem("boards", message)


def ensure_builtin(db, game: GameKind) -> None:
    """The game's shipped profiles as version 1, once (idempotent; reads first, so a page
    view takes no write lock once they are there)."""
    have = set(sql.column(db, S.PROFILE_IDS, kind=game.kind))
    for profile in game.boards.builtin:
        if profile["id"] in have:
            continue
        sql.run(db, S.BUILTIN_PROFILE, kind=game.kind, profile_id=profile["id"],
                data=json.dumps(profile["data"], ensure_ascii=False), at=now())


def _row(row) -> dict:
    profile_id, version, data, created_at = row
    return {"id": profile_id, "version": version, "data": json.loads(data), "created_at": created_at}


def list_profiles(db, game: GameKind) -> list[dict]:
    """The latest version of each profile, with the numbers of all its versions."""
    ensure_builtin(db, game)
    rows = sql.run(db, S.PROFILES, kind=game.kind).fetchall()
    latest: dict[str, dict] = {}
    for row in rows:
        profile = _row(row)
        versions = latest.get(profile["id"], {}).get("versions", []) + [profile["version"]]
        latest[profile["id"]] = {**profile, "versions": versions}
    return list(latest.values())


def load(db, game: GameKind, profile_id: str, version: int | None = None) -> dict | None:
    ensure_builtin(db, game)
    if version is None:
        row = sql.one(db, S.LATEST_PROFILE, kind=game.kind, profile_id=profile_id)
    elif not 1 <= version < 2**63:  # no such version; SQLite could not even bind it
        return None
    else:
        row = sql.one(db, S.PROFILE_VERSION, kind=game.kind, profile_id=profile_id, version=version)
    return _row(row) if row else None


def save(db, game: GameKind, profile_id: str, data) -> dict:
    """Validate and store ``data`` as the next version of ``profile_id``."""
    if not isinstance(profile_id, str) or not PROFILE_ID.match(profile_id):
        raise BadProfile([_problem(msg("A profile id is lower-case letters, digits and hyphens (at most 40)."))])
    where = unencodable_path(data)
    if where is not None:
        raise BadProfile([_problem(msgp("board profile", "The text at %(where)s is not valid Unicode (a lone surrogate).", where=where))])
    bad_text = text.payload_why_not(data)  # names, the source: the one text policy (scoring/text.py)
    if bad_text is not None:
        raise BadProfile([_problem(bad_text[1])])
    data = text.normalized(data)
    problems = game.boards.validate(data)
    if problems:
        raise BadProfile(problems)
    ensure_builtin(db, game)
    with write_lock(db):
        version = _insert_version(db, game, profile_id, data)
    return load(db, game, profile_id, version)


def _insert_version(db, game: GameKind, profile_id: str, data: dict) -> int:
    """``data`` as the next version of the profile, inside the caller's write lock."""
    lock_game(db, f"board:{game.kind}:{profile_id}")  # two editors cannot take one version
    version = (sql.value(db, S.LAST_PROFILE_VERSION, kind=game.kind, profile_id=profile_id) or 0) + 1
    sql.run(db, S.INSERT_PROFILE, kind=game.kind, profile_id=profile_id, version=version,
            data=json.dumps(data, ensure_ascii=False), at=now())
    return version


def _learned(game_id: str, event, table, events):
    """After an event whose facts belong to the board (Han's alliances, ``Boards.learn``),
    the game's profile gets them as its next version, written in the event's own
    transaction: a new version, never a change; the game keeps the version it pinned."""
    game = table.rules
    pinned = table.options.get("board")
    if game.boards is None or game.boards.learn is None or event.type not in game.boards.learns_from \
            or not isinstance(pinned, dict) or not isinstance(pinned.get("id"), str):
        return None

    def write(db) -> None:
        lock_game(db, f"board:{game.kind}:{pinned['id']}")
        latest = load(db, game, pinned["id"])
        learned = game.boards.learn(latest["data"], table.game) if latest else None
        if learned is not None:
            _insert_version(db, game, pinned["id"], learned)
    return write


on_recorded = WithTheEvent(_learned)  # app.py:on_recorded


def asks_completion(game: GameKind, board) -> bool:
    """A game's board given by its profile id and the table's answers, not pinned data:
    {"id": "han-side1", "colours": {...}} (Boards.complete)."""
    return game.boards is not None and game.boards.complete is not None and isinstance(board, dict) \
        and "data" not in board and isinstance(board.get("id"), str)


def completed(db, game: GameKind, board: dict) -> dict:
    """The profile's latest version completed with the answers in ``board``, pinned as that
    version; ``save_completed`` stores it as a new version once the game can start."""
    profile = load(db, game, board["id"]) if PROFILE_ID.match(board["id"]) else None
    if profile is None:
        raise BadProfile([_problem(msg("No such board profile: %(value)s.", value=board['id'][:40]))])
    try:
        data = game.boards.complete(profile["data"], board)
    except FormError as err:
        raise BadProfile(err.problems) from None
    return {"id": profile["id"], "version": profile["version"], "data": data}


def save_completed(db, game: GameKind, pinned: dict) -> dict:
    """``pinned`` as a new version of its profile when the answers added facts to it."""
    latest = load(db, game, pinned["id"], pinned["version"])
    if latest is not None and latest["data"] == pinned["data"]:
        return pinned
    return pin(save(db, game, pinned["id"], pinned["data"]))


def pin(profile: dict) -> dict:
    """What a game records in its options: everything a replay needs."""
    return {"id": profile["id"], "version": profile["version"], "data": profile["data"]}


def export(game: GameKind, profile: dict) -> dict:
    return {"format": FORMAT, "format_version": FORMAT_VERSION, "kind": game.kind,
            "id": profile["id"], "version": profile["version"], "data": profile["data"]}


def import_document(db, game: GameKind, document, profile_id: str | None = None) -> dict:
    """Store an exported profile as a new version (of its own id, or ``profile_id``)."""
    if not isinstance(document, dict) or document.get("format") != FORMAT \
            or type(document.get("format_version")) is not int \
            or document.get("format_version") != FORMAT_VERSION or document.get("kind") != game.kind:
        raise BadProfile([_problem(msg("This is not a board profile of this game (tablescribe-board, 1)."))])
    return save(db, game, profile_id or document.get("id"), document.get("data"))
