"""A tap is answered where the thumb is (issue 17, items 1 and 4), in real Chromium at
390 × 844 with several phones: a refused move's message beside the button, focused and
announced; the Undo button names its move; each action is acknowledged; ending the game
asks once more and says how to take it back."""

import pytest
from playwright.sync_api import expect

from scoring import GAMES
from tests.browser.phones import demo_game, record_a_round, sit_in, what_the_phone_shows
from tests.conftest import api, screenshot

pytestmark = pytest.mark.browser
NOT_RECORDED = {"en": "Not recorded:", "hu": "Nem került rögzítésre:"}
STALE = {"en": "Someone else recorded a move meanwhile", "hu": "Közben valaki más rögzített"}

# The message's box lies inside the viewport, and it (or something inside it) has the focus.
SEEN = """sel => { const el = document.querySelector(sel); if (!el) return 'missing';
  const r = el.getBoundingClientRect();
  return { inside: r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth,
           focused: el.contains(document.activeElement), role: el.getAttribute('role') }; }"""


def _seen(page, selector: str) -> dict:
    """SEEN, once htmx has settled the swap (it focuses [autofocus] as it settles)."""
    try:
        page.wait_for_function("s => { const el = document.querySelector(s); return el && el.contains(document.activeElement); }",
                               arg=selector, timeout=3000)
    except Exception:  # not focused: SEEN says so
        pass
    return page.evaluate(SEEN, selector)


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_refused_move_is_seen_beside_the_button_in_every_game(live_server, new_phone, lang):
    """Each game's form, its last button tapped at the bottom of the screen: the refusal
    shows inside the viewport with the focus, as an alert (the old page put it at the top
    of the form, 339–2,287 px above the thumb)."""
    phone = new_phone()
    unseen = {}
    for kind in sorted(GAMES):
        created = demo_game(live_server, kind)
        sit_in(phone, live_server, created, lang)
        # a tap the server must refuse, whatever the game: a stale view (expected_seq 0)
        # and no browser-side checks, so the request always reaches the server
        phone.evaluate("""() => { document.getElementById('expected-seq').value = '0';
            document.querySelectorAll('#move-form [required]').forEach(e => e.removeAttribute('required')); }""")
        button = phone.locator("#move-form button[type=submit]:visible").last
        button.evaluate("b => b.scrollIntoView({block: 'end'})")
        button.click()
        expect(phone.locator("#move-form .problems")).to_contain_text(NOT_RECORDED[lang])
        seen = _seen(phone, "#move-form .problems")
        if seen != {"inside": True, "focused": True, "role": "alert"}:
            unseen[kind] = seen
        what_the_phone_shows(phone, f"refused-{kind}-{lang}")
    assert unseen == {}


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_someone_recorded_meanwhile_undo_refusal_is_seen_at_the_undo_button(live_server, new_phone, lang):
    created = demo_game(live_server, "scorepad", moves=2)
    phone = new_phone()
    for live in ("**/live?*", "**/stream*"):  # this phone will not see the next move in time
        phone.route(live, lambda route: route.abort())
    sit_in(phone, live_server, created, lang)
    api(live_server, f"/api/games/{created['id']}/events", {"type": "points-recorded", "data": {"seat": 1, "points": 4},
        "expected_seq": 3, "client_event_id": "api-3"}, created["seats"][0]["token"])
    undo = phone.get_by_test_id("undo")
    undo.evaluate("b => b.scrollIntoView({block: 'end'})")
    undo.click()
    expect(phone.locator("#log .problems")).to_contain_text(STALE[lang])
    assert _seen(phone, "#log .problems") == {"inside": True, "focused": True, "role": "alert"}
    expect(phone.locator("#move-form .problems")).to_have_count(0)  # said once, where it was asked
    # the fresh button names the move it would now undo
    expect(phone.get_by_test_id("undo")).to_contain_text("#4")
    what_the_phone_shows(phone, f"undo-refused-{lang}")


UNDO = {"en": "Undo #{}: {}", "hu": "Visszavonás #{}: {}"}
ROUND = {"en": "Round {}: {} +{}", "hu": "{}. kör: {} +{}"}
UNDONE = {"en": "✓ Undone #{}: {}", "hu": "✓ Visszavonva #{}: {}"}


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_undo_names_its_move_and_each_action_is_acknowledged(live_server, new_phone, lang):
    created = demo_game(live_server, "scorepad")
    host, other = new_phone(), new_phone()
    sit_in(host, live_server, created, lang)
    sit_in(other, live_server, created, lang, seat=1)
    anna = created["seats"][0]["player"]
    record_a_round(host, anna, 12, lang)
    what = ROUND[lang].format(1, anna, 12)
    expect(host.get_by_test_id("ack")).to_have_text(f"✓ #2: {what}")
    expect(host.get_by_test_id("undo")).to_have_text("↶ " + UNDO[lang].format(2, what))
    expect(other.get_by_test_id("undo")).to_have_text("↶ " + UNDO[lang].format(2, what), timeout=4000)
    record_a_round(host, anna, 5, lang)
    second = ROUND[lang].format(2, anna, 5)
    expect(host.get_by_test_id("ack")).to_have_text(f"✓ #3: {second}")
    host.get_by_test_id("undo").click()
    expect(host.get_by_test_id("ack")).to_have_text(UNDONE[lang].format(3, second))
    expect(host.get_by_test_id("undo")).to_contain_text("#2")
    screenshot(host, f"acknowledged-{lang}")


CONFIRM = {"en": "Yes, end the game", "hu": "Igen, vége a játéknak"}
REOPENS = {"en": "Undo, in the list of moves, reopens it", "hu": "A lépések listájában a Visszavonás gomb visszanyitja"}


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_ending_the_game_asks_once_more_and_says_how_to_take_it_back(live_server, new_phone, lang):
    created = demo_game(live_server, "scorepad", moves=1)
    host, other = new_phone(), new_phone()
    sit_in(host, live_server, created, lang)
    sit_in(other, live_server, created, lang, seat=1)
    confirm = host.get_by_role("button", name=CONFIRM[lang])
    expect(confirm).to_be_hidden()                      # one tap does not end the game
    host.get_by_test_id("end-game").click()
    expect(confirm).to_be_visible()
    expect(host.locator(".confirm-end")).to_contain_text({"en": "Undo", "hu": "Visszavonás"}[lang])
    screenshot(host, f"end-game-confirm-{lang}")
    confirm.click()
    ack = host.get_by_test_id("ack")
    expect(ack).to_contain_text(REOPENS[lang])
    assert _seen(host, "[data-testid=ack]") == {"inside": True, "focused": True, "role": "status"}
    expect(other.locator("#move-form")).to_have_count(0, timeout=4000)
    screenshot(host, f"game-ended-{lang}")
    host.get_by_test_id("undo").click()                 # taken back: the form returns
    expect(host.locator("#move-form")).to_have_count(1)


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_recorded_move_is_acknowledged_where_the_thumb_is_not_at_the_bottom_of_the_page(live_server, new_phone, lang):
    """The answer replaces the table body (outerHTML): htmx puts the new body above the old
    one before removing it, and the browser's scroll anchoring followed the old one down, so
    after Maharaja's '+2 gold' the phone showed the end of the log and the ✓ was 1,100 px
    above the screen."""
    created = demo_game(live_server, "maharaja", moves=20)       # Anna has revealed gold + move a house
    host = new_phone()
    sit_in(host, live_server, created, lang)
    gold = host.get_by_role("button", name={"en": "+2 gold", "hu": "+2 arany"}[lang], exact=True)
    gold.scroll_into_view_if_needed()
    before = host.evaluate("scrollY")
    gold.click()
    expect(host.get_by_test_id("ack")).to_contain_text("#22")
    assert _seen(host, "[data-testid=ack]")["inside"]
    assert abs(host.evaluate("scrollY") - before) < 844
    what_the_phone_shows(host, f"acknowledged-where-tapped-{lang}")
