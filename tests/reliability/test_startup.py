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
MIGRATE = """
import sys, time
from events import store
db = store.connect(sys.argv[1])
time.sleep(max(0, float(sys.argv[2]) - time.time()))  # all start migrating together
store.migrate(db)
print(db.execute("SELECT COUNT(*) FROM _sqlite_migrations").fetchone()[0])
"""


def _together(script: str, path: str) -> list[str]:
    """Run ``script`` in PROCESSES processes that all start at the same moment; their outputs."""
    at = time.time() + 2.5
    procs = [subprocess.Popen([sys.executable, "-c", script, path, str(at)], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(PROCESSES)]
    results = [p.communicate(timeout=90) for p in procs]
    assert all(p.returncode == 0 for p in procs), [err[-400:] for _, err in results]
    return [out.strip() for out, _ in results]


def test_workers_migrating_a_fresh_database_at_once_all_start(tmp_path):
    for round_ in range(ROUNDS):
        outputs = _together(MIGRATE, str(tmp_path / f"fresh{round_}.db"))
        assert len(set(outputs)) == 1  # every process sees every migration


START_APP = """
import sys, time
time.sleep(max(0, float(sys.argv[2]) - time.time()))  # every process starts at once
import os
os.environ["TABLESCRIBE_DATABASE"] = sys.argv[1]
from app import create_app
create_app()
print("ok")
"""


def test_several_servers_starting_on_a_fresh_database_all_start(tmp_path):
    """The whole start-up of `make run`'s workers (connect, WAL, schema), not only the
    migrations: several processes creating the app on one fresh file at the same moment
    all start (issue 16 item 9)."""
    for round_ in range(ROUNDS):
        assert _together(START_APP, str(tmp_path / f"boot{round_}.db")) == ["ok"] * PROCESSES
