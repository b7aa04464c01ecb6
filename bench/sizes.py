"""Per game and per game size: append + scoreboard fragment render, state at an
arbitrary sequence number, full replay, import and memory, each of our appends
followed at once by the floor's and the peer's append of the same event."""
from __future__ import annotations

import os
import random
import re
import secrets
import time
import tracemalloc

from flask import g

from bench.common import grow, make_app, scratch_dir, store_game, summary_ms
from bench.peers import Floor, Peer, row_of, same_durability
from events.application.table import record
from events.domain.projection import fold
from events.storage import store
from web import views


def _form_key(body: bytes, kept: str) -> str:
    """The move form's key the phone holds after this answer: the one of the form it
    carries, else (an answer that kept the form) the one it had."""
    found = re.search(rb'id="form-key" value="([^"]*)"', body)
    return found.group(1).decode() if found else kept


def measure(kind: str, size: int, appends: int, states: int, peer: bool = True,
            memory: bool = True, seed: int = 9, taps_only: bool = False) -> dict:
    """``taps_only``: the appends and their answers alone (the taps part), without the
    state at seq, the full replay and the import."""
    rng = random.Random(seed)
    with scratch_dir() as tmp:
        grow_s = time.perf_counter()
        player, grown, _ = grow(kind, size + appends)
        grow_s = time.perf_counter() - grow_s
        reached = len(grown)
        # `size` events stored, the next ones recorded one by one; a game the rules stop
        # earlier is stored half-way (at most `appends` short of its end) instead.
        base = size if reached >= size + appends else max(reached // 2, reached - appends)
        events, upcoming = grown[:base], grown[base:]
        path = os.path.join(tmp, "ours.db")
        app = make_app(path)
        db = store.connect(path)
        game_id, _tokens = store_game(db, events)
        floor = Floor(os.path.join(tmp, "floor.db"))
        floor.preload([row_of(game_id, e) for e in events])
        result = {"kind": kind, "size": size, "reached": reached, "base": base, "grow_s": grow_s,
                  "durability": {"ours": "WAL, synchronous=2 (FULL)", "floor": floor.settings()},
                  "same_durability": same_durability(floor, path)}
        the_peer = None
        if peer:
            the_peer = Peer(os.path.join(tmp, "peer.db"))
            the_peer.preload(events)
            result["durability"]["peer"] = the_peer.settings()

        cache = app.extensions["tablescribe"].states  # the server process's cache
        load, forget_cache = cache.load, cache.forget
        forget_cache()
        table = load(db, game_id)  # a worker that has served this table before
        with app.test_request_context(f"/games/{game_id}", headers={"HX-Request": "true"}):
            shown = views.render_table(game_id, table, 0).get_data()  # templates compiled once per worker
        form_key = _form_key(shown, "")  # what the phone's form posts with its move (web/partial.py)
        ours_total, ours_record, floor_t, peer_t, fragment_bytes = [], [], [], [], 0
        ours_cpu, record_cpu = [], []  # CPU time of this thread: what contention does not inflate
        for upcoming_event in upcoming[:appends]:
            type_, data = upcoming_event.type, upcoming_event.data
            cid = secrets.token_hex(16)
            start, cpu_start = time.perf_counter(), time.thread_time()
            with app.test_request_context(f"/games/{game_id}/moves", method="POST", data={"form_key": form_key},
                                          headers={"HX-Request": "true"}):
                from web.db import get_db
                conn = get_db()
                r0, rc0 = time.perf_counter(), time.thread_time()
                event, created = record(conn, game_id, type_, data, table.seq, 0, "bench", cid, states=cache)
                r1, rc1 = time.perf_counter(), time.thread_time()
                response = views.after_write(game_id, 0, event.seq)
                body = response.get_data()
            end, cpu_end = time.perf_counter(), time.thread_time()
            ours_cpu.append(cpu_end - cpu_start)
            record_cpu.append(rc1 - rc0)
            assert created and response.status_code == 200 and b'id="live-seq"' in body  # the table, or its changed regions
            fragment_bytes = len(body)
            form_key = _form_key(body, form_key)
            ours_total.append(end - start)
            ours_record.append(r1 - r0)
            row = row_of(game_id, event)
            f0 = time.perf_counter()
            floor.append(row)
            floor_t.append(time.perf_counter() - f0)
            if the_peer:
                p0 = time.perf_counter()
                the_peer.append(type_, data, 0)
                peer_t.append(time.perf_counter() - p0)
            table = load(db, game_id)
        final_seq = table.seq
        if taps_only:
            db.conn.close()
            floor.close()
            return result | _taps(ours_total, record_cpu, ours_cpu, floor_t, fragment_bytes)
        result |= _taps(ours_total, record_cpu, ours_cpu, floor_t, fragment_bytes)
        result["append"] = summary_ms(ours_record) if ours_record else None
        result["peer_append"] = summary_ms(peer_t) if peer_t else None

        at_times, at_cpu = [], []
        for _ in range(states):
            at = rng.randint(1, final_seq)
            start, cpu_start = time.perf_counter(), time.thread_time()
            state = load(db, game_id, at=at)
            at_times.append(time.perf_counter() - start)
            at_cpu.append(time.thread_time() - cpu_start)
            assert state.seq == at
        result["state_at"] = summary_ms(at_times)
        result["state_at_cpu"] = summary_ms(at_cpu)

        reps = 3 if reached <= 2000 else 1
        replays = []
        for _ in range(reps):  # the median of three: the first pays for warming up
            forget_cache()
            start = time.perf_counter()
            replayed = load(db, game_id)
            replays.append(time.perf_counter() - start)
        result["replay_ms"] = sorted(replays)[reps // 2] * 1000
        assert replayed.seq == final_seq
        if the_peer:
            rebuilds = []
            for _ in range(reps):
                start = time.perf_counter()
                rebuilt = the_peer.rebuild()
                rebuilds.append(time.perf_counter() - start)
            result["peer_rebuild_ms"] = sorted(rebuilds)[reps // 2] * 1000
            assert rebuilt.state == replayed.game, "the peer and the fold must agree"
        result.update(_import(db, game_id))
        if memory:
            result.update(_memory(db, game_id))
        result["state_json_bytes"] = len(__import__("json").dumps(replayed.game))
        db.conn.close()
        floor.close()
        if the_peer:
            the_peer.close()
    return result


def _taps(walls, record_cpu, cpu, floor, answer_bytes) -> dict:
    """A tap's figures: append + render (wall and CPU), the append's CPU, the floor's append
    and the bytes of the last answer."""
    return {"append_render": summary_ms(walls) if walls else None,
            "append_cpu": summary_ms(record_cpu) if record_cpu else None,
            "append_render_cpu": summary_ms(cpu) if cpu else None,
            "floor_append": summary_ms(floor) if floor else None, "fragment_bytes": answer_bytes}


def _import(db, game_id: str) -> dict:
    """Export the game and import it into another store (its own store refuses the same
    game twice): verify every hash and every move, store it."""
    try:
        from events.application.export import export_game, import_game
    except ImportError:
        return {"import_ms": None}
    doc = export_game(db, game_id)
    path = db.execute("PRAGMA database_list").fetchone()[2] + f".import-{secrets.token_hex(4)}.db"
    store.prepare(path)
    other = store.connect(path)
    try:
        start = time.perf_counter()
        import_game(other, doc, "bench")
        return {"import_ms": (time.perf_counter() - start) * 1000}
    finally:
        other.conn.close()
        for suffix in ("", "-wal", "-shm", ".startup-lock", ".write-turns"):
            if os.path.exists(path + suffix):
                os.remove(path + suffix)


def _memory(db, game_id: str) -> dict:
    """Peak Python allocation of a full replay (events read, decoded and folded)."""
    tracemalloc.start()
    try:
        table = fold(store.read_events(db, game_id))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del table
    return {"replay_peak_mib": peak / 2**20}
