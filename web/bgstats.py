"""Plays out and in (docs/people.md §8): a finished play for BG Stats (``.bgsplay`` and
the app's create-play link), every play as CSV (``GET /plays.csv``) and JSON
(``flask --app app export-plays FILE``), and a BG Stats export imported as score-only
plays into the roster's log."""
from __future__ import annotations

import csv
import io
import json
import time

from flask import Blueprint, Response, abort, current_app, render_template, request, url_for

from events.runtime import greenlets
from events.storage import store
from group import bgstats, plays
from group import roster as roster_log
from group.bgstats import BadBGStats
from scoring import get_game
from scoring.base import Problem
from scoring.i18n import msg
from web import importing
from web.db import caches, get_db
from web.i18n import local_iso
from web.organiser import require_organiser
from web.security import device_id
from web.seating import my_seat
from web.stats import left_out

bp = Blueprint("bgstats", __name__)
NO_FILE = Problem("people §8", msg("Choose a BG Stats export (JSON, UTF-8)."))


def game_name(play: dict) -> str:
    """The game's name as BoardGameGeek and BG Stats know it (English)."""
    if play["title"]:
        return play["title"]
    game = get_game(play["kind"])
    return game.title["en"] if game else play["kind"]


def _finished_play(game_id: str):
    db = get_db()
    roster = roster_log.load(db, caches().roster)
    found = plays.read(db, roster, game_id=game_id, leave_out=left_out(), cache=caches().plays)
    if not found:
        abort(404)  # not finished (or no such game): nothing to send to BG Stats yet
    return found[0], {pid: p["name"] for pid, p in roster.people.items()}


def start_seat(game_id: str) -> int:
    """The seat that began the game: Han's chosen start player, the first seat elsewhere."""
    first = store.read_events(get_db(), game_id, upto=1)
    start = first[0].data.get("options", {}).get("start_player", 0) if first else 0
    return start if type(start) is int else 0


@bp.get("/games/<game_id>/play.bgsplay")
def bgsplay(game_id: str):
    play, names = _finished_play(game_id)
    doc = bgstats.play_document(play, game_name(play), names, start_seat(game_id), my_seat(game_id))
    return Response(json.dumps(doc, ensure_ascii=False, indent=1), mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="tablescribe-{game_id}.bgsplay"'})


def final_links(game_id: str) -> dict | None:
    """For the final sheet: the .bgsplay file and the app link, once the play is finished."""
    db = get_db()
    roster = roster_log.load(db, caches().roster)
    found = plays.read(db, roster, game_id=game_id, leave_out=left_out(), cache=caches().plays)
    if not found:
        return None
    names = {pid: p["name"] for pid, p in roster.people.items()}
    return {"file": url_for("bgstats.bgsplay", game_id=game_id),
            "app": bgstats.create_play_link(found[0], game_name(found[0]), names, start_seat(game_id))}


# ---- every play out --------------------------------------------------------------------

def play_rows(db) -> tuple[list[str], list[dict]]:
    """One row per person per finished play, oldest first; a column per scoring category
    the games name (a score pad's rounds are none)."""
    roster = roster_log.load(db, caches().roster)
    rows, categories = [], {}
    for play in plays.read(db, roster, leave_out=left_out(), cache=caches().plays):
        game = get_game(play["kind"])
        for seat in sorted(play["seats"], key=lambda s: s["seat"]):
            person = roster.people[seat["person"]] if seat["person"] else None
            row = {"date": local_iso(play["ended_at"]), "game_id": play["game_id"], "game": game_name(play),
                   "bgg_id": play["bgg_id"] or "", "person_id": person["id"] if person else "",
                   "person": person["name"] if person else "", "played_as": seat["name"],
                   "seat": seat["seat"] + 1, "score": seat["score"], "rank": seat["rank"],
                   "winner": int(seat["rank"] == 1), "imported": int(play["imported"])}
            for category, points in seat["breakdown"].items():
                if game is not None and category in game.categories:
                    categories.setdefault(category, None)
                    row[category] = points
            rows.append(row)
    return list(categories), rows


_FIELDS = ["date", "game_id", "game", "bgg_id", "person_id", "person", "played_as", "seat", "score",
           "rank", "winner", "imported"]


def _cell(value):
    """A text cell a spreadsheet would run as a formula (=, +, -, @) is quoted."""
    return "'" + value if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


@bp.get("/plays.csv")
def plays_csv():
    categories, rows = play_rows(get_db())
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=_FIELDS + categories, restval="", lineterminator="\r\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: _cell(v) for k, v in row.items()})
    return Response(out.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": 'attachment; filename="tablescribe-plays.csv"'})


# ---- a BG Stats export in --------------------------------------------------------------

@bp.route("/people/import-bgstats", methods=["GET", "POST"])
def import_page():
    if request.method == "GET":
        return render_template("stats/import_bgstats.html", problems=[], result=None)
    require_organiser(lambda problems, status: (render_template(
        "stats/import_bgstats.html", problems=problems, result=None), status))
    upload = request.files.get("file")
    if upload is None:
        return render_template("stats/import_bgstats.html", problems=[NO_FILE], result=None), 422
    answer = importing.run("bgstats", upload, {"device": device_id()})
    return render_template("stats/import_bgstats.html", problems=importing.problems_of(answer),
                           result=answer.get("result")), answer["status"]


def import_file(db, raw: bytes, options: dict, rosters: roster_log.Rosters | None = None, aside=None) -> dict:
    """An uploaded BG Stats export read, checked and imported (web/importing.py runs it, on
    the worker or in a process of its own): the answer the import page renders, as JSON.
    ``options``: the importing phone's ``device``. ``aside``:
    not used (reading the file is ~0.3 s; the batches' work is under the write lock)."""
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):  # bad UTF-8, bad JSON, huge numbers, deep nesting
        doc = None
    if doc is None:
        return {"status": 422, "problems": [NO_FILE.as_dict()]}
    try:
        result = import_plays(db, bgstats.read_export(doc), options["device"], rosters)
    except BadBGStats as refusal:
        return {"status": 422, "problems": [p.as_dict() for p in refusal.problems]}
    return {"status": 200, "result": result}


IMPORT_BATCH = 50  # plays per transaction: the write lock is held ~15 ms at a time (docs/people.md §8)


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
    written, skipped = [], 0
    for start in range(0, len(plays_in), IMPORT_BATCH):
        began = time.perf_counter()
        batch_written, batch_skipped = _write_batch(db, plays_in[start:start + IMPORT_BATCH], device, rosters)
        written += batch_written
        skipped += batch_skipped
        # SQLite's write lock stays free as long as the batch held it (20-100 ms) before the
        # next one takes it: a move waiting for it polls (the busy handler sleeps 1 ms, 2, 5,
        # 10… between tries) and, with the lock taken again at once, could miss every gap.
        # PostgreSQL queues its waiters: there the worker only serves its other connections.
        if store.is_postgres(db):
            greenlets.cooperate()
        else:
            time.sleep(min(0.1, max(0.02, time.perf_counter() - began)))  # cooperative under gevent
    return {"imported": sum(e.type == "play-imported" for e in written), "skipped": skipped,
            "own": len(mine), "ignored": export.ignored, "refused": [p.as_dict() for p in refused],
            "people": sum(e.type == "person-added" for e in written)}


def _write_batch(db, batch: list[dict], device: str, rosters: roster_log.Rosters) -> tuple[list, int]:
    """One transaction: the batch's new people, its plays and their statistics' rows."""
    with store.short_write(db):  # the cache is extended by each write: a batch reads its own events only
        fresh, skipped = _new_plays(roster_log.load(db, rosters), batch)
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


def _new_plays(roster, batch: list[dict]) -> tuple[list[dict], int]:
    """The plays of ``batch`` not imported before (the roster read under the write lock):
    uuids compared in any case (BG Stats writes them in upper or lower case), plays
    without one by their fingerprint."""
    known = {p.get("source_id", "").casefold() for p in roster.imported.values()} - {""}
    prints = {_fingerprint(p, p["seats"]) for p in roster.imported.values() if not p.get("source_id")}
    fresh = []
    for play in batch:
        source = play["source_id"].casefold()
        if (source and source in known) or (not source and _fingerprint(play, play["scores"]) in prints):
            continue
        fresh.append(play)
        known.add(source)
        if not source:
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


def init_app(app) -> None:
    app.jinja_env.globals.update(bgstats_links=final_links)
