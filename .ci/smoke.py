"""The README's first command, from nothing, as a newcomer runs it (issue 23).

`python3 .ci/smoke.py` (standard library only: nothing is installed yet) clones this
repository's HEAD (commit first: uncommitted changes are not in the copy) into a throwaway
folder and there, with no `.venv`, no `node_modules` and empty pip and npm caches:

1. `make run HOST=127.0.0.1 PORT=<a free port>`: it sets up a venv holding the runtime
   dependencies only (no test extras) and serves with gunicorn's gevent workers; the smoke
   waits until `/` answers, loads `/`, creates a score pad game and records a round through
   the JSON API, reads it back, and stops the server;
2. every command-line command of the README, in that venv, on the game it recorded
   (restore answered "y"; copy-db once the PostgreSQL cluster of step 4 runs);
3. every module of the app and every module any of them imports, including the imports
   inside functions (the PostgreSQL engine's), in that venv;
4. `make run` again on PostgreSQL (Debian's package, `make postgresql`; a throwaway
   cluster), with the same game and move, and the README's commands that touch the
   database there (but `backup`, which is SQLite's);
5. `git status` in the copy is clean.

It prints one line per step and exits non-zero at the first that fails, with the tail of
what the failing command printed. The servers it starts listen on 127.0.0.1 only and are
stopped by the smoke itself, whatever happens; the copy is removed.
"""
from __future__ import annotations

import ast
import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVE_TIMEOUT = 240  # seconds for `make run` to install and serve (a fresh venv on a busy machine)
APP_PACKAGES = ("events", "scoring", "web")


class SmokeFailed(Exception):
    pass


def step(name: str):
    """Print ``name``, run the decorated function, print its time (or why it failed)."""
    def wrap(fn):
        def run(*args, **kwargs):
            print(f"smoke: {name} ...", flush=True)
            started = time.monotonic()
            result = fn(*args, **kwargs)
            print(f"smoke: {name}: ok ({time.monotonic() - started:.1f} s)", flush=True)
            return result
        return run
    return wrap


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def sh(cmd: list[str], cwd: str, env: dict | None = None, timeout: float = 300, answer: str | None = None) -> str:
    """``answer``: what is typed at a question (restore's "replace it?")."""
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, input=answer)
    if done.returncode:
        raise SmokeFailed(f"`{' '.join(cmd)}` exited {done.returncode}:\n{tail(done.stdout + done.stderr)}")
    return done.stdout


def tail(text: str, lines: int = 40) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:])


def http(base: str, path: str, body: dict | None = None, token: str | None = None) -> tuple[int, bytes]:
    headers = {"Content-Type": "application/json", **({"X-Seat-Token": token} if token else {})}
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=15) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


class Server:
    """`make run` in ``clone`` on 127.0.0.1:``port``, in its own process group (make,
    gunicorn's master and its workers), its output in a log file."""

    def __init__(self, clone: str, port: int, env: dict):
        self.base = f"http://127.0.0.1:{port}"
        self.log_path = os.path.join(os.path.dirname(clone), f"make-run-{port}.log")
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(["make", "run", "HOST=127.0.0.1", f"PORT={port}"], cwd=clone, env=env,
                                     stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     start_new_session=True)

    def output(self) -> str:
        self.log.flush()
        with open(self.log_path) as f:
            return f.read()

    def wait_until_serving(self) -> None:
        deadline = time.monotonic() + SERVE_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SmokeFailed(f"`make run` exited {self.proc.returncode} before serving:\n{tail(self.output())}")
            try:
                urllib.request.urlopen(self.base + "/", timeout=2).close()
                return
            except OSError:
                time.sleep(0.25)
        raise SmokeFailed(f"`make run` did not serve within {SERVE_TIMEOUT} s:\n{tail(self.output())}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
        self.log.close()


def serve_and_record(clone: str, env: dict) -> str:
    """`make run`, then `/`, a new game and a move through the API; the game's id."""
    server = Server(clone, free_port(), env)
    try:
        server.wait_until_serving()
        status, page = http(server.base, "/")
        if status != 200 or b"Tablescribe" not in page:
            raise SmokeFailed(f"GET / answered {status}")
        status, created = http(server.base, "/api/games", {
            "kind": "scorepad", "players": [{"name": "Anna"}, {"name": "Béla"}]})
        if status != 201:
            raise SmokeFailed(f"POST /api/games answered {status}: {created[:300]!r}")
        game = json.loads(created)
        status, appended = http(server.base, f"/api/games/{game['id']}/events", {
            "type": "round-entered", "expected_seq": 1, "client_event_id": "smoke-1",
            "data": {"round": 1, "entries": [{"seat": 0, "points": 7}, {"seat": 1, "points": 5}]}},
            token=game["seats"][0]["token"])
        if status != 201:
            raise SmokeFailed(f"recording a move answered {status}: {appended[:300]!r}")
        status, state = http(server.base, f"/api/games/{game['id']}/state")
        scores = [row["score"] for row in json.loads(state)["standings"]] if status == 200 else None
        if scores != [7, 5]:
            raise SmokeFailed(f"the recorded move is not in the state: {status} {state[:300]!r}")
        if "Traceback" in server.output():
            raise SmokeFailed(f"the server logged an error:\n{tail(server.output())}")
        return game["id"]
    finally:
        server.stop()


def readme_commands(clone: str) -> list[str]:
    """The `flask --app app …` commands the README lists (in its code blocks and in its text)."""
    readme = open(os.path.join(clone, "README.md"), encoding="utf-8").read()
    found = []
    for line in readme.splitlines():
        start = line.find("flask --app app ")
        if start >= 0:
            command = line[start:].split("#", 1)[0].split("`", 1)[0].split("(", 1)[0].strip()
            if command not in found:
                found.append(command)
    return found


def cli_arguments(command: str, game: str, work: str) -> list[str]:
    """The README's placeholders filled in: the smoke's game, its export, a backup path."""
    fill = {"GAME_ID": game, "GAME": game, "FILE": os.path.join(work, "game.json"),
            "PATH": os.path.join(work, "backup.db"), "N": "2"}
    words = [fill.get(word, word) for word in command.split()[3:]]
    if words[0] == "export-plays":  # its FILE is written, not the game's export read
        words[1] = os.path.join(work, "plays.json")
    return words


def run_readme_commands(clone: str, game: str, env: dict, skip: tuple[str, ...] = ()) -> list[str]:
    flask = [os.path.join(clone, ".venv", "bin", "flask"), "--app", "app"]
    work = tempfile.mkdtemp(prefix="smoke-cli-", dir=os.path.dirname(clone))
    ran = []
    for command in readme_commands(clone):
        words = cli_arguments(command, game, work)
        if words[0] in skip:
            continue
        out = sh([*flask, *words], cwd=clone, env=env, answer="y\n")
        if words[0] == "export":
            with open(os.path.join(work, "game.json"), "w") as f:
                f.write(out)
        ran.append(words[0])
    return ran


def imported_modules(clone: str) -> list[str]:
    """Every module of the app, and every module any of them imports, at the top or
    inside a function (the PostgreSQL engine imports psycopg only when it is used)."""
    names = set()
    for name in sh(["git", "ls-files", "*.py"], cwd=clone).split():
        in_app = name.split("/")[0] in (*APP_PACKAGES, "app.py")
        if not in_app and name not in ("gunicorn.conf.py", "scripts/announce.py"):
            continue
        if in_app:
            names.add(name.removesuffix(".py").replace("/", ".").removesuffix(".__init__"))
        for node in ast.walk(ast.parse(open(os.path.join(clone, name), encoding="utf-8").read())):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
    return sorted(names)


IMPORT_ALL = """
import importlib, sys
failed = []
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
    except Exception as err:
        failed.append(f"{name}: {type(err).__name__}: {err}")
print("\\n".join(failed))
sys.exit(1 if failed else 0)
"""


def start_postgres(work: str):
    """A throwaway cluster of Debian's PostgreSQL on a free port: (URL, stop)."""
    initdb = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))[-1]
    pg_ctl = os.path.join(os.path.dirname(initdb), "pg_ctl")
    home = tempfile.mkdtemp(prefix="smoke-pg-", dir=work)
    as_user = ["runuser", "-u", "nobody", "--"] if os.geteuid() == 0 else []  # PostgreSQL refuses root
    if os.geteuid() == 0:
        os.chmod(work, 0o755)
        shutil.chown(home, "nobody")
    port = free_port()
    data = os.path.join(home, "data")
    sh([*as_user, initdb, "-D", data, "-U", "tablescribe", "--auth=trust", "-E", "UTF8",
        "--locale=C.UTF-8", "--no-sync"], cwd=home)
    sh([*as_user, pg_ctl, "-D", data, "-l", os.path.join(home, "log"), "-w", "-t", "30", "-o",
        f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={home} -c fsync=off",
        "start"], cwd=home)
    return (f"postgresql://tablescribe@127.0.0.1:{port}/postgres",
            lambda: subprocess.run([*as_user, pg_ctl, "-D", data, "-m", "immediate", "stop"],
                                   cwd=home, capture_output=True))


def main() -> int:
    started = time.monotonic()
    work = tempfile.mkdtemp(prefix="tablescribe-smoke-")
    clone = os.path.join(work, "tablescribe")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("VIRTUAL_ENV", "PYTHONPATH", "DATABASE_URL", "TABLESCRIBE_", "PUBLIC_URL"))}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if ".venv" not in p)
    # no download cache of an earlier run: every package comes from its registry, as on a new machine
    env["PIP_CACHE_DIR"] = os.path.join(work, "pip-cache")
    env["npm_config_cache"] = os.path.join(work, "npm-cache")
    stop_postgres = None
    try:
        step("a fresh clone of HEAD")(sh)(["git", "clone", "-q", "--no-local", ROOT, clone], cwd=work)
        game = step("make run serves /, a new game and a move through the API")(serve_and_record)(clone, env)
        extras = sh([os.path.join(clone, ".venv", "bin", "python"), "-m", "pip", "list", "--format=freeze"],
                    cwd=clone)
        if any(line.lower().startswith(("pytest==", "playwright==", "hypothesis==")) for line in extras.splitlines()):
            raise SmokeFailed("the venv of `make run` holds test extras: the smoke proves nothing")
        ran = step("the README's commands in that venv")(run_readme_commands)(clone, game, env, skip=("copy-db",))
        print(f"smoke:   ran {', '.join(ran)}")
        modules = imported_modules(clone)
        step(f"{len(modules)} modules the app imports, in that venv")(sh)(
            [os.path.join(clone, ".venv", "bin", "python"), "-c", IMPORT_ALL, *modules], cwd=clone, env=env)
        step("Debian's PostgreSQL (make postgresql)")(sh)(["make", "postgresql"], cwd=clone, env=env)
        url, stop_postgres = step("a throwaway PostgreSQL cluster")(start_postgres)(work)
        on_pg = {**env, "DATABASE_URL": url}
        step("the README's copy-db into PostgreSQL")(sh)(  # the SQLite games, as a host moves them
            [os.path.join(clone, ".venv", "bin", "flask"), "--app", "app", "copy-db", "--to", url], cwd=clone, env=env)
        step("init-db on PostgreSQL")(sh)([os.path.join(clone, ".venv", "bin", "flask"), "--app", "app", "init-db"],
                                          cwd=clone, env=on_pg)
        pg_game = step("make run on PostgreSQL serves a new game and a move")(serve_and_record)(clone, on_pg)
        # those that touch the database, but SQLite's backup (init-db ran above)
        step("the README's commands on PostgreSQL")(run_readme_commands)(
            clone, pg_game, on_pg, skip=("init-db", "backup", "restore", "copy-db", "verify", "replay"))
        status = sh(["git", "status", "--porcelain", "--ignored=no"], cwd=clone)
        if status.strip():
            raise SmokeFailed(f"`git status` is not clean after `make run`:\n{status}")
        print("smoke: git status clean")
    except (SmokeFailed, subprocess.TimeoutExpired) as failure:
        print(f"smoke: FAILED: {failure}", flush=True)
        return 1
    finally:
        if stop_postgres:
            stop_postgres()
        shutil.rmtree(work, ignore_errors=True)
    print(f"smoke: passed in {time.monotonic() - started:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
