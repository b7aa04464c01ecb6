"""The phone pages. Each page renders in full for a normal request and as its
fragment for an htmx request (never for a history restore); every form also works
without JavaScript (post, then redirect)."""
from __future__ import annotations

import json
import secrets

from flask import Blueprint, Response, abort, make_response, redirect, render_template, request, url_for
from flask_babel import gettext

from events.application import seats
from events.application import table as recording
from events.application.table import NOT_RECORDED, Refused, StaleSequence, not_recorded, parse_move, record
from events.storage import store
from group import roster
from scoring import GAMES, get_game
from scoring.base import FormError
from services.games import start_game
from web import timing, views
from web.boards import profiles_of
from web.db import caches, get_db, get_states
from web.i18n import LANGS, current_lang, tr
from web.ratelimit import count_wrong_guess, refuse_if_spent
from web.seating import JOIN_RATE, my_seat, remember_seat, require_seat, table_or_404
from web.security import device_id

bp = Blueprint("pages", __name__)


@bp.get("/")
def home():
    page = max(0, min(request.args.get("page", 0, type=int), 10**6))
    lists = [(finished, *views.game_summaries(get_db(), finished, page)) for finished in (False, True)]
    return render_template("home.html", lists=lists, page=page)


@bp.get("/favicon.ico")
def favicon():
    """Browsers and link previews ask for it unprompted (83 × 404 in one evening's log)."""
    return redirect(url_for("static", filename="icon.svg"), code=301)


@bp.get("/manifest.webmanifest", defaults={"game_id": None})
@bp.get("/games/<game_id>/manifest.webmanifest")
def manifest(game_id: str | None):
    """A web app manifest, so a phone can put Tablescribe, or one table's page (its
    start_url), on its home screen and open it full-screen."""
    title, start = "Tablescribe", url_for("pages.home")
    if game_id is not None:
        table = table_or_404(game_id)
        title = f"{tr(table.rules.title_for(table.options))} – Tablescribe"
        start = url_for("pages.table", game_id=game_id)
    icon = {"src": url_for("static", filename="icon.svg"), "sizes": "any", "type": "image/svg+xml", "purpose": "any"}
    body = {"name": title, "short_name": title.split(" – ")[0][:12], "start_url": start, "scope": "/",
            "display": "standalone", "background_color": "#ffffff", "theme_color": "#111111",
            "lang": current_lang(), "icons": [icon]}
    return Response(json.dumps(body, ensure_ascii=False), mimetype="application/manifest+json")


@bp.get("/lang/<code>")
def set_lang(code: str):
    target = request.args.get("next", "/")
    # only a path of this site: "//host", and "/<tab>/host" (a browser drops the tab, and
    # so does the Location header), would send the phone to another site
    if not target.startswith("/") or target.startswith("//") or "\\" in target \
            or any(ord(c) < 32 or ord(c) == 127 for c in target):
        target = "/"
    response = redirect(target)
    if code in LANGS:
        response.set_cookie("lang", code, max_age=365 * 86400, samesite="Lax")
    return response


@bp.route("/games/new", methods=["GET", "POST"])
def create():
    kind = request.values.get("kind", "scorepad")
    game = get_game(kind) or abort(404)
    if request.method == "GET":
        return _new_game_page(game, {}, [])
    players = views.players_from_form(request.form)
    try:
        options = views.options_from_form(game, request.form)
        timer = timing.timer_from_form(request.form)
        created = start_game(get_db(), kind, players, options, device_id(), timer=timer,
                             phones_for=(seats.HOST_SEAT,), rosters=caches().roster)
    except (Refused, FormError) as refusal:
        return _new_game_page(game, request.form, refusal.problems), 422
    response = redirect(url_for("pages.table", game_id=created["id"]))
    remember_seat(response, created["id"], created["seats"][0]["token"])
    return response


def _new_game_page(game, form, problems) -> str:
    """The new game's form, with what its loader read: the roster's names a player's name
    suggests and the board profiles a set-up offers."""
    names = [p["name"] for p in roster.load(get_db(), caches().roster).active()]
    return render_template("new.html", game=game, games=GAMES, form=form, problems=problems,
                           roster_names=names, profiles=profiles_of(game))


@bp.get("/games/<game_id>")
def table(game_id: str):
    return views.render_table(game_id, table_or_404(game_id), my_seat(game_id),
                              done=request.args.get("done", type=int))


@bp.get("/games/<game_id>/live")
def live(game_id: str):
    """Conditional polling: 204 while nothing changed, the fresh live region otherwise."""
    seen = request.args.get("seq", type=int)
    current = store.last_seq(get_db(), game_id)
    if current == 0:
        abort(404)
    if seen == current:
        return Response(status=204)
    shown = seen if request.args.get(views.REGIONS) else None
    kind, html = views.render_live(game_id, table_or_404(game_id), my_seat(game_id), shown)
    response = make_response(html)
    if kind == "regions":
        response.headers["HX-Reswap"] = "none"  # the move's regions alone, each out of band
    return response


@bp.post("/games/<game_id>/moves")
def move(game_id: str):
    table_state = table_or_404(game_id)
    seat = _require_seat(game_id, table_state)
    try:
        type_, data = parse_move(table_state, request.form)
    except FormError as err:
        return views.refuse(game_id, table_state, seat, 422, err.problems)
    return _record(game_id, table_state, seat, type_, data)


@bp.post("/games/<game_id>/form")
def redraw(game_id: str):
    """The move form drawn again with what it holds, recording nothing: a choice that changes
    what the form offers (Five Tribes' order of drops changes who is within the assassins'
    reach) asks for it — on each change with a script, by a button without one."""
    table_state = table_or_404(game_id)
    seat = _require_seat(game_id, table_state)
    return views.render_table(game_id, table_state, seat, form=request.form)


@bp.post("/games/<game_id>/undo")
def undo(game_id: str):
    table_state = table_or_404(game_id)
    seat = _require_seat(game_id, table_state)
    return _written(game_id, table_state, seat, lambda expected, client_id: recording.undo(
        get_db(), game_id, table_state, expected, seat, device_id(), client_id, states=get_states()))


@bp.post("/games/<game_id>/events/<int:target>/void")
def void(game_id: str, target: int):
    table_state = table_or_404(game_id)
    seat = _require_seat(game_id, table_state)
    return _written(game_id, table_state, seat, lambda expected, client_id: recording.void(
        get_db(), game_id, target, request.form.get("reason"), expected, seat, device_id(), client_id,
        states=get_states()))


@bp.post("/games/<game_id>/pause")
def pause(game_id: str):
    """A break: every phone's clock stops until someone resumes (events/domain/turns.py)."""
    table_state = table_or_404(game_id)
    return _record(game_id, table_state, _require_seat(game_id, table_state), "game-paused", {})


@bp.post("/games/<game_id>/resume")
def resume(game_id: str):
    table_state = table_or_404(game_id)
    return _record(game_id, table_state, _require_seat(game_id, table_state), "game-resumed", {})


@bp.post("/games/<game_id>/timer")
def timer(game_id: str):
    """The turn timer and chess clock: shown on the phones, never enforced."""
    table_state = table_or_404(game_id)
    seat = _require_seat(game_id, table_state)
    try:
        data = timing.timer_from_form(request.form)
    except FormError as err:
        return views.refuse(game_id, table_state, seat, 422, err.problems)
    return _record(game_id, table_state, seat, "timer-set", data)


def _require_seat(game_id: str, table_state) -> int:
    return require_seat(game_id, lambda problems, status: views.refuse(game_id, table_state, None, status, problems))


def _record(game_id, table_state, seat, type_, data):
    return _written(game_id, table_state, seat, lambda expected, client_id: record(
        get_db(), game_id, type_, data, expected, seat, device_id(), client_id, states=get_states(),
        table=table_state)[0])


def _written(game_id, table_state, seat, write):
    """The answer to a write of the table page's forms: ``write(expected_seq, client_event_id)``
    (one service call) with what the form sent, its event acknowledged or its refusal shown."""
    try:
        expected = int(request.form.get("expected_seq", ""))
    except ValueError:
        expected = -1
    client_id = request.form.get("client_event_id") or secrets.token_hex(16)
    if request.endpoint in views.SHARED_FORMS:  # forms every seated phone of a view shares
        client_id = views.seat_scoped(client_id, seat)
    try:
        event = write(expected, client_id[:64])
    except NOT_RECORDED as err:
        why = not_recorded(err)
        table_now = get_states().load(get_db(), game_id) if why.stale else table_state
        if isinstance(err, StaleSequence):  # what changed meanwhile, and the player's choice
            return views.refuse_stale(game_id, table_now, seat, expected)
        return views.refuse(game_id, table_now, seat, why.status, why.problems)
    return views.after_write(game_id, seat, event.seq)


@bp.route("/games/<game_id>/join/<code>", methods=["GET", "POST"])
def join(game_id: str, code: str):
    refuse_if_spent("join", JOIN_RATE)
    row = store.game_row(get_db(), game_id)
    if row is None or not secrets.compare_digest(code.encode("utf-8", "surrogatepass"), row["join_code"].encode()):
        count_wrong_guess("join", JOIN_RATE)
        if row is None:
            abort(404)
        return render_template("error.html", status=404, watch=game_id,
                               message=gettext("This join link is not valid. Ask the host to show the QR code "
                                               "again; meanwhile you can follow the table as a spectator.")), 404
    table_state = table_or_404(game_id)
    over = table_state.is_over
    closed = set(range(len(table_state.players))) if over else seats.closed_to_join(get_db(), game_id)
    if request.method == "GET":
        return render_template("join.html", game_id=game_id, code=code, table=table_state,
                               seat=my_seat(game_id), locked=closed, problems=[seats.GAME_OVER] if over else [],
                               **views.record_marks(get_db(), game_id, row))
    seat = request.form.get("seat", type=int)
    refused = seats.join_refused(seat, len(table_state.players), closed, over)
    if refused:
        problem, status = refused
        return render_template("join.html", game_id=game_id, code=code, table=table_state, seat=None,
                               locked=closed, problems=[problem], **views.record_marks(get_db(), game_id, row)), status
    token = seats.issue_seat_token(get_db(), game_id, seat)
    response = redirect(url_for("pages.table", game_id=game_id))
    remember_seat(response, game_id, token)
    return response


@bp.get("/games/<game_id>/qr.svg")
def qr(game_id: str):
    """The join link's QR code; ``?watch=1``: the read-only table link's, for spectators."""
    row = store.game_row(get_db(), game_id) or abort(404)
    if request.args.get("watch") == "1":
        url = views.watch_url(game_id)
    elif my_seat(game_id) is None:  # the join code is for seated phones to show, not spectators
        abort(403)
    else:
        url = views.join_url(game_id, row["join_code"])
    return Response(views.qr_svg(url), mimetype="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=3600"})
