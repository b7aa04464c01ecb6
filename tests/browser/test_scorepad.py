"""Phones score a game on the paper-like pad in real Chromium at 390 × 844: a whole round
at once, a grid of rounds × players with running totals, a cell changed by voiding it and
entering it again, live sync, undo and both languages."""
import pytest
from playwright.sync_api import expect

from tests.conftest import screenshot, start_game

pytestmark = pytest.mark.browser

PLAYERS = ["Anna", "Béla", "Cili", "Dani"]


class Taps:
    """Counts the taps a test makes (typing into a focused field is not a tap)."""

    def __init__(self):
        self.count = 0

    def tap(self, locator):
        self.count += 1
        locator.click()


def _new_game(page, base, names):
    start_game(page, base, names)
    expect(page.get_by_role("heading", name="Generic score pad")).to_be_visible()


def _enter_round(page, points, taps=None) -> Taps:
    """Tap each player's field, type the points, tap Save: the paper pad's one row."""
    taps = taps or Taps()
    for seat, value in enumerate(points):
        if value is None:
            continue
        taps.tap(page.get_by_test_id(f"pad-points-{seat}"))
        page.keyboard.type(str(abs(value)))
        if value < 0:
            taps.tap(page.get_by_test_id(f"pad-points-{seat}").locator("xpath=..").locator(".pad-minus"))
    with page.expect_response(lambda r: r.request.method == "POST" and "/moves" in r.url):
        taps.tap(page.get_by_test_id("pad-save"))
    # the phone's own answer is swapped in before the next round is typed (a push of the same
    # move may show the next round first; the answer arriving after it would clear the fields)
    expect(page.locator("#move-form.htmx-request, #table-body.htmx-swapping, #table-body.htmx-settling")).to_have_count(0)
    return taps


def test_a_round_of_4_players_in_at_most_6_taps_grid_running_totals_and_a_cell_corrected(live_server, new_phone):
    host = new_phone()
    _new_game(host, live_server, PLAYERS)
    expect(host.get_by_text("Round 1", exact=True)).to_be_visible()

    taps = _enter_round(host, [12, 8, 15, 3])
    assert taps.count <= 6, taps.count  # 4 fields + save: 5 taps plus typing
    expect(host.get_by_test_id("score-2")).to_have_text("15")  # current totals on top
    expect(host.get_by_text("Round 2", exact=True)).to_be_visible()  # the pad moved on
    _enter_round(host, [5, -2, 0, 10])
    grid = host.get_by_test_id("pad-grid")
    expect(grid.get_by_test_id("pad-round-2")).to_contain_text("-2")
    expect(grid.get_by_test_id("pad-round-2")).to_contain_text("Σ 6")  # Béla's running total 8 − 2
    expect(grid.get_by_test_id("pad-total-3")).to_have_text("13")
    # the scoreboard sits above the grid, the grid above the entry form
    top = [host.locator(s).bounding_box()["y"] for s in (".scoreboard", ".pad-grid", ".pad-entry")]
    assert top == sorted(top)
    assert host.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(host, "scorepad-grid")

    # Béla's round 1 was 18, not 8: tap his cell, void the entry, enter the round again
    grid.get_by_test_id("pad-round-1").locator("td").nth(1).locator("summary").click()
    grid.get_by_test_id("pad-round-1").get_by_role("button", name="Void #2 to enter it again").click()
    expect(host.get_by_text("Round 1 – again, after a void")).to_be_visible()
    expect(host.get_by_test_id("score-1")).to_have_text("-2")
    _enter_round(host, [12, 18, 15, 3])
    expect(host.get_by_test_id("score-1")).to_have_text("16")
    expect(grid.get_by_test_id("pad-round-2")).to_contain_text("Σ 16")  # running totals follow
    expect(host.locator("#e2")).to_have_class("voided")
    expect(host.get_by_text("Round 3", exact=True)).to_be_visible()  # back to the round being played
    screenshot(host, "scorepad-corrected")


def test_two_phones_score_together_undo_void_and_switch_language(phones_at_a_table):
    host, guest = phones_at_a_table()

    _enter_round(host, [5, None])
    expect(host.get_by_test_id("score-0")).to_have_text("5")
    expect(guest.get_by_test_id("score-0")).to_have_text("5", timeout=4000)  # live sync, no reload
    expect(guest.get_by_text("Round 2", exact=True)).to_be_visible(timeout=4000)  # the form's round too

    _enter_round(guest, [None, 3])
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
    expect(guest.get_by_text("1. kör", exact=True)).to_be_visible()
    guest.get_by_test_id("pad-points-1").fill("2")
    guest.get_by_role("button", name="Kör mentése").click()
    expect(guest.get_by_test_id("score-1")).to_have_text("2")
    expect(guest.get_by_role("button", name="Kör mentése")).to_be_visible()
    assert guest.evaluate("document.documentElement.scrollWidth") <= 390
    guest.set_viewport_size({"width": 360, "height": 740})  # the narrowest phones we serve
    assert guest.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(guest, "scorepad-guest-hu")

    expect(host.get_by_test_id("score-1")).to_have_text("2", timeout=4000)  # the host has seen it
    host.get_by_test_id("end-game").click()  # behind one more tap (a confirmation)
    host.get_by_role("button", name="Yes, end the game").click()
    expect(guest.locator("#move-form")).to_have_count(0, timeout=4000)  # no reload needed
    expect(guest.get_by_text("A játék véget ért.")).to_be_visible()
