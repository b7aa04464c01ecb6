"""Helpers of the reliability and security tests: a real gunicorn in its own process
group (so kill -9 takes the master and its workers at once), a tiny keep-alive JSON
client, and the checks every run ends with. Everything binds to 127.0.0.1 only."""
from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

from conftest import ROOT, free_port

BIN = os.path.dirname(sys.executable)


class Server:
    """`make run`'s server (gunicorn, 2 workers × 8 threads) on 127.0.0.1."""

    def __init__(self, db_path: str, workers: int = 2, threads: int = 8):
        self.db_path, self.workers, self.threads = db_path, workers, threads
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "Server":
        env = {**os.environ, "TABLESCRIBE_DATABASE": self.db_path, "PUBLIC_URL": self.url}
        self.proc = subprocess.Popen(
            [os.path.join(BIN, "gunicorn"), "--bind", f"127.0.0.1:{self.port}",
             "--workers", str(self.workers), "--threads", str(self.threads), "--timeout", "60",
             "app:create_app()"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                urllib.request.urlopen(self.url + "/", timeout=1)
                return self
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError("gunicorn exited while starting")
                time.sleep(0.05)
        self.kill9()
        raise RuntimeError("server did not start")

    def kill9(self) -> None:
        """SIGKILL the whole process group this test started: master and workers."""
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait(10)
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(15)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                self.kill9()
            self.proc = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


class Phone:
    """One phone's keep-alive HTTP connection speaking the JSON API."""

    def __init__(self, base_url: str, token: str | None = None, timeout: float = 30):
        host, port = base_url.removeprefix("http://").split(":")
        self.host, self.port, self.timeout, self.token = host, int(port), timeout, token
        self.conn = http.client.HTTPConnection(host, self.port, timeout=timeout)

    def request(self, method: str, path: str, body=None, headers=None, raw: bytes | None = None):
        headers = dict(headers or {})
        if self.token:
            headers.setdefault("X-Seat-Token", self.token)
        payload = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        if payload is not None:
            headers.setdefault("Content-Type", "application/json")
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=payload, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
                break
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                # A keep-alive connection the server closed between requests; the
                # request was never read, so sending it once more is safe.
                self.conn.close()
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
                if attempt == 2:
                    raise
        ctype = response.getheader("Content-Type") or ""
        parsed = json.loads(data) if data and ctype.startswith("application/json") else data
        return response.status, parsed

    def close(self) -> None:
        self.conn.close()


def create_game(base_url: str, kind: str, players: list[dict], options: dict | None = None) -> dict:
    phone = Phone(base_url)
    status, body = phone.request("POST", "/api/games", {"kind": kind, "players": players,
                                                         "options": options or {}})
    phone.close()
    assert status == 201, body
    return body


def flask_cli(db_path: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    env = {**os.environ, "TABLESCRIBE_DATABASE": db_path}
    return subprocess.run([os.path.join(BIN, "flask"), "--app", "app", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


def assert_store_sound(db_path: str, subprocess_cli: bool = True) -> None:
    """integrity_check ok, and `flask --app app verify-db` passes (every chain intact):
    as a subprocess, or the same click command in-process (Flask's CLI runner)."""
    import sqlite3
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()
    if subprocess_cli:
        verified = flask_cli(db_path, "verify-db")
        assert verified.returncode == 0, verified.stderr + verified.stdout
        return
    from app import create_app
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": db_path})
    with app.app_context():  # as `flask` itself provides
        result = app.test_cli_runner().invoke(args=["verify-db"])
    assert result.exit_code == 0, result.output
