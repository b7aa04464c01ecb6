"""Start-up (docs/reliability.md §3): `make run` boots two gunicorn workers at once; on
a fresh database both migrate it at the same moment. Found by the backup test: one
worker failed on the migrations' UNIQUE record, and gunicorn shut the server down.
Migrations now run one process at a time (BEGIN IMMEDIATE)."""
from __future__ import annotations

import subprocess
import sys
import time

from reliability_kit import ROOT

ROUNDS, PROCESSES = 5, 4
MIGRATE = """
import sys, time
from events import store
db = store.connect(sys.argv[1])
time.sleep(max(0, float(sys.argv[2]) - time.time()))  # all start migrating together
store.migrate(db)
print(db.execute("SELECT COUNT(*) FROM _sqlite_migrations").fetchone()[0])
"""


def test_workers_migrating_a_fresh_database_at_once_all_start(tmp_path):
    for round_ in range(ROUNDS):
        path = str(tmp_path / f"fresh{round_}.db")
        at = time.time() + 1.5
        procs = [subprocess.Popen([sys.executable, "-c", MIGRATE, path, str(at)], cwd=ROOT,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for _ in range(PROCESSES)]
        results = [p.communicate(timeout=60) for p in procs]
        assert all(p.returncode == 0 for p in procs), [err[-300:] for _, err in results]
        assert len({out.strip() for out, _ in results}) == 1  # every process sees every migration
