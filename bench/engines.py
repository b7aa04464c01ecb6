"""The same store on SQLite and on PostgreSQL, side by side in one run (issue 19,
docs/scaling.md): a recorded move (``events.application.table.record``: cached state, checks,
hash chain, the append and its commit) and a full replay (read every event, fold) of
the score pad and Han at 1,000 events. PostgreSQL is a throwaway cluster on this
machine, durable like the SQLite store (fsync at every commit), reached over TCP."""
from __future__ import annotations

import os
import secrets
import time

from bench.common import grow, scratch_dir, store_game, summary_ms
import app
from events.application.states import States
from events.application.table import record
from events.domain.projection import fold
from events.storage import store


def _record(db, game_id: str, event, states: States) -> float:
    start = time.perf_counter()
    record(db, game_id, event.type, event.data, event.seq - 1, event.seat, "bench", secrets.token_hex(16),
           states=states)
    return time.perf_counter() - start


def _replay(db, game_id: str) -> float:
    start = time.perf_counter()
    fold(store.read_events(db, game_id))
    return time.perf_counter() - start


def _side_by_side(stores: dict, upcoming, replays: int) -> dict:
    """Each move recorded on one engine, then at once on the other (and each replay),
    so the machine's noise falls on both alike."""
    states = States()  # one server process's cache, as a worker that has served these tables
    times = {engine: {"append": [], "replay": []} for engine in stores}
    for db, game_id in stores.values():
        states.load(db, game_id)
    for event in upcoming:
        for engine, (db, game_id) in stores.items():
            times[engine]["append"].append(_record(db, game_id, event, states))
    for _ in range(replays):
        for engine, (db, game_id) in stores.items():
            times[engine]["replay"].append(_replay(db, game_id))
    return {engine: {part: summary_ms(t) for part, t in parts.items()} for engine, parts in times.items()}


def measure(server: str, create_database, kinds: list[str], size: int, appends: int,
            replays: int) -> list[dict]:
    """``server``: a PostgreSQL cluster's URL, where ``create_database`` makes a database."""
    rows = []
    with scratch_dir() as tmp:
        for kind in kinds:
            _, grown, _ = grow(kind, size + appends)
            base = min(size, len(grown) - appends)
            stores = {}
            for engine, target in (("sqlite", os.path.join(tmp, f"{kind}.db")),
                                   ("postgresql", create_database(server))):
                store.prepare(target)
                db = app.connect(target)
                stores[engine] = (db, store_game(db, grown[:base])[0])
            rows.append({"kind": kind, "events": base,
                         **_side_by_side(stores, grown[base:base + appends], replays)})
            for db, _ in stores.values():
                db.conn.close()
    return rows


def render(rows: list[dict]) -> list[str]:
    out = ["### The store on SQLite and on PostgreSQL (ms, p50 / p95; PostgreSQL ÷ SQLite of the p50)", "",
           "| game | events | record SQLite | record PostgreSQL | ratio | replay SQLite | replay PostgreSQL | ratio |",
           "|" + "---|" * 8]
    for r in rows:
        s, p = r["sqlite"], r["postgresql"]
        cells = [r["kind"], f"{r['events']:,}"]
        for part in ("append", "replay"):
            cells += [f"{s[part]['p50']:.2f} / {s[part]['p95']:.2f}", f"{p[part]['p50']:.2f} / {p[part]['p95']:.2f}",
                      f"{p[part]['p50'] / s[part]['p50']:.2f}×"]
        out.append("| " + " | ".join(cells) + " |")
    return out + [""]
