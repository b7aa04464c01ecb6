"""Other tables' moves while one phone imports (issue 25 §5): the production server
(gunicorn with gevent workers, as ``make run`` starts it) with 20 score-pad tables, each
recording a move every ``move_every`` seconds, first with nothing else going on, then
while the largest game the benchmark builds is imported (Han at 10,000 events, an
8 MiB export; the import page takes up to 64 MiB, docs/reliability.md §5), then while a
BG Stats export of the most plays the import takes (10,000, ``group.bgstats.MAX_PLAYS``)
is imported by the organiser. Reported per phase: the moves' latency, every answer that
was not 200 or 409 (a 503 "busy" counts as an error here: these phones do not retry), the
import's own time and answer, and the load average before and after.
"""
from __future__ import annotations

import asyncio
import http.client
import json
import os
import random
import re
import secrets
import time
import uuid

from bench.common import grow, scratch_dir, summary_ms
from bench.load import Phone, Server, _form, _open_all, _run_in_own_loop
from group.bgstats import MAX_PLAYS

_CSRF = re.compile(rb'name="csrf_token" value="([^"]+)"')


def game_export(size: int) -> bytes:
    """A legal Han game of ``size`` events as its export file (events/application/export.py)."""
    from events.application.export import FORMAT
    _, events, _ = grow("han", size)
    doc = {"format": FORMAT, "format_version": 1,
           "game": {"id": "bench", "kind": "han", "exported_at": events[-1].recorded_at,
                    "last_seq": events[-1].seq, "last_hash": events[-1].hash},
           "events": [e.envelope() for e in events]}
    return json.dumps(doc, ensure_ascii=False).encode()


def bgstats_export(plays: int, people: int = 30) -> bytes:
    """A BG Stats export of ``plays`` four-player plays among ``people`` (group/bgstats.py)."""
    players = [{"id": i, "name": f"Player {i}"} for i in range(1, people + 1)]
    rng = random.Random(25)
    out = []
    for k in range(plays):
        seated = rng.sample(range(1, people + 1), 4)
        out.append({"uuid": str(uuid.UUID(int=rng.getrandbits(128))), "gameRefId": 1, "locationRefId": 1,
                    "playDate": f"20{10 + k % 14}-{k % 12 + 1:02d}-{k % 28 + 1:02d} 19:30:00", "durationMin": 90,
                    "playerScores": [{"playerRefId": p, "score": str(rng.randint(40, 160)), "winner": i == 0,
                                      "rank": i + 1, "seatOrder": i + 1, "startPlayer": i == 0}
                                     for i, p in enumerate(seated)]})
    doc = {"about": "bench", "userInfo": {}, "players": players, "locations": [{"id": 1, "name": "Club"}],
           "games": [{"id": 1, "name": "Five Tribes", "bggId": 157354, "highestWins": True}], "plays": out}
    return json.dumps(doc).encode()


class Uploader:
    """One phone uploading a file through a form (multipart, CSRF on), blocking: it runs on
    a thread beside the asyncio phones."""

    def __init__(self, port: int, cookies: dict[str, str]):
        self.port, self.cookies = port, dict(cookies)

    def _request(self, method: str, path: str, body: bytes = b"", headers=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        try:
            cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
            conn.request(method, path, body=body or None, headers={"Cookie": cookie, **(headers or {})})
            response = conn.getresponse()
            data = response.read()
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    key, _, val = value.split(";", 1)[0].partition("=")
                    self.cookies[key] = val
            return response.status, data
        finally:
            conn.close()

    def upload(self, page: str, content: bytes) -> dict:
        status, body = self._request("GET", page)
        assert status == 200, status
        csrf = _CSRF.search(body).group(1).decode()
        boundary = secrets.token_hex(12)
        parts = (f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n{csrf}\r\n'
                 f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.json"\r\n'
                 f"Content-Type: application/json\r\n\r\n").encode() + content + f"\r\n--{boundary}--\r\n".encode()
        start = time.perf_counter()
        status, body = self._request("POST", page, parts, {
            "Content-Type": f"multipart/form-data; boundary={boundary}", "Content-Length": str(len(parts))})
        return {"status": status, "seconds": time.perf_counter() - start, "bytes": len(content)}


async def _table(phones: list[Phone], moves: dict, errors: list, stop: asyncio.Event, every: float) -> None:
    """One table recording a move every ``every`` seconds (± a third) until ``stop``."""
    await asyncio.sleep(random.uniform(0, every))
    turn = 0
    while not stop.is_set():
        phone = phones[turn % len(phones)]
        turn += 1
        body = _form(csrf_token=phone.csrf, expected_seq=phone.seen, action="points-recorded",
                     client_event_id=secrets.token_hex(16), seat=phone.seat, points=random.randint(0, 30), note="")
        start = time.perf_counter()
        try:
            status, _, data = await phone.request("POST", f"/games/{phone.game_id}/moves", body,
                                                  headers={"HX-Request": "true"})
        except Exception as err:  # noqa: BLE001 - every failure is a result here
            errors.append(repr(err))
        else:
            moves.setdefault(status, []).append(time.perf_counter() - start)
            if status not in (200, 409):
                errors.append(f"HTTP {status}: {data[:120]!r}")
            phone._saw(data)
        try:
            await asyncio.wait_for(stop.wait(), random.uniform(every * 2 / 3, every * 4 / 3))
        except asyncio.TimeoutError:
            pass


async def _phase(server: Server, tables: list[list[Phone]], every: float, work, seconds: float) -> dict:
    """The tables' moves while ``work()`` runs on a thread (or for ``seconds``)."""
    if True:
        moves: dict[int, list[float]] = {}
        errors: list[str] = []
        stop = asyncio.Event()
        load_before = os.getloadavg()
        cpu0 = server.cpu()
        runners = [asyncio.create_task(_table(t, moves, errors, stop, every)) for t in tables]
        t0 = time.perf_counter()
        if work is None:
            await asyncio.sleep(seconds)
            done = None
        else:
            await asyncio.sleep(1.0)  # the tables are under way before the import starts
            done = await asyncio.get_running_loop().run_in_executor(None, work)
        elapsed = time.perf_counter() - t0
        stop.set()
        await asyncio.gather(*runners)
        recorded = moves.get(200, []) + moves.get(409, [])
        return {"moves": summary_ms(recorded) if recorded else {}, "answers": {s: len(v) for s, v in moves.items()},
                "errors": len(errors), "error_samples": errors[:5], "import": done, "seconds": elapsed,
                "server_cpu_s": server.cpu() - cpu0, "load_average_before": load_before,
                "load_average_after": os.getloadavg()}


def measure(tables: int = 20, game_size: int = 10000, plays: int = MAX_PLAYS, every: float = 0.5,
            quiet_seconds: float = 10.0, database: str | None = None, log=print) -> dict:
    """The three phases on SQLite (or on the PostgreSQL ``database`` URL given)."""
    log(f"imports: building a Han game of {game_size} events and a BG Stats file of {plays} plays")
    game_file, bgs_file = game_export(game_size), bgstats_export(plays)
    with scratch_dir() as tmp:
        if database:
            from bench.two_servers import PostgresServer
            server = PostgresServer(database)
        else:
            server = Server(tmp)
        seats = server.tables(tables, 2)
        organiser = _organiser_code(server.path)
        with server:
            # one phone per table keeps its score (a second one would only see 409s: these do not poll)
            table_phones = [[Phone(server.port, *table[0])] for table in seats]

            async def main():
                everyone = [p for t in table_phones for p in t]
                await _open_all(everyone)
                phases = {}
                log(f"imports: {tables} tables, a move each every {every} s, nothing else")
                phases["quiet"] = await _phase(server, table_phones, every, None, quiet_seconds)
                log(f"imports: the same during the import of the game ({len(game_file) / 2**20:.1f} MiB)")
                phases["game import"] = await _phase(
                    server, table_phones, every, lambda: Uploader(server.port, {}).upload("/import", game_file), 0)
                log(f"imports: the same during the BG Stats import ({len(bgs_file) / 2**20:.1f} MiB)")
                phases["BG Stats import"] = await _phase(
                    server, table_phones, every,
                    lambda: Uploader(server.port, {"organiser": organiser}).upload("/people/import-bgstats",
                                                                                  bgs_file), 0)
                for p in everyone:
                    p.close()
                return phases

            phases = _run_in_own_loop(main)
    return {"engine": "postgresql" if database else "sqlite", "tables": tables, "move_every_s": every,
            "game_events": game_size, "game_mib": len(game_file) / 2**20, "plays": plays,
            "bgstats_mib": len(bgs_file) / 2**20, "phases": phases}


def _organiser_code(database: str) -> str:
    """The organiser link's code of the server about to start (web/organiser.py): an app
    made here has the same instance secret, so this is the code `make run` prints."""
    from app import create_app
    from web import organiser
    with create_app({"TESTING": False, "DATABASE": database}).test_request_context():
        return organiser.secret()


def render(r: dict) -> list[str]:
    def ms(summary: dict, key: str) -> str:
        return f"{summary[key]:.0f}" if summary else "–"

    out = [f"### Other tables' moves during the largest imports ({r['engine']})", "",
           f"{r['tables']} score-pad tables, one move each every {r['move_every_s']} s (± a third), against "
           f"gunicorn as `make run` starts it. The game: Han at {r['game_events']} events "
           f"({r['game_mib']:.1f} MiB); the BG Stats file: {r['plays']} plays ({r['bgstats_mib']:.1f} MiB).", "",
           "| phase | moves | p50 ms | p95 ms | max ms | errors (503 included) | import s | import answer "
           "| load average before → after |", "|---|---|---|---|---|---|---|---|---|"]
    for name, phase in r["phases"].items():
        moves, done = phase["moves"], phase["import"] or {}
        out.append(f"| {name} | {moves.get('n', 0)} | {ms(moves, 'p50')} | {ms(moves, 'p95')} | {ms(moves, 'max')} "
                   f"| {phase['errors']} | {done.get('seconds', 0):.1f} | {done.get('status', '–')} "
                   f"| {phase['load_average_before'][0]:.1f} → {phase['load_average_after'][0]:.1f} |")
    return out + [""]
