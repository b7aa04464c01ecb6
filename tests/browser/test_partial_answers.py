"""A tap's answer is only the regions the move changed (web/partial.py), swapped in by their
ids: after rounds tapped on a long score pad — each adding a round, taking the oldest shown
one away, moving the count of earlier rounds — the phone shows what a freshly loaded page
shows, in real Chromium at 390 × 844."""
import pytest
from playwright.sync_api import expect

from scoring import GAMES
from tests.browser.phones import record_a_round, sit_in
from tests.conftest import api_game

pytestmark = pytest.mark.browser

SHOWN = ("#scoreboard", "#pad-rows", "#pad-totals", "#events", "#log-undo", "#log-seq", "#log-more")


def _regions(page) -> dict:
    """What each region shows, as text, and the order of its rows."""
    return page.evaluate("""regions => Object.fromEntries(regions.map(r => {
        const el = document.querySelector(r);
        if (!el) return [r, null];
        const rows = Array.from(el.children).filter(c => !c.hidden).map(c => c.id || c.tagName);
        return [r, {text: el.innerText.replace(/\\s+/g, " ").trim(), rows}];
    }))""", list(SHOWN))


def test_rounds_tapped_on_a_long_pad_show_what_a_fresh_page_shows(live_server, new_phone):
    players, _, _ = GAMES["scorepad"].demo()
    moves = [("round-entered", {"round": r, "entries": [{"seat": 0, "points": r}, {"seat": 1, "points": 2 * r}]})
             for r in range(1, 12)]
    created = api_game(live_server, "scorepad", players=players, moves=moves)
    phone = new_phone()
    sit_in(phone, live_server, created, "en")
    anna = created["seats"][0]["player"]
    answers = []
    phone.on("response", lambda r: answers.append(r.headers.get("hx-reswap")) if r.url.endswith("/moves") else None)
    for n, points in enumerate((5, 40, 7), start=1):  # rounds 12, 13, 14: past the 12 rounds the pad shows
        record_a_round(phone, anna, points)
        expect(phone.get_by_test_id("ack")).to_contain_text(f"#{12 + n}:")
        expect(phone.locator("#live")).to_have_attribute("data-seq", str(12 + n))
    assert answers == ["none"] * 3  # each answer was the regions alone
    tapped = _regions(phone)
    fresh = new_phone()
    sit_in(fresh, live_server, created, "en")
    assert tapped == _regions(fresh)
    assert tapped["#pad-rows"]["rows"][0] == "pad-hidden" and "2 earlier rounds" in tapped["#pad-rows"]["text"]
    assert len(tapped["#events"]["rows"]) == 12
