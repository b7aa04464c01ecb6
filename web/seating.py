"""Which seat this phone holds, for every blueprint: the seat cookie, the table or a
404, and the guards of write routes (``require_seat``) and the host's pages
(``require_host``). A phone holds a seat by its token (events/application/seats.py)."""
from __future__ import annotations

from typing import Callable

from flask import abort, make_response, request, url_for

from events.application import seats
from events.application.states import UnknownGame
from events.domain.projection import TableState
from scoring.base import Problem
from scoring.i18n import msg
from web.db import get_db, get_states

NOT_SEATED = Problem("core §5", msg("Only a seated phone can record; join with the QR code."))
JOIN_RATE = (30, 60.0)  # wrong join or hand-over codes per address per minute (web/ratelimit.py)


def table_or_404(game_id: str, at: int | None = None) -> TableState:
    try:
        return get_states().load(get_db(), game_id, at)
    except UnknownGame:
        abort(404)


def seat_cookie(game_id: str) -> str:
    return f"seat_{game_id}"


def seat_cookie_path(game_id: str) -> str:
    """A seat cookie goes only to its own game's pages: a phone that has sat at a few
    hundred tables would otherwise send them all with every request, past the 8 KB a
    header field may have (gunicorn then answers 400 to everything)."""
    return url_for("pages.table", game_id=game_id)


def remember_seat(response, game_id: str, token: str) -> None:
    response.set_cookie(seat_cookie(game_id), token, max_age=30 * 86400, httponly=True,
                        samesite="Lax", path=seat_cookie_path(game_id))


def forget_seat(response, game_id: str) -> None:
    for path in (seat_cookie_path(game_id), "/"):  # "/": cookies set before they were scoped
        response.delete_cookie(seat_cookie(game_id), path=path)


def my_seat(game_id: str, token: str | None = None) -> int | None:
    """The seat the phone's token opens: ``token`` if given (the API's header), else
    the phone's seat cookie for this game."""
    if token is None:
        token = request.cookies.get(seat_cookie(game_id))
    return seats.seat_for_token(get_db(), game_id, token)


def require_seat(game_id: str, refuse: Callable[[list[Problem], int], object],
                 token: str | None = None) -> int:
    """The seat of the phone writing to this game. A phone without one gets
    ``refuse([NOT_SEATED], 403)``, the route's own refusal page, and nothing is written."""
    seat = my_seat(game_id, token)
    if seat is None:
        abort(make_response(refuse([NOT_SEATED], 403)))
    return seat


def require_host(game_id: str) -> TableState:
    """The table, for the phone holding the host's seat; 403 for anyone else."""
    table = table_or_404(game_id)
    if my_seat(game_id) != seats.HOST_SEAT:
        abort(403)
    return table
