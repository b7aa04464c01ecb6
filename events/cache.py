"""The one cache of folded table states, and the snapshots behind the replay slider.

``load(db, game)`` is the latest state, extended by the events appended since it was
cached; ``load(db, game, at)`` the state at any sequence number. A cached state or a
snapshot always equals the full fold (tests/test_projection.py, tests/test_snapshots.py).
"""
from __future__ import annotations

import json
import threading

import orjson

from events import store
from events.projection import TableState, advance, changes_the_past, fold
from events.store import Event


class UnknownGame(LookupError):
    pass


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
    remember(game_id, table)
    return table


def remember(game_id: str, table: TableState) -> None:
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
