"""The roster's pages (docs/people.md): the people, adding, renaming and merging them,
linking a game's seats to them, the roster's own log with its reverts. Every change
goes through ``group.roster.append``: checked, appended, or refused with reasons."""
from __future__ import annotations

import json
import secrets

from flask import Blueprint, abort, redirect, request, url_for

from events.storage import store
from group import statistics
from group import roster as roster_log
from group.roster import RosterConflict, RosterRefused
from scoring.base import Problem
from scoring.i18n import msg
from services.people import change_roster, link_seat
from web import views
from web.db import caches, get_db
from web.organiser import require_organiser
from web.stats import load_group, render_group
from web.seating import my_seat, table_or_404
from web.security import device_id

bp = Blueprint("people", __name__)
LOG_PAGE = 100  # roster changes per page of its log, the newest first


def _int(value) -> int | None:
    """A form's number, or None ("", "x", "²", a 5000-digit number are no person)."""
    return int(value) if isinstance(value, str) and value.isascii() and value.isdigit() \
        and len(value) < 12 else None


def _change(changes, then, refused, by: dict = roster_log.ORGANISER):
    """Append roster changes from a form, for the organiser unless ``by`` says who else may
    (a seated phone linking its own seat); a refusal shows the page again with why (422;
    403 for a phone that may not; 409 for a form's reused id)."""
    if by == roster_log.ORGANISER:
        require_organiser(refused)
    try:
        written = change_roster(get_db(), changes, device_id(), (request.form.get("client_event_id") or "")[:64] or None,
                                by=by)
    except RosterRefused as refusal:
        response, status = refused(refusal.problems)
        return response, 409 if isinstance(refusal, RosterConflict) else status
    if then == url_for("people.people") and written:  # the roster page says what was done
        then = url_for("people.people", done=written[-1].seq)
    return redirect(then, code=303)


@bp.get("/people")
def people(problems=(), status: int = 200):
    db = get_db()
    group = load_group(db)
    roster = group.roster
    totals = statistics.totals(group.plays(db))
    rows = [{**p, **totals.get(p["id"], {"plays": 0, "wins": 0, "last_played": None})}
            for p in roster.active()]
    return render_group("stats/people.html", group, people=rows, problems=list(problems), done=_done(),
                        names={pid: p["name"] for pid, p in roster.people.items()},
                        client_event_id=secrets.token_hex(16), form=request.form), status


def _done():
    """The change the organiser just made (``?done=<seq>``), for its confirmation line."""
    seq = request.args.get("done", type=int)
    if not seq or seq < 1:
        return None
    found = roster_log.read_log(get_db(), after=seq - 1, upto=seq)
    return found[0] if found else None


def _people_refused(problems, status: int = 422):
    return people(problems, status)


@bp.post("/people")
def add_person():
    name, why = roster_log.name_or_why(request.form.get("name"))
    if why is not None:
        return _people_refused([why])
    return _change([("person-added", {"name": name})], url_for("people.people"), _people_refused)


@bp.post("/people/<int:person>/rename")
def rename(person: int):
    name, why = roster_log.name_or_why(request.form.get("name"))
    if why is not None:
        return _people_refused([why])
    return _change([("person-renamed", {"person": person, "name": name})],
                   url_for("people.people"), _people_refused)


@bp.post("/people/merge")
def merge():
    source, into = _int(request.form.get("source")), _int(request.form.get("into"))
    return _change([("people-merged", {"source": source, "into": into})],
                   url_for("people.people"), _people_refused)


@bp.get("/people/log")
def log(problems=(), status: int = 200):
    db = get_db()
    group = load_group(db)
    roster = group.roster
    page = max(0, min(request.args.get("page", 0, type=int), roster.seq // LOG_PAGE + 1))
    newest = roster.seq - LOG_PAGE * page
    events = roster_log.read_log(db, after=max(0, newest - LOG_PAGE), upto=max(0, newest))
    names = {pid: p["name"] for pid, p in roster.people.items()}
    games = views.game_names(db, [g for e in events for g in (e.data.get("game"), (e.by or {}).get("game"))
                                  if isinstance(g, str)])
    return render_group("stats/roster_log.html", group, events=list(reversed(events)), roster=roster,
                        names=names, games=games, problems=list(problems), more=newest > LOG_PAGE, page=page,
                        client_event_id=secrets.token_hex(16)), status


@bp.post("/people/log/<int:target>/revert")
def revert(target: int):
    return _change([("change-reverted", {"target": target})], url_for("people.log"),
                   lambda problems, status=422: log(problems, status))


# ---- a game's seats ------------------------------------------------------------------

@bp.get("/people/games/<game_id>")
def seats(game_id: str, problems=(), status: int = 200):
    db = get_db()
    row = store.game_row(db, game_id) or abort(404)
    players = json.loads(row["players"])
    group = load_group(db)
    roster = group.roster
    linked = roster.seats_of(game_id)
    rows = [{"seat": i, "name": p["name"],
             "person": roster.people[linked[i]] if i in linked else None,
             "suggested": roster.by_name(p["name"])} for i, p in enumerate(players)]
    return render_group("stats/seats.html", group, game_id=game_id, rows=rows, people=roster.active(),
                        problems=list(problems), client_event_id=secrets.token_hex(16),
                        **views.record_marks(db, game_id, row)), status


@bp.post("/people/games/<game_id>/<int:seat>")
def link(game_id: str, seat: int):
    """The organiser links a seat to a person: chosen by id, or by name (a new name adds a
    person), or unlinks it."""
    store.game_row(get_db(), game_id) or abort(404)
    refused = lambda problems, status=422: seats(game_id, problems, status)  # noqa: E731
    require_organiser(refused)
    if request.form.get("unlink"):
        return _change([("seat-unlinked", {"game": game_id, "seat": seat})],
                       url_for("people.seats", game_id=game_id), refused)
    return _link(game_id, seat, roster_log.ORGANISER, refused)


@bp.post("/games/<game_id>/me")
def link_mine(game_id: str):
    """A seated phone says who sat at its own seat (its seat cookie reaches /games/<id>/…);
    a phone holding no seat of the game is refused (403)."""
    store.game_row(get_db(), game_id) or abort(404)
    refused = lambda problems, status=422: seats(game_id, problems, status)  # noqa: E731
    seat = my_seat(game_id)
    if seat is None:
        return refused([NOT_YOUR_SEAT], 403)
    if table_or_404(game_id).is_over:  # a finished game's seats are the group's record now
        return refused([GAME_OVER], 403)
    return _link(game_id, seat, roster_log.by_seat(game_id, seat), refused)


NOT_YOUR_SEAT = Problem("people §10", msg("Only your own seat can be linked from this phone (join the game with its QR code), or the organiser links it."))
GAME_OVER = Problem("people §10", msg("This game is over: only the organiser can say who sat in its seats now."))


def _link(game_id: str, seat: int, by: dict, refused):
    """Link the seat to the form's person: by id, or by name (a new name adds the person
    first); a phone's own seat linked to someone else is unlinked first (the organiser
    unlinks explicitly). One transaction."""
    person, name = _int(request.form.get("person")), None
    if person is None:
        name, why = roster_log.name_or_why(request.form.get("name"))
        if why is not None:
            return refused([why])
    try:
        link_seat(get_db(), game_id, seat, device_id(), (request.form.get("client_event_id") or "")[:64] or None,
                  by=by, person=person, name=name, rosters=caches().roster)
    except RosterRefused as refusal:
        caches().roster.forget()  # the cached roster may hold the rolled-back person
        response, status = refused(refusal.problems)
        return response, 409 if isinstance(refusal, RosterConflict) else status
    return redirect(url_for("people.seats", game_id=game_id), code=303)
