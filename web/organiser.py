"""The organiser: the one role that may change the roster (docs/people.md §10).

`make run` prints the organiser's link at every start until a phone has opened it
(`flask --app app organiser-link` prints it any time); the phone that opens it keeps the
organiser's cookie. The link's secret is derived from the installation's secret key (HMAC) and a salt in the database, so every worker,
server and restart agree on it without storing it; `flask --app app new-organiser-link`
replaces the salt, which ends the old link and every phone's cookie of it, and nothing
else. Codes and cookies are compared as bytes (any text a phone sends is refused, never a
500), and wrong codes spend the same per-address budget as wrong join codes
(web/ratelimit.py). Roster changes and BG Stats imports need the organiser; a seated
phone may link its own seat to a person while its game runs; everyone else reads.
"""
from __future__ import annotations

import hashlib
import hmac
import os
from typing import Callable

import secrets as random_secrets

from flask import Blueprint, abort, current_app, g, make_response, redirect, request, url_for

from events.storage import store
from scoring.base import Problem
from scoring.i18n import msg
from web.db import get_db
from web.ratelimit import count_wrong_guess, refuse_if_spent
from web.seating import JOIN_RATE

bp = Blueprint("organiser", __name__)
COOKIE = "organiser"
NOT_ORGANISER = Problem("people §10", msg("Only the organiser can change the roster (the phone that opened the organiser's link printed when the server started)."))


def secret() -> str:
    """The organiser link's secret: 256 bits, the same in every worker (read once a request)."""
    if "organiser_secret" not in g:
        salt = store.organiser_salt(get_db())
        g.organiser_secret = hmac.new(current_app.config["SECRET_KEY"].encode(),
                                      b"tablescribe organiser" + salt.encode(), hashlib.sha256).hexdigest()
    return g.organiser_secret


def renew(db) -> None:
    """A new organiser's link: the old one, and every phone's cookie of it, stop working."""
    store.set_organiser_salt(db, random_secrets.token_hex(16))
    g.pop("organiser_secret", None)


def _matches(given: str) -> bool:
    """Whether a code or cookie is the secret, compared in constant time as bytes: a phone
    may send any text (``hmac.compare_digest`` refuses non-ASCII ``str``)."""
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), secret().encode())


def is_organiser() -> bool:
    cookie = request.cookies.get(COOKIE)
    return bool(cookie) and _matches(cookie)


def require_organiser(refuse: Callable[[list[Problem], int], object], why: Problem = NOT_ORGANISER) -> None:
    """Anyone but the organiser gets ``refuse([why], 403)`` and nothing is written."""
    if not is_organiser():
        abort(make_response(refuse([why], 403)))


@bp.get("/organiser/<code>")
def open_link(code: str):
    """The organiser's link: this phone keeps the organiser's cookie (a year)."""
    refuse_if_spent("join", JOIN_RATE)  # the join link's budget: one per address for every code
    if not _matches(code):
        count_wrong_guess("join", JOIN_RATE)
        abort(404)
    _remember_opened()
    response = redirect(url_for("people.people"), code=303)
    response.set_cookie(COOKIE, code, max_age=365 * 86400, httponly=True, samesite="Lax")
    return response


def _marker() -> str:
    return current_app.config.get("ORGANISER_MARKER") or \
        os.path.join(current_app.instance_path, ".organiser-link-opened")


def _opened_mark() -> str:
    """What the marker holds for the current link: a digest of it, not the link (a new
    link, `new-organiser-link`, is printed again until it is opened)."""
    return hashlib.sha256(secret().encode()).hexdigest()


def _remember_opened() -> None:
    """`make run` stops printing the link: a phone has it (a file in instance/)."""
    if not was_opened():
        with open(_marker(), "w") as f:
            f.write(_opened_mark())


def was_opened() -> bool:
    try:
        with open(_marker()) as f:
            return hmac.compare_digest(f.read().strip(), _opened_mark())
    except OSError:
        return False


def link() -> str:
    return url_for("organiser.open_link", code=secret(), _external=True)


def init_app(app) -> None:
    app.register_blueprint(bp)
