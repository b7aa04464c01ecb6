"""Another phone's move changes what this phone's move form offers, without a reload: the
step of Maharaja and Han's form (cards left, the end of the game) follow every live update,
as the score pad, Five Tribes and Dragon already did (templates/_live.html). Before, a
phone kept offering the step it had loaded ("Anna chooses a character" after Anna chose)."""
import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def _join(guest, host, base, name):
    guest.goto(f"{base}/lang/en?next=/")
    guest.goto(host.get_by_test_id("join-link").get_attribute("href"))
    guest.get_by_role("button", name=name, exact=True).click()


def test_maharaja_step_follows_another_phones_move(live_server, new_phone):
    host = new_phone()
    host.goto(f"{live_server}/lang/en?next=/games/new%3Fkind%3Dmaharaja")
    for i, name in enumerate(["Anna", "Béla", "Csaba"], start=1):
        host.get_by_label(f"Player {i}", exact=True).fill(name)
    host.get_by_role("button", name="Start the game").click()
    for i, city in enumerate("ABCDEFG", start=1):
        host.locator(f'label.mh-tile:has(input[name="gov{i}"][value="{city}"])').click()
    host.get_by_role("button", name="Record the governor track").click()
    expect(host.get_by_test_id("mh-step")).to_contain_text("Anna: chooses a character")
    guest = new_phone()
    _join(guest, host, live_server, "Béla")
    expect(guest.get_by_test_id("mh-step")).to_contain_text("Anna: chooses a character")
    expect(guest.locator("html[data-live=open]")).to_have_count(1)

    host.get_by_label("Sadhu").check()
    host.get_by_role("button", name="Choose", exact=True).click()
    expect(host.get_by_test_id("mh-step")).to_contain_text("Béla: chooses a character")
    expect(guest.get_by_test_id("mh-step")).to_contain_text("Béla: chooses a character", timeout=5000)
    expect(guest.locator(".mh-choices")).not_to_contain_text("Sadhu")      # taken: no longer offered


def test_han_form_follows_another_phones_move(live_server, new_phone):
    host = new_phone()
    host.goto(f"{live_server}/lang/en?next=/games/new%3Fkind%3Dhan")
    host.get_by_test_id("profile-han-side1").check()
    for i, name in enumerate(("Anna", "Béla", "Cili"), start=1):
        host.get_by_label(f"Player {i}", exact=True).fill(name)
    for area, colour in (("su", "green"), ("a8", "green"), ("a9", "red")):
        host.get_by_test_id(f"colour_han-side1_{area}").select_option(colour)
    host.get_by_role("button", name="Start the game").click()
    guest = new_phone()
    _join(guest, host, live_server, "Béla")
    expect(guest.locator("html[data-live=open]")).to_have_count(1)
    ran_out = guest.get_by_text("It really ran out, although the app expects")
    before = ran_out.inner_text()

    host.locator("label.han-tile").filter(has=host.get_by_text("Vej", exact=True)).click()
    host.locator(".han-card-row").nth(0).get_by_text("red", exact=True).click()
    host.get_by_test_id("place").click()
    expect(host.get_by_test_id("han-turn")).to_contain_text("Béla")
    after = host.get_by_text("It really ran out, although the app expects").inner_text()
    assert after != before
    expect(ran_out).to_have_text(after, timeout=5000)
