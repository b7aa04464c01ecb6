"""Which servers' games count (events/application/trust.py, docs/export-format.md "Signature"): this
server's key pair for signing its exports, made when the app starts if the instance folder
has none; the organiser's page of trusted servers and imported games (``/people/servers``),
where the organiser trusts another server's key, withdraws it, and accepts an imported
game no trusted server signed (or withdraws that). Everyone may read it; only the organiser
changes it."""
from __future__ import annotations

from flask import Blueprint, abort, current_app, redirect, request, url_for

from events.application import export, signing, trust
from events.storage import store
from scoring import text
from scoring.base import Problem
from scoring.i18n import msg
from web.db import caches, get_db
from web.organiser import require_organiser
from web.stats import render_group

bp = Blueprint("trust", __name__)
NOT_A_KEY = Problem("people §11", msg("A server's key is the 64 letters and digits its Trusted servers page shows as its own key."))
SERVER_NAME = text.TextRule(msg("Server name"), 80, least=1)


def server_key():
    """This server's signing key (events/application/signing.py), loaded when the app started."""
    return current_app.extensions["signing_key"]


def signed(doc: dict) -> dict:
    """An export of this server, signed when its game counts here (events/application/export.py:sign)."""
    return export.sign(get_db(), doc, server_key())


@bp.get("/people/servers")
def page(problems=(), status: int = 200):
    db = get_db()
    own = signing.public_hex(server_key())
    keys = [{**k, "fingerprint": signing.fingerprint(k["public_key"]), "this": k["public_key"] == own}
            for k in trust.trusted(db)]
    games = [{**g, "fingerprint": signing.fingerprint(g["signer"]) if g["signer"] else None}
             for g in trust.imported(db)]
    return render_group("stats/servers.html", own=own, own_fingerprint=signing.fingerprint(own), keys=keys,
                           games=games, problems=list(problems), form=request.form), status


def _refused(problems, status):
    return page(problems, status)


def _changed():
    caches().plays.forget()  # the plays' ratings are kept per set of games left out: worked out again
    return redirect(url_for("trust.page"), code=303)


@bp.post("/people/servers")
def add():
    require_organiser(_refused)
    key = (request.form.get("public_key") or "").strip().lower().replace(" ", "")
    if not signing.is_public_key(key):
        return _refused([NOT_A_KEY], 422)
    try:
        name = text.clean(request.form.get("name"), SERVER_NAME)
    except text.BadText as bad:
        return _refused([Problem("people §11", bad.why)], 422)
    trust.trust(get_db(), key, name)
    return _changed()


@bp.post("/people/servers/<public_key>/withdraw")
def withdraw(public_key: str):
    return _by_organiser(trust.distrust, public_key)


@bp.post("/people/servers/games/<game_id>/accept")
def accept(game_id: str):
    return _by_organiser(trust.accept, game_id)


@bp.post("/people/servers/games/<game_id>/withdraw")
def unaccept(game_id: str):
    return _by_organiser(trust.withdraw, game_id)


def _by_organiser(change, subject: str):
    """The organiser's ``change(db, subject)``; anyone else: 403, nothing written. A game
    this server does not hold: 404."""
    require_organiser(_refused)
    if change is trust.accept and store.game_row(get_db(), subject) is None:
        abort(404)
    change(get_db(), subject)
    return _changed()


def init_app(app) -> None:
    """The key pair (made on first need) and this server's key among the trusted ones."""
    path = app.config.get("SIGNING_KEY") or signing.key_path(app.instance_path)
    key = app.extensions["signing_key"] = signing.load_or_make(path)
    app.register_blueprint(bp)
    if app.config["DATABASE"] == ":memory:":  # each connection its own empty store (scripts/figures.py)
        return
    db = store.connect(app.config["DATABASE"])
    try:
        trust.trust_own(db, signing.public_hex(key))
    finally:
        db.conn.close()
