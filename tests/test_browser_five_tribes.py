"""A Five Tribes table fills the score sheet for 3 players on a phone, in real Chromium."""
import pytest
from playwright.sync_api import expect

from tests.conftest import screenshot

pytestmark = pytest.mark.browser


def _fill_sheet(page, player: str, values: dict, djinns=(), goods=None):
    sheet = page.get_by_test_id("ft-sheet")
    sheet.get_by_label(player, exact=True).check()
    for label, value in values.items():
        sheet.get_by_label(label, exact=True).fill(str(value))
    for name in djinns:
        sheet.get_by_label(name).check()
    for label, value in (goods or {}).items():
        sheet.get_by_label(label, exact=True).fill(str(value))
    page.get_by_role("button", name="Record the score sheet").click()


def _start(page, live_server):
    """A new Five Tribes game for Peti, Zoli and Gerda, on this phone."""
    page.goto(f"{live_server}/lang/en?next=/games/new?kind=five-tribes")
    for i, name in enumerate(["Peti", "Zoli", "Gerda"], start=1):
        page.get_by_label(f"Player {i}", exact=True).fill(name)
    page.get_by_role("button", name="Start the game").click()
    return page


def test_three_players_fill_the_score_sheet_on_a_phone(live_server, new_phone):
    page = _start(new_phone(), live_server)
    expect(page.get_by_test_id("ft-sheet")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "five-tribes-sheet-empty")

    _fill_sheet(page, "Peti", {"Gold": 42, "Viziers (yellow)": 6, "Elders (white)": 2, "Palm trees on your tiles": 2,
                               "Palaces on your tiles": 1, "Your tiles’ VP": 36},
                djinns=["Jafaar", "Haurvatat"], goods={"fish": 2, "silk": 1, "ivory": 1})
    expect(page.get_by_test_id("score-0")).to_have_text(str(42 + 18 + 20 + 4 + 14 + 10 + 5 + 36 + 7 + 1))
    _fill_sheet(page, "Zoli", {"Gold": 61, "Viziers (yellow)": 2, "Elders (white)": 5, "Your tiles’ VP": 40},
                djinns=["Shamhat"], goods={"Fakirs": 4})
    expect(page.get_by_test_id("score-1")).to_have_text(str(61 + 2 + 10 + 20 + 6 + 40))
    screenshot(page, "five-tribes-sheet-two-in")
    _fill_sheet(page, "Gerda", {"Gold": 80, "Viziers (yellow)": 0, "Your tiles’ VP": 25},
                goods={"pottery": 1, "wheat": 1, "spice": 1, "papyrus": 1, "jewels": 1})
    expect(page.get_by_text("The game is over.")).to_be_visible()
    expect(page.get_by_test_id("score-2")).to_have_text(str(80 + 25 + 21))
    page.locator("li[data-seat='0'] summary").click()
    expect(page.locator("li[data-seat='0']")).to_contain_text("Viziers: 6 × 3 (Jafaar)")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "five-tribes-sheet-final")


def test_keeping_the_books_lay_bid_move_and_see_the_board(live_server, new_phone):
    from scoring.five_tribes.demo import DEMO_BOARD
    page = _start(new_phone(), live_server)
    page.get_by_text("Keep the books turn by turn").click()
    expect(page.get_by_test_id("ft-left-oasis")).to_have_text("· left 6")
    for i, kind in enumerate(DEMO_BOARD):
        page.locator(f"select[name=tile_{i}]").select_option(kind)
        if i == 2:                                                     # A1 village, B1 sacred-6, C1 oasis
            expect(page.get_by_test_id("ft-left-oasis")).to_have_text("· left 5")
            expect(page.get_by_test_id("ft-left-village")).to_have_text("· left 4")
    for kind in ("oasis", "village", "small-market", "large-market", "sacred-6", "sacred-15"):
        expect(page.get_by_test_id(f"ft-left-{kind}")).to_have_text("· left 0")
    screenshot(page, "five-tribes-lay")
    page.get_by_role("button", name="Record the sultanate").click()
    expect(page.get_by_test_id("ft-map")).to_be_visible()
    for name in ["Peti", "Zoli", "Gerda"]:
        expect(page.get_by_role("heading", name=f"1. round – bid: {name}")).to_be_visible()
        page.get_by_role("button", name="Bid", exact=True).click()
    expect(page.get_by_role("heading", name="Turn: Gerda")).to_be_visible()
    page.locator("select[name=move_tile]").select_option("7")       # B2, an oasis
    page.get_by_role("radio", name="builder (blue)").check()
    page.get_by_label("Meeples taken").fill("3")
    page.get_by_label("The tile was emptied").check()
    page.get_by_role("button", name="Record the move").click()
    expect(page.get_by_text("Compulsory: a palm tree on this oasis.")).to_be_visible()
    page.get_by_role("button", name="Place a palm tree").click()
    screenshot(page, "five-tribes-turn")
    page.get_by_role("button", name="End the turn").click()
    expect(page.get_by_role("heading", name="Turn: Zoli")).to_be_visible()
    expect(page.locator(".ft-players")).to_contain_text("62")   # 50 + 4 blue × 3 builders
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    cell = page.locator(".ft-cell.owned")                           # B2: Gerda's camel and her palm tree
    expect(cell).to_have_count(1)
    expect(cell.locator(".palm")).to_have_text("1")
    box, camel = cell.bounding_box(), cell.locator(".camel").bounding_box()
    assert camel["y"] + camel["height"] <= box["y"] + box["height"] - 4   # the owner is not cut off by the border
    screenshot(page, "five-tribes-board")
    page.get_by_role("link", name="HU").click()
    expect(page.get_by_role("heading", name="Kör: Zoli")).to_be_visible()
    expect(page.get_by_role("radio", name="építő (kék)")).to_be_visible()
    screenshot(page, "five-tribes-board-hu")
