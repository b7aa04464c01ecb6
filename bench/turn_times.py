"""What the turn times cost (issue 28), for a long game: the derivation from the whole log
(the statistics pay it once when a game ends), the clock counted afresh from the marks the
app's walk keeps (after a void), and the table page itself, warm, with the clock and with
the clock's hook answering nothing, side by side in one run."""
from __future__ import annotations

import os
import statistics
import time
from types import SimpleNamespace

from bench.common import grow, make_app, scratch_dir, store_game
from events import store, turns


def _ms(samples: list[float]) -> dict:
    ordered = sorted(samples)
    return {"p50": round(1000 * statistics.median(ordered), 2),
            "p95": round(1000 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 2)}


def _timed(fn, n: int) -> list[float]:
    out = []
    for _ in range(n):
        tick = time.perf_counter()
        fn()
        out.append(time.perf_counter() - tick)
    return out


def measure(kind: str, size: int, samples: int = 20) -> dict:
    _, events, _ = grow(kind, size)
    derivation = _timed(lambda: turns.turn_times(events), max(2, samples // 10))
    times, marks = turns.times_of(events), turns.marks_of(events)
    from_marks = _timed(lambda: turns.clock(times, marks), samples)
    with scratch_dir() as tmp:
        path = os.path.join(tmp, "turns.db")
        app = make_app(path)
        db = store.connect(path)
        game_id, _ = store_game(db, events)
        db.conn.close()
        client = app.test_client()
        url = f"/games/{game_id}"
        client.get(url)  # the walk of the game, once per worker
        with_clock, without = [], []
        from web import timing
        real = timing.table_clock
        empty = timing.clock_view(turns.Clock(), SimpleNamespace(players=()), None)
        for _ in range(samples):  # interleaved, so the machine's drift hits both alike
            with_clock += _timed(lambda: client.get(url), 1)
            timing.table_clock = lambda *args, **kwargs: empty
            try:
                without += _timed(lambda: client.get(url), 1)
            finally:
                timing.table_clock = real
    page, bare = _ms(with_clock), _ms(without)
    return {"kind": kind, "events": len(events), "turns": len(turns.clock(times, marks).turns),
            "derivation": _ms(derivation), "from_marks": _ms(from_marks), "page": page, "page_without": bare,
            "page_ratio": round(page["p50"] / bare["p50"], 2) if bare["p50"] else None,
            "load_average": os.getloadavg()[0]}


def render(rows: list[dict]) -> str:
    lines = ["### Turn times (bench/turn_times.py)", "",
             "| game | events | turns | derivation from the log p50 ms | clock from the kept marks p50 | p95 "
             "| table page p50 | p95 | without the clock p50 | p95 | page ÷ without | load |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['kind']} | {r['events']:,} | {r['turns']:,} | {r['derivation']['p50']:,} "
                     f"| {r['from_marks']['p50']} | {r['from_marks']['p95']} | {r['page']['p50']} "
                     f"| {r['page']['p95']} | {r['page_without']['p50']} | {r['page_without']['p95']} "
                     f"| {r['page_ratio']}× | {r['load_average']:.1f} |")
    return "\n".join(lines)
