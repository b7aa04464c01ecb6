"""Copies of the whole database: SQLite's online backup API, and the checks a copy
must pass before it is trusted (docs/reliability.md §6)."""
from __future__ import annotations

import sqlite3

from events.application import integrity
from events.storage import sql, store
from events.storage import statements as S


def check_copy(path: str) -> tuple[int, list[str]]:
    """(games, problems) of a database file: integrity_check and every hash chain."""
    db = store.connect(path)
    try:
        problems = []
        ok = store.integrity_check(db)
        if ok != "ok":
            problems.append(f"integrity_check: {ok}")
        games = store.game_ids(db)
        for game_id in games:
            broken = integrity.verify_whole(db, game_id)
            if broken:
                problems.append(f"game {game_id}: event {broken[0]}: {broken[1]}")
        return len(games), problems
    finally:
        db.conn.close()


def copy(source_path: str, target_path: str) -> None:
    """SQLite's online backup API in one step: a consistent snapshot of the source as
    of one read transaction (WAL readers never block the phones' writes)."""
    source = sqlite3.connect(source_path, timeout=30)
    target = sqlite3.connect(target_path, timeout=30)
    try:
        sql.run(source, S.BUSY_TIMEOUT_30S)
        source.backup(target)
        sql.run(target, S.CHECKPOINT)
    finally:
        target.close()
        source.close()
