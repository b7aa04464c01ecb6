"""Slow clients (issue 16 item 7, docs/reliability.md §8): a few dozen connections that
send their request header a line at a time, or nothing at all, must not hold up anyone
else. Run against the server exactly as gunicorn.conf.py configures it (`make run`'s
settings, no command-line overrides). With the old settings (2 workers × 8 threads) the
normal requests below timed out while the slow ones held every thread."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request

from tests.conftest import ROOT, free_port

SLOW = 40          # connections sending a header line every DRIP seconds
IDLE = 10          # connections that send nothing
DRIP = 0.5
REQUESTS = 20      # normal requests made while the slow ones are still sending
WAIT = 10          # a normal request that takes longer than this counts as held up


def _configured_server(db_path: str, port: int) -> subprocess.Popen:
    env = {**os.environ, "TABLESCRIBE_DATABASE": db_path, "PUBLIC_URL": f"http://127.0.0.1:{port}"}
    gunicorn = os.path.join(os.path.dirname(sys.executable), "gunicorn")
    proc = subprocess.Popen([gunicorn, "-c", "gunicorn.conf.py", "--bind", f"127.0.0.1:{port}",
                             "app:create_app()"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1)
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("server did not start")


def _drip(port: int, stop: threading.Event, alive: list) -> None:
    """One slow client: a request line, then one header line every DRIP seconds."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
    sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    n = 0
    try:
        while not stop.wait(DRIP):
            sock.sendall(f"X-Slow-{n}: {n}\r\n".encode())
            n += 1
        alive.append(True)  # the header never ended and the server kept the connection
    except OSError:
        alive.append(False)
    finally:
        sock.close()


def test_slow_and_idle_clients_do_not_hold_up_anyone_else(tmp_path):
    port = free_port()
    proc = _configured_server(str(tmp_path / "slow.db"), port)
    stop, alive, idle = threading.Event(), [], []
    drips = [threading.Thread(target=_drip, args=(port, stop, alive)) for _ in range(SLOW)]
    try:
        for t in drips:
            t.start()
        idle = [socket.create_connection(("127.0.0.1", port), timeout=WAIT) for _ in range(IDLE)]
        time.sleep(2 * DRIP)  # every slow client has started sending
        base = f"http://127.0.0.1:{port}"
        for i in range(REQUESTS):
            if i % 2:
                body = json.dumps({"kind": "scorepad", "players": [{"name": "A"}, {"name": "B"}]}).encode()
                request = urllib.request.Request(base + "/api/games", data=body,
                                                 headers={"Content-Type": "application/json"})
                with urllib.request.urlopen(request, timeout=WAIT) as response:
                    assert response.status == 201
            else:
                with urllib.request.urlopen(base + "/", timeout=WAIT) as response:
                    assert response.status == 200
    finally:
        stop.set()
        for t in drips:
            t.join(WAIT)
        for sock in idle:
            sock.close()
        os.killpg(proc.pid, 15)
        proc.wait(20)
    assert alive.count(True) == SLOW  # they were all still sending while the others were served
