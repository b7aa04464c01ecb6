"""One round of a 3-player Maharaja game on phones, in real Chromium at 390 × 844."""

import pytest
from playwright.sync_api import expect

from tests.conftest import fill_new_game, screenshot

pytestmark = pytest.mark.browser


def _click(page, name: str):
    """Press a button and wait until the move is recorded (the sequence number moves on)."""
    before = int(page.locator("#expected-seq").input_value())
    page.get_by_role("button", name=name, exact=True).click()
    expect(page.locator("#expected-seq")).to_have_value(str(before + 1))


def _reveal(page, first: str, second: str):
    page.get_by_test_id("mh-action1").select_option(first)
    page.get_by_test_id("mh-action2").select_option(second)
    _click(page, "Reveal")


def test_three_players_play_a_round_on_phones(live_server, new_phone):
    host = new_phone()
    fill_new_game(host, live_server, ("Anna", "Béla", "Csaba"), kind="maharaja")
    screenshot(host, "maharaja-new-game")
    host.get_by_role("button", name="Start the game").click()
    expect(host.get_by_role("heading", name="Maharaja")).to_be_visible()
    screenshot(host, "maharaja-setup")

    for i, city in enumerate("ABCDEFG", start=1):           # A..G from the bottom; nothing preselected
        host.locator(f'select[name="gov{i}"]').select_option(city)
    _click(host, "Record the governor track")
    for character in ("Sadhu", "Mogul", "Trader"):           # Anna 3, Béla 1, Csaba 2
        host.get_by_label(character).check()
        _click(host, "Choose")
    for _ in range(12):                                       # 4 starting houses each, first village with room
        host.get_by_test_id("mh-place").select_option(index=1)
        _click(host, "Place the house")
    expect(host.get_by_test_id("mh-maharaja")).to_have_text("A")
    expect(host.get_by_test_id("mh-next")).to_have_text("B")
    expect(host.get_by_test_id("mh-step")).to_contain_text("Béla")   # the Mogul first

    guest = new_phone()
    guest.goto(f"{live_server}/lang/en?next=/")
    guest.goto(host.get_by_test_id("join-link").get_attribute("href"))
    guest.get_by_role("button", name="Béla").click()                 # the host's seat is never offered
    expect(guest.get_by_test_id("mh-gold-1")).to_have_text("15")
    expect(guest.get_by_test_id("mh-gold-0")).to_have_text("?")      # secret on other phones

    # Béla (Mogul): gold, then a palace in A on the inner site.
    _reveal(host, "gold", "palace")
    _click(host, "+2 gold")
    host.get_by_test_id("mh-travel-city").select_option("A")
    host.get_by_text("Villages passed").click()              # through village 1, where he has a house
    host.locator('input[name="via"][value="v1"]').check()
    _click(host, "Travel")
    host.get_by_test_id("mh-palace-site").select_option("inner")
    _click(host, "Build the palace")
    screenshot(host, "maharaja-turn")
    _click(host, "End my turn")

    # Csaba (Trader, +1 at the start): gold and a governor move that makes D next.
    expect(host.get_by_test_id("mh-step")).to_contain_text("Csaba")
    _reveal(host, "gold", "governor")
    _click(host, "+2 gold")
    host.get_by_label("Governor", exact=True).select_option("D")
    _click(host, "Move it")
    _click(host, "End my turn")

    # Anna (Sadhu): takes gold, leaves the house undone and renounces it.
    _reveal(host, "gold", "house")
    _click(host, "+2 gold")
    expect(host.get_by_test_id("mh-todo")).to_contain_text("build a house")
    expect(host.get_by_test_id("mh-house-place")).to_have_value("")   # no place chosen for a hurried tap
    expect(host.get_by_test_id("mh-village-help").first).to_contain_text("numbered 1–30")
    expect(host.get_by_test_id("mh-village-30")).to_be_attached()           # the board lists every village
    screenshot(host, "maharaja-house-form")
    _click(host, "End my turn, renouncing the rest (every other player +2 gold)")

    # The app evaluated A and moved the Maharaja to D, the governor Csaba moved down.
    expect(host.get_by_test_id("mh-eval")).to_contain_text(
        "Béla: 4 points (architect 1 + inner palace 3) → +16 gold (monopoly +5)")
    expect(host.get_by_test_id("mh-maharaja")).to_have_text("D")
    expect(host.get_by_test_id("mh-step")).to_contain_text("Round 2")
    expect(guest.get_by_test_id("mh-maharaja")).to_have_text("D", timeout=4000)   # live, no reload
    expect(host.get_by_test_id("mh-gold-0")).to_have_text("17")                   # 15 + 2 (she renounced)
    expect(guest.get_by_test_id("mh-gold-1")).to_have_text("23")   # 15 + 2 − 12 + 2 (renounced) + 16
    for page, name in ((host, "maharaja-round-2-host"), (guest, "maharaja-round-2-guest")):
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        screenshot(page, name)
    guest.get_by_role("link", name="HU").click()
    expect(guest.get_by_role("heading", name="Maharadzsa", exact=True)).to_be_visible()
    expect(guest.get_by_test_id("mh-step")).to_contain_text("2. forduló")
    expect(guest.get_by_role("button", name="Felfedés")).to_be_visible()
    screenshot(guest, "maharaja-round-2-guest-hu")
    small = host.evaluate("""[...document.querySelectorAll('#move-form button, #move-form select')]
        .filter(e => e.offsetParent && e.getBoundingClientRect().height < 44).length""")
    assert small == 0
