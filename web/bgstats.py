"""Plays out and in (docs/people.md §8): a finished play for BG Stats (``.bgsplay`` and
the app's create-play link), every play as CSV (``GET /plays.csv``) and JSON
(``flask --app app export-plays FILE``), and the page that imports a BG Stats export as
score-only plays into the roster's log (services/bgstats.py writes them)."""
from __future__ import annotations

import csv
import io
import json

from flask import Blueprint, Response, abort, current_app, request, url_for

from events.application.export import inline
from events.storage import store
from group import bgstats, plays
from group import roster as roster_log
from group.bgstats import BadBGStats
from scoring import get_game
from scoring.base import Problem
from scoring.i18n import msg
from services.bgstats import import_plays
from web import importing
from web.db import caches, get_db
from web.i18n import local_iso
from web.organiser import require_organiser
from web.security import device_id
from web.seating import my_seat
from web.stats import left_out, render_group

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
    return _start(first[0].data.get("options", {}) if first else {})


def _start(options: dict) -> int:
    start = options.get("start_player", 0)
    return start if type(start) is int else 0


@bp.get("/games/<game_id>/play.bgsplay")
def bgsplay(game_id: str):
    play, names = _finished_play(game_id)
    doc = bgstats.play_document(play, game_name(play), names, start_seat(game_id), my_seat(game_id))
    return Response(json.dumps(doc, ensure_ascii=False, indent=1), mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="tablescribe-{game_id}.bgsplay"'})


def final_links(game_id: str, options: dict) -> dict | None:
    """For the final sheet's loader: the .bgsplay file and the app link, once the play is
    finished (``options``: the game's set-up, which names its start player)."""
    db = get_db()
    roster = roster_log.load(db, caches().roster)
    found = plays.read(db, roster, game_id=game_id, leave_out=left_out(), cache=caches().plays)
    if not found:
        return None
    names = {pid: p["name"] for pid, p in roster.people.items()}
    return {"file": url_for("bgstats.bgsplay", game_id=game_id),
            "app": bgstats.create_play_link(found[0], game_name(found[0]), names, _start(options))}


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
        return render_group("stats/import_bgstats.html", problems=[], result=None)
    require_organiser(lambda problems, status: (render_group(
        "stats/import_bgstats.html", problems=problems, result=None), status))
    upload = request.files.get("file")
    if upload is None:
        return render_group("stats/import_bgstats.html", problems=[NO_FILE], result=None), 422
    answer = importing.run("bgstats", upload, {"device": device_id()})
    return render_group("stats/import_bgstats.html", problems=importing.problems_of(answer),
                        result=answer.get("result")), answer["status"]


def _read(raw: bytes) -> bgstats.Export | None:
    """The file read (None: not JSON) and its plays checked."""
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):  # bad UTF-8, bad JSON, huge numbers, deep nesting
        return None
    return None if doc is None else bgstats.read_export(doc)


def import_file(db, raw: bytes, options: dict, rosters: roster_log.Rosters | None = None, aside=inline) -> dict:
    """An uploaded BG Stats export read, checked and imported (web/importing.py runs it, on
    the worker or in a process of its own): the answer the import page renders, as JSON.
    ``options``: the importing phone's ``device``. ``aside``: how the reading runs (web/
    import_process.py: on a thread of lower CPU priority, ~0.5 s for 10,000 plays); the
    batches' writes stay on the calling thread."""
    try:
        export = aside(lambda: _read(raw))
        if export is None:
            return {"status": 422, "problems": [NO_FILE.as_dict()]}
        result = import_plays(db, export, options["device"], rosters)
    except BadBGStats as refusal:
        return {"status": 422, "problems": [p.as_dict() for p in refusal.problems]}
    return {"status": 200, "result": result}
