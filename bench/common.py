"""Shared helpers of the benchmarks: percentiles, a scratch directory on the same
disk as the real database, and legal games of any registered kind grown from its
``demo()`` moves."""
from __future__ import annotations

import math
import os
import secrets
import statistics
import tempfile
import time
from contextlib import contextmanager

from events.domain.event import Event, NewEvent
from events.domain.hashing import GENESIS, chain_hash
from events.domain.projection import TableState, advance, fold
from events.storage import store
from scoring import GAMES

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def percentile(values, p: float) -> float:
    """The p-th percentile (nearest rank) of a non-empty sample."""
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, math.ceil(p / 100 * len(ordered)) - 1))
    return ordered[k]


def summary_ms(seconds: list[float]) -> dict:
    ms = [s * 1000 for s in seconds]
    return {"n": len(ms), "p50": percentile(ms, 50), "p95": percentile(ms, 95),
            "p99": percentile(ms, 99), "mean": statistics.fmean(ms), "max": max(ms)}


@contextmanager
def scratch_dir():
    """A temporary directory on the disk the real database lives on (not tmpfs), so
    fsync costs what it costs in production."""
    base = os.path.join(ROOT, "instance")
    os.makedirs(base, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="bench-", dir=base) as path:
        yield path


def durations(fn, n: int) -> list[float]:
    """The seconds each of ``n`` calls of ``fn()`` took."""
    out = []
    for _ in range(n):
        tick = time.perf_counter()
        fn()
        out.append(time.perf_counter() - tick)
    return out


def timed(fn, *args, **kwargs):
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return time.perf_counter() - start, result


def kinds() -> list[str]:
    """Every registered game kind that has a demo game."""
    return [k for k in sorted(GAMES) if GAMES[k].demo is not None]


class Player:
    """Plays a game of ``kind`` onwards from its ``demo()``: cycles through the demo's
    moves, skipping those the rules refuse now and those that would end the game,
    so the game can grow as long as the rules allow. ``next_move`` returns None
    when no demo move is legal any more (the game's natural length)."""

    def __init__(self, kind: str):
        self.game = GAMES[kind]
        self.players, options, self.moves = self.game.demo()
        self.options = {**self.game.default_options(), **options}
        self.cursor = 0

    def created_data(self) -> dict:
        return {"kind": self.game.kind, "rules_version": self.game.rules_version,
                "players": self.players, "options": self.options, "origin": "bench"}

    def next_move(self, table: TableState) -> tuple[str, dict, TableState] | None:
        from events.application.table import check_move
        for k in range(len(self.moves)):
            type_, data = self.moves[(self.cursor + k) % len(self.moves)]
            if check_move(table, type_, data):
                continue
            spec = self.game.event_types[type_]
            after = advance(table, Event(table.seq + 1, type_, spec.version, data, 0, "", "", "", ""))
            if after is None or self.game.is_over(after.game):
                continue
            self.cursor = (self.cursor + k + 1) % len(self.moves)
            return type_, data, after
        return None


def grow(kind: str, size: int) -> tuple[Player, list[Event], TableState]:
    """A legal game of ``size`` events (fewer if the rules stop it earlier), built in
    memory with its hash chain, as a phone would have recorded it."""
    player = Player(kind)
    envelopes: list[dict] = []
    prev = GENESIS

    def add(type_, version, data, seat):
        nonlocal prev
        env = {"seq": len(envelopes) + 1, "type": type_, "version": version, "data": data,
               "seat": seat, "device": "bench", "recorded_at": store.now(),
               "client_event_id": secrets.token_hex(16)}
        env["hash"] = prev = chain_hash(prev, env)
        envelopes.append(env)

    add("game-created", 1, player.created_data(), None)
    table = fold([Event(**envelopes[0])])
    while len(envelopes) < size:
        step = player.next_move(table)
        if step is None:
            break
        type_, data, table = step
        add(type_, player.game.event_types[type_].version, data, 0)
    return player, [Event(**e) for e in envelopes], table


def store_game(db, events: list[Event], finished: bool = False) -> tuple[str, list[str]]:
    """Write a grown game into the store in one transaction (as an import does);
    returns the game id and one seat token per player."""
    from events.application.seats import hash_token
    created = events[0].data
    game_id = secrets.token_urlsafe(6)
    tokens = [secrets.token_urlsafe(24) for _ in created["players"]]
    store.insert_game(db, game_id, created["kind"], created["players"], secrets.token_urlsafe(16),
                      [hash_token(t) for t in tokens], imported_from="bench")
    with store.write_lock(db):
        store.insert_events(db, game_id, [NewEvent(e.type, e.version, e.data, e.seat, e.device,
                                                   e.client_event_id, e.recorded_at) for e in events],
                            finished)
    return game_id, tokens


@contextmanager
def served_game(events: list[Event], name: str = "bench.db"):
    """A grown game stored in a fresh database on the scratch disk and an app serving it:
    (app, its test client, the game's id, the database's path)."""
    with scratch_dir() as tmp:
        path = os.path.join(tmp, name)
        app = make_app(path)
        db = store.connect(path)
        game_id, _ = store_game(db, events)
        db.conn.close()
        yield app, app.test_client(), game_id, path


def make_app(db_path: str):
    from app import create_app
    return create_app({"TESTING": False, "SECRET_KEY": "bench", "DATABASE": db_path,
                       "WTF_CSRF_ENABLED": False, "PUBLIC_URL": "http://127.0.0.1"})
