"""Plays out and in (docs/people.md §8): a finished play for BG Stats (``.bgsplay`` and
the app's create-play link), every play as CSV (``GET /plays.csv``) and JSON
(``flask --app app export-plays FILE``), and a BG Stats export imported as score-only
plays into the roster's log."""
from __future__ import annotations

import csv
import io
import json
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import Blueprint, Response, abort, current_app, redirect, render_template, request, url_for

from events import store
from group import bgstats, plays
from group import roster as roster_log
from group.bgstats import BadBGStats
from group.roster import RosterRefused
from scoring import get_game
from scoring.base import Problem
from web.db import get_db
from web.i18n import local_iso
from web.organiser import require_organiser
from web.stats import left_out
from web.security import device_id

bp = Blueprint("bgstats", __name__)
NO_FILE = Problem("people §8", "Válassz egy BG Stats-exportot (JSON, UTF-8).",
                  "Choose a BG Stats export (JSON, UTF-8).")


def _zone():
    try:
        return ZoneInfo(current_app.config.get("TIMEZONE", "Europe/Budapest"))
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def game_name(play: dict) -> str:
    """The game's name as BoardGameGeek and BG Stats know it (English)."""
    if play["title"]:
        return play["title"]
    game = get_game(play["kind"])
    return game.title["en"] if game else play["kind"]


def _finished_play(game_id: str):
    db = get_db()
    roster = roster_log.load(db)
    found = plays.read(db, roster, game_id=game_id, leave_out=left_out())
    if not found:
        abort(404)  # not finished (or no such game): nothing to send to BG Stats yet
    return found[0], {pid: p["name"] for pid, p in roster.people.items()}


@bp.get("/games/<game_id>/play.bgsplay")
def bgsplay(game_id: str):
    play, names = _finished_play(game_id)
    doc = bgstats.play_document(play, game_name(play), names, _zone())
    return Response(json.dumps(doc, ensure_ascii=False, indent=1), mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="tablescribe-{game_id}.bgsplay"'})


def final_links(game_id: str) -> dict | None:
    """For the final sheet: the .bgsplay file and the app link, once the play is finished."""
    db = get_db()
    roster = roster_log.load(db)
    found = plays.read(db, roster, game_id=game_id, leave_out=left_out())
    if not found:
        return None
    names = {pid: p["name"] for pid, p in roster.people.items()}
    return {"file": url_for("bgstats.bgsplay", game_id=game_id),
            "app": bgstats.create_play_link(found[0], game_name(found[0]), names, _zone())}


# ---- every play out --------------------------------------------------------------------

def play_rows(db) -> tuple[list[str], list[dict]]:
    """One row per person per finished play, oldest first; a column per scoring category
    the games name (a score pad's rounds are none)."""
    roster = roster_log.load(db)
    rows, categories = [], {}
    for play in plays.read(db, roster, leave_out=left_out()):
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
    try:
        doc = json.loads(upload.read().decode("utf-8")) if upload else None
    except (ValueError, RecursionError):  # bad UTF-8, bad JSON, huge numbers, deep nesting
        doc = None
    if doc is None:
        return render_template("stats/import_bgstats.html", problems=[NO_FILE], result=None), 422
    try:
        result = import_plays(get_db(), bgstats.read_export(doc, _zone()), device_id())
    except (BadBGStats, RosterRefused) as refusal:
        return render_template("stats/import_bgstats.html", problems=refusal.problems, result=None), 422
    return render_template("stats/import_bgstats.html", problems=[], result=result)


def import_plays(db, found: list[dict], device: str) -> dict:
    """Every play of the file into the roster's log as ``play-imported`` (people found or
    added by name), all or nothing; a play imported before (same BG Stats uuid) is skipped."""
    written = []
    with store.write_lock(db):
        known = {p.get("source_id") for p in roster_log.load(db).imported.values()} - {""}
        skipped = 0
        for play in found:
            if play["source_id"] and play["source_id"] in known:
                skipped += 1
                continue
            seats = [_seat(db, s, written, device) for s in play["scores"]]
            data = {"source": "bgstats", **{k: play[k] for k in ("source_id", "date", "started_at", "kind", "game")},
                    "seats": seats}
            written += roster_log.append_locked(db, [("play-imported", data)], device, by=roster_log.ORGANISER)
            known.add(play["source_id"])
    plays.on_roster_changed(db, written)
    return {"imported": sum(e.type == "play-imported" for e in written), "skipped": skipped,
            "people": sum(e.type == "person-added" for e in written)}


def _seat(db, score: dict, written: list, device: str) -> dict:
    name = roster_log.clean_name(score["name"])
    if name is None:
        raise RosterRefused([roster_log.BAD_NAME])
    found = roster_log.load(db).by_name(name)
    if found is None:
        added, = roster_log.append_locked(db, [("person-added", {"name": name})], device, by=roster_log.ORGANISER)
        written.append(added)
        person = added.seq
    else:
        person = found["id"]
    return {"seat": score["seat"], "person": person, "name": name, "score": score["score"],
            "rank": score["rank"], "winner": score["winner"], "start": score["start"]}


def init_app(app) -> None:
    app.jinja_env.globals.update(bgstats_links=final_links)
