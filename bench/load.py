"""A convention hall on 127.0.0.1: the production server (gunicorn, as ``make run``
starts it) with many tables of phones, each phone polling the live region and each
table recording moves at table pace; and the maximum appends per second the server
sustains when phones post back to back.

The load generator is one asyncio process speaking plain HTTP/1.1 with keep-alive
connections, so it costs little CPU beside the server; both share this machine's
cores, and the CPU each used is reported.
"""
from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
import html
import os
import random
import re
import resource
import secrets
import time

from bench.common import ROOT, scratch_dir, summary_ms
from events.application.table import new_game
from events.storage import store

WORKERS, THREADS = 2, 8   # as `make run` (gevent workers since issue 18: --threads is ignored)
MOVE_EVERY_S = 15.0       # a move per table every 10–20 s: a brisk board game
TIMEOUT_S = 30.0

_SEQ = re.compile(rb'data-seq="(\d+)"')
# Every region the page polls, as htmx does: hx-get="..." hx-trigger="every 1500ms[, other triggers]".
_POLLED = re.compile(rb'hx-get="([^"]+)"\s+hx-trigger="every (\d+)(ms|s)[,"]')
_CSRF = re.compile(rb'name="csrf_token" value="([^"]+)"')


def _run_in_own_loop(main):
    """``asyncio.run(main())`` on a thread of its own: the caller's thread may already
    run an event loop (Playwright's sync API does, in a test worker that drove a browser)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(main())).result()


class Connection:
    """One keep-alive HTTP/1.1 connection, as a phone's browser keeps one."""

    def __init__(self, port: int):
        self.port = port
        self.reader = self.writer = None
        self.cookies: dict[str, str] = {}

    async def request(self, method: str, path: str, body: bytes = b"",
                      headers: dict | None = None) -> tuple[int, dict, bytes]:
        for attempt in (1, 2):
            fresh = self.writer is None
            if fresh:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            try:
                return await asyncio.wait_for(self._exchange(method, path, body, headers or {}),
                                              TIMEOUT_S)
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if fresh or attempt == 2:  # an idle keep-alive connection closed: retry once
                    raise
        raise AssertionError("unreachable")

    async def _exchange(self, method, path, body, headers):
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}"]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if body:
            lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await self.writer.drain()
        head = await self.reader.readuntil(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        status = int(status_line.split()[1])
        response_headers: dict[str, str] = {}
        for line in filter(None, header_lines):
            name, _, value = line.partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "set-cookie":
                cookie = value.split(";", 1)[0]
                key, _, val = cookie.partition("=")
                self.cookies[key] = val
            response_headers[name] = value
        length = int(response_headers.get("content-length", "0"))
        data = await self.reader.readexactly(length) if length else b""
        if response_headers.get("connection", "").lower() == "close":
            self.close()
        return status, response_headers, data

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class Phone:
    """One phone: a browser keeps one keep-alive connection to the server and opens a
    second only while the first is busy (a poll and a move at the same moment)."""

    def __init__(self, port: int, game_id: str, seat: int, token: str):
        self.port, self.game_id, self.seat, self.seen = port, game_id, seat, 1
        self.cookies = {f"seat_{game_id}": token}
        self.idle: list[Connection] = []
        self.opened = 0
        self.csrf = ""
        self.polled: dict[str, tuple[str, float]] = {}  # path -> (current url, interval)

    async def request(self, method: str, path: str, body: bytes = b"", headers=None):
        conn = self.idle.pop() if self.idle else self._new()
        try:
            return await conn.request(method, path, body, headers)
        finally:
            self.cookies.update(conn.cookies)
            self.idle.append(conn)

    def _new(self) -> Connection:
        self.opened += 1
        conn = Connection(self.port)
        conn.cookies = self.cookies  # one cookie jar per phone
        return conn

    async def open(self) -> None:
        """Open the table page once, as a phone does: session, device cookie, CSRF token."""
        status, _, body = await self.request("GET", f"/games/{self.game_id}")
        assert status == 200, status
        self.csrf = _CSRF.search(body).group(1).decode()
        self._saw(body)

    def _saw(self, body: bytes) -> None:
        """Take in a response as htmx would: the seq it shows and the polled regions'
        fresh URLs (each swapped region carries its own next URL)."""
        found = _SEQ.search(body)
        if found:
            self.seen = max(self.seen, int(found.group(1)))
        for url, amount, unit in _POLLED.findall(body):
            url = html.unescape(url.decode())
            every = int(amount) / (1000 if unit == b"ms" else 1)
            self.polled[url.split("?")[0]] = (url, every)

    def close(self) -> None:
        for conn in self.idle:
            conn.close()


class Stats:
    def __init__(self):
        self.latency: dict[str, list[float]] = {}
        self.errors: dict[str, int] = {}
        self.error_samples: list[str] = []
        self.stale = 0

    def add(self, kind: str, seconds: float) -> None:
        self.latency.setdefault(kind, []).append(seconds)

    def error(self, kind: str, what: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1
        if len(self.error_samples) < 10:
            self.error_samples.append(f"{kind}: {what}")


def _form(**fields) -> bytes:
    from urllib.parse import urlencode
    return urlencode(fields).encode()


async def _poller(phone: Phone, path: str, stats: Stats, until: float) -> None:
    """One polled region of one phone: 204 while unchanged, the fresh region otherwise."""
    name = path.rsplit("/", 1)[-1]
    await _sleep_until(random.uniform(0, phone.polled[path][1]), until)
    while time.perf_counter() < until:
        tick = time.perf_counter()
        url, every = phone.polled[path]
        try:
            status, _, data = await phone.request("GET", url, headers={"HX-Request": "true"})
        except Exception as err:
            stats.error(f"poll {name}", repr(err))
        else:
            elapsed = time.perf_counter() - tick
            if status == 204:
                stats.add(f"poll {name} → 204 unchanged", elapsed)
            elif status == 200:
                stats.add(f"poll {name} → 200 fresh region", elapsed)
                phone._saw(data)
            else:
                stats.error(f"poll {name}", f"HTTP {status}")
        await _sleep_until(every - (time.perf_counter() - tick), until)


async def _mover(phones: list[Phone], stats: Stats, until: float, every: float | None) -> None:
    """One table: a seated phone records a move (seats take turns)."""
    if every:
        await _sleep_until(random.uniform(0, every), until)
    turn = 0
    while time.perf_counter() < until:
        phone = phones[turn % len(phones)]
        turn += 1
        body = _form(csrf_token=phone.csrf, expected_seq=phone.seen, action="points-recorded",
                     client_event_id=secrets.token_hex(16), seat=phone.seat,
                     points=random.randint(-5, 30), note="")
        start = time.perf_counter()
        try:
            status, _, data = await phone.request(
                "POST", f"/games/{phone.game_id}/moves", body, headers={"HX-Request": "true"})
        except Exception as err:
            stats.error("move", repr(err))
        else:
            elapsed = time.perf_counter() - start
            if status == 200:
                stats.add("move → 200 fragment", elapsed)
            elif status == 409:
                stats.stale += 1
                stats.add("move → 409 stale", elapsed)
            else:
                stats.error("move", f"HTTP {status}: {data[:200]!r}")
            phone._saw(data)  # the other phones learn of the move by polling
        if every:
            await _sleep_until(random.uniform(every * 2 / 3, every * 4 / 3), until)


async def _sleep_until(seconds: float, until: float) -> None:
    await asyncio.sleep(max(0.0, min(seconds, until - time.perf_counter())))


def _proc_cpu(pids: list[int]) -> float:
    """User + system CPU seconds of these processes so far."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        except (FileNotFoundError, ProcessLookupError):
            pass
    return total


def _children(pid: int) -> list[int]:
    kids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        kids.append(int(entry))
            except (FileNotFoundError, ProcessLookupError, IndexError):
                pass
    return kids


def _client_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Server:
    def __init__(self, tmp: str):
        import sys
        sys.path.insert(0, ROOT)
        from tests.conftest import free_port, start_server
        self.path = os.path.join(tmp, "load.db")
        db = store.connect(self.path)
        store.migrate(db)
        self.db = db
        self.port = free_port()
        self._start = lambda: start_server(self.path, self.port, workers=WORKERS, threads=THREADS)
        self.proc = None

    def tables(self, n: int, phones: int) -> list[list[tuple[str, int, str]]]:
        out = []
        for t in range(n):
            players = [{"name": f"P{t}-{s}", "colour": ""} for s in range(phones)]
            created = new_game(self.db, "scorepad", players, {}, "bench")
            out.append([(created["id"], s["seat"], s["token"]) for s in created["seats"]])
        return out

    def __enter__(self):
        self.proc = self._start()
        self.pids = [self.proc.pid] + _children(self.proc.pid)
        return self

    def __exit__(self, *exc):
        from tests.conftest import stop_server
        stop_server(self.proc)  # at once: the measurement is over (graceful would wait 5 s)
        self.db.conn.close()

    def cpu(self) -> float:
        return _proc_cpu(self.pids)


async def _open_all(phones: list[Phone]) -> None:
    sem = asyncio.Semaphore(16)

    async def one(phone):
        async with sem:
            await phone.open()

    await asyncio.gather(*(one(p) for p in phones))


def _report(stats: Stats, seconds: float, server_cpu: float, client_cpu: float) -> dict:
    every = [x for xs in stats.latency.values() for x in xs]
    count = len(every) + sum(stats.errors.values())
    by_kind = {k: {"latency": summary_ms(v), "count": len(v), "errors": 0}
               for k, v in sorted(stats.latency.items())}
    for kind, n in stats.errors.items():
        by_kind.setdefault(kind, {"latency": {}, "count": 0, "errors": 0})["errors"] += n
    by_kind["all requests"] = {"latency": summary_ms(every) if every else {}, "count": len(every),
                               "errors": sum(stats.errors.values())}
    return {"by_kind": by_kind, "requests": count, "requests_per_s": count / seconds,
            "errors": sum(stats.errors.values()), "error_samples": stats.error_samples,
            "stale": stats.stale, "server_cpu_s": server_cpu,
            "server_cpu_ms_per_request": server_cpu * 1000 / max(1, count),
            "server_cpu_share": server_cpu / seconds, "client_cpu_s": client_cpu,
            "seconds": seconds, "workers": WORKERS, "threads": THREADS}


@contextmanager
def hall(tables: int, phones: int):
    """A running server on a scratch database with ``tables`` tables of ``phones`` seated
    phones each: (the server, each table's phones, every phone)."""
    with scratch_dir() as tmp:
        server = Server(tmp)
        seats = server.tables(tables, phones)
        with server:
            table_phones = [[Phone(server.port, *s) for s in table] for table in seats]
            yield server, table_phones, [p for t in table_phones for p in t]


def load_test(tables: int, phones: int, seconds: float, move_every: float = MOVE_EVERY_S) -> dict:
    """``tables`` × ``phones`` for ``seconds``: polls and table-pace moves."""
    with hall(tables, phones) as (server, table_phones, everyone):

        async def main():
            await _open_all(everyone)
            stats = Stats()
            cpu0, client0, t0 = server.cpu(), _client_cpu(), time.perf_counter()
            until = t0 + seconds
            await asyncio.gather(*(_poller(p, path, stats, until)
                                   for p in everyone for path in p.polled),
                                 *(_mover(t, stats, until, move_every) for t in table_phones))
            elapsed = time.perf_counter() - t0
            for p in everyone:
                p.close()
            return _report(stats, elapsed, server.cpu() - cpu0, _client_cpu() - client0)

        result = _run_in_own_loop(main)
        result["connections_per_phone"] = sum(p.opened for p in everyone) / len(everyone)
        result["polled"] = {path.rsplit("/", 1)[-1]: every
                            for path, (_, every) in everyone[0].polled.items()}
    result.update({"tables": tables, "phones": phones,
                   "move_every_s": move_every})
    return result


def max_appends(clients: int, seconds: float) -> dict:
    """``clients`` phones, each at its own table, posting moves back to back."""
    with scratch_dir() as tmp:
        server = Server(tmp)
        seats = server.tables(clients, 2)
        with server:
            phones = [Phone(server.port, *table[0]) for table in seats]

            async def main():
                await _open_all(phones)
                stats = Stats()
                cpu0, client0, t0 = server.cpu(), _client_cpu(), time.perf_counter()
                until = t0 + seconds
                await asyncio.gather(*(_mover([p], stats, until, None) for p in phones))
                elapsed = time.perf_counter() - t0
                for p in phones:
                    p.close()
                return stats, elapsed, server.cpu() - cpu0, _client_cpu() - client0

            stats, elapsed, server_cpu, client_cpu = _run_in_own_loop(main)
    done = stats.latency.get("move → 200 fragment", [])
    return {"clients": clients, "seconds": elapsed, "appends": len(done),
            "appends_per_s": len(done) / elapsed, "latency": summary_ms(done) if done else {},
            "errors": sum(stats.errors.values()), "error_samples": stats.error_samples,
            "stale": stats.stale, "server_cpu_ms_per_request": server_cpu * 1000 / max(1, len(done)),
            "server_cpu_share": server_cpu / elapsed, "client_cpu_s": client_cpu,
            "workers": WORKERS, "threads": THREADS}
