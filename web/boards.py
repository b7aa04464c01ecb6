"""Board editor pages: list, edit (each save is a new version), export and import
board profiles of any game kind that declares ``boards`` (events/application/boards.py). Saving
and importing are the organiser's (new games pin a profile's newest version); a table adds
only what its own game asked for, as it plays (``Boards.learn``)."""
from __future__ import annotations

import json

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for

from events.application import boards
from scoring import GAMES, get_game
from scoring.base import FormError, Problem
from scoring.i18n import msg
from web.db import get_db
from web.organiser import is_organiser, require_organiser

bp = Blueprint("boards", __name__, url_prefix="/boards")
MAX_IMPORT = 200_000
NOT_ORGANISER = Problem("boards", msg("Only the organiser can save or import a board profile (the phone that opened the organiser's link printed when the server started); a table fills in what its own game asks for as it plays."))


def _game(kind: str):
    game = get_game(kind)
    if game is None or game.boards is None:
        abort(404)
    return game


def pinned_json(profile: dict) -> str:
    return json.dumps(boards.pin(profile), ensure_ascii=False, separators=(",", ":"))


def profiles_of(game) -> list[dict]:
    """For the new game's set-up: the board profiles of ``game`` (none for a game without)."""
    return boards.list_profiles(get_db(), game) if game.boards else []


@bp.record_once
def _globals(state) -> None:
    state.app.jinja_env.globals["pinned_json"] = pinned_json


@bp.get("/")
def kinds():
    return render_template("boards/kinds.html", games=[g for g in GAMES.values() if g.boards])


@bp.get("/<kind>/")
def index(kind: str):
    game = _game(kind)
    return _index(game)


def _index(game, problems=(), status=200):
    return render_template("boards/list.html", game=game, profiles=boards.list_profiles(get_db(), game),
                           problems=list(problems), organiser=is_organiser()), status


@bp.route("/<kind>/<profile_id>/", methods=["GET", "POST"])
def edit(kind: str, profile_id: str):
    game = _game(kind)
    profile = boards.load(get_db(), game, profile_id, request.args.get("version", type=int)) or abort(404)
    if request.method == "GET":
        return _editor(game, profile, profile["data"])
    require_organiser(lambda problems, status: _editor(game, profile, profile["data"], problems, status), NOT_ORGANISER)
    target = (request.form.get("save_as") or "").strip() or profile_id
    try:
        data = game.board_editor.from_form(profile["data"], request.form)
    except FormError as err:
        return _editor(game, profile, profile["data"], err.problems, 422)
    try:
        saved = boards.save(get_db(), game, target, data)
    except boards.BadProfile as bad:
        return _editor(game, profile, data, bad.problems, 422)
    return redirect(url_for("boards.edit", kind=kind, profile_id=saved["id"], saved=saved["version"]), code=303)


def _editor(game, profile, data, problems=(), status=200):
    return render_template("boards/edit.html", game=game, profile=profile, data=data,
                           missing=game.board_editor.missing(data), problems=list(problems), organiser=is_organiser(),
                           saved=request.args.get("saved", type=int)), status


@bp.get("/<kind>/<profile_id>/<int:version>.json")
def export(kind: str, profile_id: str, version: int):
    game = _game(kind)
    profile = boards.load(get_db(), game, profile_id, version) or abort(404)
    body = json.dumps(boards.export(game, profile), ensure_ascii=False, indent=1)
    return Response(body, mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="{kind}-{profile_id}-v{version}.json"'})


@bp.post("/<kind>/import")
def import_profile(kind: str):
    game = _game(kind)
    require_organiser(lambda problems, status: _index(game, problems, status), NOT_ORGANISER)
    upload = request.files.get("file")
    raw = upload.read(MAX_IMPORT + 1).decode("utf-8", "replace") if upload and upload.filename else \
        request.form.get("document", "")
    try:
        document = json.loads(raw) if len(raw) <= MAX_IMPORT else None
    except ValueError:
        document = None
    profile_id = (request.form.get("profile_id") or "").strip() or None
    try:
        saved = boards.import_document(get_db(), game, document, profile_id)
    except boards.BadProfile as bad:
        return _index(game, bad.problems, 422)
    return redirect(url_for("boards.edit", kind=kind, profile_id=saved["id"], saved=saved["version"]), code=303)


