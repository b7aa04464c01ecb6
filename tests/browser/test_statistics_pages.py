"""Issue 26, items 8, 9 and 12, in real Chromium at 390 × 844, in Hungarian and English,
light and dark: the statistics read like BG Stats' (per game a table with plays, a win rate
per person and per game, head to head by who finished ahead, with points compared only
within one game), counts read as words ("1 play"), the CSV's dates carry their offset, and
the score pad's final sheet is one paper-like grid."""
import re
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.conftest import api, screenshot

pytestmark = pytest.mark.browser


def _centre(locator) -> float:
    box = locator.bounding_box()
    return box["y"] + box["height"] / 2


@pytest.mark.parametrize("lang", ["en", "hu"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_statistics_read_like_a_finished_product(friends, new_phone, lang, scheme):
    base, ids, people = friends
    anna, bela = people["Anna"], people["Béla"]
    phone = new_phone("hu-HU" if lang == "hu" else "en-GB")
    phone.emulate_media(color_scheme=scheme)
    phone.goto(f"{base}/lang/{lang}?next=/stats")
    games = phone.get_by_test_id("stat-games")
    han = games.locator("tr", has_text="Han")
    expect(han.locator("td").first).to_have_text("1")
    assert " 1 plays" not in phone.locator("main").inner_text()  # (Hungarian says "1 játszma" for any number)
    row = phone.locator("table.sheet").first.locator("tbody tr", has_text="Anna")
    assert abs(_centre(row.locator("td").last) - _centre(row.locator("th"))) <= 2  # the rate sits in its row
    screenshot(phone, f"stats-index-{lang}-{scheme}")
    phone.goto(f"{base}/stats/people/{anna}")
    expect(phone.get_by_test_id("person-game-rate-scorepad:azul")).to_have_text("67%")  # 2 of 3 Azul games
    screenshot(phone, f"stats-person-{lang}-{scheme}")
    phone.goto(f"{base}/stats/together?people={anna}&people={bela}")
    pair = phone.get_by_test_id(f"pair-{anna}-{bela}")
    everything = pair.locator("li.total")
    expect(everything).not_to_contain_text({"en": "on average", "hu": "átlagosan"}[lang])
    expect(pair.locator("li", has_text="Azul")).to_contain_text(
        {"en": "on average Anna by 1 point", "hu": "átlagosan Anna +1 ponttal"}[lang])  # (10 − 15 + 8) / 3
    screenshot(phone, f"stats-together-{lang}-{scheme}")


def test_the_plays_csv_dates_carry_their_offset(friends):
    base, ids, people = friends
    with urllib.request.urlopen(base + "/plays.csv") as response:
        rows = response.read().decode().splitlines()[1:]
    dates = [row.split(",")[0] for row in rows]
    assert dates and all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d", d) for d in dates), dates[:3]


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_score_pads_final_sheet_is_one_paper_grid(live_server, new_phone, lang):
    names = ["Anna", "Béla", "Cili", "Dani"]
    created = api(live_server, "/api/games", {"kind": "scorepad", "players": [{"name": n} for n in names]})
    token = created["seats"][0]["token"]
    for r in range(1, 20):
        api(live_server, f"/api/games/{created['id']}/events",
            {"type": "round-entered", "data": {"round": r, "entries": [{"seat": s, "points": r + s} for s in range(4)]},
             "expected_seq": r, "client_event_id": f"r{r}"}, token)
    api(live_server, f"/api/games/{created['id']}/events",
        {"type": "game-ended", "data": {}, "expected_seq": 20, "client_event_id": "end"}, token)
    phone = new_phone("hu-HU" if lang == "hu" else "en-GB")
    phone.goto(f"{live_server}/lang/{lang}?next=/games/{created['id']}/final")
    grid = phone.get_by_test_id("final-grid")
    expect(grid.locator("tbody tr")).to_have_count(19)          # every round once
    expect(phone.locator("table")).to_have_count(1)             # and nothing listing them again
    expect(phone.get_by_test_id("final-3")).to_have_text(str(sum(r + 3 for r in range(1, 20))))
    assert phone.evaluate("document.scrollingElement.scrollWidth") <= 390
    height = phone.evaluate("document.scrollingElement.scrollHeight")
    assert height < 2600, f"the final sheet is {height}px long"
    screenshot(phone, f"final-grid-{lang}")
