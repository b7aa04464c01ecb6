"""The phone pages' writes (web/pages.py) through Flask's client: a new game from the form,
a move without script (post/redirect/get) and with htmx (the fragment), refusals beside the
form with nothing appended, a stale form, a double tap, Undo and Void, the join link, and
CSRF on every form."""
import re

import pytest

from events.storage import store
from tests.conftest import app_on, csrf_of, post_move


def test_move_without_js_redirects_and_with_htmx_returns_the_fragment(client, seated):
    plain = post_move(client, seated, 1, seat="0", points="5")
    assert plain.status_code == 303 and plain.headers["Location"].endswith(f"{seated}?done=2")
    swapped = client.post(f"{seated}/moves", headers={"HX-Request": "true"},
                          data={"expected_seq": "2", "client_event_id": "h", "seat": "1", "points": "7"})
    assert swapped.status_code == 200 and b'data-testid="score-1">7<' in swapped.data


@pytest.mark.parametrize("fields, message", [
    ({"seat": "0", "points": "abc"}, b"whole number"),
    ({"seat": "9", "points": "3"}, b"There is no player 10"),
    ({"points": "3"}, b"Player: enter a whole number"),
])
def test_bad_move_shows_the_problem_beside_the_form_and_appends_nothing(app, client, seated, fields, message):
    client.set_cookie("lang", "en")
    response = post_move(client, seated, 1, **fields)
    assert response.status_code == 422
    assert message in response.data
    assert b'class="problems"' in response.data
    assert store.last_seq(store.connect(app.config["DATABASE"]), seated.rsplit("/", 1)[1]) == 1


def test_minus_toggle_records_negative_points(client, seated):
    post_move(client, seated, 1, seat="0", points="4", sign="-")
    assert b'data-testid="score-0">-4<' in client.get(seated).data


def test_stale_form_gets_409_with_the_fresh_board_and_keeps_the_input(client, seated):
    client.set_cookie("lang", "en")
    post_move(client, seated, 1, seat="0", points="5")
    late = client.post(f"{seated}/moves", data={"expected_seq": "1", "client_event_id": "other",
                                                "action": "round-entered", "round": "1", "points_1": "8"})
    assert late.status_code == 409
    assert b"Someone else recorded" in late.data
    assert b'value="8"' in late.data and b'id="expected-seq" value="2"' in late.data


def test_double_tap_records_once(app, client, seated):
    for _ in range(2):
        client.post(f"{seated}/moves", data={"expected_seq": "1", "client_event_id": "tap", "seat": "0", "points": "5"})
    events = store.read_events(store.connect(app.config["DATABASE"]), seated.rsplit("/", 1)[1])
    assert [e.type for e in events] == ["game-created", "points-recorded"]


def test_spectator_cannot_write(app, seated):
    stranger = app.test_client()
    response = post_move(stranger, seated, 1, seat="0", points="5")
    assert response.status_code == 403
    assert stranger.post(f"{seated}/undo", data={"expected_seq": "1"}).status_code == 403
    page = stranger.get(seated)
    assert b'id="move-form"' not in page.data


def test_join_link_seats_a_second_phone(app, client, seated):
    join = re.search(rb'data-testid="join-link">([^<]+)<', client.get(seated).data).group(1).decode()
    phone = app.test_client()
    assert phone.get(join).status_code == 200
    response = phone.post(join, data={"seat": "1"})
    assert response.status_code == 302
    assert b'id="move-form"' in phone.get(seated).data
    assert phone.get(join.rsplit("/", 1)[0] + "/wrong-code").status_code == 404


def test_undo_and_void_strike_through(client, seated):
    post_move(client, seated, 1, seat="0", points="5")
    post_move(client, seated, 2, seat="1", points="6")
    client.post(f"{seated}/undo", data={"expected_seq": "3", "client_event_id": "u"})
    refused = client.post(f"{seated}/events/2/void", data={"expected_seq": "4", "reason": ""})
    assert refused.status_code == 422
    client.post(f"{seated}/events/2/void", data={"expected_seq": "4", "client_event_id": "v", "reason": "wrong"})
    page = client.get(seated).data.decode()
    assert re.search(r'id="e2" class="voided"', page) and re.search(r'id="e3" class="voided"', page)
    assert "wrong" in page


def test_a_500_character_name_is_refused_on_the_form(client):
    response = client.post("/games/new", data={"kind": "scorepad", "name": ["x" * 500, "B"]})
    assert response.status_code == 422
    assert b'class="problems"' in response.data
    assert b'x' * 500 in response.data  # what was typed is kept


def test_unknown_game_and_kind_are_404(client):
    assert client.get("/games/nope").status_code == 404
    assert client.get("/games/new?kind=chess").status_code == 404
    assert client.post("/games/nope/moves", data={}).status_code == 404


def test_forms_need_a_csrf_token(tmp_path):
    app = app_on(str(tmp_path / "c.db"), WTF_CSRF_ENABLED=True)
    client = app.test_client()
    assert client.post("/games/new", data={"kind": "scorepad", "name": ["A"]}).status_code == 400
    token = csrf_of(client.get("/games/new").data.decode())
    created = client.post("/games/new", data={"kind": "scorepad", "name": ["A"], "csrf_token": token})
    assert created.status_code == 302
    table = created.headers["Location"]
    assert client.post(f"{table}/moves", data={"expected_seq": "1", "seat": "0", "points": "1"}).status_code == 400
    ok = client.post(f"{table}/moves", headers={"X-CSRFToken": token, "HX-Request": "true"},
                     data={"expected_seq": "1", "seat": "0", "points": "1", "client_event_id": "z"})
    assert ok.status_code == 200
