"""The host's seat control (docs/reliability.md §5): lock seats, hand a seat to a new
phone. The host is the phone holding seat 0 (the game's creator); a lost host phone
is replaced with `flask --app app hand-seat GAME 0` on the server."""
from __future__ import annotations

from flask import Blueprint, abort, make_response, redirect, render_template, request, url_for
from markupsafe import Markup

from events.application import seats
from scoring.base import Problem
from scoring.i18n import msg
from web import views
from web.db import get_db
from web.ratelimit import count_wrong_guess, refuse_if_spent
from web.seating import JOIN_RATE, forget_seat, remember_seat, require_host, table_or_404

bp = Blueprint("seats", __name__)
LINK_USED = Problem("core §5", msg("This link is no longer valid; ask the host for a new one."))


def _page(game_id: str, table, handed=None):
    db = get_db()
    qr = None
    if handed:  # our own SVG, inline
        qr = Markup(views.qr_svg(handed["url"], box_size=8).decode().split("?>", 1)[-1])
    return make_response(render_template(
        "seats.html", game_id=game_id, table=table, locked=seats.locked_seats(db, game_id),
        phones=seats.phones_per_seat(db, game_id), handed=handed, qr=qr, **views.record_marks(db, game_id)))


@bp.get("/games/<game_id>/seats")
def manage(game_id: str):
    return _page(game_id, require_host(game_id))


@bp.post("/games/<game_id>/seats/<int:seat>/lock")
def lock(game_id: str, seat: int):
    table = require_host(game_id)
    if not 0 <= seat < len(table.players):
        abort(404)
    seats.set_lock(get_db(), game_id, seat, request.form.get("locked") == "1")
    return redirect(url_for("seats.manage", game_id=game_id), code=303)


@bp.post("/games/<game_id>/seats/<int:seat>/hand")
def hand_to_new_phone(game_id: str, seat: int):
    table = require_host(game_id)
    if not 0 <= seat < len(table.players):
        abort(404)
    code = seats.hand_over(get_db(), game_id, seat)
    handed = {"seat": seat, "player": table.players[seat]["name"], "url": views.hand_url(game_id, code)}
    response = _page(game_id, table, handed)
    if seat == seats.HOST_SEAT:  # the host gave its own seat away: this phone is no host now
        forget_seat(response, game_id)
    return response


@bp.route("/games/<game_id>/hand/<code>", methods=["GET", "POST"])
def hand(game_id: str, code: str):
    """A one-time link: GET only shows a button (link previews must not use it up)."""
    refuse_if_spent("join", JOIN_RATE)  # the same budget as the join link
    table = table_or_404(game_id)
    if request.method == "GET":
        seat = seats.handover_seat(get_db(), game_id, code)
        player = table.players[seat]["name"] if seat is not None else None
        if player is None:
            count_wrong_guess("join", JOIN_RATE)
        return render_template("hand.html", game_id=game_id, code=code, table=table, player=player,
                               problems=[] if player else [LINK_USED],
                               **views.record_marks(get_db(), game_id)), 200 if player else 404
    taken = seats.take_handover(get_db(), game_id, code)
    if taken is None:
        count_wrong_guess("join", JOIN_RATE)
        return render_template("hand.html", game_id=game_id, code=code, table=table, player=None,
                               problems=[LINK_USED], **views.record_marks(get_db(), game_id)), 404
    response = redirect(url_for("pages.table", game_id=game_id), code=303)
    remember_seat(response, game_id, taken[1])
    return response

