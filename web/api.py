"""The JSON API (docs/api.md): the same path and rules as the phone forms."""
from __future__ import annotations

from flask import Blueprint, jsonify, request

from events import store
from events.projection import standings
from events.cache import UnknownGame, load
from events.table import Refused, StaleSequence, new_game, record
from web.db import get_db
from web.seating import my_seat, require_seat
from web.security import device_id
from web.views import join_url, visible_state

bp = Blueprint("api", __name__, url_prefix="/api")


def _error(status: int, message: str, **extra):
    return jsonify({"error": message, **extra}), status


def _body():
    body = request.get_json(silent=True)
    return body if isinstance(body, dict) else None


def _problems(refusal: Refused) -> list[dict]:
    return [p.as_dict() for p in refusal.problems]


def _is_player(p) -> bool:
    """{name: str, colour?: str}: a null or numeric name is no name (it would become "None")."""
    return isinstance(p, dict) and isinstance(p.get("name"), str) \
        and isinstance(p.get("colour", ""), (str, type(None)))


@bp.post("/games")
def create_game():
    body = _body()
    if body is None:
        return _error(400, "the body must be a JSON object")
    players, options = body.get("players"), body.get("options", {})
    if not isinstance(body.get("kind"), str) or not isinstance(players, list) \
            or not all(_is_player(p) for p in players) or not isinstance(options, dict):
        return _error(400, "expected {kind: str, players: [{name: str, colour?: str}], options?: {}}")
    try:
        created = new_game(get_db(), body["kind"], players, options, device_id())
    except Refused as refusal:
        return _error(422, "the game cannot be set up", problems=_problems(refusal))
    return jsonify({"id": created["id"], "seq": created["seq"],
                    "join_url": join_url(created["id"], created["join_code"]),
                    "seats": created["seats"]}), 201


@bp.post("/games/<game_id>/events")
def append_event(game_id: str):
    db = get_db()
    if store.last_seq(db, game_id) == 0:
        return _error(404, "no such game")
    token = request.headers.get("X-Seat-Token")
    seat = require_seat(game_id, lambda problems, status: _error(
        status if token else 401, "a seat token of this game is needed (X-Seat-Token)"), token=token or "")
    body = _body()
    if body is None:
        return _error(400, "the body must be a JSON object")
    type_, expected, client_id = body.get("type"), body.get("expected_seq"), body.get("client_event_id")
    if not isinstance(type_, str) or type(expected) is not int or not isinstance(client_id, str) \
            or not 1 <= len(client_id) <= 64:
        return _error(400, "expected {type: str, data: {}, expected_seq: int, client_event_id: str (1-64)}")
    try:
        event, _ = record(db, game_id, type_, body.get("data", {}), expected, seat,
                          device_id(), client_id)
    except StaleSequence:
        fresh = _state_json(game_id, seat=seat)  # read after the refusal: as fresh as it gets
        return _error(409, "stale: someone recorded first", seq=fresh["seq"], state=fresh)
    except Refused as refusal:
        return _error(422, "the rules refuse this move", problems=_problems(refusal))
    return jsonify({"seq": event.seq, "hash": event.hash}), 201


@bp.get("/games/<game_id>/events")
def list_events(game_id: str):
    events = store.read_events(get_db(), game_id)
    if not events:
        return _error(404, "no such game")
    return jsonify({"events": [e.envelope() for e in events]})


def _state_json(game_id: str, at: int | None = None, seat: int | None = None) -> dict:
    """The state as the phone of ``seat`` may see it (the game's ``redact``)."""
    table = load(get_db(), game_id, at)
    return {"seq": table.seq, "state": visible_state(table, seat),
            "over": table.rules.is_over(table.game),
            "standings": [{k: row[k] for k in ("seat", "player", "score", "rank", "breakdown")}
                          for row in standings(table)]}


@bp.get("/games/<game_id>/state")
def state(game_id: str):
    at = request.args.get("at")
    if at is not None and not (at.isascii() and at.isdigit() and int(at) >= 1):  # "²" is a digit too
        return _error(400, "at must be a positive event number")
    try:
        seat = my_seat(game_id, request.headers.get("X-Seat-Token"))
        return jsonify(_state_json(game_id, int(at) if at else None, seat))
    except UnknownGame:
        return _error(404, "no such game")
