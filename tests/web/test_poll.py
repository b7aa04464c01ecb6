"""Unchanged polls are answered before Flask (web/poll.py) exactly as the routes
would answer them; everything else still reaches the routes."""
import pytest

from events.application.table import new_game, record
from web.security import CSP


@pytest.fixture
def game(table_of):
    return table_of().id


def test_an_unchanged_poll_gets_204_with_the_security_headers(client, game):
    response = client.get(f"/games/{game}/live?seq=1")
    assert response.status_code == 204 and response.data == b""
    assert response.headers["Content-Security-Policy"] == CSP
    assert response.headers["X-Frame-Options"] == "DENY"


def test_a_poll_behind_the_game_gets_the_fresh_region(client, db, game):
    record(db, game, "points-recorded", {"seat": 0, "points": 5}, 1, 0, "dev", "c1")
    stale = client.get(f"/games/{game}/live?seq=1")
    assert stale.status_code == 200 and b"hx-get" in stale.data
    assert b'id="audit-nav"' in stale.data  # disputes and links ride along with the live region
    assert client.get(f"/games/{game}/live?seq=2").status_code == 204


@pytest.mark.parametrize("query", ["", "?seq=", "?seq=abc", "?seq=0", "?seq=9"])
def test_other_polls_reach_the_route(client, game, query):
    assert client.get(f"/games/{game}/live{query}").status_code == 200


def test_an_unknown_game_is_still_404(client):
    assert client.get("/games/nope/live?seq=0").status_code == 404
    assert client.get("/games/nope/live?seq=1").status_code == 404


def test_the_middleware_answers_without_flask(app, game, monkeypatch):
    """The 204 comes from web/poll.py: the Flask app underneath is never called."""
    called = []
    inner = app.wsgi_app.wsgi_app
    monkeypatch.setattr(app.wsgi_app, "wsgi_app", lambda *a: called.append(1) or inner(*a))
    client = app.test_client()
    assert client.get(f"/games/{game}/live?seq=1").status_code == 204 and not called
    assert client.get(f"/games/{game}/live?seq=0").status_code == 200 and called


def test_an_ended_game_keeps_the_forms_place_and_an_undo_fills_it_on_the_next_poll(app, db):
    """The end leaves the move form's place on a seated phone; after the Undo that reopens
    the game, each seated phone's update fills that place (a spectator's has nothing to fill)."""
    created = new_game(db, "scorepad", [{"name": "Anna"}, {"name": "Béla"}], {}, "dev")
    game = created["id"]
    seated, spectator = app.test_client(), app.test_client()
    seated.set_cookie(f"seat_{game}", created["seats"][0]["token"])
    record(db, game, "points-recorded", {"seat": 0, "points": 5}, 1, 0, "dev", "c1")
    assert b"move-form-reopened" not in seated.get(f"/games/{game}/live?seq=1").data  # no void: nothing to fill
    record(db, game, "game-ended", {}, 2, 0, "dev", "c2")
    page = seated.get(f"/games/{game}").data
    assert b'id="move-form-closed"' in page and b'id="move-form"' not in page
    record(db, game, "event-voided", {"target": 3, "reason": "undo", "undo": True}, 3, 0, "dev", "c3")
    assert b'hx-swap-oob="outerHTML:#move-form-closed"' in seated.get(f"/games/{game}/live?seq=3").data
    assert b"move-form-reopened" not in spectator.get(f"/games/{game}/live?seq=3").data
    assert b'id="move-form"' in seated.get(f"/games/{game}").data
