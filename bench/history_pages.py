"""The history pages (timeline, final sheet, replay, score race) of long score pad games:
cold (the first request a fresh worker process serves for the game, after another process
has served it once, as a restarted worker meets a game being played: whatever that one
stored is there, nothing is in memory) and warm (the next requests), and how they grow
from 1,000 to 10,000 events (linear ≈ 10×). "undone" games have one move in three undone."""
from __future__ import annotations

import json
import statistics
import subprocess
import sys

from bench.common import ROOT, durations, grow, served_game
from events.domain.event import Event
from events.domain.hashing import GENESIS, chain_hash

PAGES = ("timeline", "final", "replay?at={mid}", "race.svg")


def _with_undos(events: list[Event]) -> list[Event]:
    """The same moves, every second one followed by an undo of it, the chain rebuilt."""
    out, prev = [], GENESIS
    for event in events:
        kinds = [(event.type, event.version, event.data, event.seat)]
        if event.seq > 1 and event.seq % 2 == 0:
            kinds.append(("event-voided", 1, {"target": None, "reason": "undo", "undo": True}, 0))
        for type_, version, data, seat in kinds:
            if type_ == "event-voided":
                data = {**data, "target": out[-1].seq}
            env = {"seq": len(out) + 1, "type": type_, "version": version, "data": data, "seat": seat,
                   "device": "bench", "recorded_at": event.recorded_at,
                   "client_event_id": f"{event.client_event_id}-{len(out)}"}
            env["hash"] = prev = chain_hash(prev, env)
            out.append(Event(**env))
    return out


_COLD = """
import sys, time
sys.path.insert(0, {root!r})
from bench.common import make_app
app = make_app({path!r})
try:  # what a server worker does before it serves (gunicorn.conf.py), where the code has it
    from app import worker_ready
    worker_ready(app)
except ImportError:
    pass
client = app.test_client()
start, cpu = time.perf_counter(), time.process_time()
response = client.get({url!r})
assert response.status_code == 200, response.status_code
print(time.perf_counter() - start, time.process_time() - cpu)
"""


def _cold(path: str, url: str) -> tuple[float, float]:
    """One request in a fresh Python process, nothing of the game in its memory: its
    wall-clock and CPU seconds."""
    out = subprocess.run([sys.executable, "-c", _COLD.format(root=ROOT, path=path, url=url)],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    wall, cpu = out.stdout.strip().splitlines()[-1].split()
    return float(wall), float(cpu)


def measure(size: int, undone: bool = False, warm_samples: int = 5) -> dict:
    _, events, _ = grow("scorepad", size if not undone else size * 2 // 3)
    if undone:
        events = _with_undos(events)
    with served_game(events, "history.db") as (app, client, game_id, path):
        result = {"size": len(events), "undone": undone, "pages": {}}
        _cold(path, f"/games/{game_id}")  # the worker before the restart, at the table
        for page in PAGES:
            url = f"/games/{game_id}/" + page.format(mid=len(events) // 2)
            cold, cold_cpu = _cold(path, url)
            client.get(url)  # this process's first request (templates, history)
            warm = durations(lambda: client.get(url), warm_samples)
            response = client.get(url)
            result["pages"][page.split("?")[0]] = {
                "cold_ms": cold * 1000, "cold_cpu_ms": cold_cpu * 1000, "warm_ms": statistics.median(warm) * 1000,
                "bytes": len(response.data)}
        result["cached_bytes"] = app.extensions["tablescribe"].states.nbytes()
    return result


def growth(small: dict, big: dict) -> dict:
    """Per page: the 10,000-event figure over the 1,000-event one (linear ≈ 10×)."""
    return {page: {"cold": big["pages"][page]["cold_ms"] / small["pages"][page]["cold_ms"],
                   "warm": big["pages"][page]["warm_ms"] / small["pages"][page]["warm_ms"]}
            for page in small["pages"]}


if __name__ == "__main__":
    print(json.dumps([measure(int(n)) for n in sys.argv[1:]], indent=1))
