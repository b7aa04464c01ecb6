"""Photo images stored by their SHA-256 in ``photo_blobs``: each written once, inside the write that names it, and read back by its digest (events/application/photos.py checks and makes them)."""
from __future__ import annotations

from events.domain.photo_limits import MEDIA_TYPE


def store_blobs(db, blobs) -> None:
    """Inside the caller's write transaction: each blob once (its digest is its key)."""
    for blob in blobs:
        db.execute("INSERT OR IGNORE INTO photo_blobs (sha256, media_type, size, data) VALUES (?,?,?,?)",
                   [blob.sha256, MEDIA_TYPE, len(blob.data), blob.data])


def read_blob(db, sha256: str) -> bytes | None:
    row = db.execute("SELECT data FROM photo_blobs WHERE sha256 = ?", [sha256]).fetchone()
    return bytes(row[0]) if row else None
