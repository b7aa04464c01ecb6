"""Every photo upload within a budget (issue 35 §1, web/decoding.py): the photo count and the
pixel budget checked before any decode, the decoding in a process of its own whose memory is
bounded, at most a few at once per worker and the rest answered 503 with Retry-After; on
both engines, CSRF on."""
from __future__ import annotations

import subprocess

import pytest
from PIL import ImageFile

from events.application import photos
from events.storage import store
from events.application.table import record
from tests.conftest import attach_photo, guarded_app, photos_stored
from tests.events.images import gps_jpeg, hostile_webp


def _table(database, **config):
    app, host, token = guarded_app(database, **config)
    created = host.post("/games/new", data={"kind": "scorepad", "name": ["Anna", "Béla"], "csrf_token": token})
    return app, host, created.headers["Location"].rsplit("/", 1)[1]


def _resident_mb() -> float:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024


def test_a_game_with_all_its_photos_refuses_the_next_before_anything_is_decoded(database, monkeypatch):
    app, host, game_id = _table(database)
    db = store.connect(database)
    small = photos.prepare(gps_jpeg())
    for n in range(photos.MAX_PHOTOS):
        record(db, game_id, "photo-attached", {**small.facts(), "caption": "", "about": "game"},
               store.last_seq(db, game_id), 0, "test", f"photo-{n}", blobs=(small.image, small.thumb))

    def no_decoding(*args, **kwargs):
        raise AssertionError("decoded a photo the game has no room for")
    monkeypatch.setattr(ImageFile.ImageFile, "load", no_decoding)  # decoding here
    monkeypatch.setattr(subprocess, "run", no_decoding)            # or in a process of its own
    answer = attach_photo(host, game_id, hostile_webp(), "board.webp", "image/webp")
    assert answer.status_code == 422
    assert f"at most {photos.MAX_PHOTOS} photos" in answer.get_data(as_text=True)
    db.conn.close()


def test_an_image_past_the_decoding_memory_is_refused_and_the_worker_keeps_its_memory(database):
    app, host, game_id = _table(database, PHOTO_MEMORY=256 * 2**20)
    before = _resident_mb()
    answer = attach_photo(host, game_id, hostile_webp(), "board.webp", "image/webp")
    assert answer.status_code == 422 and "The image is too large" in answer.get_data(as_text=True)
    assert _resident_mb() < before + 100
    db = store.connect(database)
    assert store.last_seq(db, game_id) == 1 and photos_stored(db) == 0
    db.conn.close()


def test_uploads_past_the_workers_decoding_slots_are_answered_503_with_retry_after(database):
    app, host, game_id = _table(database, PHOTOS_AT_ONCE=2)
    slots = app.extensions["photo_slots"]
    with slots, slots:  # two uploads being decoded
        busy = attach_photo(host, game_id, gps_jpeg())
    assert busy.status_code == 503 and int(busy.headers["Retry-After"]) > 0
    assert "send yours again" in busy.get_data(as_text=True)
    db = store.connect(database)
    assert store.last_seq(db, game_id) == 1 and photos_stored(db) == 0
    assert attach_photo(host, game_id, gps_jpeg()).status_code == 303  # the slots free again
    assert photos_stored(db) == 2
    db.conn.close()
