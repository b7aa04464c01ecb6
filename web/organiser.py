"""The organiser: the one role that may change the roster (docs/people.md §10).

`make run` prints the organiser's link once (`flask --app app organiser-link` prints it
again); the phone that opens it keeps the organiser's cookie. The link's secret is derived
from the installation's secret key (HMAC), so every worker and every restart agree on it
without storing it, and a new secret key (instance/secret_key) withdraws it from every
phone. Roster changes and BG Stats imports need the organiser; a seated phone may link its
own seat to a person; everyone else reads.
"""
from __future__ import annotations

import hashlib
import hmac
from typing import Callable

from flask import Blueprint, abort, current_app, make_response, redirect, request, url_for

from scoring.base import Problem
from scoring.i18n import msg

bp = Blueprint("organiser", __name__)
COOKIE = "organiser"
NOT_ORGANISER = Problem("people §10", msg("Only the organiser can change the roster (the phone that opened the organiser's link printed when the server started)."))


def secret() -> str:
    """The organiser link's secret: 256 bits, the same in every worker."""
    return hmac.new(current_app.config["SECRET_KEY"].encode(), b"tablescribe organiser",
                    hashlib.sha256).hexdigest()


def is_organiser() -> bool:
    return hmac.compare_digest(request.cookies.get(COOKIE, ""), secret())


def require_organiser(refuse: Callable[[list[Problem], int], object]) -> None:
    """Anyone but the organiser gets ``refuse([NOT_ORGANISER], 403)`` and nothing is written."""
    if not is_organiser():
        abort(make_response(refuse([NOT_ORGANISER], 403)))


@bp.get("/organiser/<code>")
def open_link(code: str):
    """The organiser's link: this phone keeps the organiser's cookie (a year)."""
    if not hmac.compare_digest(code, secret()):
        abort(404)
    response = redirect(url_for("people.people"), code=303)
    response.set_cookie(COOKIE, code, max_age=365 * 86400, httponly=True, samesite="Lax")
    return response


def link() -> str:
    return url_for("organiser.open_link", code=secret(), _external=True)


def init_app(app) -> None:
    app.register_blueprint(bp)
    app.jinja_env.globals.update(is_organiser=is_organiser)
