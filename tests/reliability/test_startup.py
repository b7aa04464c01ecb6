"""Start-up (docs/reliability.md §3): `make run` boots two gunicorn workers at once; on
a fresh database both migrate it at the same moment. Found by the backup test: one
worker failed on the migrations' UNIQUE record, and gunicorn shut the server down.
Migrations now run one process at a time (BEGIN IMMEDIATE)."""
from __future__ import annotations

import subprocess
import sys
import time

from tests.reliability.kit import ROOT

ROUNDS, PROCESSES = 5, 6
# One process imports what it needs once, then forks PROCESSES children, which wait for the
# same instant and then do the start-up under test, each in its own process with its own
# connection, as gunicorn's workers do (forked from the master). Importing once, not six
# times, is what keeps a round short on a loaded machine; the race itself is unchanged.
TOGETHER = """
import os, sys, time
{prepare}
path, at = sys.argv[1], time.time() + 0.5  # the instant: after the imports, however long they took
children = []
for _ in range({processes}):
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # a child: wait for the instant, start, report
        os.close(read)
        code = 0
        try:
            time.sleep(max(0, at - time.time()))
            out = str(start(path))
        except BaseException:
            import traceback
            out, code = traceback.format_exc(), 1
        os.write(write, out.encode())
        os._exit(code)
    os.close(write)
    children.append((pid, read))
failed = False
for pid, read in children:
    out = b"".join(iter(lambda: os.read(read, 65536), b"")).decode()
    _, status = os.waitpid(pid, 0)
    failed |= status != 0
    print(out.replace("\\n", " | ") if status else out.strip(), flush=True)
sys.exit(1 if failed else 0)
"""
MIGRATE = TOGETHER.replace("{prepare}", """
from events.storage import store
def start(path):
    db = store.connect(path)
    store.migrate(db)
    return db.execute("SELECT COUNT(*) FROM _sqlite_migrations").fetchone()[0]
""")


def _together(script: str, path: str) -> list[str]:
    """Run ``script``'s start-up in PROCESSES processes that all begin at the same moment;
    their outputs, one line each."""
    run = subprocess.run([sys.executable, "-c", script.replace("{processes}", str(PROCESSES)), path],
                         cwd=ROOT, capture_output=True, text=True, timeout=90)
    assert run.returncode == 0, (run.stdout[-2000:], run.stderr[-2000:])
    return run.stdout.splitlines()


def test_workers_migrating_a_fresh_database_at_once_all_start(tmp_path):
    for round_ in range(ROUNDS):
        outputs = _together(MIGRATE, str(tmp_path / f"fresh{round_}.db"))
        assert len(outputs) == PROCESSES and len(set(outputs)) == 1  # every process sees every migration


START_APP = TOGETHER.replace("{prepare}", """
from app import create_app
def start(path):
    os.environ["TABLESCRIBE_DATABASE"] = path
    create_app()
    return "ok"
""")


def test_several_servers_starting_on_a_fresh_database_all_start(tmp_path):
    """The whole start-up of `make run`'s workers (connect, WAL, schema), not only the
    migrations: several processes creating the app on one fresh file at the same moment
    all start (issue 16 item 9)."""
    for round_ in range(ROUNDS):
        assert _together(START_APP, str(tmp_path / f"boot{round_}.db")) == ["ok"] * PROCESSES
