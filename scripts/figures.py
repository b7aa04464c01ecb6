"""Figures the docs quote, computed from the code's own constants and sources, so a limit
changed in the code changes the docs (``.venv/bin/cog -I . -r docs/*.md``; tests/test_docs.py
fails while a doc is stale)."""
from __future__ import annotations

import ast
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
SQL_START = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|DROP|ALTER)\b")


def _size(n: int) -> str:
    for unit, size in (("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            whole, rest = divmod(n, size)
            return f"{whole} {unit}" + (f" + {rest // 2**10} KiB" if rest and unit == "MiB" else "")
    return f"{n} bytes"


def limits() -> str:
    """The limits a request, an upload and a server process meet, as a table."""
    import app
    from events.application import states
    from events.application.table import MAX_NAME
    from events.domain import photo_limits
    from events.domain.core_types import MAX_TEXT
    from group.bgstats import MAX_PLAYS
    from scoring.scorepad.data import MAX_NOTE
    from web import boards, rendered, stream
    made = app.create_app({"TESTING": True, "SECRET_KEY": "figures", "DATABASE": ":memory:"})
    rows = [
        ("a request's body", _size(made.config["MAX_CONTENT_LENGTH"]), "`app.py` (`413` past it)"),
        ("a game imported (with its photos)", _size(app.LARGE_UPLOADS["audit.import_page"]), "`app.LARGE_UPLOADS`"),
        ("a BG Stats export imported", _size(app.LARGE_UPLOADS["bgstats.import_page"]), "`app.LARGE_UPLOADS`"),
        ("plays in one BG Stats export", f"{MAX_PLAYS:,}", "`group/bgstats.py:MAX_PLAYS`"),
        ("a photo's upload (the form with it)", _size(app.LARGE_UPLOADS["photos.upload"]), "`app.PHOTO_UPLOAD_LIMIT`"),
        ("a photo's pixels", f"{photo_limits.MAX_INPUT_PIXELS // 10**6} megapixels, {photo_limits.MAX_INPUT_SIDE:,} a side",
         "`events/domain/photo_limits.py`"),
        ("photos per game", str(photo_limits.MAX_PHOTOS), "`events/domain/photo_limits.py`"),
        ("a board profile imported", f"{boards.MAX_IMPORT:,} characters", "`web/boards.py:MAX_IMPORT`"),
        ("a player's name", f"{MAX_NAME} characters", "`events/application/table.py:MAX_NAME`"),
        ("a score pad's note", f"{MAX_NOTE} characters", "`scoring/scorepad/data.py:MAX_NOTE`"),
        ("a core text (reason, comment)", f"{MAX_TEXT} characters", "`events/domain/core_types.py:MAX_TEXT`"),
        ("a photo's caption", f"{photo_limits.MAX_CAPTION} characters", "`events/domain/photo_limits.py`"),
        ("live streams per server", f"{stream.MAX_STREAMS:,}", "`web/stream.py` (`TABLESCRIBE_MAX_STREAMS`)"),
        ("live streams per phone, per address", f"{stream.STREAMS_PER_PHONE}, {stream.STREAMS_PER_ADDRESS}",
         "`web/stream.py`, per server process"),
        ("folded states kept", _size(states.BUDGET) + " per server process", "`events/application/states.py:BUDGET`"),
        ("rendered regions kept", _size(rendered.BUDGET) + " per server process", "`web/rendered.py:BUDGET`"),
    ]
    lines = ["| what | at most | where |", "| --- | --- | --- |"]
    lines += [f"| {what} | {limit} | {where} |" for what, limit, where in rows]
    return "\n".join(lines)


def sql_statements() -> tuple[int, int, int]:
    """(statements, modules holding them, tables): every string literal of the product code
    that starts an SQL statement, counted once per place it is written."""
    found: dict[str, int] = {}
    for folder in ("events", "group", "web", "services"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL_START.match(node.value):
                    found[path.relative_to(ROOT).as_posix()] = found.get(path.relative_to(ROOT).as_posix(), 0) + 1
    source = (ROOT / "events" / "storage" / "migrations.py").read_text(encoding="utf-8")
    tables = len(set(re.findall(r'Table\("([a-z_]+)"', source)))
    return sum(found.values()), len(found), tables


def sql_sentence() -> str:
    statements, modules, tables = sql_statements()
    return f"The product code writes {statements} SQL statements in {modules} modules, over {tables} tables."
