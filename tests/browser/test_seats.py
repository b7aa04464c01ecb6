"""Seat management (issue 17, item 5), in real Chromium at 390 × 844 with three phones,
in Hungarian and English: a seat nobody joined shows no phone, the host finds Manage
seats without opening the join code, and a phone whose seat was handed away is told so."""
import pytest
from playwright.sync_api import expect

from tests.conftest import screenshot

pytestmark = pytest.mark.browser
T = {"en": {"start": "Start the game", "player": "Player {}",
            "nobody": "No phone has joined this seat", "this": "This phone", "one": "1 phone",
            "hand": "Hand to a new phone", "handed": "This phone held Béla’s seat. The host handed it to another phone"},
     "hu": {"start": "Játék indítása", "player": "Játékos {}",
            "nobody": "Még egy telefon sem ült le ide", "this": "Ez a telefon", "one": "1 telefon",
            "hand": "Átadás új telefonnak", "handed": "Ezen a telefonon Béla helye volt. A házigazda átadta egy másik telefonnak"}}


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_seats_show_their_phones_and_a_replaced_phone_is_told(live_server, new_phone, lang):
    t = T[lang]
    host = new_phone()
    host.goto(f"{live_server}/lang/{lang}?next=/games/new")
    for i, name in enumerate(("Anna", "Béla", "Cili"), start=1):
        host.get_by_label(t["player"].format(i), exact=True).fill(name)
    host.get_by_role("button", name=t["start"]).click()
    join_url = host.get_by_test_id("join-link").get_attribute("href")
    host.get_by_test_id("pad-points-0").fill("3")
    host.get_by_test_id("pad-save").click()
    expect(host.locator("details.join").first).not_to_have_attribute("open", "")  # closed once moves exist
    expect(host.get_by_test_id("manage-seats")).to_be_visible()                   # yet Manage seats is in sight

    host.get_by_test_id("manage-seats").click()
    expect(host.get_by_test_id("holders-0")).to_have_text(t["this"])
    for seat in (1, 2):  # created on the host's phone: nobody holds the others' seats yet
        expect(host.get_by_test_id(f"holders-{seat}")).to_have_text(t["nobody"])

    lost = new_phone()
    lost.goto(f"{live_server}/lang/{lang}?next=/")
    lost.goto(join_url)
    lost.get_by_role("button", name="Béla").click()
    expect(lost.get_by_test_id("pad-save")).to_be_visible()
    host.reload()
    expect(host.get_by_test_id("holders-1")).to_have_text(t["one"])
    screenshot(host, f"seats-{lang}")

    host.get_by_test_id("seat-1").get_by_role("button", name=t["hand"]).click()
    lost.reload()
    expect(lost.get_by_test_id("handed-away")).to_contain_text(t["handed"])
    expect(lost.get_by_test_id("pad-save")).to_have_count(0)
    screenshot(lost, f"seat-handed-away-{lang}")
