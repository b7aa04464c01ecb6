"""Photos through the web (web/photos.py, docs/photos.md): attached by a seated phone,
stored once by digest with the event that names it, refused with 4xx and nothing stored
when they are not a photo, served as nothing but a JPEG, checked by verify-db, the pages,
exports and backups; on both engines, with CSRF on."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from events.application import photos
from events.storage import store
from tests.conftest import app_on, attach_photo, csrf_of, guarded_app, photos_stored, run_sql
from tests.events.images import HTML, SVG, bomb, gps_jpeg


# ---- through the web, on both engines, CSRF on --------------------------------------------

@pytest.fixture
def table(database):
    """(app, the host's phone, a spectator, the game's id, the store), CSRF on."""
    app, host, token = guarded_app(database)
    created = host.post("/games/new", data={"kind": "scorepad", "name": ["Anna", "Béla"], "csrf_token": token})
    game_id = created.headers["Location"].rsplit("/", 1)[1]
    db = store.connect(database)
    spectator = app.test_client()
    spectator.set_cookie("lang", "en")
    yield app, host, spectator, game_id, db
    db.conn.close()


def test_a_seated_phone_attaches_a_photo_every_phone_sees_it_and_it_is_served_as_a_jpeg(table):
    app, host, spectator, game_id, db = table
    answer = attach_photo(host, game_id, gps_jpeg(), caption="Round two")
    assert answer.status_code == 303
    event = store.read_events(db, game_id)[-1]
    assert event.type == "photo-attached" and event.seat == 0
    assert event.data | {"sha256": "", "thumb_sha256": "", "bytes": 0} == {
        "sha256": "", "thumb_sha256": "", "bytes": 0, "media_type": "image/jpeg", "width": 200, "height": 400,
        "caption": "Round two", "about": "game"}
    assert photos_stored(db) == 2  # the image and its thumbnail
    page = spectator.get(f"/games/{game_id}").get_data(as_text=True)
    thumb_url = f"/games/{game_id}/photos/{event.data['thumb_sha256']}.jpg"
    assert thumb_url in page and "Round two" in page and 'name="photo"' not in page
    served = spectator.get(thumb_url)
    assert served.status_code == 200 and served.mimetype == "image/jpeg"
    assert served.headers["X-Content-Type-Options"] == "nosniff"
    assert "sandbox" in served.headers["Content-Security-Policy"]
    assert photos.digest(served.data) == event.data["thumb_sha256"]
    full = spectator.get(f"/games/{game_id}/photos/{event.data['sha256']}.jpg")
    assert Image.open(io.BytesIO(full.data)).size == (200, 400)
    assert spectator.get(f"/games/{game_id}/photos/{'0' * 64}.jpg").status_code == 404
    assert spectator.get(f"/games/{game_id}/photos/..%2fsecret.jpg").status_code == 404


@pytest.mark.parametrize("name, raw, filename, mimetype", [
    ("bomb", bomb(), "board.png", "image/png"),
    ("truncated", gps_jpeg((1200, 900))[:4000], "board.jpg", "image/jpeg"),
    ("svg", SVG, "board.svg", "image/svg+xml"),
    ("html renamed .jpg", HTML, "board.jpg", "image/jpeg"),
    ("polyglot", gps_jpeg() + b"<html><script>alert(1)</script>", "board.jpg", "image/jpeg"),
])
def test_what_is_not_a_photo_is_refused_with_4xx_and_nothing_is_stored(table, name, raw, filename, mimetype):
    app, host, spectator, game_id, db = table
    before = store.last_seq(db, game_id)
    answer = attach_photo(host, game_id, raw, filename, mimetype)
    assert 400 <= answer.status_code < 500
    assert 'role="alert"' in answer.get_data(as_text=True)
    assert store.last_seq(db, game_id) == before and photos_stored(db) == 0


def test_a_spectator_cannot_attach_and_a_form_without_csrf_is_refused(table):
    app, host, spectator, game_id, db = table
    spectator.get(f"/games/{game_id}")
    answer = attach_photo(spectator, game_id, gps_jpeg())
    assert answer.status_code == 403 and "Only a seated phone" in answer.get_data(as_text=True)
    no_csrf = host.post(f"/games/{game_id}/photos", data={"photo": (io.BytesIO(gps_jpeg()), "a.jpg")},
                        content_type="multipart/form-data")
    assert no_csrf.status_code == 400
    assert store.last_seq(db, game_id) == 1 and photos_stored(db) == 0


def test_a_photo_past_the_byte_limit_is_refused_with_413_saying_the_limit(table):
    app, host, spectator, game_id, db = table
    answer = attach_photo(host, game_id, b"\xff\xd8\xff" + b"\0" * (photos.MAX_UPLOAD_BYTES + 100 * 1024))
    assert answer.status_code == 413 and f"at most {photos.MAX_UPLOAD_BYTES // 2**20} MB" in answer.get_data(as_text=True)
    assert photos_stored(db) == 0


def test_a_photo_is_voided_like_a_move_and_its_bytes_stay(table):
    app, host, spectator, game_id, db = table
    attach_photo(host, game_id, gps_jpeg(), caption="blurred")
    seq = store.last_seq(db, game_id)
    page = host.get(f"/games/{game_id}").get_data(as_text=True)
    assert f"/events/{seq}/void" in page
    voided = host.post(f"/games/{game_id}/events/{seq}/void",
                       data={"csrf_token": csrf_of(page), "reason": "blurred", "expected_seq": seq})
    assert voided.status_code == 303
    page = spectator.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'data-testid="photos"' not in page  # the strip shows live photos only
    assert photos_stored(db) == 2


def test_a_photo_for_a_dispute_needs_it_open(table):
    app, host, spectator, game_id, db = table
    answer = attach_photo(host, game_id, gps_jpeg(), about="dispute", dispute="1")
    assert answer.status_code == 422 and "no such open dispute" in answer.get_data(as_text=True)
    assert photos_stored(db) == 0


def test_one_changed_byte_of_a_stored_image_is_named_by_verify_db_and_the_pages(table, tmp_path):
    app, host, spectator, game_id, db = table
    attach_photo(host, game_id, gps_jpeg(), about="final")
    event = store.read_events(db, game_id)[-1]
    runner = app.test_cli_runner()
    assert runner.invoke(args=["verify-db"]).exit_code == 0
    _change_one_byte(db, event.data["sha256"])
    with app.app_context():  # a change behind the server's back: seen at its next start (docs/photos.md)
        from web.db import caches
        caches().forget()
    result = runner.invoke(args=["verify-db"])
    assert result.exit_code == 1 and f"event {event.seq}" in result.output and "does not match its digest" in result.output
    for path in ("", "/final", "/timeline"):
        page = spectator.get(f"/games/{game_id}{path}").get_data(as_text=True)
        assert 'data-testid="unverified"' in page and f"from event {event.seq}" in page
    assert spectator.get(f"/games/{game_id}/photos/{event.data['sha256']}.jpg").status_code == 409


def _change_one_byte(db, sha: str) -> None:
    """What an attacker with the database file could do: the triggers are in the way."""
    if store.is_postgres(db):
        db.execute("ALTER TABLE photo_blobs DISABLE TRIGGER photo_blobs_no_change")
        run_sql(db, "UPDATE photo_blobs SET data = overlay(data placing '\\x00'::bytea from 200 for 1) "
                "WHERE sha256 = :sha", sha=sha)
    else:
        db.execute("DROP TRIGGER photo_blobs_no_update")
        data = bytearray(photos.read_blob(db, sha))
        data[200] ^= 0xFF
        run_sql(db, "UPDATE photo_blobs SET data = :data WHERE sha256 = :sha", data=bytes(data), sha=sha)


def test_stored_images_cannot_be_changed_or_deleted(table):
    app, host, spectator, game_id, db = table
    attach_photo(host, game_id, gps_jpeg())
    for sql in ("UPDATE photo_blobs SET size = 1", "DELETE FROM photo_blobs"):
        with pytest.raises(Exception, match="insert-only"):
            db.execute(sql)
    assert photos_stored(db) == 2


# ---- export, import, verify, backup -------------------------------------------------------

def test_export_import_verify_round_trip_carries_the_photos(table, tmp_path):
    import json
    app, host, spectator, game_id, db = table
    attach_photo(host, game_id, gps_jpeg(), about="final", caption="the end")
    exported = host.get(f"/games/{game_id}/export.json")
    doc = json.loads(exported.data)
    event = store.read_events(db, game_id)[-1]
    assert doc["format_version"] == 2 and set(doc["photos"]) == {event.data["sha256"], event.data["thumb_sha256"]}
    path = tmp_path / "game.json"
    path.write_bytes(exported.data)
    runner = app.test_cli_runner()
    verified = runner.invoke(args=["verify", str(path)])
    assert verified.exit_code == 0, verified.output
    other = app_on(str(tmp_path / "other.db"), WTF_CSRF_ENABLED=True)
    phone = other.test_client()  # another server: this one refuses a game it holds already
    page = phone.get("/import").get_data(as_text=True)
    imported = phone.post("/import", data={"csrf_token": csrf_of(page), "file": (io.BytesIO(exported.data), "game.json")},
                          content_type="multipart/form-data")
    assert imported.status_code == 303
    new_id = imported.headers["Location"].rsplit("/", 1)[1]
    again = json.loads(phone.get(f"/games/{new_id}/export.json").data)
    # the photo was prepared again as an upload is (issue 35 §7): its event names the new
    # image, and the chain is hashed again from it on; the events before it are as they were
    photo = again["events"][-1]["data"]
    assert set(again["photos"]) == {photo["sha256"], photo["thumb_sha256"]} and photo["caption"] == "the end"
    assert [e["hash"] for e in again["events"][:-1]] == [e["hash"] for e in doc["events"][:-1]]
    final = phone.get(f"/games/{new_id}/final").get_data(as_text=True)
    assert f"/games/{new_id}/photos/{photo['thumb_sha256']}.jpg" in final and "the end" in final
    assert phone.get(f"/games/{new_id}/photos/{photo['sha256']}.jpg").status_code == 200
    assert other.test_cli_runner().invoke(args=["verify-db"]).exit_code == 0


def test_a_file_whose_photo_was_changed_or_dropped_is_refused_naming_the_event(table, tmp_path):
    import base64
    import json
    from events.application.export import BadExport, verify
    app, host, spectator, game_id, db = table
    attach_photo(host, game_id, gps_jpeg())
    doc = json.loads(host.get(f"/games/{game_id}/export.json").data)
    sha = store.read_events(db, game_id)[-1].data["sha256"]
    seq = store.last_seq(db, game_id)
    changed = bytearray(base64.b64decode(doc["photos"][sha]))
    changed[300] ^= 1
    cases = {"does not match its digest": {**doc, "photos": {**doc["photos"], sha: base64.b64encode(changed).decode()}},
             "is not in the file": {**doc, "photos": {k: v for k, v in doc["photos"].items() if k != sha}},
             "no event names": {**doc, "photos": {**doc["photos"], "f" * 64: doc["photos"][sha]}},
             "version 1 file carries no photos": {**doc, "format_version": 1}}
    for words, bad in cases.items():
        with pytest.raises(BadExport) as refused:
            verify(bad)
        assert words in str(refused.value)
        assert refused.value.seq in (0, seq)
    smuggled = {**doc, "photos": {**doc["photos"], sha: base64.b64encode(SVG).decode()}}
    with pytest.raises(BadExport, match="does not match its digest"):
        verify(smuggled)


def test_an_old_reader_refuses_a_file_with_photos_and_old_files_import_as_before(table):
    import json
    from events.application import export
    app, host, spectator, game_id, db = table
    plain = json.loads(host.get(f"/games/{game_id}/export.json").data)
    assert plain["format_version"] == 1 and "photos" not in plain  # no photos: readable by old readers
    export.verify(plain)
    attach_photo(host, game_id, gps_jpeg())
    with_photos = json.loads(host.get(f"/games/{game_id}/export.json").data)
    old_reads = export.READS
    try:
        export.READS = (1,)  # what a reader from before photos accepts
        with pytest.raises(export.BadExport, match="format version 2 is not supported"):
            export.verify(with_photos)
    finally:
        export.READS = old_reads


def test_a_backup_carries_the_photos_and_checks_them(tmp_path):
    app = app_on(str(tmp_path / "b.db"))
    host = app.test_client()
    created = host.post("/games/new", data={"kind": "scorepad", "name": ["Anna", "Béla"]})
    game_id = created.headers["Location"].rsplit("/", 1)[1]
    assert attach_photo(host, game_id, gps_jpeg()).status_code == 303
    backup_path = tmp_path / "copy.db"
    result = app.test_cli_runner().invoke(args=["backup", str(backup_path)])
    assert result.exit_code == 0, result.output
    copy = store.connect(str(backup_path))
    try:
        event = store.read_events(copy, game_id)[-1]
        assert photos.digest(photos.read_blob(copy, event.data["sha256"])) == event.data["sha256"]
    finally:
        copy.conn.close()


def test_the_api_cannot_record_a_photo_event_without_its_image(app_on_each_engine):
    """Else an event could name bytes the store does not hold, and the game would stop
    verifying: a photo comes only with its image, through the photo form."""
    client = app_on_each_engine.test_client()
    game = client.post("/api/games", json={"kind": "scorepad", "players": [{"name": "A"}, {"name": "B"}]}).json
    facts = photos.prepare(gps_jpeg()).facts()
    answer = client.post(f"/api/games/{game['id']}/events", headers={"X-Seat-Token": game["seats"][0]["token"]},
                         json={"type": "photo-attached", "expected_seq": 1, "client_event_id": "p1",
                               "data": {**facts, "caption": "", "about": "game"}})
    assert answer.status_code == 422 and "together with its image" in str(answer.json)
    with app_on_each_engine.app_context():
        from web.db import get_db
        assert store.last_seq(get_db(), game["id"]) == 1


def test_the_play_list_shows_each_finished_games_final_board_thumbnail(table):
    from events.application.table import record
    from group import roster
    app, host, spectator, game_id, db = table
    roster.link_game(db, game_id, ["Anna", "Béla"], "dev")
    record(db, game_id, "points-recorded", {"seat": 0, "points": 3}, 1, 0, "dev", "p1")
    record(db, game_id, "game-ended", {}, 2, 0, "dev", "end")
    assert 'class="play-photo"' not in spectator.get("/stats/plays").get_data(as_text=True)
    attach_photo(host, game_id, gps_jpeg(), about="final")
    thumb = store.read_events(db, game_id)[-1].data["thumb_sha256"]
    listed = spectator.get("/stats/plays").get_data(as_text=True)
    assert f'/games/{game_id}/photos/{thumb}.jpg' in listed


def test_the_final_sheet_calls_a_photo_the_final_board_only_when_it_was_taken_as_one(table):
    app, host, spectator, game_id, db = table
    attach_photo(host, game_id, gps_jpeg(), caption="Round two")  # a photo of the game, not its end
    sheet = spectator.get(f"/games/{game_id}/final").get_data(as_text=True)
    assert '<section class="final-board"><h2>Photo</h2>' in sheet and "The final board" not in sheet
    attach_photo(host, game_id, gps_jpeg(), about="final")
    sheet = spectator.get(f"/games/{game_id}/final").get_data(as_text=True)
    assert '<section class="final-board"><h2>The final board</h2>' in sheet
