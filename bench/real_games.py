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
from contextlib import contextmanager
from glob import glob

from bench.common import ROOT, make_app, scratch_dir, store_game, summary_ms
from events.application.table import record
from events.domain.event import Event
from events.domain.projection import upcast
from events.storage import store
from scoring import rules_for
from web import views


def as_tapped_now(rules, event: Event) -> dict:
    """The payload a phone sends today: a move recorded under an older payload version is
    upcast first (e.g. Maharaja's journeys naming villages 5 → "v5")."""
    return dict(upcast(rules, event).data) if event.type in rules.event_types else event.data


def examples() -> list[str]:
    return sorted(glob(os.path.join(ROOT, "examples", "*.json")))


# Where a tap's time goes: each phase is the time spent inside these calls (CPU time of
# this thread, so the machine's other load inflates it little), the rest of the tap is
# "response" (the request context, idempotency check, the table's events and seats read
# for the page, the response object).
PHASES = {"append": [("events.storage.store", "append")],                       # BEGIN IMMEDIATE … COMMIT, fsync
          "fold": [("events.application.states.States", "load"), ("events.application.states.States", "after"),
                   ("events.application.states.States", "recorded"),
                   ("events.application.table", "check_move")],                     # state, schema and rules, the fold step
          "view": [("web.views", "table_context")],                     # standings, the game's view, the log's words
          "render": [("flask.templating", "_render")]}                  # every template of the answer


@contextmanager
def phases(spent: dict):
    """Add the CPU time spent inside each phase's calls to ``spent[phase]`` (outermost
    calls only: a phase inside another counts once, in the outer one)."""
    import importlib
    patched, depth = [], [0]
    for phase, targets in PHASES.items():
        for where, name in targets:
            parts = where.split(".")
            try:
                holder = importlib.import_module(where)
            except ModuleNotFoundError:
                holder = getattr(importlib.import_module(".".join(parts[:-1])), parts[-1])
            original = getattr(holder, name)

            def timed(*args, _original=original, _phase=phase, **kwargs):
                if depth[0]:
                    return _original(*args, **kwargs)
                depth[0] += 1
                start = time.thread_time()
                try:
                    return _original(*args, **kwargs)
                finally:
                    spent[_phase] = spent.get(_phase, 0.0) + time.thread_time() - start
                    depth[0] -= 1
            setattr(holder, name, timed)
            patched.append((holder, name, original))
    try:
        yield spent
    finally:
        for holder, name, original in patched:
            setattr(holder, name, original)


def measure(path: str, limit: int | None = None, breakdown: bool = False) -> dict:
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
        wall, cpu, spent = [], [], {}
        rules = rules_for(events[0].data["kind"], events[0].data["rules_version"])
        with phases(spent) if breakdown else _nothing():
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
    result = {"example": os.path.basename(path), "kind": events[0].data["kind"], "taps": len(wall),
              "append_render": summary_ms(wall), "append_render_cpu": summary_ms(cpu)}
    if breakdown and wall:
        per_tap = {phase: spent.get(phase, 0.0) * 1000 / len(wall) for phase in PHASES}
        per_tap["response"] = sum(cpu) * 1000 / len(wall) - sum(per_tap.values())
        result["breakdown_cpu_ms"] = per_tap
    return result


@contextmanager
def _nothing():
    yield


def render(rows: list[dict]) -> list[str]:
    out = ["### Real games, tap by tap (bench/real_games.py)", "",
           "Every move of each example game recorded again as POST /moves with htmx does "
           "(append + the table fragment), ms; where a tap's CPU time goes, per tap (ms): *append* "
           "the store's transaction, *fold* the state, schema, rules and the fold step, *view* the "
           "standings, the game's view and the log's words, *render* the templates, *response* the "
           "rest (request, idempotency check, the table's rows read for the page, the response):", "",
           "| example | game | taps | p50 | p95 | max | CPU p50 | CPU p95 | append | fold | view | render | response |",
           "|" + "---|" * 13]
    for r in rows:
        w, c, b = r["append_render"], r["append_render_cpu"], r.get("breakdown_cpu_ms") or {}
        parts = " | ".join(f"{b[k]:.2f}" if k in b else "–" for k in ("append", "fold", "view", "render", "response"))
        out.append(f"| {r['example']} | {r['kind']} | {r['taps']} | {w['p50']:.1f} | {w['p95']:.1f} "
                   f"| {w['max']:.1f} | {c['p50']:.1f} | {c['p95']:.1f} | {parts} |")
    return out + [""]
