"""Live updates under load, against the production server (gunicorn with gevent
workers, as ``make run`` starts it) on 127.0.0.1:

- ``fan_out``: tables × phones, every phone holding the table's event stream (push) or
  polling ``/live`` every 1.5 s (the fallback, the old way), each saying it takes a move's
  regions alone as a table page does (``regions=1``), a move per table every
  ~15 s; the time from a tap (the POST sent) to each *other* phone of the table
  receiving the move, the server's CPU per idle phone per minute (a window with no
  moves) and its memory per connection.
- ``slow_headers``: normal requests' p95 alone, then with dozens of connections that
  send a header line a second and never finish, in the same run.

One asyncio client process shares the machine's 2 cores with the server; its CPU is
reported too.
"""
from __future__ import annotations

import asyncio
import random
import re
import secrets
import subprocess
import sys
import time
from contextlib import contextmanager, nullcontext

from bench.common import scratch_dir, summary_ms
from bench.load import (Phone, Server, Stats, _client_cpu, _form, _open_all, _run_in_own_loop,
                        _sleep_until, hall)

IDLE_WINDOW_S = 20.0
_IDS = re.compile(rb"^id: (\d+)$", re.M)  # an SSE message's id line: the game's sequence number


def _rss_kb(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as f:
                total += next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
        except (FileNotFoundError, StopIteration):
            pass
    return total


class Arrivals:
    """When each move was tapped, and when each phone saw it."""

    def __init__(self):
        self.tapped: dict[tuple[str, int], tuple[float, int]] = {}  # (game, seq) -> (time, seat)
        self.latency: list[float] = []
        self.missing = 0

    def tap(self, game_id: str, seq: int, seat: int) -> None:
        self.tapped[(game_id, seq)] = (time.perf_counter(), seat)

    def seen(self, game_id: str, seq: int, seat: int) -> None:
        tapped = self.tapped.get((game_id, seq))
        if tapped and tapped[1] != seat:
            self.latency.append(time.perf_counter() - tapped[0])


async def _stream(phone: Phone, arrivals: Arrivals, stats: Stats, until: float, opened: list) -> None:
    """One phone's event stream: a raw HTTP connection read line by line."""
    reader, writer = await asyncio.open_connection("127.0.0.1", phone.port)
    cookies = "; ".join(f"{k}={v}" for k, v in phone.cookies.items())
    writer.write((f"GET /games/{phone.game_id}/stream?seq={phone.seen}&regions=1 HTTP/1.1\r\n"
                  f"Host: 127.0.0.1\r\nAccept: text/event-stream\r\nCookie: {cookies}\r\n\r\n").encode())
    await writer.drain()
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 60)
        status = int(head.split()[1])
        if status != 200:
            stats.error("stream", f"HTTP {status}")
            return
        opened.append(phone)
        rest = b""  # a line the last read cut in two
        while time.perf_counter() < until:
            # whatever has arrived, at once: a message is ~300 lines of the region, and a read
            # with its own timeout per line cost this one client as much CPU as the servers
            data = await asyncio.wait_for(reader.read(65536), max(0.1, until - time.perf_counter()))
            if not data:
                stats.error("stream", "closed by the server")
                return
            whole, _, rest = (rest + data).rpartition(b"\n")
            for seq in _IDS.findall(whole):
                phone.seen = max(phone.seen, int(seq))
                arrivals.seen(phone.game_id, int(seq), phone.seat)
    except asyncio.TimeoutError:
        pass
    except (ConnectionError, asyncio.IncompleteReadError) as err:
        stats.error("stream", repr(err))
    finally:
        writer.close()


async def _poll(phone: Phone, arrivals: Arrivals, stats: Stats, until: float) -> None:
    """The fallback: ``/live?seq=`` every 1.5 s, a fresh region when something changed."""
    await _sleep_until(random.uniform(0, 1.5), until)
    while time.perf_counter() < until:
        tick = time.perf_counter()
        try:
            status, _, data = await phone.request("GET", f"/games/{phone.game_id}/live?seq={phone.seen}&regions=1",
                                                  headers={"HX-Request": "true"})
        except Exception as err:
            stats.error("poll", repr(err))
        else:
            stats.add(f"poll → {status}", time.perf_counter() - tick)
            if status == 200:
                before = phone.seen
                phone._saw(data)
                for seq in range(before + 1, phone.seen + 1):
                    arrivals.seen(phone.game_id, seq, phone.seat)
        await _sleep_until(1.5 - (time.perf_counter() - tick), until)


async def _mover(phones: list[Phone], arrivals: Arrivals, stats: Stats, start: float,
                 until: float, every: float, acked: list | None = None) -> None:
    """A move per ``every`` seconds from the table's phones in turn (``acked``: the client
    event ids the server answered 200, for a check that none was lost)."""
    await _sleep_until(start - time.perf_counter() + random.uniform(0, every), until)
    turn = 0
    while time.perf_counter() < until:
        phone = phones[turn % len(phones)]
        turn += 1
        seq = max(p.seen for p in phones)
        cid = secrets.token_hex(16)
        body = _form(csrf_token=phone.csrf, expected_seq=seq, action="points-recorded",
                     client_event_id=cid, seat=phone.seat, points=random.randint(1, 30), note="")
        arrivals.tap(phone.game_id, seq + 1, phone.seat)
        tick = time.perf_counter()
        try:
            status, _, data = await phone.request("POST", f"/games/{phone.game_id}/moves", body,
                                                  headers={"HX-Request": "true"})
        except Exception as err:
            stats.error("move", repr(err))
        else:
            stats.add(f"move → {status}", time.perf_counter() - tick)
            if status == 200:
                phone._saw(data)
                if acked is not None:
                    acked.append(cid)
            elif status != 409:
                stats.error("move", f"HTTP {status}")
        await _sleep_until(random.uniform(every * 2 / 3, every * 4 / 3), until)


@contextmanager
def cpu_hog():
    """Another process taking a core for as long as it runs (a busy loop), as a neighbour's
    test suite or a browser does on a shared machine; stopped by its process id."""
    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield hog.pid
    finally:
        hog.kill()
        hog.wait()


def fan_out(tables: int, phones: int, seconds: float, mode: str = "push",
            move_every: float = 15.0, idle_window: float = IDLE_WINDOW_S, hog: bool = False) -> dict:
    """``mode``: "push" (every phone holds the stream) or "poll" (every phone polls);
    ``hog``: with another process taking one core throughout (``cpu_hog``)."""
    with (cpu_hog() if hog else nullcontext()), hall(tables, phones) as (server, table_phones, everyone):

        async def main():
            await _open_all(everyone)
            stats, arrivals, opened = Stats(), Arrivals(), []
            rss0 = _rss_kb(server.pids)
            t0 = time.perf_counter()
            until = t0 + idle_window + seconds
            if mode == "push":
                listeners = [asyncio.create_task(_stream(p, arrivals, stats, until, opened))
                             for p in everyone]
            else:
                listeners = [asyncio.create_task(_poll(p, arrivals, stats, until)) for p in everyone]
            await asyncio.sleep(min(5.0, idle_window / 2))  # every stream opened
            rss1 = _rss_kb(server.pids)
            cpu0, window0 = server.cpu(), time.perf_counter()
            await asyncio.sleep(max(0.0, t0 + idle_window - time.perf_counter()))
            idle_cpu, idle_s = server.cpu() - cpu0, time.perf_counter() - window0
            cpu1, client0, busy0 = server.cpu(), _client_cpu(), time.perf_counter()
            await asyncio.gather(*(_mover(t, arrivals, stats, busy0, until, move_every)
                                   for t in table_phones))
            await asyncio.gather(*listeners)
            busy_s = time.perf_counter() - busy0
            return {"mode": mode, "streams_open": len(opened),
                    "tap_to_other_phones": summary_ms(arrivals.latency) if arrivals.latency else {},
                    "deliveries": len(arrivals.latency), "moves": len(arrivals.tapped),
                    "errors": sum(stats.errors.values()), "error_samples": stats.error_samples,
                    "idle_cpu_ms_per_phone_per_min": idle_cpu * 1000 / len(everyone) / (idle_s / 60),
                    "idle_window_s": idle_s,
                    "memory_kb_per_connection": (rss1 - rss0) / len(everyone),
                    "server_rss_mb": rss1 / 1024,
                    "busy_server_cpu_share": (server.cpu() - cpu1) / busy_s,
                    "client_cpu_s": _client_cpu() - client0,
                    "requests": {k: {"count": len(v), "latency": summary_ms(v)}
                                 for k, v in stats.latency.items()}}

        result = _run_in_own_loop(main)
    result.update({"tables": tables, "phones": phones, "seconds": seconds, "move_every_s": move_every,
                   "cpu_hog": hog})
    return result


async def _slow_client(port: int, until: float, held: list) -> None:
    """Sends a request line and then one header line a second, never the blank line."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        held.append(writer)
        n = 0
        while time.perf_counter() < until:
            await asyncio.sleep(1.0)
            n += 1
            writer.write(f"X-Slow-{n}: {n}\r\n".encode())
            await writer.drain()
        writer.close()
    except (ConnectionError, OSError):
        pass


async def _timed_gets(phone: Phone, path: str, count: int, concurrency: int) -> list[float]:
    times: list[float] = []

    async def worker(n: int):
        for _ in range(n):
            tick = time.perf_counter()
            status, _, _ = await phone.request("GET", path)
            assert status == 200, status
            times.append(time.perf_counter() - tick)

    await asyncio.gather(*(worker(count // concurrency) for _ in range(concurrency)))
    return times


def slow_headers(slow: int = 50, requests: int = 300, concurrency: int = 4) -> dict:
    with scratch_dir() as tmp:
        server = Server(tmp)
        seats = server.tables(1, 2)
        with server:
            phones = [Phone(server.port, *seats[0][0]) for _ in range(concurrency)]

            async def main():
                await _open_all(phones)
                path = f"/games/{seats[0][0][0]}"
                alone = []
                for phone in phones:
                    alone += await _timed_gets(phone, path, requests // concurrency, 1)
                held: list = []
                until = time.perf_counter() + 600
                slow_tasks = [asyncio.create_task(_slow_client(server.port, until, held))
                              for _ in range(slow)]
                await asyncio.sleep(3.0)  # every slow client connected and dripping
                loaded = []
                for phone in phones:
                    loaded += await _timed_gets(phone, path, requests // concurrency, 1)
                for task in slow_tasks:
                    task.cancel()
                for writer in held:
                    writer.close()
                return alone, loaded, len(held)

            alone, loaded, held = _run_in_own_loop(main)
    a, b = summary_ms(alone), summary_ms(loaded)
    return {"slow_connections": held, "requests": len(loaded), "alone": a, "with_slow": b,
            "p95_ratio": b["p95"] / a["p95"] if a.get("p95") else None}
