"""Two phones score a game together in real Chromium at 390 × 844."""
import pytest
from playwright.sync_api import expect

from tests.conftest import screenshot

pytestmark = pytest.mark.browser


def _record(page, player: str, points: int):
    page.get_by_label(player, exact=True).check()
    page.get_by_test_id("points").fill(str(points))
    page.get_by_role("button", name="Record", exact=True).click()


def test_two_phones_score_together_undo_void_and_switch_language(live_server, new_phone):
    host = new_phone()
    host.goto(f"{live_server}/lang/en?next=/games/new")
    host.get_by_label("Player 1", exact=True).fill("Anna")
    host.get_by_label("Player 2", exact=True).fill("Béla")
    host.get_by_role("button", name="Start the game").click()
    expect(host.get_by_role("heading", name="Generic score pad")).to_be_visible()
    join_url = host.get_by_test_id("join-link").get_attribute("href")

    guest = new_phone()
    guest.goto(f"{live_server}/lang/en?next=/")
    guest.goto(join_url)
    guest.get_by_role("button", name="Béla").click()
    expect(guest.get_by_label("Points", exact=True)).to_be_visible()

    _record(host, "Anna", 5)
    expect(host.get_by_test_id("score-0")).to_have_text("5")
    expect(guest.get_by_test_id("score-0")).to_have_text("5", timeout=4000)  # live sync, no reload

    _record(guest, "Béla", 3)
    expect(host.get_by_test_id("score-1")).to_have_text("3", timeout=4000)
    screenshot(guest, "scorepad-guest")

    host.get_by_test_id("undo").click()
    expect(guest.get_by_test_id("score-1")).to_have_text("0", timeout=4000)
    expect(host.locator("#e3")).to_have_class("voided")

    host.locator("#e2 summary").click()
    void_button = host.locator("#e2").get_by_role("button", name="Void")
    assert void_button.bounding_box()["height"] < 56  # one line: "Voi/d" wrapped at 390 px once
    host.locator("#e2").get_by_label("Reason").fill("wrong player")
    host.locator("#e2").get_by_role("button", name="Void").click()
    expect(guest.get_by_test_id("score-0")).to_have_text("0", timeout=4000)
    expect(guest.locator("#e2")).to_have_class("voided", timeout=4000)
    expect(guest.locator("#e2 .why")).to_contain_text("wrong player")

    guest.get_by_role("link", name="HU").click()
    expect(guest.get_by_role("heading", name="Általános pontozólap")).to_be_visible()
    guest.get_by_label("Béla", exact=True).check()
    guest.get_by_test_id("points").fill("2")
    guest.get_by_role("button", name="Rögzít", exact=True).click()
    guest.locator("#e6 summary").click()
    assert guest.locator("#e6").get_by_role("button", name="Érvénytelenít").bounding_box()["height"] < 56
    expect(guest.get_by_role("button", name="Rögzít")).to_be_visible()
    assert guest.evaluate("document.documentElement.scrollWidth") <= 390
    guest.set_viewport_size({"width": 360, "height": 740})  # the narrowest phones we serve
    assert guest.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(guest, "scorepad-guest-hu")

    expect(host.locator("#e6")).to_be_visible(timeout=4000)  # the host's phone has seen the last move
    host.get_by_role("button", name="Close the round (1.)").click()
    expect(guest.get_by_role("button", name="Kör lezárása (2.)")).to_be_visible(timeout=4000)  # relabelled live
    host.get_by_test_id("end-game").click()  # behind one more tap (a confirmation)
    host.get_by_role("button", name="Yes, end the game").click()
    expect(guest.locator("#move-form")).to_have_count(0, timeout=4000)  # no reload needed
    expect(guest.get_by_text("A játék véget ért.")).to_be_visible()
