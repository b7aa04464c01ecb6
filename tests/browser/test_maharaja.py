"""One round of a 3-player Maharaja game on phones, in real Chromium at 390 × 844."""

import pytest
from playwright.sync_api import expect

from tests.conftest import fill_new_game, screenshot

pytestmark = pytest.mark.browser


class Taps:
    """Counts the taps of a turn (issue 39: a typical turn ≤ 8; a select would count two):
    every tap goes through here, and a tap that records waits until the move is in."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def tap(self, locator, records: bool = True):
        before = int(self.page.locator("#expected-seq").input_value())
        locator.click()
        self.count += 1
        if records:
            expect(self.page.locator("#expected-seq")).to_have_value(str(before + 1))

    def button(self, name: str):
        self.tap(self.page.get_by_role("button", name=name, exact=True))


def _click(page, name: str):
    """Press a button and wait until the move is recorded (the sequence number moves on)."""
    Taps(page).button(name)


def _reveal(taps: Taps, first: str, second: str):
    """The first action a tile, the second a button that reveals both: two taps."""
    taps.tap(taps.page.locator(f"label.mh-tile:has([data-testid=mh-first-{first}])"), records=False)
    taps.tap(taps.page.get_by_test_id(f"mh-second-{second}"))


def test_three_players_play_a_round_on_phones(live_server, new_phone):
    host = new_phone()
    fill_new_game(host, live_server, ("Anna", "Béla", "Csaba"), kind="maharaja")
    screenshot(host, "maharaja-new-game")
    host.get_by_role("button", name="Start the game").click()
    expect(host.get_by_role("heading", name="Maharaja")).to_be_visible()
    screenshot(host, "maharaja-setup")

    track = Taps(host)
    for i, city in enumerate("ABCDEFG", start=1):           # A..G from the bottom; nothing preselected
        track.tap(host.locator(f'label.mh-tile:has(input[name="gov{i}"][value="{city}"])'), records=False)
    track.button("Record the governor track")
    assert track.count == 8                                  # issue 39: was 15 (a select per box)
    for character in ("Sadhu", "Mogul", "Trader"):           # Anna 3, Béla 1, Csaba 2
        host.get_by_label(character).check()
        _click(host, "Choose")
    for _ in range(12):                                       # 4 starting houses each, first village with room
        Taps(host).tap(host.get_by_test_id("mh-place").locator("button").first)
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
    turn = Taps(host)
    _reveal(turn, "gold", "palace")
    turn.button("+2 gold")
    turn.tap(host.locator('label.mh-tile:has(input[name="via"][value="v1"])'), records=False)  # through village 1
    turn.button("To A")
    turn.button("Inner palace in city A (3 points)")
    screenshot(host, "maharaja-turn")
    turn.button("End my turn")
    assert turn.count == 7 <= 8, turn.count                  # issue 39: was 17 (selects, a closed list)

    # Csaba (Trader, +1 at the start): gold and a governor move that makes D next.
    expect(host.get_by_test_id("mh-step")).to_contain_text("Csaba")
    turn = Taps(host)
    _reveal(turn, "gold", "governor")
    turn.button("+2 gold")
    turn.tap(host.get_by_test_id("mh-governor-D"))
    turn.button("End my turn")
    assert turn.count == 5, turn.count

    # Anna (Sadhu): takes gold, leaves the house undone and renounces it.
    turn = Taps(host)
    _reveal(turn, "gold", "house")
    turn.button("+2 gold")
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
    expect(guest.get_by_role("button", name="Arany (+2)", exact=True)).to_be_visible()   # the second action reveals
    screenshot(guest, "maharaja-round-2-guest-hu")
    small = host.evaluate("""[...document.querySelectorAll('#move-form button, #move-form select')]
        .filter(e => e.offsetParent && e.getBoundingClientRect().height < 44).length""")
    assert small == 0
