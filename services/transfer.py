"""Copying every game, board profile and seat from one store to another (``flask copy-db
--to postgresql://…``, docs/scaling.md): the move from SQLite to PostgreSQL.

Rows are copied as stored (the payload's JSON text, times and hashes byte for byte), so
exports and hashes stay the same; each game arrives in one transaction and its chain
and summary are verified there, before it commits. A game already present with the
same last event is left alone, and one that has grown in the source since an earlier
copy gets the events it lacks (its stored prefix must match): running the copy again
changes nothing, and a last copy just before switching the servers over is quick.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from events.application import integrity, photos
from events.storage import sql, store
from events.storage import statements as S
from events.storage.log import GAMES, ROSTER
from group import plays, roster

class Diverged(Exception):
    """The target holds a different record of a game than the source."""


@dataclass
class Report:
    copied: list[str] = field(default_factory=list)     # new or extended games
    unchanged: list[str] = field(default_factory=list)
    events: int = 0
    profiles: int = 0
    roster_events: int = 0
    problems: list[str] = field(default_factory=list)


def _insert(db, table: str, columns: tuple[str, ...], row) -> int:
    """A row as stored, into ``table`` of ``db`` (a row already there is kept, but a game's)."""
    values = {c: row[c] for c in columns} if isinstance(row, dict) else dict(zip(columns, row))
    return sql.run(db, S.COPY_INTO[table], **values).rowcount


def copy_all(source, target) -> Report:
    """Copy everything in ``source`` into ``target`` (both open stores, migrated)."""
    report = Report()
    for row in sql.run(source, S.EVERY_PROFILE).fetchall():
        with target.atomic():
            report.profiles += max(_insert(target, "board_profiles", S.PROFILE_COLUMNS, row), 0)
    for table, columns in S.TRUST_TABLES.items():
        with target.atomic():
            for row in sql.run(source, S.EVERY_TRUSTED[table]).fetchall():
                _insert(target, table, columns, row)
    for game in sql.dicts(source, S.EVERY_GAME):
        try:
            added = _copy_game(source, target, game)
        except Diverged as err:
            report.problems.append(f"game {game['id']}: {err}")
            continue
        (report.copied if added else report.unchanged).append(game["id"])
        report.events += added
    try:
        report.roster_events = _copy_roster(source, target)
    except Diverged as err:
        report.problems.append(f"roster: {err}")
    if report.copied or report.roster_events:
        plays.rebuild(target)  # the read model, from the logs just copied
    return report


def _copy_roster(source, target) -> int:
    """The people log (group/roster.py) the target lacks, verified as it arrives."""
    with store.write_lock(target):
        store.lock_game(target, roster.ROSTER_LOCK)
        have_seq, have_hash = ROSTER.head(target)
        if have_seq and ROSTER.hash_at(source, None, have_seq) != have_hash:
            raise Diverged(f"the target's roster event {have_seq} differs from the source's; nothing copied")
        rows = ROSTER.stored_rows(source, after=have_seq)
        if rows:  # the summary row follows the log, as an append keeps it
            ROSTER.insert_rows(target, None, rows)
            last = dict(zip(ROSTER.stored, rows[-1]))
            ROSTER.touch(target, None, last["seq"], last["hash"])
        broken = ROSTER.first_break(target, None, ROSTER.summary_row(target))[0]
        if broken:
            raise Diverged(f"the copied roster does not verify from event {broken[0]}; nothing copied")
        return len(rows)



def _copy_game(source, target, game: dict) -> int:
    """The events ``target`` lacks of ``game``, with its summary and seats; how many."""
    game_id = game["id"]
    with store.write_lock(target):
        store.lock_game(target, game_id)
        have = store.last_event_ref(target, game_id)
        have_seq = have[0] if have else 0
        same = store.read_events(source, game_id, after=have_seq - 1, upto=have_seq) if have else None
        if have and (not same or same[0].hash != have[1]):
            raise Diverged(f"the target's event {have_seq} differs from the source's; nothing copied")
        if store.game_row(target, game_id) is None:
            _insert(target, "games", S.GAME_COLUMNS, game)
        rows = GAMES.stored_rows(source, game_id, after=have_seq)
        if rows:
            GAMES.insert_rows(target, game_id, rows)
        photos.copy_blobs(source, target, store.read_events(source, game_id, after=have_seq))
        if rows:
            GAMES.touch(target, game_id, game["last_seq"], game["last_hash"], updated_at=game["updated_at"],
                        finished=game["finished"])
        for table, columns in S.SEAT_TABLES.items():
            for seat_row in sql.run(source, S.SEATS_OF_GAME[table], game_id=game_id).fetchall():
                _insert(target, table, columns, seat_row)
        broken = integrity.verify_whole(target, game_id)
        if broken:  # rolls the whole game back
            raise Diverged(f"the copy does not verify from event {broken[0]} ({broken[1]}); nothing copied")
        return len(rows)
