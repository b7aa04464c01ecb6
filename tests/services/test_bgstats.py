"""A BG Stats export into the roster's log (services/bgstats.py): in short batches, each its
own transaction with its people and its statistics' rows; a batch reads only the roster
events it has not seen; an import cut off half way is finished by importing the file again."""
from __future__ import annotations

import json
from contextlib import contextmanager

import pytest

from events.storage import store
from group import roster
from group.bgstats import read_export
from services import bgstats as importing
from tests.conftest import commits_unsynced_then_syncs_once, many_plays, upload_bgstats


def test_a_large_bgstats_import_writes_in_short_transactions(guarded, monkeypatch):
    """Issue 25 §5: 10,000 plays were written in one transaction that held SQLite's write
    lock for 32 s, and other tables' moves failed meanwhile. The plays go in batches, each
    its own short transaction with its people and its statistics' rows."""
    app, client, token, db = guarded
    per_transaction = []
    real_lock = store.short_write

    @contextmanager
    def counted(conn):
        before = roster.last_seq(conn)
        with real_lock(conn):
            yield conn
        per_transaction.append(sum(e.type == "play-imported" for e in roster.read_log(conn, after=before)))

    monkeypatch.setattr(store, "short_write", counted)
    response = upload_bgstats(client, token, json.dumps(many_plays(250)).encode())
    assert response.status_code == 200 and "Imported: 250" in response.get_data(as_text=True)
    assert max(per_transaction) <= importing.IMPORT_BATCH < 250 and sum(per_transaction) == 250
    assert db.execute("SELECT COUNT(DISTINCT game_id) FROM stat_seats").fetchone()[0] == 250


def test_the_batches_commit_without_an_fsync_each_and_the_file_is_durable_before_it_answers(guarded):
    """Issue 38 §5: each batch's fsync (2-8 ms) was made holding SQLite's write lock, other
    tables' moves waiting for it. The batches commit at synchronous=NORMAL (each still whole
    or absent, kept through a kill -9) and the WAL is synced once after the last, before
    the import answers; the connection is FULL again afterwards."""
    app, client, token, db = guarded
    if store.is_postgres(db):
        pytest.skip("SQLite's fsync")
    seen: list[str] = []
    store.trace(db, seen.append)
    importing.import_plays(db, read_export(many_plays(3 * importing.IMPORT_BATCH)), "dev")
    assert seen.count("COMMIT") >= 3 and commits_unsynced_then_syncs_once(seen)
    assert sum(e.type == "play-imported" for e in roster.read_log(db)) == 3 * importing.IMPORT_BATCH
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2


def test_a_batch_looks_up_its_plays_without_walking_every_play_of_the_roster(guarded, monkeypatch):
    """Issue 38 §5: each batch walked every imported play of the roster, under the write lock,
    to know which of its plays were in already (~25 ms per batch by the end of a
    10,000-play file). What was seen is kept from batch to batch; a batch adds the plays after it."""
    app, client, token, db = guarded
    walks = []

    class Counted(dict):
        def values(self):
            walks.append(len(self))
            return super().values()

    real_load = roster.load

    def load(conn, cache=None):
        found = real_load(conn, cache)
        found.imported = Counted(found.imported)
        return found

    monkeypatch.setattr(roster, "load", load)
    importing.import_plays(db, read_export(many_plays(6 * importing.IMPORT_BATCH)), "dev")
    again = importing.import_plays(db, read_export(many_plays(6 * importing.IMPORT_BATCH)), "dev")
    assert again["imported"] == 0 and again["skipped"] == 6 * importing.IMPORT_BATCH
    assert not [n for n in walks if n > importing.IMPORT_BATCH]


def test_a_bgstats_batch_reads_only_the_roster_events_it_has_not_seen(guarded, monkeypatch):
    """Issue 25 §5: each batch folded the roster's whole log again under the write lock (twice:
    to check its changes and to write the statistics' rows), so a 10,000-play import held the
    lock longer with every batch (~0.2 s each by its end). The batches extend the cache: each
    batch reads the events it wrote, not those before them."""
    app, client, token, db = guarded
    rows_read = []
    real_read = roster.read_log

    def counted(conn, after=0, upto=None):
        rows_read.append(len(real_read(conn, after, upto)))
        return real_read(conn, after, upto)

    monkeypatch.setattr(roster, "read_log", counted)
    result = importing.import_plays(db, read_export(many_plays(5 * importing.IMPORT_BATCH)),
                                      "dev", roster.Rosters())
    assert result["imported"] == 5 * importing.IMPORT_BATCH
    log = roster.last_seq(db)
    assert sum(rows_read) <= 2 * log, f"{sum(rows_read)} roster events read for a log of {log}"
    assert db.execute("SELECT COUNT(DISTINCT game_id) FROM stat_seats").fetchone()[0] == 5 * importing.IMPORT_BATCH


def test_an_import_cut_off_half_way_is_finished_by_importing_the_file_again(guarded, monkeypatch):
    """A batch is whole or absent; the same file again skips the plays already in."""
    app, client, token, db = guarded
    real = importing._play_data
    calls = []

    def dies_in_the_second_batch(play, person_of):
        calls.append(play)
        if len(calls) > importing.IMPORT_BATCH:
            raise RuntimeError("the server went down")
        return real(play, person_of)

    monkeypatch.setattr(importing, "_play_data", dies_in_the_second_batch)
    with pytest.raises(RuntimeError):
        importing.import_plays(db, read_export(many_plays(150)), "dev")
    assert sum(e.type == "play-imported" for e in roster.read_log(db)) == importing.IMPORT_BATCH
    monkeypatch.undo()
    response = upload_bgstats(client, token, json.dumps(many_plays(150)).encode())
    assert f"Imported: {150 - importing.IMPORT_BATCH}" in response.get_data(as_text=True)
    assert sum(e.type == "play-imported" for e in roster.read_log(db)) == 150
    assert db.execute("SELECT COUNT(DISTINCT game_id) FROM stat_seats").fetchone()[0] == 150
