"""A real game, tap by tap: every move of each recorded example game (examples/*.json,
the games the tests replay) is recorded again one by one exactly as ``POST /moves``
with ``HX-Request`` does (``record`` then the table fragment), by the seat that
recorded it. The sizes benchmark grows games by cycling their demo, which for Han ends
in its final phase (re-entering the end position); these are the taps of whole games
as tables play them.
"""
from __future__ import annotations

import json
import os
import secrets
import time
from glob import glob

from bench.common import ROOT, make_app, scratch_dir, store_game, summary_ms
from events import store
from events.projection import upcast
from events.store import Event
from events.table import record
from scoring import rules_for
from web import views


def as_tapped_now(rules, event: Event) -> dict:
    """The payload a phone sends today: a move recorded under an older payload version is
    upcast first (e.g. Maharaja's journeys naming villages 5 → "v5")."""
    return dict(upcast(rules, event).data) if event.type in rules.event_types else event.data


def examples() -> list[str]:
    return sorted(glob(os.path.join(ROOT, "examples", "*.json")))


def measure(path: str, limit: int | None = None) -> dict:
    with open(path) as f:
        doc = json.load(f)
    events = [Event(**e) for e in doc["events"]]
    with scratch_dir() as tmp:
        db_path = os.path.join(tmp, "real.db")
        app = make_app(db_path)
        db = store.connect(db_path)
        states = app.extensions["tablescribe"].states  # the server process's cache
        load = states.load
        game_id, _ = store_game(db, events[:1])  # the set-up as recorded; every move is a tap
        with app.test_request_context(f"/games/{game_id}", headers={"HX-Request": "true"}):
            views.render_table(game_id, load(db, game_id), 0).get_data()  # templates compiled once per worker
        wall, cpu = [], []
        rules = rules_for(events[0].data["kind"], events[0].data["rules_version"])
        for event in events[1:][:limit]:
            seq = load(db, game_id).seq
            start, cpu_start = time.perf_counter(), time.thread_time()
            with app.test_request_context(f"/games/{game_id}/moves", method="POST",
                                          headers={"HX-Request": "true"}):
                from web.db import get_db
                stored, created = record(get_db(), game_id, event.type, as_tapped_now(rules, event), seq,
                                         event.seat, "bench", secrets.token_hex(16), states=states)
                response = views.after_write(game_id, event.seat, stored.seq)
                response.get_data()
            wall.append(time.perf_counter() - start)
            cpu.append(time.thread_time() - cpu_start)
            assert created and response.status_code == 200
        db.conn.close()
    return {"example": os.path.basename(path), "kind": events[0].data["kind"], "taps": len(wall),
            "append_render": summary_ms(wall), "append_render_cpu": summary_ms(cpu)}


def render(rows: list[dict]) -> list[str]:
    out = ["### Real games, tap by tap (bench/real_games.py)", "",
           "Every move of each example game recorded again as POST /moves with htmx does "
           "(append + the table fragment), ms:", "",
           "| example | game | taps | p50 | p95 | max | CPU p50 | CPU p95 |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        w, c = r["append_render"], r["append_render_cpu"]
        out.append(f"| {r['example']} | {r['kind']} | {r['taps']} | {w['p50']:.1f} | {w['p95']:.1f} "
                   f"| {w['max']:.1f} | {c['p50']:.1f} | {c['p95']:.1f} |")
    return out + [""]
