"""Who may bend the group's record (issue 35 §2, §5, §6, §7), on both engines, with CSRF
on as in production: a finished game's seats and who sat in them, the organiser's link
(compared as bytes, rate-limited, renewable); board profiles: tests/web/test_boards.py."""
from __future__ import annotations

import re

import pytest

from events.storage import store
from group import roster
from tests.conftest import app_on, csrf_of


def _join_code(db, game: str) -> str:
    return store.game_row(db, game)["join_code"]


def _join(phone, game: str, code: str, seat: int):
    page = phone.get(f"/games/{game}/join/{code}")
    token = csrf_of(page.get_data(as_text=True)) if 'name="csrf_token"' in page.get_data(as_text=True) else phone.token
    return page, phone.post(f"/games/{game}/join/{code}", data={"csrf_token": token, "seat": str(seat)})


def _end(db, game: str) -> None:
    from events.application.table import record
    record(db, game, "points-recorded", {"seat": 0, "points": 10}, 1, 0, "phone-0", "p1")
    record(db, game, "game-ended", {}, 2, 0, "phone-0", "end")


# ---- §2: a finished game's seats ------------------------------------------------------

def test_after_the_end_the_join_link_only_lets_a_phone_watch(hall):
    app, db, organiser, host, stranger, game = hall
    _end(db, game)
    page, answer = _join(stranger, game, _join_code(db, game), 1)
    assert answer.status_code == 403
    assert "is over" in answer.get_data(as_text=True)
    assert f"seat_{game}" not in (answer.headers.get("Set-Cookie") or "")
    assert not any(c.key == f"seat_{game}" for c in stranger._cookies.values())
    assert f'href="/games/{game}"' in page.get_data(as_text=True)  # watching is offered


def test_after_the_end_a_seated_phone_cannot_say_who_it_was(hall):
    """Anna's win cannot move to Mallory: a phone seated before the end (a joiner of the
    running game) says "This was me" only while the game runs; the organiser still may."""
    app, db, organiser, host, stranger, game = hall
    _join(stranger, game, _join_code(db, game), 1)
    _end(db, game)
    before = roster.load(db).person_of(game, 0), roster.load(db).person_of(game, 1)
    for phone in (host, stranger):
        answer = phone.post(f"/games/{game}/me", data={"csrf_token": phone.token, "name": "Mallory"})
        assert answer.status_code == 403, answer.status_code
        assert "organiser" in answer.get_data(as_text=True)
    now = roster.load(db)
    assert (now.person_of(game, 0), now.person_of(game, 1)) == before
    assert now.by_name("Mallory") is None
    for change in ({"unlink": "1"}, {"name": "Kiss Anna"}):
        answer = organiser.post(f"/people/games/{game}/0", data={"csrf_token": organiser.token, **change})
        assert answer.status_code == 303
    assert roster.load(db).people[roster.load(db).person_of(game, 0)]["name"] == "Kiss Anna"


def test_before_the_end_a_seated_phone_still_says_who_it_was(hall):
    app, db, organiser, host, stranger, game = hall
    _join(stranger, game, _join_code(db, game), 1)
    answer = stranger.post(f"/games/{game}/me", data={"csrf_token": stranger.token, "name": "Kiss Béla"})
    assert answer.status_code == 303
    now = roster.load(db)
    assert now.people[now.person_of(game, 1)]["name"] == "Kiss Béla"


# ---- §5: the organiser's link ---------------------------------------------------------

@pytest.mark.parametrize("path", ["/organiser/%C3%A9", "/organiser/%ED%A0%80", "/organiser/%FF",
                                  "/organiser/" + "é" * 64])
def test_a_strange_organiser_code_is_a_404_not_a_500(hall, path):
    app, db, organiser, host, stranger, game = hall
    assert stranger.get(path).status_code == 404


@pytest.mark.parametrize("cookie", ["é", "\u202e" * 64, "ű" * 64])
def test_a_non_ascii_organiser_cookie_is_no_organiser(hall, cookie):
    app, db, organiser, host, stranger, game = hall
    stranger.set_cookie("organiser", cookie)
    page = stranger.get("/people")
    assert page.status_code == 200 and 'name="name"' not in page.get_data(as_text=True)
    answer = stranger.post("/people", data={"csrf_token": stranger.token, "name": "Mallory"})
    assert answer.status_code == 403


def test_wrong_organiser_codes_are_rate_limited_like_join_codes(hall):
    app, db, organiser, host, stranger, game = hall
    for i in range(5):
        assert stranger.get(f"/organiser/{i:064x}").status_code == 404
    refused = stranger.get("/organiser/" + "1" * 64)
    assert refused.status_code == 429 and refused.headers.get("Retry-After")
    with app.test_request_context():
        from web import organiser as organiser_module
        right = organiser_module.link().split("/organiser/", 1)[1]
    assert stranger.get(f"/organiser/{right}").status_code == 429  # the budget is spent: guessing stops
    assert organiser.get("/people").status_code == 200  # the organiser's cookie is no guess


def test_a_new_organiser_link_ends_the_old_one(hall):
    app, db, organiser, host, stranger, game = hall
    with app.test_request_context():
        from web import organiser as organiser_module
        old = organiser_module.link().split("/organiser/", 1)[1]
    answer = app.test_cli_runner().invoke(args=["new-organiser-link", "--host", "192.168.1.20"])
    assert answer.exit_code == 0, answer.output
    new = re.search(r"http://192\.168\.1\.20:5000/organiser/(\S+)", answer.output).group(1)
    assert new != old
    refused = organiser.post("/people", data={"csrf_token": organiser.token, "name": "Dóra"})
    assert refused.status_code == 403  # the old cookie no longer opens anything
    assert stranger.get(f"/organiser/{old}").status_code == 404
    assert stranger.get(f"/organiser/{new}").status_code == 303
    assert stranger.post("/people", data={"csrf_token": stranger.token, "name": "Dóra"}).status_code == 303
    again = app.test_cli_runner().invoke(args=["organiser-link", "--host", "192.168.1.20"])
    assert new in again.output  # the printed link is the new one, in every worker
    fresh = app_on(app.config["DATABASE"], WTF_CSRF_ENABLED=True)
    with fresh.test_request_context():
        assert organiser_module.link().endswith(new)
