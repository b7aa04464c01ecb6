"""Helpers of the reliability and security tests: a real gunicorn in its own process
group (so kill -9 takes the master and its workers at once), a tiny keep-alive JSON
client, and the checks every run ends with. Everything binds to 127.0.0.1 only."""
from __future__ import annotations

import functools
import http.client
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

from tests.conftest import app_on, free_port, ROOT

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
        # read it when a server dies under a test (beside the file; PostgreSQL's: in /tmp)
        self.log = f"{self.db_path}.gunicorn.log" if not self.db_path.startswith("postgresql://") \
            else f"/tmp/tablescribe-gunicorn-{self.port}.log"
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [os.path.join(BIN, "gunicorn"), "--bind", f"127.0.0.1:{self.port}",
                 "--workers", str(self.workers), "--threads", str(self.threads), "--timeout", "60",
                 "app:create_app()"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                stderr=log, start_new_session=True)
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
        """At once (SIGQUIT, gunicorn's quick shutdown), once the test is done with it: a
        graceful SIGTERM waits seconds for any keep-alive connection a phone left open."""
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGQUIT)
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
    """integrity_check ok (SQLite), and `flask --app app verify-db` passes (every chain
    intact): as a subprocess, or the same click command in-process (Flask's CLI runner)."""
    import sqlite3
    if not db_path.startswith("postgresql://"):
        conn = sqlite3.connect(db_path)
        try:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        finally:
            conn.close()
    if subprocess_cli:
        verified = flask_cli(db_path, "verify-db")
        assert verified.returncode == 0, verified.stderr + verified.stdout
        return
    app = app_on(db_path)
    with app.app_context():  # as `flask` itself provides
        result = app.test_cli_runner().invoke(args=["verify-db"])
    assert result.exit_code == 0, result.output


# ---- hypothesis strategies: JSON values, payloads from an event type's schema ---------

@functools.lru_cache(maxsize=None)
def hostile_strategies():
    """Values that break careless code: edge integers, odd strings, deep nesting."""
    from hypothesis import strategies as st
    edge_ints = st.sampled_from([-2**63, -2**31, -1000001, -1, 0, 1, 2, 3, 4, 5, 6, 7, 11, 12,
                                 99, 1000001, 2**31, 2**53 + 1, 2**63, 10**30])
    ints = st.one_of(edge_ints, st.integers(-20, 20), st.integers())
    strings = st.one_of(st.sampled_from(["", " ", "<script>alert(1)</script>", "\x00", "\u202e",
                                         "' OR 1=1 --", "../../etc/passwd", "é" * 300, "0", "-1",
                                         "null", "true", "1e309", "NaN"]),
                        st.text(max_size=20))
    scalars = st.one_of(st.none(), st.booleans(), ints, strings,
                        st.floats(allow_nan=False, allow_infinity=False))
    json_values = st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(strings, inner, max_size=3)), max_leaves=6)
    return ints, strings, json_values


def from_schema(schema: dict, root: dict | None = None, depth: int = 0):
    """A hypothesis strategy of values shaped like a JSON Schema (a best effort: the
    schema check in front of the rules refuses whatever does not fit)."""
    from hypothesis import strategies as st
    ints, strings, json_values = hostile_strategies()
    root = root or schema
    if depth > 6 or not isinstance(schema, dict):
        return json_values
    if "$ref" in schema:
        ref = schema["$ref"]
        if ref.startswith("#/"):
            target = root
            for part in ref[2:].split("/"):
                target = target.get(part, {}) if isinstance(target, dict) else {}
            return from_schema(target, root, depth + 1)
        return json_values
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(list(schema["enum"]))
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return st.one_of([from_schema({**{k: v for k, v in schema.items() if k != key}, **s}, root, depth + 1)
                              for s in schema[key]])
    if "allOf" in schema:
        merged = {k: v for k, v in schema.items() if k != "allOf"}
        for part in schema["allOf"]:
            merged.update(part)
        return from_schema(merged, root, depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        return st.one_of([from_schema({**schema, "type": k}, root, depth + 1) for k in kind])
    if kind == "integer":
        lo, hi = schema.get("minimum"), schema.get("maximum")
        whole_floats = st.integers(-3, 12).map(float)  # JSON's 3.0: an integer to a lax validator
        if lo is not None or hi is not None:
            return st.one_of(st.integers(lo, hi), ints, whole_floats)
        return st.one_of(ints, whole_floats)
    if kind == "number":
        return st.one_of(ints, st.floats(allow_nan=False, allow_infinity=False))
    if kind == "string":
        lo, hi = schema.get("minLength", 0), schema.get("maxLength", 30)
        return st.one_of(st.text(min_size=lo, max_size=min(hi, lo + 30)), strings)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        lo = schema.get("minItems", 0)
        hi = min(schema.get("maxItems", lo + 6), lo + 6)
        if "prefixItems" in schema:
            head = st.tuples(*[from_schema(s, root, depth + 1) for s in schema["prefixItems"]])
            return head.map(list)
        items = schema.get("items", {})
        return st.lists(from_schema(items, root, depth + 1) if items else json_values,
                        min_size=lo, max_size=hi)
    if kind == "object" or "properties" in schema:
        props = schema.get("properties", {})
        required = [p for p in schema.get("required", []) if p in props]
        optional = [p for p in props if p not in required]
        base = st.fixed_dictionaries({p: from_schema(props[p], root, depth + 1) for p in required},
                                     optional={p: from_schema(props[p], root, depth + 1)
                                               for p in optional})
        extra = schema.get("additionalProperties", True)
        if isinstance(extra, dict) or "patternProperties" in schema:
            value = from_schema(extra if isinstance(extra, dict) else
                                next(iter(schema["patternProperties"].values())), root, depth + 1)
            keys = st.one_of(st.sampled_from([str(i) for i in range(6)]), strings)
            return st.tuples(base, st.dictionaries(keys, value, max_size=4)).map(
                lambda pair: {**pair[1], **pair[0]})
        return base
    return json_values


def record_figures(name: str, figures: dict) -> None:
    """Keep a run's figures in test-artifacts/reliability-figures.json (docs/reliability.md
    quotes the last run), and print them for `pytest -s`."""
    import fcntl
    path = os.path.join(ROOT, "test-artifacts", "reliability-figures.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # xdist workers write at once
        try:
            with open(path) as f:
                everything = json.load(f)
        except (OSError, ValueError):
            everything = {}
        everything[name] = {**figures, "recorded_at": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())}
        with open(path, "w") as f:
            json.dump(everything, f, indent=1, sort_keys=True, default=str)
    print(f"\n{name}: {figures}")
