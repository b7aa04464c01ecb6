"""The JSON API (docs/api.md): the same path and rules as the phone forms."""
from __future__ import annotations

from flask import Blueprint, abort, jsonify, make_response, request

from events.application import integrity
from events.application.states import UnknownGame
from events.application.table import NOT_RECORDED, Refused, StaleSequence, not_recorded, record
from events.domain.projection import standings
from events.storage import store
from group import roster
from group.roster import RosterRefused
from scoring.base import Text
from scoring.i18n import msg
from scoring.schema import unencodable_path
from services.games import start_game
from web.db import caches, get_db, get_states
from web.i18n import tr
from web.logs import refused_because
from web.rules import problem_json
from web.seating import my_seat, require_seat
from web.security import device_id
from web.views import join_url, visible_state

bp = Blueprint("api", __name__, url_prefix="/api")


def _error(status: int, message: dict, **extra):
    """A JSON error: ``error`` in the client's language (?lang=, the lang cookie or
    Accept-Language, as the pages choose); ``problems`` keep both languages."""
    refused_because(extra.get("problems") or message)  # the log says it in English (web/logs.py)
    return jsonify({"error": tr(message), **extra}), status


NOT_AN_OBJECT = msg("the body must be a JSON object")
NO_SUCH_GAME = msg("no such game")


def _body():
    """The JSON object sent, or None. Text that is not valid Unicode (a lone surrogate, which
    JSON escapes can carry) is refused here with its place, before anything reads it."""
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        return None
    where = unencodable_path(body)
    if where is not None:
        abort(make_response(_error(400, msg("the text at %(where)s is not valid Unicode (a lone surrogate)", where=where))))
    return body


def _problems(refusal: Refused | RosterRefused) -> list[dict]:
    return [problem_json(p) for p in refusal.problems]


def _is_player(p) -> bool:
    """{name: str, colour?: str|null} or {person: int, colour?: str|null} (a roster person,
    docs/people.md), nothing else: a null or numeric name is no name (it would become "None"),
    and a key the API does not know is refused, not ignored (docs/openapi.yaml)."""
    return isinstance(p, dict) and set(p) <= {"name", "person", "colour"} \
        and ("name" in p or "person" in p) \
        and isinstance(p.get("name", ""), str) and _whole(p.get("person", 1)) \
        and isinstance(p.get("colour", ""), (str, type(None)))


def _whole(n) -> bool:
    """An integer as JSON Schema counts one: 7, or 7.0 as some clients write it."""
    return type(n) is int or (type(n) is float and n.is_integer())


def _people_as_ints(players: list[dict]) -> list[dict]:
    return [{**p, "person": int(p["person"])} if "person" in p else p for p in players]


@bp.post("/games")
def create_game():
    body = _body()
    if body is None:
        return _error(400, NOT_AN_OBJECT)
    players, options = body.get("players"), body.get("options", {})
    if not set(body) <= {"kind", "players", "options"} \
            or not isinstance(body.get("kind"), str) or not isinstance(players, list) \
            or not all(_is_player(p) for p in players) or not isinstance(options, dict):
        return _error(400, msg("expected {kind: str, players: [{name: str, colour?: str} or {person: int, colour?: str}], options?: {}} and no other keys"))
    try:
        players, people = roster.resolve_players(roster.load(get_db(), caches().roster), _people_as_ints(players))
        created = start_game(get_db(), body["kind"], players, options, device_id(), people=people,
                             rosters=caches().roster)
    except (Refused, RosterRefused) as refusal:
        return _error(422, msg("the game cannot be set up"),
                      problems=_problems(refusal))
    return jsonify({"id": created["id"], "seq": created["seq"],
                    "join_url": join_url(created["id"], created["join_code"]),
                    "seats": created["seats"]}), 201


@bp.post("/games/<game_id>/events")
def append_event(game_id: str):
    db = get_db()
    if store.last_seq(db, game_id) == 0:
        return _error(404, NO_SUCH_GAME)
    token = request.headers.get("X-Seat-Token")
    seat = require_seat(game_id, lambda problems, status: _error(
        status if token else 401, msg("a seat token of this game is needed (X-Seat-Token)")), token=token or "")
    body = _body()
    if body is None:
        return _error(400, NOT_AN_OBJECT)
    type_, expected, client_id = body.get("type"), body.get("expected_seq"), body.get("client_event_id")
    if not set(body) <= {"type", "data", "expected_seq", "client_event_id"} \
            or not isinstance(type_, str) or not isinstance(body.get("data", {}), dict) \
            or type(expected) is not int or not isinstance(client_id, str) or not 1 <= len(client_id) <= 64:
        return _error(400, msg("expected {type: str, data?: {}, expected_seq: int, client_event_id: str (1-64)} and no other keys"))
    try:
        event, _ = record(db, game_id, type_, body.get("data", {}), expected, seat,
                          device_id(), client_id, states=get_states())
    except NOT_RECORDED as err:
        why = not_recorded(err)
        if isinstance(err, StaleSequence):  # docs/api.md: the fresh state instead of problems
            fresh = _state_json(game_id, seat=seat)  # read after the refusal: as fresh as it gets
            return _error(why.status, why.summary, seq=fresh["seq"], state=fresh)
        extra = {"seq": why.seq} if why.seq is not None else {}
        return _error(why.status, why.summary, problems=[problem_json(p) for p in why.problems], **extra)
    return jsonify({"seq": event.seq, "hash": event.hash}), 201


@bp.get("/games/<game_id>/events")
def list_events(game_id: str):
    events = store.read_events(get_db(), game_id)
    if not events:
        return _error(404, NO_SUCH_GAME)
    return jsonify({"events": [e.envelope() for e in events], **_unverified(game_id)})


def _unverified(game_id: str) -> dict:
    """``{"unverified": {"from", "reason", "hu", "en"}}`` for a record that does not verify."""
    broken = caches().verified.unverified_from(get_db(), game_id)
    return {"unverified": integrity.warning(broken)} if broken else {}


def _state_json(game_id: str, at: int | None = None, seat: int | None = None) -> dict:
    """The state as the phone of ``seat`` may see it (the game's ``redact``)."""
    table = get_states().load(get_db(), game_id, at)
    return {"seq": table.seq, "state": visible_state(table, seat),
            "over": table.rules.is_over(table.game),
            "standings": [{k: row[k] for k in ("seat", "player", "score", "rank", "breakdown")}
                          for row in standings(table)], **_unverified(game_id)}


@bp.get("/games/<game_id>/state")
def state(game_id: str):
    at = request.args.get("at")
    # "²" is a digit too; 5,000 digits are refused by int() itself
    if at is not None and not (at.isascii() and at.isdigit() and len(at) <= 15 and int(at) >= 1):
        return _error(400, msg("at must be a positive event number"))
    try:
        seat = my_seat(game_id, request.headers.get("X-Seat-Token"))
        return jsonify(_state_json(game_id, int(at) if at else None, seat))
    except UnknownGame:
        return _error(404, NO_SUCH_GAME)
