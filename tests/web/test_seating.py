"""Which seat a phone holds (web/seating.py): the seat cookie, sent only to its own game's
pages; a seat token opens its own table and no other, on the forms and on the API."""
from __future__ import annotations

from events.storage import store
from tests.conftest import game_by_api


def test_a_seat_cookie_is_sent_only_to_its_own_games_pages(client):
    """Scoped to /games/<id>: a phone that sat at hundreds of tables must not send every
    seat token with every request (past 8 KB of Cookie header gunicorn refuses it all)."""
    tables = []
    for _ in range(3):
        created = client.post("/games/new", data={"kind": "scorepad", "name": ["Anna", "Béla"]})
        game_id = created.headers["Location"].rsplit("/", 1)[1]
        [seat_cookie] = [c for c in created.headers.getlist("Set-Cookie") if c.startswith(f"seat_{game_id}=")]
        assert f"Path=/games/{game_id};" in seat_cookie and "HttpOnly" in seat_cookie
        tables.append(game_id)
    for game_id in tables:  # every table still knows its phone's seat
        page = client.get(f"/games/{game_id}").get_data(as_text=True)
        assert 'id="move-form"' in page and client.get(f"/games/{game_id}/qr.svg").status_code == 200


def test_one_tables_token_cannot_touch_another_table(app, client, db):
    a, b = game_by_api(client), game_by_api(client)
    body = {"type": "game-ended", "data": {}, "expected_seq": 1, "client_event_id": "cross"}
    assert client.post(f"/api/games/{b['id']}/events", json=body,
                       headers={"X-Seat-Token": a["seats"][0]["token"]}).status_code == 403
    phone = app.test_client()
    phone.set_cookie(f"seat_{b['id']}", a["seats"][0]["token"])  # a's token under b's cookie
    assert phone.post(f"/games/{b['id']}/moves", data={"expected_seq": "1", "action": "game-ended"}).status_code == 403
    assert phone.get(f"/games/{b['id']}/seats").status_code == 403
    assert store.last_seq(db, b["id"]) == 1
