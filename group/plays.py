"""The statistics' read model: one ``stat_seats`` row per seat of each finished game
and each play imported from BG Stats (docs/people.md §6).

It is written when a game's event is recorded and the game is over afterwards (it
ended, or a finished game was voided, disputed or rescored: the rows are replaced), its
rows go when a void makes the game unfinished again, and ``rebuild`` writes it all
again from the logs. Who sat where is not stored here: the roster (group/roster.py)
is joined when the statistics are read, so a link, merge or rename never rewrites it.
"""
from __future__ import annotations

import json
import threading
from collections.abc import Collection
from datetime import datetime

import orjson

from events.application import integrity, states, trust
from events.domain import turns
from events.domain.projection import TableState, changes_the_past, fold, standings
from events.storage import sql, store
from events.storage import statements as S
from events.storage.store import WithTheEvent
from group import ratings
from group import roster as roster_log
from scoring import get_game


_COLUMNS = S.STAT_COLUMNS
_NO_TURNS = {"played_seconds": None, "turns": None, "turn_seconds": None, "longest_turn": None,
             "longest_turn_at": None, "score_given": None}


def seat_rows(game_id: str, table: TableState, started_at: str, ended_at: str,
              clock: turns.Clock | None = None) -> list[dict]:
    """A finished game's rows: each seat's total, rank and points per category, and with
    the game's ``clock`` the time it took without breaks and each seat's turn times."""
    options = table.options
    title = str(options.get("title") or "")  # a game a score pad was kept for (its option)
    bgg_id = options.get("bgg_id") or table.rules.bgg_id
    times = _turn_columns(clock, len(table.players))
    return [{"game_id": game_id, "seat": row["seat"], "kind": table.kind, "title": title,
             "bgg_id": bgg_id or None, "name": row["player"], "players": len(table.players),
             "score": row["score"], "rank": row["rank"],
             "breakdown": json.dumps(row["breakdown"], ensure_ascii=False, sort_keys=True),
             "started_at": started_at, "ended_at": ended_at, "imported": 0, "score_given": None,
             **times[row["seat"]]}
            for row in standings(table)]


def _turn_columns(clock: turns.Clock | None, players: int) -> list[dict]:
    if clock is None:
        return [_NO_TURNS] * players
    longest = {}
    for turn in clock.done:
        if turn.seat is not None and turn.seconds > longest.get(turn.seat, (0.0, 0))[0]:
            longest[turn.seat] = (turn.seconds, turn.last)
    return [{"played_seconds": round(clock.counted, 3), "turns": row["turns"],
             "turn_seconds": round(row["total"], 3),
             "longest_turn": round(longest[seat][0], 3) if seat in longest else None,
             "longest_turn_at": longest[seat][1] if seat in longest else None}
            for seat, row in enumerate(clock.seats(players))]


def imported_rows(seq: int, play: dict) -> list[dict]:
    return [{"game_id": roster_log.imported_game_id(seq), "seat": s["seat"], "kind": play["kind"],
             "title": play["game"]["name"], "bgg_id": play["game"].get("bggId") or None,
             "name": s["name"], "players": len(play["seats"]), "rank": s["rank"], "breakdown": "{}",
             "started_at": play["started_at"], "ended_at": play["date"], "imported": 1,
             **_NO_TURNS, **_score_columns(s["score"])}
            for s in play["seats"]]


def _score_columns(score) -> dict:
    """A whole score in ``score``; a play without points (None) or a decimal score (BG Stats
    keeps "61.5") as given in ``score_given`` ("" or "61.5"), ``score`` then its whole part."""
    if type(score) is int:
        return {"score": score, "score_given": None}
    return {"score": int(score or 0), "score_given": "" if score is None else repr(float(score))}


def _score_read(score: int, given: str | None):
    return score if given is None else None if given == "" else float(given)


def _times(events: list, table: TableState) -> tuple[str, str]:
    """When the game began (event 1) and when its last live move was recorded."""
    last = table.last_live_move or 1
    return events[0].recorded_at, events[last - 1].recorded_at


def _replace(db, game_id: str, rows: list[dict]) -> None:
    sql.run(db, S.STATS_CHANGED)  # readers' caches are stale now
    sql.run(db, S.STATS_CHANGE_OF, game_id=game_id)
    sql.run(db, S.DELETE_STAT_SEATS, game_id=game_id)
    for row in rows:
        sql.run(db, S.INSERT_STAT_SEAT, **row)


def _finished_rows(game_id: str, table: TableState, events: list) -> list[dict]:
    """A finished game's rows from its whole log (``events``), its turn times derived from
    it (a fold, once the game is over: docs/performance.md gives the cost)."""
    return seat_rows(game_id, table, *_times(events, table), turns.turn_times(events))


def write_game(db, game_id: str, table: TableState) -> None:
    """The game's rows as its state says now: replaced if it is over, gone if not."""
    rows = _finished_rows(game_id, table, store.read_events(db, game_id)) if table.rules.is_over(table.game) else []
    with db.atomic():
        _replace(db, game_id, rows)


def refresh(db, game_id: str) -> None:
    """A game that entered the store another way than ``record`` (an import)."""
    write_game(db, game_id, states.uncached(db, game_id))


def _with_the_event(game_id: str, event, table: TableState, events):
    """The game's rows after ``event``, written in the event's own transaction (events/
    store.py:WithTheEvent): when the game is over afterwards, or its past changed (a void
    can make a finished game unfinished: its rows go). Nothing for an ordinary move. So
    the statistics commit with the move, or neither does: they never lag behind the log."""
    if not (table.rules.is_over(table.game) or changes_the_past(event)):
        return None
    rows = _finished_rows(game_id, table, events()) if table.rules.is_over(table.game) else []
    return lambda db: _replace(db, game_id, rows)


on_recorded = WithTheEvent(_with_the_event)  # app.py:on_recorded


def on_roster_changed(db, events: list, rosters: roster_log.Rosters | None = None) -> None:
    """Imported plays enter (and reverted ones leave) the read model with their event.
    ``rosters``: a cache to read the roster after them from (a BG Stats import's batches:
    folding the whole log per batch made a large import quadratic)."""
    changed = [e for e in events if e.type in ("play-imported", "change-reverted")]
    if not changed:
        return
    roster = roster_log.load(db, rosters)
    with db.atomic():
        for e in changed:
            seq = e.seq if e.type == "play-imported" else e.data["target"]
            play = roster.imported.get(seq)
            _replace(db, roster_log.imported_game_id(seq), imported_rows(seq, play) if play else [])


def rebuild(db) -> int:
    """The read model again from the logs (``flask --app app rebuild-stats``): every
    finished game folded once, every imported play of the roster. Returns the games."""
    return rebuild_checked(db)[0]


def rebuild_checked(db, cache: Plays | None = None) -> tuple[int, dict[str, tuple[int, str]]]:
    """``rebuild``, and the finished games left out because their record does not verify
    (events/application/integrity.py): their rows are not written (docs/people.md §6)."""
    finished = sql.column(db, S.FINISHED_GAMES)
    roster = roster_log.fold(roster_log.read_log(db), checked=False)
    rows: list[dict] = []
    left_out = {}
    for game_id in finished:
        broken = integrity.verify_whole(db, game_id)
        if broken:
            left_out[game_id] = broken
            continue
        events = store.read_events(db, game_id)
        table = fold(events)
        if table.rules.is_over(table.game):
            rows += _finished_rows(game_id, table, events)
    for seq, play in roster.imported.items():
        rows += imported_rows(seq, play)
    with store.write_lock(db):
        sql.run(db, S.DELETE_EVERY_STAT_SEAT)
        _replace(db, "", rows)
    if cache is not None:  # every finished game is verified again
        with cache.lock:
            cache.checked.clear()
    return len(finished) - len(left_out) + len(roster.imported), left_out


# ---- games whose record does not verify are left out of every statistic ---------------

UNTRUSTED = "imported without a trusted signature ({check}); not counted until the organiser accepts it"


def left_out(db, verified, cache: Plays | None = None) -> dict[str, tuple[int, str]]:
    """The finished games left out of every statistic, CSV, JSON, BG Stats file and rating
    (``read(leave_out=…)``, ``rated``): {game_id: (from seq, why)}. Those whose stored record
    does not verify, from the event that does not; and those imported without a trusted
    signature the organiser has not accepted (events/application/trust.py), from 0 — the one place every
    figure asks. With the app's ``cache`` each game is verified once per process, again
    when its rows change."""
    found = {game_id: (0, UNTRUSTED.format(check=check)) for game_id, check in trust.not_counted(db).items()}
    return {**found, **unverified(db, verified, cache)}


def unverified(db, verified, cache: Plays | None = None) -> dict[str, tuple[int, str]]:
    """The finished games whose stored record does not verify: {game_id: (from seq, why)}."""
    key = roster_log.db_key(db)
    found = {}
    for game_id, ended_at in sql.run(db, S.OWN_PLAYS_ENDED).fetchall():
        memo = None
        if cache is not None:
            with cache.lock:
                memo = cache.checked.get((key, game_id))
        if memo is None or memo[0] != ended_at:
            memo = (ended_at, verified.unverified_from(db, game_id))
            if cache is not None:
                with cache.lock:
                    cache.checked[(key, game_id)] = memo
        if memo[1]:
            found[game_id] = memo[1]
    return found


def own_game_ids(db) -> set[str]:
    """This server's finished games (an imported play is none of them)."""
    return set(sql.column(db, S.OWN_PLAYS))


def dump(db) -> list[tuple]:
    """Every row in a fixed order (the test comparing incremental and rebuilt models)."""
    return sql.run(db, S.EVERY_STAT_SEAT).fetchall()


# ---- reading: plays with the people who sat at them ---------------------------------

def game_key(kind: str, title: str) -> str:
    """What the statistics group by: a game kind; a kind with no published game of its own
    (the score pad) per game it was kept for."""
    game = get_game(kind)
    generic = game is not None and game.bgg_id is None
    return f"{kind}:{title.casefold()}" if generic and title else kind


def read(db, roster, key: str | None = None, people: tuple[int, ...] = (),
          since: str | None = None, until: str | None = None, game_id: str | None = None,
          leave_out: Collection[str] = (), cache: "Plays | None" = None) -> list[dict]:
    """Finished plays, oldest first, as {game_id, key, kind, title, ended_at, seconds,
    imported, seats: [{seat, name, person, score, rank, breakdown}]}; only those where
    every one of ``people`` sat, in the date range (``until`` inclusive, YYYY-MM-DD).
    Shared between requests through the app's ``cache`` (web/db.py): callers never change them."""
    wanted = set(people)
    until = until + "~" if until else None  # every time on that day sorts before "~"
    return [p for p in _all_plays(db, roster, cache)
            if (not key or p["key"] == key) and (game_id is None or p["game_id"] == game_id)
            and (not since or p["ended_at"] >= since) and (not until or p["ended_at"] < until)
            and (not wanted or wanted <= p["people"]) and p["game_id"] not in leave_out]


_MAX_CHANGES = 500  # more changed games than this since a worker's last look: read everything


class Plays:
    """Every play with its people, per database, as a server process last read them, the
    ratings worked out from them, and which finished games verify; the app keeps one
    (web/db.py). When the read model moved on (stat_version), it reads again only the
    games changed since (stat_changes), and when the roster moved on, it only joins the
    people again: a page after a game ended costs a few rows, not 3,000
    (docs/decisions.md, "Statistics from a read model")."""

    def __init__(self) -> None:
        self._kept: dict[str, dict] = {}
        # (db, game) -> (ended_at, broken): each finished game verified once per process
        # (the Verified prefix of events/application/integrity.py), again when its rows change
        self.checked: dict[tuple[str, str], tuple[str, tuple[int, str] | None]] = {}
        self.lock = threading.Lock()

    def all(self, db, roster) -> list[dict]:
        return self.entry(db, roster)["plays"]

    def entry(self, db, roster) -> dict:
        version = sql.value(db, S.STATS_VERSION, 0)
        key, stamp = roster_log.db_key(db), (roster.seq, roster.hash)
        with self.lock:
            cached = self._kept.get(key)
        if cached is not None and cached["version"] == version and cached["roster"] == stamp:
            return cached
        entry = _read_entry(db, roster, version, stamp, cached)
        with self.lock:
            self._kept[key] = entry
        return entry

    def forget(self) -> None:
        with self.lock:
            self._kept.clear()
            self.checked.clear()


def _read_entry(db, roster, version: int, stamp: tuple, cached: dict | None) -> dict:
    games = _games_since(db, cached) if cached is not None and cached["version"] <= version else None
    if games is None:
        games = _read_games(db, "")
    plays = _with_people(sorted(games.values(), key=lambda p: (p["ended_at"], p["game_id"])), roster)
    return {"version": version, "roster": stamp, "games": games, "plays": plays,
            "rated_before": cached and (cached["ratings"][1] if cached.get("ratings") else cached.get("rated_before"))}


def rated(db, roster, leave_out: Collection[str] = (), cache: "Plays | None" = None) -> dict:
    """Every person's rating per game (group/ratings.py) from every play the read model
    holds but those left out (records that do not verify), kept beside the plays they come
    from (in the app's ``cache``): worked out again only when a play finished or changed,
    the roster changed or another game is left out — as a rebuild would, from the same plays."""
    entry = _entry(db, roster, cache)
    left = frozenset(leave_out)
    done = entry.get("ratings")  # two requests may both compute it: the same numbers
    if done is None or done[0] != left:
        kept = [p for p in entry["plays"] if p["game_id"] not in left] if left else entry["plays"]
        done = entry["ratings"] = (left, ratings.rate(kept, done[1] if done else entry.get("rated_before")))
    return {key: table for key, (_, table) in done[1].items()}


def _all_plays(db, roster, cache: Plays | None) -> list[dict]:
    return _entry(db, roster, cache)["plays"]


def _entry(db, roster, cache: Plays | None) -> dict:
    if cache is not None:
        return cache.entry(db, roster)
    version = sql.value(db, S.STATS_VERSION, 0)
    return _read_entry(db, roster, version, (roster.seq, roster.hash), None)


def _games_since(db, cached: dict) -> dict[str, dict] | None:
    """The cached games with those changed since re-read; None when a rebuild (game "") or
    too many changes came in between."""
    changed = set(sql.column(db, S.STATS_CHANGED_SINCE, version=cached["version"]))
    if "" in changed or len(changed) > _MAX_CHANGES:
        return None
    games = dict(cached["games"])
    for game_id in changed:
        games.pop(game_id, None)
        games.update(_read_games(db, game_id))
    return games


def _read_games(db, game_id: str) -> dict[str, dict]:
    """The plays of the read model (``game_id`` "": all of them), seats without people."""
    rows = sql.run(db, S.STAT_SEATS_OF, game_id=game_id) if game_id else sql.run(db, S.EVERY_STAT_SEAT)
    found: dict[str, dict] = {}
    for row in rows.fetchall():
        (game_id_, seat, kind, title, bgg_id, name, players, score, rank, breakdown, started, ended, imported,
         played, turns_, turn_seconds, longest, longest_at, given) = row
        play = found.get(game_id_)
        if play is None:
            # the time it took: without its breaks where the turn times are known
            wall = _seconds(started, ended)
            play = found[game_id_] = {
                "game_id": game_id_, "kind": kind, "title": title, "key": game_key(kind, title),
                "bgg_id": bgg_id, "started_at": started, "ended_at": ended,
                "seconds": int(played) if played is not None else wall, "wall_seconds": wall,
                "timed": played is not None, "imported": bool(imported), "players": players,
                "seats": []}
        play["seats"].append({"seat": seat, "name": name, "score": _score_read(score, given), "rank": rank,
                              "breakdown": orjson.loads(breakdown), "turns": turns_,
                              "turn_seconds": turn_seconds, "longest_turn": longest,
                              "longest_turn_at": longest_at})
    return found


def _with_people(games: list[dict], roster) -> list[dict]:
    """The plays as the statistics read them: each seat with the person the roster says sat there."""
    out = []
    for play in games:
        seats = [{**s, "person": roster.person_of(play["game_id"], s["seat"])} for s in play["seats"]]
        out.append({**play, "seats": seats, "people": {s["person"] for s in seats}})
    return out


def _seconds(start: str, end: str) -> int:
    try:
        return max(0, int((datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()))
    except ValueError:
        return 0

