"""What the turn times cost (issue 28), for a long game: the derivation from the whole log
(the statistics pay it once when a game ends), the clock counted afresh from the marks the
app's walk keeps (after a void), and the table page itself, warm, with the clock and with
the clock's hook answering nothing, side by side in one run."""
from __future__ import annotations

import os
import statistics
from types import SimpleNamespace

from bench.common import durations, grow, served_game
from events.domain import turns


def _ms(samples: list[float]) -> dict:
    ordered = sorted(samples)
    return {"p50": round(1000 * statistics.median(ordered), 2),
            "p95": round(1000 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 2)}


def measure(kind: str, size: int, samples: int = 20) -> dict:
    _, events, _ = grow(kind, size)
    derivation = durations(lambda: turns.turn_times(events), max(2, samples // 10))
    times, marks = turns.times_of(events), turns.marks_of(events)
    from_marks = durations(lambda: turns.clock(times, marks), samples)
    with served_game(events, "turns.db") as (_, client, game_id, _path):
        url = f"/games/{game_id}"
        client.get(url)  # the walk of the game, once per worker
        with_clock, without = [], []
        from events.application.states import States
        from web import timing
        real = States.clock, timing.clock_view
        empty = timing.clock_view(turns.Clock(), SimpleNamespace(players=()), None)
        for _ in range(samples):  # interleaved, so the machine's drift hits both alike
            with_clock += durations(lambda: client.get(url), 1)
            States.clock, timing.clock_view = (lambda *args, **kwargs: turns.Clock()), (lambda *args, **kwargs: empty)
            try:
                without += durations(lambda: client.get(url), 1)
            finally:
                States.clock, timing.clock_view = real
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
