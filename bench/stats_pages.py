"""The statistics pages (issue 20): 1,000 finished games of mixed kinds among 30 people,
each page's p50/p95 through the app (warm, as a running worker serves them) beside the
table page of one of those games in the same run, and the time to rebuild the read
model from the logs (``flask --app app rebuild-stats``).

The games are the example games (Dragon, Five Tribes, Han, Maharaja), the Dragon tally
demo and score pad games of random points, each with its players renamed to people of
the group, spread over two years."""
from __future__ import annotations

import glob
import json
import os
import random
import time
from datetime import datetime, timedelta, timezone

from bench.common import ROOT, make_app, scratch_dir, store_game, summary_ms, timed
from events.domain.event import Event
from events.domain.hashing import GENESIS, chain_hash
from events.storage import store
from group import plays, roster
from scoring import GAMES

PAGES = ("/stats", "/stats/people/{a}", "/stats/games/{kind}", "/stats/together?people={a}&people={b}",
         "/stats/plays?people={a}", "/api/stats", "/api/people")


def _templates() -> list[list[dict]]:
    """Finished games as envelopes: every example file, and the tally demo."""
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "examples", "*.json"))):
        with open(path, encoding="utf-8") as f:
            out.append(json.load(f)["events"])
    game = GAMES["dragon-tally"]
    players, options, moves = game.demo()
    out.append([{"type": "game-created", "version": 1, "seat": None,
                 "data": {"kind": "dragon-tally", "rules_version": game.rules_version, "players": players,
                          "options": {**game.default_options(), **options}, "origin": "bench"}}]
               + [{"type": t, "version": game.event_types[t].version, "data": d, "seat": 0} for t, d in moves])
    return out


def _scorepad(rng: random.Random, seats: int) -> list[dict]:
    rounds = rng.randint(3, 8)
    events = [{"type": "game-created", "version": 1, "seat": None, "data": {
        "kind": "scorepad", "rules_version": GAMES["scorepad"].rules_version,
        "players": [{"name": "x", "colour": ""} for _ in range(seats)],
        "options": {**GAMES["scorepad"].default_options(), "title": rng.choice(["Azul", "Carcassonne", ""])},
        "origin": "bench"}}]
    for _ in range(rounds):
        events += [{"type": "points-recorded", "version": 1, "seat": 0,
                    "data": {"seat": s, "points": rng.randint(0, 30)}} for s in range(seats)]
        events.append({"type": "round-closed", "version": 1, "seat": 0, "data": {}})
    events.append({"type": "game-ended", "version": 1, "seat": 0, "data": {}})
    return events


def _chained(template: list[dict], names: list[str], start: datetime) -> list[Event]:
    """The game with its players renamed, a minute per event from ``start``, rechained."""
    out, prev = [], GENESIS
    for i, env in enumerate(template):
        data = env["data"]
        if env["type"] == "game-created":
            data = {**data, "players": [{**p, "name": n} for p, n in zip(data["players"], names)]}
        new = {"seq": i + 1, "type": env["type"], "version": env["version"], "data": data,
               "seat": env["seat"], "device": "bench",
               "recorded_at": (start + timedelta(minutes=i)).isoformat(timespec="milliseconds"),
               "client_event_id": f"b{i}"}
        new["hash"] = prev = chain_hash(prev, new)
        out.append(Event(**new))
    return out


def seed(db, games: int, people: int, rng: random.Random) -> list[str]:
    group = [f"Játékos {i + 1:02d}" for i in range(people)]
    templates = _templates()
    first = datetime(2024, 1, 1, 18, tzinfo=timezone.utc)
    ids = []
    for n in range(games):
        template = templates[n % len(templates)] if n % 3 else _scorepad(rng, rng.randint(2, 5))
        seats = len(template[0]["data"]["players"])
        names = rng.sample(group, seats)
        events = _chained(template, names, first + timedelta(hours=17 * n))
        game_id, _ = store_game(db, events, finished=True)
        roster.link_game(db, game_id, names, "bench")
        ids.append(game_id)
    return ids


def _samples(client, url: str, n: int, before=lambda: None) -> list[float]:
    times = []
    for _ in range(n):
        before()
        tick = time.perf_counter()
        client.get(url)
        times.append(time.perf_counter() - tick)
    return times


def measure(games: int = 1000, people: int = 30, samples: int = 40) -> dict:
    rng = random.Random(20)
    with scratch_dir() as tmp:
        path = os.path.join(tmp, "stats.db")
        app = make_app(path)
        db = store.connect(path)
        seeding, ids = timed(seed, db, games, people, rng)
        rebuild, played = timed(plays.rebuild, db)
        now = roster.load(db)
        a, b = (p["id"] for p in now.active()[:2])
        client = app.test_client()
        urls = [u.format(a=a, b=b, kind="five-tribes") for u in PAGES] + [f"/games/{ids[1]}"]
        result = {"games": games, "people": people, "plays": played, "seed_s": seeding,
                  "rebuild_s": rebuild, "rows": db.execute("SELECT COUNT(*) FROM stat_seats").fetchone()[0],
                  "pages": {}, "fresh": {}}
        for url in urls:
            assert client.get(url).status_code == 200, url  # warm: templates, caches
            name = url.replace(ids[1], "<id>")
            result["pages"][name] = summary_ms(_samples(client, url, samples))
            # as a game ending just before each request: its rows written again, as
            # plays.on_recorded does, so the page's worker reads what changed
            ended = lambda: plays.refresh(db, ids[rng.randrange(len(ids))])  # noqa: E731
            result["fresh"][name] = summary_ms(_samples(client, url, samples, ended))
        db.conn.close()
        return result


def render(r: dict) -> list[str]:
    lines = ["", f"## Statistics pages: {r['games']} finished games of mixed kinds, {r['people']} people",
             "", f"Read model rebuilt from the logs in {r['rebuild_s']:.2f} s ({r['rows']} seat rows); "
             f"seeding took {r['seed_s']:.1f} s. Warm: nothing changed since the worker's last "
             "page; fresh: a game's rows were written again just before each request (as when a game "
             "ends), so the worker reads the games changed since its last look.", "",
             "| page | warm p50 ms | warm p95 ms | fresh p50 ms | fresh p95 ms |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for url, s in r["pages"].items():
        f = r["fresh"][url]
        lines.append(f"| `{url}` | {s['p50']:.1f} | {s['p95']:.1f} | {f['p50']:.1f} | {f['p95']:.1f} |")
    return lines


if __name__ == "__main__":
    import sys
    result = measure(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
    print("\n".join(render(result)))
