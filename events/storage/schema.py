"""The store's schema as one description both engines are built from: tables, columns,
indexes and the append-only rule written once (``events/storage/migrations.py`` lists them as
migrations), rendered as SQLite's DDL for sqlite-utils' migrations and as PostgreSQL's
for ``migrations.apply_postgres``. What differs between the engines is said here once, by
the column's type: text compared byte by byte (``COLLATE "C"`` on PostgreSQL, as SQLite
does) or never compared (JSON payloads), counts that may pass 2**31 (``BIGINT``), bytes,
identity keys; and how each refuses to change a row (triggers either way)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Type:
    sqlite: str
    postgres: str


INTEGER = Type("INTEGER", "INTEGER")
BIGINT = Type("INTEGER", "BIGINT")              # sequence numbers, counts, scores
TEXT = Type("TEXT", 'TEXT COLLATE "C"')         # ids, names, times: compared and ordered byte by byte
PLAIN_TEXT = Type("TEXT", "TEXT")               # JSON payloads and text no query compares or orders
REAL = Type("REAL", "DOUBLE PRECISION")
BLOB = Type("BLOB", "BYTEA")
SERIAL = Type("INTEGER PRIMARY KEY AUTOINCREMENT", "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY")


@dataclass(frozen=True)
class Column:
    name: str
    type: Type
    null: bool = False          # NOT NULL unless this is set (or the column is the key)
    primary: bool = False
    unique: bool = False
    default: str | None = None  # an SQL literal both engines read alike
    check: str | None = None

    def sql(self, engine: str) -> str:
        parts = [self.name, getattr(self.type, engine)]
        if self.primary:
            parts.append("PRIMARY KEY")
        if self.check:
            parts.append(f"CHECK ({self.check})")
        if not (self.null or self.primary or self.type is SERIAL):
            parts.append("NOT NULL")
        if self.unique:
            parts.append("UNIQUE")
        if self.default is not None:
            parts.append(f"DEFAULT {self.default}")
        return " ".join(parts)


class Step:
    """One step of a migration: ``sqlite(db)`` runs it on a sqlite-utils database,
    ``postgres()`` gives the statements PostgreSQL runs for it."""

    def sqlite(self, db) -> None:
        for sql in self.sqlite_statements():
            db.execute(sql)

    def sqlite_statements(self) -> list[str]:
        raise NotImplementedError

    def postgres(self) -> list[str]:
        raise NotImplementedError


@dataclass(frozen=True)
class Table(Step):
    name: str
    columns: tuple[Column, ...]
    primary: tuple[str, ...] = ()          # a key of several columns
    unique: tuple[tuple[str, ...], ...] = ()

    def _create(self, engine: str) -> str:
        lines = [c.sql(engine) for c in self.columns]
        lines += [f"UNIQUE ({', '.join(u)})" for u in self.unique]
        if self.primary:
            lines.append(f"PRIMARY KEY ({', '.join(self.primary)})")
        body = ",\n    ".join(lines)
        return f"CREATE TABLE IF NOT EXISTS {self.name} (\n    {body}\n)"

    def sqlite_statements(self) -> list[str]:
        return [self._create("sqlite")]

    def postgres(self) -> list[str]:
        return [self._create("postgres")]


@dataclass(frozen=True)
class Index(Step):
    name: str
    table: str
    columns: tuple[str, ...]
    where: str | None = None

    def _create(self) -> str:
        where = f" WHERE {self.where}" if self.where else ""
        return f"CREATE INDEX IF NOT EXISTS {self.name} ON {self.table} ({', '.join(self.columns)}){where}"

    def sqlite_statements(self) -> list[str]:
        return [self._create()]

    def postgres(self) -> list[str]:
        return [self._create()]


@dataclass(frozen=True)
class AddColumns(Step):
    """Columns added to a table that has rows already: nullable or with a default."""
    table: str
    columns: tuple[Column, ...]

    def sqlite(self, db) -> None:
        there = db[self.table].columns_dict  # SQLite has no ADD COLUMN IF NOT EXISTS
        for column in self.columns:
            if column.name not in there:
                db.execute(f"ALTER TABLE {self.table} ADD COLUMN {column.sql('sqlite')}")

    def postgres(self) -> list[str]:
        return [f"ALTER TABLE {self.table} ADD COLUMN IF NOT EXISTS {c.sql('postgres')}" for c in self.columns]


# PostgreSQL's one function behind every refusal; its message names the table and ``what``.
REFUSE_CHANGE = """CREATE OR REPLACE FUNCTION tablescribe_refuse_change() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION '% are %', TG_TABLE_NAME, TG_ARGV[0]; END $$"""


@dataclass(frozen=True)
class Unchangeable(Step):
    """Facts are never changed: the database itself refuses to update or delete a row of
    ``table`` (and, on PostgreSQL, to truncate it), saying "<noun> are <what>"."""
    table: str
    what: str                # "append-only", "insert-only"
    noun: str | None = None  # what SQLite's message calls the rows; default: the table's name

    def sqlite_statements(self) -> list[str]:
        message = f"{self.noun or self.table} are {self.what}"
        return [f"CREATE TRIGGER IF NOT EXISTS {self.table}_no_{verb} BEFORE {verb.upper()} ON {self.table} "
                f"BEGIN SELECT RAISE(ABORT, '{message}'); END" for verb in ("update", "delete")]

    def postgres(self) -> list[str]:
        t, what = self.table, self.what
        return [REFUSE_CHANGE,
                f"DROP TRIGGER IF EXISTS {t}_no_change ON {t}",
                f"CREATE TRIGGER {t}_no_change BEFORE UPDATE OR DELETE ON {t}"
                f" FOR EACH ROW EXECUTE FUNCTION tablescribe_refuse_change('{what}')",
                f"DROP TRIGGER IF EXISTS {t}_no_truncate ON {t}",
                f"CREATE TRIGGER {t}_no_truncate BEFORE TRUNCATE ON {t}"
                f" FOR EACH STATEMENT EXECUTE FUNCTION tablescribe_refuse_change('{what}')"]


@dataclass(frozen=True)
class Data(Step):
    """A statement on the rows (filling a new column or a summary) both engines run as written."""
    sql: str

    def sqlite_statements(self) -> list[str]:
        return [self.sql]

    def postgres(self) -> list[str]:
        return [self.sql]


@dataclass(frozen=True)
class PostgresOnly(Step):
    """What only PostgreSQL has: its statements, and why SQLite needs nothing for them."""
    statements: tuple[str, ...]
    why: str

    def sqlite_statements(self) -> list[str]:
        return []

    def postgres(self) -> list[str]:
        return list(self.statements)
