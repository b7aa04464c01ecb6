"""Two app servers on one PostgreSQL (issue 19, docs/scaling.md): each a gunicorn with
gevent workers as ``make run`` starts it, the phones of every table split between them
(even seats on server A, odd seats on B), each phone holding the table's event stream,
a move per table at table pace. Reported: errors, the time from a tap to each other
phone seeing it — and separately for the phones on the *other* server (the path through
PostgreSQL's NOTIFY) — and whether any acknowledged move was lost or duplicated (every
stored game's sequence numbers, client event ids and hash chain, against the moves the
servers answered 200)."""
from __future__ import annotations

import asyncio
import os
import signal
import time

from bench.common import summary_ms
from bench.live import Arrivals, _mover, _stream
from bench.load import (THREADS, WORKERS, Phone, Server, Stats, _children, _open_all,
                        _run_in_own_loop)
from events.storage import store


class PostgresServer(Server):
    """``bench.load.Server`` on a PostgreSQL database instead of a scratch file."""

    def __init__(self, url: str):
        from tests.conftest import free_port, start_server
        self.path = url
        store.prepare(url)
        self.db = store.connect(url)
        self.port = free_port()
        self._start = lambda: start_server(url, self.port, workers=WORKERS, threads=THREADS)
        self.proc = None


class CrossArrivals(Arrivals):
    """Arrivals, and apart the ones seen on the other server than the tap's."""

    def __init__(self):
        super().__init__()
        self.cross: list[float] = []

    def seen(self, game_id: str, seq: int, seat: int) -> None:
        tapped = self.tapped.get((game_id, seq))
        if tapped and tapped[1] != seat and tapped[1] % 2 != seat % 2:
            self.cross.append(time.perf_counter() - tapped[0])
        super().seen(game_id, seq, seat)


def _lost_or_duplicated(db, games: list[str], acked: list[str]) -> dict:
    stored = broken = gaps = 0
    kept: set[str] = set()
    for game_id in games:
        events = store.read_events(db, game_id)
        stored += len(events) - 1  # the set-up is not a move
        gaps += [e.seq for e in events] != list(range(1, len(events) + 1))
        gaps += len({e.client_event_id for e in events}) != len(events)
        broken += store.verify_game(db, game_id) is not None
        kept |= {e.client_event_id for e in events}
    return {"acknowledged": len(acked), "stored": stored, "acknowledged_missing": len(set(acked) - kept),
            "games_with_gaps_or_duplicates": gaps, "chains_broken": broken}


async def _kill(server: Server, at: float, killed: dict, acked: list) -> None:
    await asyncio.sleep(max(0.0, at - time.perf_counter()))
    for pid in [server.proc.pid] + _children(server.proc.pid):  # kill -9: master and workers
        os.kill(pid, signal.SIGKILL)
    server.proc.wait(10)
    killed["acknowledged_before"] = len(acked)


def measure(server_url: str, create_database, tables: int, phones: int, seconds: float,
            move_every: float, kill_one: bool = False) -> dict:
    """``kill_one``: server A is killed (kill -9) half-way; its phones' requests fail from
    then on, server B's phones go on."""
    url = create_database(server_url)
    servers = [PostgresServer(url), PostgresServer(url)]
    seats = servers[0].tables(tables, phones)
    with servers[0], servers[1]:
        table_phones = [[Phone(servers[seat % 2].port, game_id, seat, token)
                         for game_id, seat, token in table] for table in seats]
        everyone = [p for t in table_phones for p in t]

        async def main():
            await _open_all(everyone)
            stats, arrivals, opened, acked, killed = Stats(), CrossArrivals(), [], [], {}
            listeners = [asyncio.create_task(_stream(p, arrivals, stats, time.perf_counter() + 5 + seconds,
                                                     opened)) for p in everyone]
            opening = time.perf_counter() + 5
            while len(opened) < len(everyone) and time.perf_counter() < opening:
                await asyncio.sleep(0.05)  # every stream opened (5 s at most, as long as it took before)
            busy = time.perf_counter()
            until = busy + seconds
            killer = [_kill(servers[0], busy + seconds / 2, killed, acked)] if kill_one else []
            await asyncio.gather(*killer, *(_mover(t, arrivals, stats, busy, until, move_every, acked)
                                            for t in table_phones))
            # the streams listen while moves are tapped and a second after, for the last one's
            await asyncio.wait(listeners, timeout=max(0.0, until - time.perf_counter()) + 1.0)
            for listener in listeners:
                listener.cancel()
            await asyncio.gather(*listeners, return_exceptions=True)
            return stats, arrivals, opened, acked, killed

        stats, arrivals, opened, acked, killed = _run_in_own_loop(main)
        check = _lost_or_duplicated(servers[1].db, [t[0][0] for t in seats], acked)
    after = len(acked) - killed["acknowledged_before"] if kill_one else None
    return {"killed_one": kill_one, "acknowledged_after_the_kill": after, "tables": tables, "phones": phones, "seconds": seconds, "move_every_s": move_every,
            "streams_open": len(opened), "errors": sum(stats.errors.values()),
            "error_samples": stats.error_samples, "moves": len(arrivals.tapped),
            "stale_409": len(stats.latency.get("move → 409", [])),
            "move": summary_ms(stats.latency["move → 200"]) if acked else {},
            "tap_to_other_phones": summary_ms(arrivals.latency) if arrivals.latency else {},
            "tap_to_phones_on_the_other_server": summary_ms(arrivals.cross) if arrivals.cross else {},
            **check}


def render(r: dict) -> list[str]:
    same, cross = r["tap_to_other_phones"], r["tap_to_phones_on_the_other_server"]
    p = lambda s, k: f"{s[k]:.0f}" if s else "–"  # noqa: E731
    title = "one of them killed (kill -9) half-way" if r.get("killed_one") else "both running"
    return [f"### Two app servers on one PostgreSQL: {title}", "",
            f"{r['tables']} tables × {r['phones']} phones split across two gunicorn servers (2 gevent "
            f"workers each) on one PostgreSQL, every phone streaming, a move per table every "
            f"~{r['move_every_s']:g} s for {r['seconds']:g} s: {r['streams_open']} streams open, "
            f"{r['moves']} moves tapped, {r['acknowledged']} acknowledged, {r['stored']} stored, "
            f"acknowledged but missing {r['acknowledged_missing']}, "
            f"{r['stale_409']} answered 409, errors {r['errors']}, games with a gap or a duplicate "
            f"{r['games_with_gaps_or_duplicates']}, broken chains {r['chains_broken']}."
            + (f" After the kill server B acknowledged {r['acknowledged_after_the_kill']} moves; the errors "
               "are the killed server's phones' streams and moves." if r.get("killed_one") else ""), "",
            "| tap → other phones (ms) | p50 | p95 | p99 | n |", "|---|---|---|---|---|",
            f"| any server | {p(same, 'p50')} | {p(same, 'p95')} | {p(same, 'p99')} | {same.get('n', 0)} |",
            f"| the other server (NOTIFY) | {p(cross, 'p50')} | {p(cross, 'p95')} | {p(cross, 'p99')} "
            f"| {cross.get('n', 0)} |", ""]
