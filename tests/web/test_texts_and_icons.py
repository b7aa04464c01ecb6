"""Texts, the icon and the manifest (issue 17, item 9), in Hungarian and English: "1 point"
(not "1 points"), a dispute kept without a reason reads cleanly, Han's set-up does not say
"the app asks" twice, the final sheet's by-category table shows four players on a phone
without a sideways scroll, and the pages have an icon and a web app manifest."""
import json

import pytest
from playwright.sync_api import expect

from scoring.han import boards as han_boards
from scoring.han.demo import example_profile
from tests.conftest import api, screenshot




@pytest.mark.parametrize("lang, said", [("en", "Anna, Béla: 1 point."), ("hu", "Anna, Béla: 1 pont."),
                                        ("de", "Anna, Béla: 1 Punkt.")])
def test_one_point_is_one_point(client, table_of, lang, said):
    created = table_of(moves=[("points-recorded", {"seat": 0, "points": 1}),
                                               ("points-recorded", {"seat": 1, "points": 1})])
    final = client.get(f"/games/{created.id}/final?lang={lang}").get_data(as_text=True)
    assert said in final


@pytest.mark.parametrize("lang, resolved", [("en", "Resolved: the move stands"), ("hu", "Lezárva: a lépés marad")])
def test_a_dispute_kept_without_a_reason_has_no_empty_dash(client, table_of, lang, resolved):
    created = table_of(moves=[("points-recorded", {"seat": 0, "points": 5}),
                                               ("dispute-opened", {"target": 2, "comment": "five?"}),
                                               ("dispute-resolved", {"dispute": 3, "outcome": "kept", "reason": ""})])
    page = client.get(f"/games/{created.id}/disputes/3?lang={lang}").get_data(as_text=True)
    status = page[page.index('data-testid="dispute-status"'):][:400]
    assert resolved in status and "(#4)" in status and "– (" not in " ".join(status.split())


def test_han_set_up_names_each_unknown_fact_without_repeating_the_app_asks():
    data = example_profile(1)
    data["areas"][5]["sites"] = None
    texts = [t["en"] for t in han_boards.missing(data)] + [t["hu"] for t in han_boards.missing(data)]
    assert texts and not any("app asks" in t or "rákérdez)" == t[-9:] for t in texts)
    assert "1 site counts (when a province fills)" in texts


def test_favicon_and_manifests(client, table_of):
    created = table_of()
    assert client.get("/favicon.ico").headers["Location"].endswith("/static/icon.svg")
    icon = client.get("/static/icon.svg")
    assert icon.status_code == 200 and icon.data.startswith(b"<svg")
    home = json.loads(client.get("/manifest.webmanifest").data)
    assert home["start_url"] == "/" and home["display"] == "standalone" and home["icons"][0]["src"] == "/static/icon.svg"
    table = client.get(f"/games/{created.id}/manifest.webmanifest?lang=hu")
    assert table.mimetype == "application/manifest+json"
    assert json.loads(table.data)["start_url"] == f"/games/{created.id}"
    assert json.loads(table.data)["name"] == "Általános pontozólap – Tablescribe"
    assert client.get("/games/nope/manifest.webmanifest").status_code == 404
    page = client.get(f"/games/{created.id}").get_data(as_text=True)
    assert f'rel="manifest" href="/games/{created.id}/manifest.webmanifest"' in page and 'rel="icon"' in page


# ---- real Chromium at 390 × 844 --------------------------------------------------------

@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_final_sheet_shows_four_players_by_category_without_a_sideways_scroll(live_server, new_phone, lang):
    names = ["Annamária", "Bélabácsi", "Cecília", "Dorottya"]
    created = api(live_server, "/api/games", {"kind": "scorepad", "players": [{"name": n} for n in names]})
    seq = 1
    for round_ in range(3):
        for seat in range(4):
            api(live_server, f"/api/games/{created['id']}/events",
                {"type": "points-recorded", "data": {"seat": seat, "points": 100 + 10 * seat + round_},
                 "expected_seq": seq, "client_event_id": f"p{seq}"}, created["seats"][0]["token"])
            seq += 1
        api(live_server, f"/api/games/{created['id']}/events",
            {"type": "round-closed", "data": {}, "expected_seq": seq, "client_event_id": f"p{seq}"},
            created["seats"][0]["token"])
        seq += 1
    phone = new_phone()
    phone.goto(f"{live_server}/lang/{lang}?next=/games/{created['id']}/final")
    table = phone.get_by_test_id("final-grid")  # the score pad's one grid (issue 26, item 12)
    expect(table).to_be_visible()
    box = phone.locator(".scroll").evaluate("s => [s.scrollWidth, s.clientWidth]")
    assert box[0] <= box[1]
    for name in names:  # every player's column inside the screen
        right = table.locator("thead th", has_text=name).bounding_box()
        assert right["x"] + right["width"] <= 390
    screenshot(phone, f"final-four-players-{lang}")


@pytest.mark.browser
def test_a_table_page_loads_with_an_icon_and_no_404(live_server, new_phone):
    created = api(live_server, "/api/games", {"kind": "scorepad", "players": [{"name": "Anna"}, {"name": "Béla"}]})
    phone = new_phone()
    missing = []
    phone.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    phone.goto(f"{live_server}/games/{created['id']}")
    manifest = phone.evaluate("fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())")
    assert manifest["start_url"] == f"/games/{created['id']}"
    icon = phone.evaluate("fetch(document.querySelector('link[rel=icon]').href).then(r => [r.status, r.headers.get('content-type')])")
    assert icon[0] == 200 and icon[1].startswith("image/svg+xml")
    phone.goto(f"{live_server}/favicon.ico")
    assert missing == []


@pytest.mark.parametrize("lang, one, two", [("en", "+1 point", "+2 points"), ("hu", "+1 pont", "+2 pont"),
                                            ("de", "+1 Punkt", "+2 Punkte")])
def test_a_score_pad_entry_says_point_or_points_by_its_number(client, table_of, lang, one, two):
    """Issue 30: the move log said "+1 points"; each language's plural form now follows the number."""
    created = table_of(moves=[("points-recorded", {"seat": 0, "points": 1}),
                              ("points-recorded", {"seat": 1, "points": 2})])
    page = client.get(f"/games/{created.id}?lang={lang}").get_data(as_text=True)
    assert f"Anna: {one}" in page and f"Béla: {two}" in page
