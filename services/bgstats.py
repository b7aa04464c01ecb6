"""A BG Stats export imported into the roster's log, play by play, in short batches each with its people and its statistics' rows (docs/people.md §8)."""
from __future__ import annotations

import time

from events.runtime import greenlets
from events.storage import store
from group import bgstats, plays
from group import roster as roster_log
from scoring.base import Problem
from scoring.i18n import msg


IMPORT_BATCH = 10  # plays per transaction: the write lock is held a few ms at a time (docs/people.md §8)


def import_plays(db, export: bgstats.Export, device: str, rosters: roster_log.Rosters | None = None) -> dict:
    """Every play of the file into the roster's log as ``play-imported`` (people found or
    added by name; an anonymous seat is nobody's), play by play: a play refused (the
    reader's reasons, or one person at two seats) is named with its reason and the others
    go in. A play here before is skipped (docs/people.md §8): the same BG Stats uuid in
    any case, a play without one that has the same game, date, players and scores, or
    one of this server's own games coming back in its ``.bgsplay``. Everything is checked
    before the first write; then the plays go in batches of ``IMPORT_BATCH``, each one
    short transaction with its people and its statistics' rows, so other tables' moves
    never wait for a whole file (docs/decisions.md, "Short writes"). A batch is whole or absent: an import cut
    off half-way is finished by importing the same file again (the plays in are skipped).
    ``rosters``: the app's roster cache (a command's own one, extended batch by batch, if none)."""
    rosters = rosters if rosters is not None else roster_log.Rosters()
    refused, plays_in = list(export.refused), []
    for play in greenlets.cooperating(export.plays, 64):
        problem = _one_seat_each(play)
        if problem is None:
            plays_in.append(play)
        else:
            refused.append(problem)
    own = plays.own_game_ids(db)
    own_uuids = {bgstats.own_play_uuid(game_id) for game_id in own}
    mine = [p for p in plays_in if p["source_id"].casefold() in own_uuids]
    plays_in = [p for p in plays_in if p["source_id"].casefold() not in own_uuids]
    with store.unsynced(db):  # one fsync for the file, after its last batch, before the answer
        return _in_batches(db, export, plays_in, device, rosters, len(mine), refused)


def _in_batches(db, export: bgstats.Export, plays_in: list[dict], device: str, rosters: roster_log.Rosters,
                mine: int, refused: list) -> dict:
    written, skipped, seen = [], 0, _Seen()
    for start in range(0, len(plays_in), IMPORT_BATCH):
        began = time.perf_counter()
        batch_written, batch_skipped = _write_batch(db, plays_in[start:start + IMPORT_BATCH], device, rosters, seen)
        written += batch_written
        skipped += batch_skipped
        store.leave_the_lock(db, began)
    return {"imported": sum(e.type == "play-imported" for e in written), "skipped": skipped,
            "own": mine, "ignored": export.ignored, "refused": [p.as_dict() for p in refused],
            "people": sum(e.type == "person-added" for e in written)}


def _write_batch(db, batch: list[dict], device: str, rosters: roster_log.Rosters, seen: _Seen) -> tuple[list, int]:
    """One transaction: the batch's new people, its plays and their statistics' rows."""
    with store.short_write(db):  # the cache is extended by each write: a batch reads its own events only
        fresh, skipped = _new_plays(seen.of(roster_log.load(db, rosters)), batch)
        people = _people_for(db, roster_log.load(db, rosters), fresh, device, rosters)
        person_of = _person_ids(roster_log.load(db, rosters))
        added = roster_log.append_locked(db, [("play-imported", _play_data(play, person_of)) for play in fresh],
                                         device, by=roster_log.ORGANISER, rosters=rosters)
        plays.on_roster_changed(db, added, rosters)  # the statistics' rows, in the same transaction
    return people + added, skipped


def _one_seat_each(play: dict) -> Problem | None:
    """One person sits at one seat of a play; the anonymous player may sit at several."""
    names = [s["name"].casefold() for s in play["scores"] if not s["anonymous"]]
    if len(set(names)) == len(names):
        return None
    return Problem("people §4", msg("%(play)s: %(why)s", play=_play_named(play), why=roster_log.ONE_SEAT.text))


def _play_named(play: dict) -> str:
    return f"{play['game']['name']}, {play['date'][:10]}"


def _fingerprint(play: dict, seats: list[dict]) -> tuple:
    """A play without a uuid, known by its game, its date and who scored what."""
    return (play["game"]["name"].casefold(), play["date"][:16],
            tuple(sorted((s["name"].casefold(), repr(s["score"])) for s in seats)))


class _Seen:
    """The plays the roster holds, by uuid (in any case) and, without one, by fingerprint,
    kept from batch to batch: each batch adds the plays of the events after the last it saw
    instead of walking every play again (under the write lock that walk grew with the
    roster: ~25 ms per batch by the end of a 10,000-play file, docs/performance.md). Read
    whole again when the roster lost or regained a play (a revert)."""

    def __init__(self) -> None:
        self.seq, self.count, self.known, self.prints = 0, 0, set(), set()

    def of(self, roster) -> "_Seen":
        if roster.seq < self.seq:
            self.__init__()
        for seq in range(self.seq + 1, roster.seq + 1):
            play = roster.imported.get(seq)
            if play is not None:
                self._add(play.get("source_id", "").casefold(), play, play["seats"])
        self.seq = roster.seq
        if self.count != len(roster.imported):
            self.__init__()
            for play in roster.imported.values():
                self._add(play.get("source_id", "").casefold(), play, play["seats"])
            self.seq = roster.seq
        return self

    def _add(self, source: str, play: dict, seats: list[dict]) -> None:
        self.count += 1
        if source:
            self.known.add(source)
        else:
            self.prints.add(_fingerprint(play, seats))

    def holds(self, source: str, play: dict) -> bool:
        return source in self.known if source else _fingerprint(play, play["scores"]) in self.prints


def _new_plays(seen: _Seen, batch: list[dict]) -> tuple[list[dict], int]:
    """The plays of ``batch`` not imported before (``seen`` of the roster read under the write
    lock): uuids compared in any case (BG Stats writes them in upper or lower case), plays
    without one by their fingerprint."""
    fresh, known, prints = [], set(), set()
    for play in batch:
        source = play["source_id"].casefold()
        if seen.holds(source, play) or (source in known if source else _fingerprint(play, play["scores"]) in prints):
            continue
        fresh.append(play)
        if source:
            known.add(source)
        else:
            prints.add(_fingerprint(play, play["scores"]))
    return fresh, len(batch) - len(fresh)


def _people_for(db, roster, batch: list[dict], device: str, rosters: roster_log.Rosters) -> list:
    """A ``person-added`` for each name of the batch the roster does not know yet."""
    missing = list(dict.fromkeys(s["name"] for play in batch for s in play["scores"]
                                 if not s["anonymous"] and roster.by_name(s["name"]) is None))
    if not missing:
        return []
    return roster_log.append_locked(db, [("person-added", {"name": name}) for name in missing],
                                    device, by=roster_log.ORGANISER, rosters=rosters)


def _person_ids(roster):
    return lambda name: roster.by_name(name)["id"]


def _play_data(play: dict, person_of) -> dict:
    """The ``play-imported`` payload. Fields later versions added read the same in older
    payloads: a score may be a decimal or null (no points), a seat ``anonymous`` (person
    null), the game ``cooperative`` and ``noPoints`` (docs/people.md §8)."""
    seats = [{"seat": s["seat"], "person": None if s["anonymous"] else person_of(s["name"]), "name": s["name"],
              "score": s["score"], "rank": s["rank"], "winner": s["winner"], "start": s["start"],
              **({"anonymous": True} if s["anonymous"] else {})} for s in play["scores"]]
    return {"source": "bgstats", **{k: play[k] for k in ("source_id", "date", "started_at", "kind", "game")},
            "seats": seats}
