"""Recording moves at a table: the one path every phone form and API call takes.

``record`` = idempotency check → fold to the state the phone saw → payload schema
→ the game's rules → append. Refusals raise; nothing is appended unless all pass.
"""
from __future__ import annotations

import hashlib
import json
import secrets
import threading
from functools import lru_cache

import orjson

from events import store
from events.core_types import CORE_SCHEMAS, CORE_VERSION, check_core
from events.projection import TableState, advance, changes_the_past, fold, upcast
from events.store import Event, NewEvent, StaleSequence
from scoring import get_game, rules_for
from scoring.base import Problem
from scoring.schema import schema_texts, strict_validator

MAX_NAME = 40


class Refused(Exception):
    """The move breaks a rule or is malformed; ``problems`` say why."""

    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(p.en for p in problems))
        self.problems = problems


class UnknownGame(LookupError):
    pass


__all__ = ["Refused", "UnknownGame", "StaleSequence", "new_game", "record", "load"]


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def seat_for_token(db, game_id: str, token: str | None) -> int | None:
    """The seat a phone's token opens, or None. The lookup is by the token's SHA-256,
    so timing reveals nothing about the stored value; the game id must match too."""
    if not token or len(token) > 128:
        return None
    return store.seat_of_token_hash(db, game_id, hash_token(token))


def issue_seat_token(db, game_id: str, seat: int) -> str:
    token = secrets.token_urlsafe(24)
    with db.atomic():
        store.add_seat_token(db, game_id, seat, hash_token(token))
    return token


def new_game(db, kind: str, players: list[dict], options: dict | None, device: str,
             origin: str | None = None) -> dict:
    game = get_game(kind)
    if game is None:
        raise Refused([Problem("core §1", "Ismeretlen játék.", f"Unknown game kind {kind!r}.")])
    players = [{"name": str(p.get("name", "")).strip(), "colour": str(p.get("colour") or "")}
               for p in players]
    options = {**game.default_options(), **(options or {})}
    problems = check_setup(game, players, options)
    if problems:
        raise Refused(problems)
    game_id, join_code = secrets.token_urlsafe(6), secrets.token_urlsafe(16)
    tokens = [secrets.token_urlsafe(24) for _ in players]
    store.insert_game(db, game_id, kind, players, join_code, [hash_token(t) for t in tokens])
    data = {"kind": kind, "rules_version": game.rules_version, "players": players,
            "options": options, "origin": origin or game_id}
    store.append(db, game_id, NewEvent("game-created", CORE_VERSION, data, None, device,
                                       secrets.token_hex(16)), expected_seq=0)
    return {"id": game_id, "seq": 1, "join_code": join_code,
            "seats": [{"seat": i, "player": p["name"], "token": t}
                      for i, (p, t) in enumerate(zip(players, tokens))]}


def check_setup(game, players: list[dict], options: dict) -> list[Problem]:
    problems = []
    if not game.min_players <= len(players) <= game.max_players:
        problems.append(Problem("core §1", f"{game.min_players}–{game.max_players} játékos kell.",
                                f"This game takes {game.min_players}–{game.max_players} players."))
    if any(not p["name"] or len(p["name"]) > MAX_NAME for p in players):
        problems.append(Problem("core §1", f"Minden játékosnak legyen neve (max. {MAX_NAME} karakter).",
                                f"Every player needs a name of at most {MAX_NAME} characters."))
    declared = {o.name: o for o in game.options}
    for name, value in options.items():
        option = declared.get(name)
        if option is None or (option.choices is not None and value not in option.choices) or \
                (option.choices is None and type(value) is not type(option.default)):
            problems.append(Problem("core §1", f"Érvénytelen beállítás: {name}.",
                                    f"Invalid option: {name}."))
    if not problems and game.check_setup:
        problems += game.check_setup(players, options)
    return problems


@lru_cache(maxsize=None)
def _validator(kind: str, rules_version: int, type_: str):
    """The payload's validator; a core type's when ``kind`` is empty, else the type's
    schema in the rules the game is folded with (a retired version's, if pinned)."""
    schema = CORE_SCHEMAS[type_] if kind == "" else rules_for(kind, rules_version).event_types[type_].schema
    return strict_validator(schema)


def _check_shape(table: TableState, type_: str, data) -> list[Problem]:
    game = table.rules
    if type_ not in CORE_SCHEMAS and type_ not in game.event_types:
        return [Problem("core §2", f"Ismeretlen eseménytípus: {type_}.", f"Unknown event type {type_!r}.")]
    if not isinstance(data, dict):
        return [Problem("core §2", "Az adat JSON objektum legyen.", "data must be a JSON object.")]
    key = ("", 0, type_) if type_ in CORE_SCHEMAS else (table.kind, table.rules_version, type_)
    errors = sorted(_validator(*key).iter_errors(data), key=lambda e: list(e.path))
    return [Problem("core §2", f"Hibás adat: {hu}", f"Invalid data: {en}")
            for hu, en in map(schema_texts, errors[:5])]


def check_move(table: TableState, type_: str, data) -> list[Problem]:
    """Every problem with recording this move now; empty means it may be appended."""
    problems = _check_shape(table, type_, data)
    if problems:
        return problems
    if type_ in CORE_SCHEMAS:
        return check_core(table, type_, data)
    game = table.rules
    spec = game.event_types[type_]
    move = upcast(game, Event(table.seq + 1, type_, spec.version, data, None, "", "", "", ""))
    return game.check(table.game, move)


def record(db, game_id: str, type_: str, data, expected_seq: int, seat: int | None,
           device: str, client_event_id: str) -> tuple[Event, bool]:
    """Append a move; returns (event, created). Raises UnknownGame, StaleSequence, Refused."""
    earlier = store.find_by_client_id(db, game_id, client_event_id)
    if earlier:
        return earlier, False
    try:
        return _record(db, game_id, type_, data, expected_seq, seat, device, client_event_id)
    except StaleSequence:
        # A double tap racing itself: the twin appended first, so this is no stale
        # view but the same submission; answer as the first answer did.
        earlier = store.find_by_client_id(db, game_id, client_event_id)
        if earlier:
            return earlier, False
        raise


def _record(db, game_id, type_, data, expected_seq, seat, device, client_event_id):
    table = load(db, game_id)
    if expected_seq != table.seq:
        raise StaleSequence(table.seq)
    problems = check_move(table, type_, data)
    if problems:
        raise Refused(problems)
    version = CORE_VERSION if type_ in CORE_SCHEMAS else table.rules.event_types[type_].version
    new = NewEvent(type_, version, data, seat, device, client_event_id)
    pending = Event(table.seq + 1, type_, version, data, seat, device, "", "", "")
    after = advance(table, pending) or fold(store.read_events(db, game_id) + [pending])
    event, created = store.append(db, game_id, new, expected_seq,
                                  finished=table.rules.is_over(after.game))
    if created:  # the state after it is known: the next load need not fold it again
        _remember(game_id, after)
    return event, created


# The latest state per game, extended by the events appended since; a cached state
# always equals the full fold (tests/test_projection.py proves it).
_cache: dict[str, TableState] = {}
_cache_lock = threading.Lock()
_CACHE_MAX = 2000


def load(db, game_id: str, at: int | None = None) -> TableState:
    if at is not None:
        return _state_at(db, game_id, at)
    with _cache_lock:
        cached = _cache.get(game_id)
    table = _extend(db, game_id, cached)
    _remember(game_id, table)
    return table


def _remember(game_id: str, table: TableState) -> None:
    with _cache_lock:
        if len(_cache) >= _CACHE_MAX:
            _cache.clear()
        cached = _cache.get(game_id)
        if cached is None or cached.seq <= table.seq:  # never step back to an older state
            _cache[game_id] = table


# The state at any sequence number (the replay slider, ``--at``): snapshots kept per
# game every ``every`` events, so a state is the nearest snapshot at or before it
# folded forwards by fewer than ``every`` events. A game's snapshots hold at most
# _SNAPSHOT_BYTES of state (as JSON): past that, ``every`` doubles and every other
# one goes, so small states are kept densely and growing ones sparsely. A snapshot
# always equals the full fold to its event (tests/test_snapshots.py).
_SNAPSHOT_EVERY = 4
_SNAPSHOT_BYTES = 2 * 2**20
_SNAPSHOT_GAMES = 16
# game -> (every, {seq: (state, its JSON size)})
_snapshots: dict[str, tuple[int, dict[int, tuple[TableState, int]]]] = {}


def _state_at(db, game_id: str, at: int) -> TableState:
    with _cache_lock:
        kept = _snapshots.get(game_id, (_SNAPSHOT_EVERY, {}))[1]
        cached = _cache.get(game_id)
    if cached is not None and cached.seq == at:
        return cached
    base = max((seq for seq in kept if seq <= at), default=0)
    events = store.read_events(db, game_id, after=base, upto=at)
    if base:
        return _fold_forward(db, game_id, kept[base][0], events)
    if not events:
        raise UnknownGame(game_id)
    return _fold_forward(db, game_id, fold(events[:1]), events[1:])


def _fold_forward(db, game_id: str, table: TableState, events: list[Event]) -> TableState:
    """Fold ``events`` onto ``table``, keeping a snapshot every ``every`` events."""
    with _cache_lock:
        every = _snapshots.get(game_id, (_SNAPSHOT_EVERY, {}))[0]
    for event in events:
        # a void or rescore changes the past: fold the whole game up to it
        table = advance(table, event) or fold(store.read_events(db, game_id, upto=event.seq))
        if table.seq % every == 0:
            every, _ = _keep_snapshot(game_id, table)
    return table


def _json_size(state: dict) -> int:
    try:
        return len(orjson.dumps(state, option=orjson.OPT_NON_STR_KEYS))  # ~5× the stdlib's speed
    except TypeError:
        return len(json.dumps(state))


def _keep_snapshot(game_id: str, table: TableState) -> tuple[int, dict]:
    size = _json_size(table.game)
    with _cache_lock:
        every, kept = _snapshots.pop(game_id, (_SNAPSHOT_EVERY, {}))
        if table.seq % every == 0:
            kept = {**kept, table.seq: (table, size)}
        while len(kept) > 1 and sum(size for _, size in kept.values()) > _SNAPSHOT_BYTES:
            every *= 2
            kept = {seq: kept[seq] for seq in kept if seq % every == 0}
        if len(_snapshots) >= _SNAPSHOT_GAMES:
            _snapshots.pop(next(iter(_snapshots)))  # the game least recently snapshotted
        _snapshots[game_id] = (every, kept)
        return every, kept


def _extend(db, game_id: str, cached: TableState | None) -> TableState:
    if cached is None:
        return _fold_all(db, game_id)
    table = cached
    for event in store.read_events(db, game_id, after=cached.seq):
        table = advance(table, event)
        if table is None:
            return _fold_all(db, game_id)
    return table


def _fold_all(db, game_id: str) -> TableState:
    """A worker's first fold of a game passes every state: it keeps the snapshots on the
    way, so the replay slider is quick from the first step. A game whose past was changed
    (a void, a rescore) is folded whole instead: forwards, each change would refold."""
    events = store.read_events(db, game_id)
    if not events:
        raise UnknownGame(game_id)
    if any(changes_the_past(e) for e in events):
        return fold(events)
    return _fold_forward(db, game_id, fold(events[:1]), events[1:])


def forget_cache() -> None:
    with _cache_lock:
        _cache.clear()
        _snapshots.clear()
