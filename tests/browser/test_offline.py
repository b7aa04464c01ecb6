"""Offline on a phone on the LAN, any number of moves (issue 34, items 4–6): each tapped move
waits on the phone under an id of its own (made without the secure-context APIs a LAN page
lacks), listed in order beside the form, and goes in that order once the phone is back, each
recorded once. The form after a queued move is for the table after it: the score pad's next
round, or, where only the server can say what comes next, a form plainly waiting for the
queued move. A tap that cannot wait (a Five Tribes tile fetches its board) says so at once."""
import json
import re
import urllib.request

import pytest
from playwright.sync_api import expect

from scoring import GAMES

pytestmark = pytest.mark.browser


def _events(base: str, game_id: str) -> list[dict]:
    with urllib.request.urlopen(f"{base}/api/games/{game_id}/events", timeout=10) as answer:
        return json.loads(answer.read())["events"]


def _queued(page) -> list[dict]:
    return page.evaluate("""Object.keys(localStorage).filter(k => k.startsWith("tablescribe:pending:"))
        .flatMap(k => JSON.parse(localStorage.getItem(k)))""")


def test_score_pad_rounds_tapped_offline_are_each_queued_shown_and_recorded_once_in_order(live_server, seated_phone):
    page, created = seated_phone()
    page.context.set_offline(True)
    for round_, (anna, bela) in enumerate([(5, 3), (2, 7), (4, 4)], start=1):
        expect(page.locator("#pad-round")).to_contain_text(f"Round {round_}")   # the next round, composed
        page.get_by_label("Anna", exact=True).fill(str(anna))
        page.get_by_label("Béla", exact=True).fill(str(bela))
        page.get_by_role("button", name="Save the round").click()
        expect(page.get_by_test_id("pending")).to_contain_text(f"({round_})")
    queued = _queued(page)
    assert len({move["id"] for move in queued}) == 3 and all(len(move["id"]) == 32 for move in queued)
    shown = page.locator("#move-form").get_by_test_id("waiting-move")
    expect(shown).to_have_count(3)
    for i, text in enumerate(["Round 1", "Round 2", "Round 3"]):
        expect(shown.nth(i)).to_contain_text(text)
    page.context.set_offline(False)
    expect(page.get_by_test_id("pending")).to_be_hidden(timeout=15_000)
    expect(page.get_by_test_id("score-0")).to_have_text("11")
    expect(page.get_by_test_id("score-1")).to_have_text("14")
    rows = [e["data"] for e in _events(live_server, created["id"]) if e["type"] == "round-entered"]
    assert rows == [{"round": 1, "entries": [{"seat": 0, "points": 5}, {"seat": 1, "points": 3}]},
                    {"round": 2, "entries": [{"seat": 0, "points": 2}, {"seat": 1, "points": 7}]},
                    {"round": 3, "entries": [{"seat": 0, "points": 4}, {"seat": 1, "points": 4}]}]
    expect(page.locator("#pad-round")).to_contain_text("Round 4")


def test_a_move_whose_next_form_the_server_decides_leaves_that_form_plainly_waiting(live_server, seated_phone):
    """The final tally's next form names the players still to enter: only the answer to the
    queued move can say who, so the form waits for it and offers nothing meanwhile."""
    page, created = seated_phone(kind="dragon-tally")
    page.context.set_offline(True)
    page.get_by_test_id("tally-seat").select_option(label="Anna")
    page.get_by_label("Points so far").fill("40")
    page.get_by_role("button", name="Record the position").click()
    expect(page.get_by_test_id("waits-for-queued")).to_be_visible()
    expect(page.get_by_role("button", name="Record the position")).to_be_disabled()
    page.context.set_offline(False)
    expect(page.get_by_test_id("pending")).to_be_hidden(timeout=15_000)
    expect(page.get_by_test_id("waits-for-queued")).to_have_count(0)
    expect(page.get_by_role("button", name="Record the position")).to_be_enabled()
    names = [p["name"] for p in GAMES["dragon-tally"].demo()[0]]
    expect(page.get_by_test_id("tally-seat").locator("option")).to_have_text([n for n in names if n != "Anna"])
    entered = [e["data"]["seat"] for e in _events(live_server, created["id"]) if e["type"] == "dragon-position-entered"]
    assert entered == [names.index("Anna")]


def test_a_five_tribes_tile_tapped_offline_says_at_once_that_it_was_not_kept(live_server, new_phone):
    from tests.browser.test_five_tribes import gerdas_turn
    from tests.scoring.five_tribes.table import layout
    page = gerdas_turn(new_phone(), live_server, layout(A2="EEE", C1="EVB"))
    page.context.set_offline(True)
    page.get_by_test_id("ft-tile-A2").click()                    # fetches the board with its path
    expect(page.get_by_test_id("tap-needs-connection")).to_contain_text("Offline: this tap needs the connection")
    expect(page.locator("#connection")).to_be_visible()
    expect(page.get_by_test_id("pending")).to_be_hidden()        # nothing pretends to wait
    page.context.set_offline(False)
    page.get_by_test_id("ft-tile-A2").click()                    # back online, the same tap works
    expect(page.get_by_test_id("ft-tile-A1")).to_have_class(re.compile(r"\btap\b"))


def test_a_five_tribes_meeple_tapped_offline_says_at_once_that_it_was_not_kept(live_server, new_phone):
    """A meeple tapped in the order dropped draws the form again (POST /form): offline that is
    no move to queue (sent later it would record nothing), so it says at once it needs the
    connection, as a tile does."""
    from tests.browser.test_five_tribes import gerdas_turn
    from tests.scoring.five_tribes.table import BOARD
    page = gerdas_turn(new_phone(), live_server, BOARD)
    for tile in ("B1", "C1", "D1", "E1"):                         # B1 (M B A) → C1 → D1 → E1
        page.get_by_test_id(f"ft-tile-{tile}").click()
        expect(page.locator(f"[data-testid=ft-tile-{tile}].drafted")).to_have_count(1)
    page.context.set_offline(True)
    page.get_by_test_id("ft-drop-builder").click()
    expect(page.get_by_test_id("tap-needs-connection")).to_contain_text("Offline: this tap needs the connection")
    expect(page.get_by_test_id("pending")).to_be_hidden()        # nothing pretends to wait
    page.context.set_offline(False)
    page.get_by_test_id("ft-drop-builder").click()               # back online, the same tap works
    expect(page.get_by_test_id("ft-sequence")).to_contain_text("C1: blue")
