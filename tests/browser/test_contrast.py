"""Readable in sunlight and at night: every text of the score pad's pages, at 390 × 844 in
real Chromium, has a WCAG contrast ratio of at least 4.5:1 against what is behind it, in
the phone's light and dark colour scheme (prefers-color-scheme) alike."""
import pytest

from tests.browser.phones import CONTRAST
from tests.conftest import api as _api, sit

pytestmark = pytest.mark.browser




@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_text_of_the_score_pad_pages_has_sunlight_contrast(live_server, new_phone, scheme):
    created = _api(live_server, "/api/games", {"kind": "scorepad", "players": [
        {"name": "Anna", "colour": "red"}, {"name": "Béla", "colour": "yellow"}, {"name": "Cili", "colour": "white"}]})
    game_id, token = created["id"], created["seats"][0]["token"]
    moves = [("points-recorded", {"seat": 0, "points": 5, "note": "first"}),
             ("points-recorded", {"seat": 1, "points": -2}),
             ("event-voided", {"target": 3, "reason": "typo"}),
             ("round-closed", {}),
             ("points-recorded", {"seat": 2, "points": 9}),
             ("dispute-opened", {"target": 6, "comment": "nine?"})]
    for seq, (type_, data) in enumerate(moves, start=1):
        _api(live_server, f"/api/games/{game_id}/events",
             {"type": type_, "data": data, "expected_seq": seq, "client_event_id": f"m{seq}"}, token)
    phone = new_phone("en-GB")
    phone.emulate_media(color_scheme=scheme)
    phone.goto(created["join_url"])
    low = {}
    pages = ["/", "/games/new", "/import", f"/games/{game_id}/join/{created['join_url'].rsplit('/', 1)[1]}"]
    phone.locator("button[name=seat]").first.click()
    pages += [f"/games/{game_id}{p}" for p in ("", "/timeline", "/replay?at=3", "/final", "/disputes/7")]
    for lang in ("en", "hu"):
        for page in pages:
            phone.goto(f"{live_server}{page}{'&' if '?' in page else '?'}lang={lang}")
            found = phone.evaluate(CONTRAST)
            if found:
                low[f"{lang} {page}"] = found
    assert phone.evaluate("getComputedStyle(document.body).backgroundColor") == \
        ("rgb(18, 20, 23)" if scheme == "dark" else "rgb(255, 255, 255)")  # the scheme is followed
    assert low == {}


def test_every_games_pages_are_no_harder_to_read_at_night(live_server, new_phone):
    """Each game's table, timeline, final sheet and replay, half-way through its demo: no
    text falls below 4.5:1 in the dark scheme that was readable in the light one (a board
    keeps its printed colours as a lit card; everything else follows the night palette)."""
    from scoring import GAMES
    phone = new_phone("en-GB")
    worse = {}
    for kind in sorted(GAMES):
        players, options, moves = GAMES[kind].demo()
        created = _api(live_server, "/api/games", {"kind": kind, "players": players, "options": options})
        token = created["seats"][0]["token"]
        for seq, (type_, data) in enumerate(moves[:len(moves) // 2], start=1):
            _api(live_server, f"/api/games/{created['id']}/events",
                 {"type": type_, "data": data, "expected_seq": seq, "client_event_id": f"m{seq}"}, token)
        sit(phone, created)
        for page in ("", "/timeline", "/final", "/replay?at=3"):
            low = {}
            for scheme in ("light", "dark"):
                phone.emulate_media(color_scheme=scheme)
                phone.goto(f"{live_server}/games/{created['id']}{page}")
                low[scheme] = {(tag, text) for tag, _, text, _ in phone.evaluate(CONTRAST)}
            if low["dark"] - low["light"]:
                worse[f"{kind} {page}"] = sorted(low["dark"] - low["light"])
    assert worse == {}
