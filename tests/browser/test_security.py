"""A lost phone, in real Chromium at 390 × 844: the host locks a seat and hands Béla's
seat to a new phone; the lost phone can no longer record, the new one can."""
import pytest
from playwright.sync_api import expect

from tests.conftest import screenshot

pytestmark = pytest.mark.browser


def test_host_hands_a_lost_phones_seat_to_a_new_phone(live_server, new_phone, phones_at_a_table):
    host, lost = phones_at_a_table(names=("Anna", "Béla", "Cili"))
    join_url = host.get_by_test_id("join-link").get_attribute("href")

    expect(host.locator("details.join").first).to_have_attribute("open", "")  # a new table shows its QR code
    host.get_by_test_id("manage-seats").click()
    host.get_by_test_id("seat-2").get_by_role("button", name="Lock").click()
    expect(host.get_by_test_id("seat-2")).to_contain_text("locked")
    host.get_by_test_id("seat-1").get_by_role("button", name="Hand to a new phone").click()
    hand_url = host.get_by_test_id("hand-link").get_attribute("href")
    host.wait_for_load_state("load")  # measured with its styles, not before a busy machine applies them
    assert host.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(host, "seats-hand-over")

    fresh = new_phone()
    fresh.goto(f"{live_server}/lang/en?next=/")
    fresh.goto(hand_url)
    expect(fresh.get_by_test_id("hand-player")).to_have_text("Béla")
    screenshot(fresh, "seats-take-over")
    fresh.get_by_test_id("take-seat").click()
    fresh.get_by_test_id("pad-points-1").fill("4")
    fresh.get_by_test_id("pad-save").click()
    expect(fresh.get_by_test_id("score-1")).to_have_text("4")

    lost.reload()
    expect(lost.get_by_test_id("pad-save")).to_have_count(0)  # no longer seated
    lost.goto(join_url)
    expect(lost.get_by_role("button", name="Cili")).to_have_count(0)  # locked by the host


def test_a_finished_games_join_link_only_lets_a_phone_watch(live_server, new_phone):
    """Issue 35 §2: after the end, a phone on the LAN that opens the join link is offered no
    seat (a seat would let it say it was the winner), only watching, and told why."""
    from tests.conftest import api_game
    created = api_game(live_server, "scorepad", players=[{"name": "Anna"}, {"name": "Béla"}],
                       moves=[("points-recorded", {"seat": 0, "points": 5}), ("game-ended", {})])
    phone = new_phone()
    phone.goto(f"{live_server}/lang/en?next=/")
    phone.goto(created["join_url"])
    expect(phone.get_by_test_id("problems")).to_contain_text("only lets a phone watch")
    expect(phone.get_by_role("button", name="Béla")).to_have_count(0)
    screenshot(phone, "join-after-the-end")
    phone.get_by_role("link", name="Just watch").click()
    expect(phone.get_by_test_id("score-0")).to_have_text("5")
