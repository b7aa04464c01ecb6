"""The schema's vocabulary (events/storage/schema.py): one description rendered as SQLite's
and PostgreSQL's DDL — text compared byte by byte, counts past 2**31, identity keys — and
a table whose rows the database itself refuses to change (on PostgreSQL, by the same
description: tests/events/test_pg.py)."""
import sqlite3

import pytest
import sqlite_utils

from events.storage.schema import (BIGINT, PLAIN_TEXT, SERIAL, TEXT, AddColumns, Column, Index, Table,
                                   Unchangeable)

LOG = Table("log", (Column("id", SERIAL), Column("name", TEXT, unique=True), Column("seq", BIGINT, default="0"),
                    Column("data", PLAIN_TEXT, null=True, check="length(data) < 100")),
            unique=(("name", "seq"),))


def test_one_column_is_said_in_each_engines_words():
    assert Column("seq", BIGINT).sql("sqlite") == "seq INTEGER NOT NULL"
    assert Column("seq", BIGINT).sql("postgres") == "seq BIGINT NOT NULL"
    assert Column("name", TEXT, null=True).sql("postgres") == 'name TEXT COLLATE "C"'
    assert Column("id", SERIAL).sql("postgres") == "id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"
    assert Column("n", BIGINT, default="0", check="n >= 0").sql("sqlite") == "n INTEGER CHECK (n >= 0) NOT NULL DEFAULT 0"


def test_a_described_table_is_built_on_sqlite_with_its_keys_checks_and_defaults():
    db = sqlite_utils.Database(memory=True)
    for step in (LOG, Index("log_by_seq", "log", ("seq",), where="seq > 0"), AddColumns("log", (Column("note", TEXT, null=True),))):
        step.sqlite(db)
        step.sqlite(db)  # each step runs again harmlessly
    db.execute("INSERT INTO log (name, data) VALUES ('a', 'x')")
    assert db.execute("SELECT id, seq, note FROM log").fetchall() == [(1, 0, None)]
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("INSERT INTO log (name, data) VALUES ('a', 'y')")  # unique name
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("INSERT INTO log (name, data) VALUES ('b', ?)", ["z" * 200])  # its check
    assert [i.name for i in db["log"].indexes if i.name == "log_by_seq"]


def test_an_unchangeable_table_refuses_updates_and_deletes_saying_what_it_is():
    db = sqlite_utils.Database(memory=True)
    LOG.sqlite(db)
    Unchangeable("log", "append-only", noun="log entries").sqlite(db)
    db.execute("INSERT INTO log (name) VALUES ('a')")
    for change in ("UPDATE log SET seq = 2", "DELETE FROM log"):
        with pytest.raises(sqlite3.IntegrityError, match="log entries are append-only"):
            db.execute(change)
    assert any("tablescribe_refuse_change" in sql for sql in Unchangeable("log", "append-only").postgres())
