"""Photo images by their digest (events/storage/blobs.py): written once however often they
are named, read back byte for byte, and nothing for a digest never stored."""
from events.application.photos import Blob
from events.storage import blobs


def test_a_blob_is_stored_once_and_read_back_by_its_digest(db):
    photo = Blob.of(b"\xff\xd8 a photo's bytes \xff\xd9")
    with db.atomic():
        blobs.store_blobs(db, [photo, photo])
    with db.atomic():
        blobs.store_blobs(db, [photo])  # named by a later event too
    assert blobs.read_blob(db, photo.sha256) == photo.data
    assert db.execute("SELECT COUNT(*) FROM photo_blobs").fetchone()[0] == 1
    assert blobs.read_blob(db, "0" * 64) is None
