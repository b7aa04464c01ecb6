"""The process a large import runs in (web/importing.py): one request line on stdin (the
database, the job's name, its options), then the upload's bytes; the job's answer as JSON
on stdout. It opens the store as the app does (``app.connect``: the statistics commit with
the imported game, as on the worker), so its writes are the app's own."""
from __future__ import annotations

import json
import sqlite3
import sys

from app import connect
from web.importing import job


def main() -> int:
    request = json.loads(sys.stdin.buffer.readline())
    raw = sys.stdin.buffer.read()
    db = connect(request["database"])
    try:
        answer = job(request["job"])(db, raw, request["options"], None)
    except sqlite3.OperationalError as err:  # the write lock not had in time: the worker answers 503
        if "locked" not in str(err) and "busy" not in str(err):
            raise
        answer = {"busy": str(err)}
    finally:
        db.conn.close()
    sys.stdout.write(json.dumps(answer, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
