"""Each SQL statement written once, with named parameters (``:name``), in the dialect both
engines accept (``ON CONFLICT … DO NOTHING``, not ``INSERT OR IGNORE``), and rendered for
each engine once, when the statement is made: SQLite's ``?``, psycopg's ``%s`` (its ``%``
doubled). At a call only the values are put in the statement's order; a list or tuple
value is a list of values (``IN (:ids)``), its placeholders repeated (docs/decisions.md,
"One statement, two engines").
"""
from __future__ import annotations

import re

ENGINES = ("sqlite", "postgresql")
# Quoted text, quoted names and comments, left as written; a ``::`` cast is no parameter.
_SKIPPED = r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|--[^\n]*|/\*.*?\*/|::"
_PIECES = re.compile(rf"({_SKIPPED})|:([A-Za-z_][A-Za-z0-9_]*)", re.S)
_MARK = {"sqlite": "?", "postgresql": "%s"}


def is_postgres(db) -> bool:
    return getattr(db, "engine", "sqlite") == "postgresql"


def engine_of(db) -> str:
    return "postgresql" if is_postgres(db) else "sqlite"


class Statement:
    """One statement: ``text`` with ``:name`` parameters, and its rendering per engine —
    the text between parameters (``pieces``), the parameters' names in order, and the
    whole statement with one placeholder per parameter."""

    def __init__(self, text: str):
        self.text = text
        self.names: tuple[str, ...] = tuple(m.group(2) for m in _PIECES.finditer(text) if m.group(2))
        self.pieces = {engine: _pieces(text, engine) for engine in ENGINES}
        self.rendered = {engine: _MARK[engine].join(self.pieces[engine]) for engine in ENGINES}

    def __repr__(self) -> str:
        return f"Statement({self.text!r})"

    def bind(self, engine: str, params: dict) -> tuple[str, list]:
        """(the statement as ``engine`` takes it, its values in order)."""
        values = [params[name] for name in self.names]
        if not any(isinstance(v, (list, tuple)) for v in values):
            return self.rendered[engine], values
        pieces, mark, flat = self.pieces[engine], _MARK[engine], []
        text = pieces[0]
        for value, piece in zip(values, pieces[1:]):
            many = value if isinstance(value, (list, tuple)) else [value]
            text += ",".join([mark] * len(many)) + piece
            flat.extend(many)
        return text, flat


def _pieces(text: str, engine: str) -> list[str]:
    """The text between the parameters, as ``engine`` reads it (psycopg reads a ``%``
    anywhere, inside quoted text too, as the start of a placeholder)."""
    double = (lambda s: s.replace("%", "%%")) if engine == "postgresql" else (lambda s: s)
    pieces, last = [""], 0
    for match in _PIECES.finditer(text):
        if match.group(2):
            pieces[-1] += double(text[last:match.start()])
            pieces.append("")
            last = match.end()
    pieces[-1] += double(text[last:])
    return pieces


def run(db, statement: Statement, **params):
    """Execute ``statement`` on ``db`` (either engine); the cursor."""
    text, values = statement.bind(engine_of(db), params)
    return db.execute(text, values)


def run_many(db, statement: Statement, rows: list[dict]) -> None:
    """``statement`` once per row, as one prepared batch."""
    engine = engine_of(db)
    bound = [statement.bind(engine, row) for row in rows]
    if bound:
        db.conn.executemany(bound[0][0], [values for _, values in bound])


def dicts(db, statement: Statement, **params) -> list[dict]:
    """The rows as dicts by column name."""
    cursor = run(db, statement, **params)
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def one(db, statement: Statement, **params):
    """The first row, or None."""
    return run(db, statement, **params).fetchone()


def value(db, statement: Statement, default=None, **params):
    """The first column of the first row, or ``default``."""
    row = one(db, statement, **params)
    return row[0] if row is not None else default


def column(db, statement: Statement, **params) -> list:
    """The first column of every row."""
    return [row[0] for row in run(db, statement, **params).fetchall()]
