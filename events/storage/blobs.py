"""Photo images stored by their SHA-256 in ``photo_blobs``: each written once, inside the write that names it, and read back by its digest (events/application/photos.py checks and makes them)."""
from __future__ import annotations

from events.domain.photo_limits import MEDIA_TYPE
from events.storage import sql
from events.storage.sql import Statement


INSERT = Statement("INSERT INTO photo_blobs (sha256, media_type, size, data) VALUES (:sha256, :media_type, :size, :data)"
                   " ON CONFLICT DO NOTHING")
READ = Statement("SELECT data FROM photo_blobs WHERE sha256 = :sha256")
# Every stored image with how it is stored: SQLite keeps whatever is written (text, even
# text that is no UTF-8, which reading as text would fail on); PostgreSQL's bytea and text
# columns hold nothing else.
EVERY = {"sqlite": Statement("SELECT CAST(sha256 AS BLOB), typeof(data), CAST(data AS BLOB) FROM photo_blobs"
                             " ORDER BY sha256"),
         "postgresql": Statement("SELECT sha256, 'blob', data FROM photo_blobs ORDER BY sha256")}


def store_blobs(db, blobs) -> None:
    """Inside the caller's write transaction: each blob once (its digest is its key)."""
    for blob in blobs:
        sql.run(db, INSERT, sha256=blob.sha256, media_type=MEDIA_TYPE, size=len(blob.data), data=blob.data)


def read_blob(db, sha256: str) -> bytes | None:
    row = sql.one(db, READ, sha256=sha256)
    return bytes(row[0]) if row else None


def every_blob(db) -> list[tuple]:
    """(address, how it is stored: "blob" or another type, its bytes) of every stored image."""
    return sql.run(db, EVERY[sql.engine_of(db)]).fetchall()
