"""What the games' pages say, in real Chromium at 390 × 844, in Hungarian and English:
the score pad keeps the name of the game it is kept for; texts read as sentences in both
languages; Maharaja warns at the reveal what the two actions cost; the Dragon offers no
control that changes nothing."""
import json
import re
import urllib.request

import pytest
from playwright.sync_api import expect

from scoring import GAMES
from tests.conftest import api, screenshot
from tests.browser.phones import sit_in, what_the_phone_shows

pytestmark = pytest.mark.browser


def _append(base: str, created: dict, seq: int, type_: str, data: dict) -> None:
    api(base, f"/api/games/{created['id']}/events",
        {"type": type_, "data": data, "expected_seq": seq, "client_event_id": f"api-{seq}"}, created["seats"][0]["token"])


def _state(base: str, created: dict) -> dict:
    with urllib.request.urlopen(f"{base}/api/games/{created['id']}/state") as answer:
        return json.load(answer)["state"]


def _game_until(base: str, kind: str, stop: str, options=None) -> dict:
    """The game's demo recorded through the API up to (not including) its first ``stop`` move."""
    players, demo_options, moves = GAMES[kind].demo()
    created = api(base, "/api/games", {"kind": kind, "players": players, "options": {**demo_options, **(options or {})}})
    for seq, (type_, data) in enumerate(moves, start=1):
        if type_ == stop:
            break
        _append(base, created, seq, type_, data)
    return created


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_score_pad_keeps_the_name_of_its_game(live_server, new_phone, lang):
    created = api(live_server, "/api/games", {"kind": "scorepad", "players": [{"name": "Anna"}, {"name": "Béla"}],
                                              "options": {"title": "Carcassonne"}})
    phone = new_phone()
    sit_in(phone, live_server, created, lang)
    expect(phone.get_by_role("heading", level=1)).to_have_text("Carcassonne")
    assert phone.title().startswith("Carcassonne")
    _append(live_server, created, 1, "round-entered", {"round": 1, "entries": [{"seat": 0, "points": 7}]})
    listed = f'a[href="/games/{created["id"]}"]'
    phone.goto(f"{live_server}/")
    expect(phone.get_by_test_id("running").locator(listed)).to_contain_text("Carcassonne")
    _append(live_server, created, 2, "game-ended", {})
    phone.goto(f"{live_server}/games/{created['id']}/final")
    expect(phone.get_by_role("heading", level=1)).to_contain_text("Carcassonne")
    phone.goto(f"{live_server}/")
    expect(phone.get_by_test_id("finished").locator(listed)).to_contain_text("Carcassonne")
    generic = {"en": "Generic score pad", "hu": "Általános pontozólap"}[lang]
    expect(phone.get_by_test_id("finished").locator(listed)).not_to_contain_text(generic)


@pytest.mark.parametrize("lang, sultanate, bid", [("en", "Sultanate · round 1", "Round 1 – bid: "),
                                                   ("hu", "Szultánság · 1. forduló", "1. forduló – licit: ")])
def test_five_tribes_headings_read_as_sentences(live_server, new_phone, lang, sultanate, bid):
    created = _game_until(live_server, "five-tribes", "bid-placed")
    phone = new_phone()
    sit_in(phone, live_server, created, lang)
    expect(phone.get_by_role("heading", name=sultanate)).to_be_visible()
    expect(phone.get_by_role("heading", name=bid, exact=False)).to_be_visible()


@pytest.mark.parametrize("lang, cost, first", [
    ("en", "12 gold", "The first action costs 12 gold; the second is added to it."),
    ("hu", "12 arany", "Az első cselekedet 12 aranyba kerül; a második ehhez adódik.")])
def test_maharaja_warns_at_the_reveal_what_the_actions_cost(live_server, new_phone, lang, cost, first):
    """Each action's tile shows its price; once the first is tapped the note says what it
    costs, and the second actions that together with it cost more than the player will have
    are marked, on his own phone only (his gold is secret)."""
    created = _game_until(live_server, "maharaja", "actions-revealed")
    seat = _state(live_server, created)["next"]["seat"]
    phone = new_phone()
    sit_in(phone, live_server, created, lang, seat=seat)
    expect(phone.get_by_test_id("mh-second-palace")).to_contain_text(cost)
    phone.locator("label.mh-tile:has([data-testid=mh-first-palace])").click()
    note = phone.get_by_test_id("mh-reveal-cost")
    expect(note).to_have_text(first)
    expect(phone.get_by_test_id("mh-second-palace")).to_have_class(re.compile(r"\bover\b"))   # 24 > 15
    expect(phone.get_by_test_id("mh-second-gold")).not_to_have_class(re.compile(r"\bover\b"))
    second = phone.get_by_test_id("mh-second-gold")
    assert 0 <= second.bounding_box()["y"] - (note.bounding_box()["y"] + note.bounding_box()["height"]) < 80  # beside the buttons
    what_the_phone_shows(phone, f"maharaja-reveal-cost-{lang}")
    # another phone sees the price but not the player's gold (it is secret)
    other = new_phone()
    sit_in(other, live_server, created, lang, seat=(seat + 1) % len(created["seats"]))
    other.locator("label.mh-tile:has([data-testid=mh-first-palace])").click()
    expect(other.get_by_test_id("mh-reveal-cost")).to_have_text(first)
    expect(other.get_by_test_id("mh-second-palace")).not_to_have_class(re.compile(r"\bover\b"))


@pytest.mark.parametrize("lang, says", [("en", "Pass: no action"), ("hu", "Passz: nem választok akciót")])
def test_the_dragon_offers_no_money_that_would_bring_nothing(live_server, new_phone, lang, says):
    created = _game_until(live_server, "dragon", "dragon-action-chosen")
    state = _state(live_server, created)
    seat = state["next"]["seat"]
    assert state["players"][seat]["yuan"] >= 3
    phone = new_phone()
    sit_in(phone, live_server, created, lang, seat=seat)
    expect(phone.get_by_test_id("refill")).to_have_count(0)
    expect(phone.locator("#move-form")).not_to_contain_text("(+0)")
    expect(phone.get_by_test_id("pass")).to_contain_text(says)
    screenshot(phone, f"dragon-pass-{lang}")
