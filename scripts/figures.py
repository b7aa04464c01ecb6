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
    from events.storage import pg
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
        ("PostgreSQL connections per server process", f"{pg.POOL_SIZE}, each waited for {pg.POOL_WAIT:g} s at most",
         "`events/storage/pg.py:POOL_SIZE` (`TABLESCRIBE_PG_POOL`), `POOL_WAIT`"),
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


def photo_limits() -> str:
    """docs/photos.md's limits, as a table."""
    import app
    from events.domain import photo_limits as p
    from web import decoding
    rows = [
        ("one upload", f"{_size(p.MAX_UPLOAD_BYTES)} (`MAX_UPLOAD_BYTES`; the request, with the form's fields, "
                       f"{_size(app.PHOTO_UPLOAD_LIMIT)})"),
        ("input dimensions", f"{p.MAX_INPUT_PIXELS // 10**6} megapixels, {p.MAX_INPUT_SIDE:,} pixels a side, "
                             "read from the header before any decode"),
        ("decoding", f"a process of its own: {_size(decoding.MEMORY)} of address space, {decoding.CPU_SECONDS} s of "
                     f"CPU; {decoding.PHOTOS_AT_ONCE} at once per worker, then `503`"),
        ("stored image", f"{p.MAX_SIDE:,} pixels on the longer side, JPEG quality {p.QUALITY}"),
        ("thumbnail", f"{p.THUMB_SIDE} pixels on the longer side, JPEG quality {p.THUMB_QUALITY}"),
        ("photos per game", f"{p.MAX_PHOTOS}, voided ones included (their bytes stay)"),
        ("caption", f"{p.MAX_CAPTION} characters"),
        ("an import with photos", f"{_size(app.LARGE_UPLOADS['audit.import_page'])} (`app.LARGE_UPLOADS`)"),
    ]
    return "\n".join(["| what | limit |", "| --- | --- |", *(f"| {what} | {limit} |" for what, limit in rows)])


def request_limit() -> str:
    """docs/api.md's sentence on a request's size."""
    import app
    made = app.create_app({"TESTING": True, "SECRET_KEY": "figures", "DATABASE": ":memory:"})
    return (f"A request's body may be at most {_size(made.config['MAX_CONTENT_LENGTH'])} (`413` past it); "
            "the import pages take more (docs/reliability.md, \"Limits\").")


def bgstats_limits() -> str:
    """docs/people.md's sentence on the BG Stats export a page takes."""
    import app
    from group.bgstats import MAX_PLAYS
    from web.importing import IMPORT_IN_A_PROCESS_FROM
    return (f"A BG Stats export may be at most {_size(app.LARGE_UPLOADS['bgstats.import_page'])} (`413` past it) "
            f"and hold at most {MAX_PLAYS:,} plays; one of {_size(IMPORT_IN_A_PROCESS_FROM)} or more is read, "
            "checked and written by a process of its own (below).")
