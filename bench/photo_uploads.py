"""Other tables' moves while eight phones upload hostile photos at once (issue 35 §1): the
production server (gunicorn with gevent workers, as ``make run`` starts it) with 20 score-pad
tables, each recording a move every ``move_every`` seconds, first with nothing else going
on, then while eight seated phones each upload a 2 kB lossless WebP of 16,383 × 3,000 pixels
(49 megapixels, under the pixel budget; decoded whole it takes ~0.8 GB and seconds of CPU)
at the same moment. Reported: the moves' latency in both phases, each server worker's
resident memory when quiet, at its peak during the uploads and after them, and every
upload's answer (a photo stored, or 503 with Retry-After: a worker's decoding slots were
busy) and time.
"""
from __future__ import annotations

import io
import re
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from bench.common import scratch_dir
from bench.imports import Uploader, _phase
from bench.load import Phone, Server, _children, _open_all, _run_in_own_loop

_CSRF = re.compile(rb'name="csrf_token" value="([^"]+)"')


def hostile_webp() -> bytes:
    from PIL import Image
    out = io.BytesIO()
    Image.new("RGB", (16_383, 3_000), (40, 90, 30)).save(out, "WEBP", lossless=True)
    return out.getvalue()


def _resident_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024
    except (OSError, StopIteration):
        return 0.0


def upload_photo(port: int, game_id: str, token: str, content: bytes) -> dict:
    """One seated phone attaching ``content`` through the table page's photo form."""
    phone = Uploader(port, {f"seat_{game_id}": token})
    status, body = phone._request("GET", f"/games/{game_id}")
    csrf = _CSRF.search(body).group(1).decode()
    boundary = secrets.token_hex(12)
    fields = "".join(f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'
                     for k, v in (("csrf_token", csrf), ("about", "game"), ("caption", "")))
    body = (fields + f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="board.webp"\r\n'
            "Content-Type: image/webp\r\n\r\n").encode() + content + f"\r\n--{boundary}--\r\n".encode()
    start = time.perf_counter()
    try:
        status, data = phone._request("POST", f"/games/{game_id}/photos", body, {
            "Content-Type": f"multipart/form-data; boundary={boundary}", "Content-Length": str(len(body))})
    except Exception as err:  # noqa: BLE001 - an upload never answered is the result
        return {"status": repr(err), "seconds": time.perf_counter() - start}
    return {"status": status, "seconds": time.perf_counter() - start}


class Peaks:
    """Each worker's resident memory, sampled every 0.1 s while it runs."""

    def __init__(self, workers: list[int]):
        self.workers, self.peak = workers, {pid: 0.0 for pid in workers}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self) -> None:
        while not self._stop.wait(0.1):
            for pid in self.workers:
                self.peak[pid] = max(self.peak[pid], _resident_mb(pid))

    def __enter__(self) -> "Peaks":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()


def measure(tables: int = 20, uploads: int = 8, every: float = 0.5, quiet_seconds: float = 10.0,
            database: str | None = None, log=print) -> dict:
    """The two phases on SQLite (or on the PostgreSQL ``database`` URL given)."""
    content = hostile_webp()
    with scratch_dir() as tmp:
        if database:
            from bench.two_servers import PostgresServer
            server = PostgresServer(database)
        else:
            server = Server(tmp)
        seats = server.tables(tables + uploads, 2)
        with server:
            workers = _children(server.proc.pid)
            table_phones = [[Phone(server.port, *table[0])] for table in seats[:tables]]
            uploaders = [table[0] for table in seats[tables:]]

            def all_at_once() -> list[dict]:
                with ThreadPoolExecutor(uploads) as pool:
                    return list(pool.map(lambda s: upload_photo(server.port, s[0], s[2], content), uploaders))

            async def main():
                await _open_all([p for t in table_phones for p in t])
                log(f"photo uploads: {tables} tables, a move each every {every} s, nothing else")
                quiet = await _phase(server, table_phones, every, None, quiet_seconds)
                quiet_mb = {pid: _resident_mb(pid) for pid in workers}
                log(f"photo uploads: the same while {uploads} phones upload a {len(content):,}-byte WebP of 49 MP")
                with Peaks(workers) as peaks:
                    hostile = await _phase(server, table_phones, every, all_at_once, 0)
                after_mb = {pid: _resident_mb(pid) for pid in workers}
                for t in table_phones:
                    for p in t:
                        p.close()
                return {"quiet": quiet, "uploads": hostile, "workers": [
                    {"quiet_mb": quiet_mb[pid], "peak_mb": peaks.peak[pid], "after_mb": after_mb[pid]}
                    for pid in workers]}

            phases = _run_in_own_loop(main)
    answers = phases["uploads"]["import"]
    return {"engine": "postgresql" if database else "sqlite", "tables": tables, "move_every_s": every,
            "uploads": uploads, "upload_bytes": len(content), "answers": answers,
            "phases": {"quiet": phases["quiet"], "uploads": phases["uploads"]}, "workers": phases["workers"]}


def verdict(r: dict) -> dict:
    """Issue 35 §1's three targets for this run."""
    quiet, loaded = r["phases"]["quiet"]["moves"], r["phases"]["uploads"]["moves"]
    return {"p95_ratio": loaded["p95"] / quiet["p95"] if quiet and loaded else None,
            "memory_back": all(w["after_mb"] < w["quiet_mb"] + 100 for w in r["workers"]),
            "all_answered": all(isinstance(a["status"], int) for a in r["answers"])}


def render(r: dict) -> list[str]:
    v = verdict(r)
    statuses = ", ".join(f"{a['status']} in {a['seconds']:.1f} s" for a in r["answers"])
    out = [f"### Hostile photo uploads beside tables ({r['engine']})", "",
           f"{r['tables']} score-pad tables, one move each every {r['move_every_s']} s (± a third), against "
           f"gunicorn as `make run` starts it; then {r['uploads']} seated phones at once each upload a "
           f"{r['upload_bytes']:,}-byte lossless WebP of 16,383 × 3,000 pixels.", "",
           "| phase | moves | p50 ms | p95 ms | max ms | errors | load average before → after |",
           "|---|---|---|---|---|---|---|"]
    for name, phase in r["phases"].items():
        moves = phase["moves"]
        out.append(f"| {name} | {moves.get('n', 0)} | {moves.get('p50', 0):.0f} | {moves.get('p95', 0):.0f} "
                   f"| {moves.get('max', 0):.0f} | {phase['errors']} "
                   f"| {phase['load_average_before'][0]:.1f} → {phase['load_average_after'][0]:.1f} |")
    out += ["", "| worker | resident MB quiet | peak during the uploads | after |", "|---|---|---|---|"]
    out += [f"| {i + 1} | {w['quiet_mb']:.0f} | {w['peak_mb']:.0f} | {w['after_mb']:.0f} |"
            for i, w in enumerate(r["workers"])]
    ratio = f"{v['p95_ratio']:.2f}×" if v["p95_ratio"] else "–"
    return out + ["", f"Uploads answered: {statuses}.", "",
                  f"Other tables' p95 during the uploads: {ratio} their quiet p95 (target ≤ 2×); every worker back "
                  f"under its quiet figure + 100 MB: {'yes' if v['memory_back'] else 'no'}; every upload answered: "
                  f"{'yes' if v['all_answered'] else 'no'}.", ""]
