"""The one text policy at every door (issue 35 §10, scoring/text.py), on both engines with
CSRF on: a score pad's title, a note, a void's reason, a dispute's comment, a photo's
caption, a Han game's end reason — a direction mark or a control character is refused
naming it, a text too long is refused with its length (never cut), and what is typed is
stored in Unicode's composed form (NFC)."""
from __future__ import annotations

import io
import json
import re

import pytest

from events.storage import store
from tests.conftest import csrf_of, guarded_app

EVIL = "\u202eevil"


@pytest.fixture
def site(database):
    app, client, token = guarded_app(database)
    created = client.post("/api/games", json={"kind": "scorepad", "players": [{"name": "Anna"}, {"name": "Béla"}]})
    assert created.status_code == 201
    game = created.get_json()
    seat = {"X-Seat-Token": game["seats"][0]["token"]}
    first = client.post(f"/api/games/{game['id']}/events", headers=seat, json={
        "type": "points-recorded", "data": {"seat": 0, "points": 3}, "expected_seq": 1, "client_event_id": "m1"})
    assert first.status_code == 201
    client.set_cookie(f"seat_{game['id']}", game["seats"][0]["token"], path=f"/games/{game['id']}")
    db = store.connect(database)
    yield app, client, token, game["id"], seat, db
    db.conn.close()


def _event(client, game: str, seat: dict, type_: str, data: dict, seq: int = 2):
    return client.post(f"/api/games/{game}/events", headers=seat, query_string={"lang": "en"},
                       json={"type": type_, "data": data, "expected_seq": seq, "client_event_id": f"t{seq}{type_}"})


def _said(response) -> str:
    return json.dumps(response.get_json()) if response.is_json else response.get_data(as_text=True)


@pytest.mark.parametrize("bad, code", [(EVIL, "U+202E"), ("a\u2066b", "U+2066"), ("bell\x07", "U+0007")])
def test_a_note_and_a_voids_reason_refuse_direction_and_control_characters(site, bad, code):
    app, client, token, game, seat, db = site
    for type_, data in (("points-recorded", {"seat": 1, "points": 2, "note": bad}),
                        ("event-voided", {"target": 2, "reason": bad})):
        answer = _event(client, game, seat, type_, data)
        assert answer.status_code == 422, (type_, answer.status_code)
        assert code in _said(answer)
    assert store.last_seq(db, game) == 2


def test_a_score_pads_title_follows_the_policy(site):
    app, client, token, game, seat, db = site
    for title, said in ((EVIL, "U+202E"), ("x" * 5000, "5000")):
        answer = client.post("/api/games", query_string={"lang": "en"}, json={
            "kind": "scorepad", "players": [{"name": "Anna"}, {"name": "Béla"}], "options": {"title": title}})
        assert answer.status_code == 422 and said in _said(answer)


def test_a_dispute_comment_follows_the_policy(site):
    app, client, token, game, seat, db = site
    page = client.get(f"/games/{game}/events/2/dispute")
    form_token = csrf_of(page.get_data(as_text=True)) if page.status_code == 200 else token
    answer = client.post(f"/games/{game}/events/2/dispute", data={"csrf_token": form_token, "comment": "a\u2067b",
                                                                     "expected_seq": "2"})
    assert answer.status_code == 422 and "U+2067" in answer.get_data(as_text=True)
    assert store.last_seq(db, game) == 2


def _png() -> bytes:
    from PIL import Image
    out = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 30, 30)).save(out, "PNG")
    return out.getvalue()


def test_a_photo_caption_follows_the_policy(site):
    app, client, token, game, seat, db = site
    page = client.get(f"/games/{game}").get_data(as_text=True)
    answer = client.post(f"/games/{game}/photos", content_type="multipart/form-data", data={
        "csrf_token": csrf_of(page), "about": "game", "caption": EVIL, "photo": (io.BytesIO(_png()), "p.png")})
    assert answer.status_code == 422 and "U+202E" in answer.get_data(as_text=True)
    assert store.last_seq(db, game) == 2


def test_what_is_typed_is_stored_composed(site):
    app, client, token, game, seat, db = site
    created = client.post("/api/games", json={"kind": "scorepad", "options": {"title": "Cafe\u0301"},
                                              "players": [{"name": "E\u0301va"}, {"name": "Zoe\u0308"}]})
    assert created.status_code == 201
    other = created.get_json()
    noted = _event(client, other["id"], {"X-Seat-Token": other["seats"][0]["token"]}, "points-recorded",
                   {"seat": 0, "points": 1, "note": "a\u0301ll"}, seq=1)
    assert noted.status_code == 201
    events = store.read_events(db, other["id"])
    assert [p["name"] for p in events[0].data["players"]] == ["\u00c9va", "Zo\u00eb"]
    assert events[0].data["options"]["title"] == "Caf\u00e9" and events[1].data["note"] == "\u00e1ll"


def test_a_han_end_reason_too_long_is_refused_not_cut():
    from scoring.base import FormError
    from scoring.han.forms import _ended
    with pytest.raises(FormError) as refused:
        _ended({}, {"confirm_end": "1", "end_reason": "r" * 300})
    assert "300" in refused.value.problems[0].en
    assert _ended({}, {"confirm_end": "1", "end_reason": "  all  passed "})["reason"] == "all passed"
    assert re.search("200", refused.value.problems[0].en)
