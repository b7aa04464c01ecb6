"""Audit pages for every game kind: timeline, disputes with what-if, replay, final
sheet, score race, rescore, export and import. Everything goes through the core
(the fold, ``check_move``, ``record``) and the game's own ``describe`` and board."""
from __future__ import annotations

import json
import secrets

from flask import (Blueprint, Response, abort, g, redirect, render_template, request, url_for)
from flask_babel import gettext
from markupsafe import Markup

from events.application import disputes
from events.application.export import AlreadyHere, BadExport, inline, verify
from events.application.states import GameStates, UnknownGame, describe
from events.application.table import NOT_RECORDED, REASON_NEEDED, not_recorded, record
from events.domain.core_types import CORE_EVENTS
from events.domain.event import Event
from events.domain.projection import TableState, fold, open_disputes, standings
from events.storage import store
from group import roster
from group.roster import RosterRefused
from scoring import get_game
from scoring.base import Problem
from scoring.i18n import LANGS, msg
from services.games import import_game_file
from web import chart, decoding, importing, timing, views
from web.db import get_db, get_states
from web.organiser import is_organiser
from web.seating import my_seat, remember_seat, require_seat
from web.security import device_id
from web.bgstats import final_links
from web.trust import signed

bp = Blueprint("audit", __name__)

COMMENT_NEEDED = Problem("core §4", msg("Write a comment."))
BAD_FILE = Problem("core §7", msg("Choose an exported game (JSON)."))
NOT_JSON = Problem("core §7", msg("This file is not JSON (or not UTF-8): choose an exported game."))


# ---- the history of a game: one fold, cached and extended (events/application/states.py) ---------

class Game:
    """One request's view of a game's history, its pages' one loader: ``read(first, last)``
    reads its events by sequence number; ``found`` is the game's cached walk
    (events/application/states.py); ``marks``, what base.html says above it (web/views.py)."""

    def __init__(self, game_id: str):
        db = get_db()
        self._db, self._game_id, self._read = db, game_id, {}
        try:
            self.found = get_states().game(db, game_id)
        except UnknownGame:
            abort(404)
        self.final, self.last = self.found.table, self.found.count
        self.marks = views.record_marks(db, game_id)

    def read(self, first: int, upto: int) -> list[Event]:
        """Events ``first`` to ``upto``: each read from the store once per request (a page
        and the states it refolds ask for the same events)."""
        wanted = range(max(first, 1), upto + 1)
        if any(seq not in self._read for seq in wanted):
            self._read.update((e.seq, e) for e in store.read_events(self._db, self._game_id, after=first - 1, upto=upto))
        return [self._read[seq] for seq in wanted if seq in self._read]

    def all_events(self) -> list[Event]:
        return self.read(1, self.last)

    def event(self, seq: int) -> Event:
        return self.read(seq, seq)[0]


def _history(game_id: str) -> Game:
    """The game's history, once per request (a page and its score race share it)."""
    games = g.setdefault("histories", {})
    if game_id not in games:
        games[game_id] = Game(game_id)
    return games[game_id]


def race(game_id: str, at: int | None = None) -> Markup:
    """The score race, or nothing for a game whose record does not verify: like every
    statistic it leaves a forged record out (docs/decisions.md); the page says why (base.html)."""
    game = _history(game_id)
    if game.marks["unverified"]:
        return Markup("")
    return chart.race_chart(game.found.totals, game.final.players, at, gettext("Score race"))


def event_label(game, type_: str) -> dict:
    spec = game.event_types.get(type_)
    core = CORE_EVENTS.get(type_)
    return spec.label if spec else core.label if core else {"hu": type_, "en": type_}


@bp.record_once
def _globals(state) -> None:
    state.app.jinja_env.globals.update(event_label=event_label)


@bp.get("/games/<game_id>/race.svg")
def race_svg(game_id: str):
    """The score race as an image, loaded only when a phone opens it on the table page;
    ``?seq=`` in its address makes a new image after every move."""
    if store.last_seq(get_db(), game_id) == 0 or _history(game_id).marks["unverified"]:
        abort(404)  # no such game, or its record does not verify (a forged race is drawn nowhere)
    return Response(str(race(game_id)), mimetype="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=86400"})


# ---- timeline -------------------------------------------------------------------------

@bp.get("/games/<game_id>/timeline")
def timeline(game_id: str):
    return _timeline_page(game_id)


TIMELINE_PAGE = 200  # events per timeline page: a 10,000-event game's page was 3.6 MB


def _timeline_page(game_id: str, problems=(), status: int = 200):
    game = _history(game_id)
    final, found = game.final, game.found
    seat_filter = request.args.get("seat", type=int)
    type_filter = request.args.get("type") or None
    matching = [i for i, (type_, seat) in enumerate(zip(found.types, found.seats))
                if (seat_filter is None or seat == seat_filter or seat_filter in _delta(found, i))
                and (type_filter is None or type_ == type_filter)]
    pages = max(1, -(-len(matching) // TIMELINE_PAGE))
    page = min(max(request.args.get("page", 1, type=int), 1), pages)
    shown = matching[(page - 1) * TIMELINE_PAGE:page * TIMELINE_PAGE]
    return render_template("audit/timeline.html", game_id=game_id, table=final, game=final.rules, **game.marks,
                           rows=_rows(game, shown),
                           page=page, pages=pages, page_of=lambda seq: (seq - 1) // TIMELINE_PAGE + 1,
                           seat=my_seat(game_id), seat_filter=seat_filter,
                           type_filter=type_filter, types=sorted(set(found.types)),
                           problems=list(problems), client_event_id=secrets.token_hex(16)), status


def _delta(found: GameStates, i: int) -> dict[int, int]:
    """The change event ``i`` (0-based) made to each seat's total."""
    after, before = found.totals[i], found.totals[i - 1] if i else {}
    return {s: after[s] - before.get(s, 0) for s in after if after[s] != before.get(s, 0)}


def _rows(game: Game, shown: list[int]) -> list[dict]:
    """Each shown event in words (as the rules of its time describe it) with the change
    it made to each score and what became of it later."""
    final, found = game.final, game.found
    events = {e.seq - 1: e for e in game.read(shown[0] + 1, shown[-1] + 1)} if shown else {}
    targets = {d["target"]: seq for seq, d in final.disputes.items()}
    disputed_now = {d["target"] for d in open_disputes(final).values()}
    moves = set(final.game_seqs)
    return [{"event": events[i], "text": found.texts[i], "who": found.whos[i],
             "is_move": events[i].seq in moves, "delta": _delta(found, i),
             "void": final.voided.get(events[i].seq), "flag": final.flagged.get(events[i].seq),
             "dispute": targets.get(events[i].seq), "open_dispute": events[i].seq in disputed_now}
            for i in shown]


def _player(table: TableState, seat) -> str:
    return table.players[seat]["name"] if seat is not None and 0 <= seat < len(table.players) else ""


# ---- disputes -------------------------------------------------------------------------

@bp.post("/games/<game_id>/events/<int:target>/dispute")
def open_dispute(game_id: str, target: int):
    comment_ = (request.form.get("comment") or "").strip()
    return _write(game_id, "dispute-opened", {"target": target, "comment": comment_},
                  lambda event: url_for("audit.dispute", game_id=game_id, dispute_seq=event.seq),
                  lambda problems, status: _timeline_page(game_id, problems, status), comment_)


@bp.post("/games/<game_id>/disputes/<int:dispute_seq>/comment")
def comment(game_id: str, dispute_seq: int):
    comment_ = (request.form.get("comment") or "").strip()
    return _write(game_id, "dispute-commented", {"dispute": dispute_seq, "comment": comment_},
                  lambda event: url_for("audit.dispute", game_id=game_id, dispute_seq=dispute_seq),
                  lambda problems, status: dispute_page(game_id, dispute_seq, problems, status), comment_)


@bp.post("/games/<game_id>/disputes/<int:dispute_seq>/resolve")
def resolve(game_id: str, dispute_seq: int):
    reason, outcome = (request.form.get("reason") or "").strip(), request.form.get("outcome")
    return _write(game_id, "dispute-resolved", {"dispute": dispute_seq, "outcome": outcome, "reason": reason},
                  lambda event: url_for("audit.dispute", game_id=game_id, dispute_seq=dispute_seq),
                  lambda problems, status: dispute_page(game_id, dispute_seq, problems, status),
                  reason or outcome != "voided")


def _write(game_id: str, type_: str, data: dict, then, refused, has_text=True):
    """Record a core event from a seated phone and go where ``then`` says; a refusal
    re-renders the page it came from (``refused``) with the reasons."""
    seat = require_seat(game_id, refused)
    if not has_text:
        return refused([REASON_NEEDED if type_ == "dispute-resolved" else COMMENT_NEEDED], 422)
    try:
        event, _ = record(get_db(), game_id, type_, data, request.form.get("expected_seq", -1, type=int),
                          seat, device_id(), (request.form.get("client_event_id") or secrets.token_hex(16))[:64],
                          states=get_states())
    except NOT_RECORDED as err:
        why = not_recorded(err)
        return refused(why.problems, why.status)
    return redirect(then(event), code=303)


@bp.get("/games/<game_id>/disputes/<int:dispute_seq>")
def dispute(game_id: str, dispute_seq: int):
    return dispute_page(game_id, dispute_seq)


def dispute_page(game_id: str, dispute_seq: int, problems=(), status: int = 200):
    game = _history(game_id)
    final, events = game.final, game.all_events()
    found = final.disputes.get(dispute_seq) or abort(404)
    target = found["target"]
    event = events[target - 1]
    before, after = game.found.state_at(game.read, target - 1), game.found.state_at(game.read, target)
    seat = my_seat(game_id)
    ctx = {"game_id": game_id, "table": final, "game": final.rules, "seat": seat,
           "dispute_seq": dispute_seq, "dispute": found, "event": event,
           "text": describe(before, event), "who": _player(after, event.seat),
           "before": before, "after": after,
           "raw_before": views.visible_state(before, seat), "raw_after": views.visible_state(after, seat),
           "view_before": views.game_view(before, game.read), "view_after": views.game_view(after, game.read),
           "standings_before": standings(before), "standings_after": standings(after),
           "flag": final.flagged.get(target), "void": final.voided.get(target), "now": standings(final),
           **vars(disputes.examine(events, final, before, target)),
           "is_open": dispute_seq in open_disputes(final),
           "problems": list(problems), "client_event_id": secrets.token_hex(16), **game.marks}
    return render_template("audit/dispute.html", **ctx), status


# ---- replay, final sheet --------------------------------------------------------------

@bp.get("/games/<game_id>/replay")
def replay(game_id: str):
    game = _history(game_id)
    final, found, last = game.final, game.found, game.last
    at = min(max(request.args.get("at", last, type=int), 1), last)
    table = found.state_at(game.read, at)
    now, then = found.totals[at - 1], found.totals[at - 2] if at > 1 else {}
    delta = {s: now[s] - then.get(s, 0) for s in now if now[s] != then.get(s, 0)}
    event = game.event(at)
    return render_template("audit/replay.html", game_id=game_id, table=table, game=table.rules, **game.marks,
                           view=views.game_view(table, game.read),
                           at=at, last=last, event=event, text=found.texts[at - 1],
                           who=_player(table, event.seat), standings=standings(table), delta=delta,
                           over=table.rules.is_over(table.game), chart=race(game_id, at),
                           seat=None, problems=[], form={}, void=final.voided.get(event.seq),
                           times=timing.sheet(game_id, table, at),
                           photo_steps=sorted(seq for seq in final.photos if seq not in final.voided))


@bp.get("/games/<game_id>/final")
def final(game_id: str):
    game = _history(game_id)
    table = game.final
    rows = standings(table)
    grid = table.rules.sheet(table.game) if table.rules.sheet else None
    return render_template("audit/final.html", game_id=game_id, table=table, game=table.rules, **game.marks,
                           view=views.game_view(table, game.read),
                           standings=rows, ties=_ties(table.rules, rows), chart=race(game_id),
                           over=table.rules.is_over(table.game), last=game.event(game.last),
                           categories=_categories(rows) if grid is None else [],  # the grid is by round
                           times=timing.sheet(game_id, table, game.last),
                           bgstats=final_links(game_id, table.options), grid=grid)


def _categories(rows: list[dict]) -> list[dict]:
    """Every category any player scored in, in first-seen order, with its label."""
    seen: dict[str, dict] = {}
    for row in rows:
        for part in row["parts"]:
            seen.setdefault(part["category"], {"category": part["category"], "label": part["label"]})
    return list(seen.values())


def _tiebreak_words(game, values: list):
    if game.tiebreak_words and values:
        return game.tiebreak_words(values)
    return {lang: ", ".join(str(v) for v in values) for lang in LANGS}  # figures alike in every language


def _ties(game, rows: list[dict]) -> list[dict]:
    """Equal scores: shared ranks, or the game's tie-break that separated them."""
    ties = []
    for score in sorted({r["score"] for r in rows}, reverse=True):
        same = [r for r in rows if r["score"] == score]
        if len(same) > 1:
            ties.append({"score": score, "players": [r["player"] for r in same],
                         "shared": len({r["rank"] for r in same}) == 1,
                         "ranks": [(r["player"], r["rank"], _tiebreak_words(game, r["tiebreak"])) for r in same],
                         "rule": game.tiebreak_rule})
    return ties


# ---- rescore --------------------------------------------------------------------------

@bp.route("/games/<game_id>/rescore", methods=["GET", "POST"])
def rescore(game_id: str):
    if request.method == "GET":
        return _rescore_page(game_id)
    current = get_game(_history(game_id).final.kind)
    return _write(game_id, "rules-rescored", {"rules_version": current.rules_version},
                  lambda event: url_for("audit.final", game_id=game_id),
                  lambda problems, status: _rescore_page(game_id, problems, status))


def _rescore_page(game_id: str, problems=(), status: int = 200):
    """The standings under the pinned rules beside those under the current rules,
    folded on a fork: nothing changes until the table confirms."""
    game = _history(game_id)
    events, table = game.all_events(), game.final
    current = get_game(table.kind)
    rows, preview = [], None
    if current.rules_version > table.rules_version:
        marker = Event(events[-1].seq + 1, "rules-rescored", 1, {"rules_version": current.rules_version},
                       None, "", "", "", "")
        preview = fold(events + [marker])
        pinned = {r["seat"]: r for r in standings(table)}
        rows = [{"new": r, "old": pinned[r["seat"]]} for r in standings(preview)]
    return render_template("audit/rescore.html", game_id=game_id, table=table, game=table.rules, **game.marks,
                           current=current, rows=rows, seat=my_seat(game_id), preview=preview,
                           problems=list(problems), client_event_id=secrets.token_hex(16)), status


# ---- export and import ----------------------------------------------------------------

@bp.get("/games/<game_id>/export.json")
def export(game_id: str):
    try:
        doc = signed(roster.export_with_links(get_db(), game_id))  # who sat where (docs/people.md)
    except LookupError:
        abort(404)
    return Response(json.dumps(doc, ensure_ascii=False, indent=1), mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="tablescribe-{game_id}.json"'})


def _people_of(doc, organiser: bool) -> list[str | None]:
    """Who sat where in an imported file (roster.import_links). A people block that does not
    fit the file's players is often the events' fault (a seat cut, no events): when the
    events do not verify either, that is the refusal (BadExport), not the people block.
    The block is not hashed: only the organiser's import follows it; anyone else's links
    the seats by the names the game itself recorded (docs/people.md §10)."""
    try:
        linked = roster.import_links(doc)
    except RosterRefused:
        verify(doc)
        raise
    if organiser or not isinstance(doc, dict):
        return linked
    return roster.import_links({**doc, "people": None})


def _parsed(raw: bytes):
    try:
        return json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):  # bad UTF-8, bad JSON, a 5000-digit number, deep nesting
        return None


def import_file(db, raw: bytes, options: dict, rosters: roster.Rosters | None = None, aside=inline) -> dict:
    """An uploaded game file read, checked and stored, its seats linked to the roster
    (web/importing.py runs it, on the worker or in a process of its own): the answer the
    import page renders, as JSON. ``options``: the importing phone's ``device`` and whether
    it is the ``organiser``; ``aside``: how the checking runs (events/application/export.py:import_game)."""
    doc = aside(lambda: _parsed(raw))  # ~0.2 s for 8 MiB: at the checking's priority
    if doc is None:
        return {"status": 422, "problems": [NOT_JSON.as_dict()]}
    try:
        people = _people_of(doc, options["organiser"])
        created = import_game_file(db, doc, options["device"], people, by=roster.ORGANISER if options["organiser"] else None,
                                   rosters=rosters, aside=aside, prepare_photo=decoding.prepare)
    except BadExport as err:  # the game already here: 409, with the link to it
        return {"status": 409 if isinstance(err, AlreadyHere) else 422,
                "refusal": {"seq": err.seq, "text": err.text, "problems": [p.as_dict() for p in err.problems],
                            "game_id": getattr(err, "game_id", None)}}
    except RosterRefused as refusal:
        return {"status": 422, "problems": [p.as_dict() for p in refusal.problems]}
    return {"status": 303, "created": created}


def _refusal_of(answer: dict) -> BadExport | None:
    if "refusal" not in answer:
        return None
    r = answer["refusal"]
    return AlreadyHere(r["game_id"]) if r["game_id"] else BadExport(r["seq"], r["text"], importing.problems_of(r))


@bp.route("/import", methods=["GET", "POST"])
def import_page():
    if request.method == "GET":
        return render_template("audit/import.html", refusal=None, problems=[])
    upload = request.files.get("file")
    if upload is None:
        return render_template("audit/import.html", refusal=None, problems=[BAD_FILE]), 422
    answer = importing.run("game", upload, {"device": device_id(), "organiser": is_organiser()})
    if answer["status"] != 303:
        return render_template("audit/import.html", refusal=_refusal_of(answer),
                               problems=importing.problems_of(answer)), answer["status"]
    created = answer["created"]
    response = redirect(url_for("pages.table", game_id=created["id"]), code=303)
    remember_seat(response, created["id"], created["seats"][0]["token"])  # the importer hosts it
    return response
