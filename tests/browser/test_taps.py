"""What a tap becomes when the phone cannot be answered at once (issue 23 item 4, issue 26
items 1-3), in real Chromium at 390 × 844 with several phones, in Hungarian and English:
a tap while the last answer is on its way is made once that answer is in, or said not to
have been sent; a tap offline waits visibly, never looking saved; moves queued offline are
a chain; a half-filled form keeps the table it was filled against."""
import pytest
from playwright.sync_api import expect

from tests.conftest import loopback_url, screenshot
from tests.browser.phones import demo_game, move_from_another_phone, sit_in, what_the_phone_shows

pytestmark = pytest.mark.browser

SAVE = {"en": "Save the round", "hu": "Kör mentése"}
OVER = {"en": "The game is over.", "hu": "A játék véget ért."}
NOT_SENT = {"en": "was not sent", "hu": "nem ment el"}
WAITING = {"en": "Not saved yet", "hu": "Még nincs elmentve"}
STALE = {"en": "Someone else recorded a move meanwhile", "hu": "Közben valaki más rögzített"}


def _type(phone, player, points):
    phone.get_by_label(player, exact=True).fill(str(points))


def _save(phone, lang, player, points):
    _type(phone, player, points)
    phone.get_by_role("button", name=SAVE[lang], exact=True).click()


def _pad(live_server, new_phone, lang):
    """A score pad of two and a phone seated at it as its first player: (game, phone, name)."""
    created = demo_game(live_server, "scorepad")
    phone = new_phone()
    sit_in(phone, live_server, created, lang)
    return created, phone, created["seats"][0]["player"]


def _hold_first_write(phone, path="**/moves"):
    """The phone's first write stays on its way until the test lets it go; later ones pass."""
    held = []
    phone.route(path, lambda route: held.append(route) if not held else route.continue_())
    return held


def _in_view(phone, locator) -> bool:
    """Inside the screen and not covered (by the bar that sticks to its bottom, say)."""
    box = locator.bounding_box()
    inside = box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844
    return inside and locator.evaluate("""el => { const r = el.getBoundingClientRect();
        return [0.1, 0.9].every(f => el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height * f))); }""")


# ---- issue 23 item 4: a tap while the last answer is on its way ---------------------------

@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_next_tap_while_the_answer_is_on_its_way_is_made_after_it(live_server, new_phone, lang):
    """Save the last round, then at once end the game: the end was lost (htmx queued it on
    the form the answer replaced)."""
    created, phone, anna = _pad(live_server, new_phone, lang)
    held = _hold_first_write(phone)
    _save(phone, lang, anna, 7)
    expect(phone.get_by_test_id("pad-save")).to_have_attribute("aria-busy", "true")  # the tap is being answered
    assert len(held) == 1
    phone.get_by_test_id("end-game").click()
    confirm = phone.get_by_test_id("end-game-confirm")
    confirm.click()
    expect(confirm).to_have_attribute("aria-busy", "true")      # waits, visibly
    held[0].continue_()
    expect(phone.get_by_text(OVER[lang], exact=True)).to_be_visible()
    expect(phone.locator("#log li .what", has_text="+7")).to_have_count(1)
    expect(phone.locator("#move-form")).to_have_count(0)


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_tap_whose_button_the_answer_no_longer_offers_is_said_not_sent(live_server, new_phone, lang):
    """Undo named round 1 when tapped; once round 2 is in, Undo would take round 2 back:
    not the move the player meant, so nothing is sent and the phone says so."""
    created, phone, anna = _pad(live_server, new_phone, lang)
    _save(phone, lang, anna, 3)
    expect(phone.get_by_test_id("undo")).to_contain_text("#2")
    held = _hold_first_write(phone)
    _save(phone, lang, anna, 4)
    undo = phone.get_by_test_id("undo")
    undo.click()
    expect(undo).to_have_attribute("aria-busy", "true")
    held[0].continue_()
    expect(phone.get_by_test_id("tap-not-sent")).to_contain_text(NOT_SENT[lang])
    expect(phone.get_by_test_id("tap-not-sent")).to_contain_text("#2")
    expect(phone.get_by_test_id("ack")).to_contain_text("#3")   # round 2 recorded ...
    expect(phone.locator("#log li.voided")).to_have_count(0)     # ... and nothing undone
    assert _in_view(phone, phone.get_by_test_id("tap-not-sent"))


# ---- issue 26 item 1: an offline tap never looks saved -------------------------------------

@pytest.mark.parametrize("lang", ["en", "hu"])
def test_an_offline_tap_waits_beside_its_button_and_in_a_bar_not_looking_saved(live_server, new_phone, lang):
    created, phone, anna = _pad(live_server, new_phone, lang)
    _save(phone, lang, anna, 5)
    expect(phone.get_by_test_id("ack")).to_contain_text("#2")   # a saved move's ✓
    phone.context.set_offline(True)
    _save(phone, lang, anna, 8)
    waiting = phone.locator("#move-form").get_by_test_id("waiting")
    expect(waiting).to_contain_text(WAITING[lang])
    expect(waiting).to_contain_text(f"{anna}: 8")                 # which tap it is
    expect(phone.get_by_test_id("ack")).to_have_count(0)          # the older ✓ is gone
    assert _in_view(phone, waiting)
    assert "✓" not in waiting.inner_text()
    what_the_phone_shows(phone, f"offline-waiting-at-the-button-{lang}")
    phone.evaluate("window.scrollTo(0, 0)")                        # anywhere on the page ...
    bar = phone.get_by_test_id("pending")
    expect(bar).to_contain_text(WAITING[lang])
    assert _in_view(phone, bar)                                    # ... the bar stays on screen
    what_the_phone_shows(phone, f"offline-waiting-bar-{lang}")
    phone.context.set_offline(False)
    expect(phone.get_by_test_id("ack")).to_contain_text("#3")
    expect(phone.get_by_test_id("waiting")).to_have_count(0)
    expect(bar).to_be_hidden()


BUSY = {"en": "The server is busy writing", "hu": "A szerver éppen ír"}


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_move_the_busy_server_answered_503_is_sent_again_by_itself(live_server, new_phone, lang):
    """Issue 25 §5: a move that could not get the write lock in time (a large import held it)
    is answered 503 with Retry-After; the phone keeps it waiting beside its button and
    sends it again by itself, once (its client_event_id), without the player tapping."""
    created, phone, anna = _pad(live_server, new_phone, lang)
    busy = []

    def first_busy(route):
        if busy:
            return route.continue_()
        busy.append(route.request.post_data)
        route.fulfill(status=503, headers={"Retry-After": "1", "Content-Type": "text/html"},
                      body="<p>busy</p>")

    phone.route("**/moves", first_busy)
    _save(phone, lang, anna, 7)
    waiting = phone.locator("#move-form").get_by_test_id("waiting")
    expect(waiting).to_contain_text(WAITING[lang])
    expect(phone.locator("#connection")).to_contain_text(BUSY[lang])
    what_the_phone_shows(phone, f"busy-503-waiting-{lang}")
    expect(phone.get_by_test_id("ack")).to_contain_text("#2", timeout=10_000)   # sent again, recorded
    expect(phone.get_by_test_id("waiting")).to_have_count(0)
    expect(phone.locator("#connection")).to_be_hidden()
    # Playwright's own requests do not know the LAN name: the same server on 127.0.0.1
    events = phone.request.get(f"{loopback_url(live_server)}/api/games/{created['id']}/events").json()["events"]
    assert len(busy) == 1 and [e["seq"] for e in events] == [1, 2] and events[1]["data"]["entries"] == [{"seat": 0, "points": 7}]


# ---- issue 26 item 3: queued moves are a chain -------------------------------------------

@pytest.mark.parametrize("lang", ["en", "hu"])
def test_once_a_queued_move_is_refused_the_ones_after_it_are_held_for_the_player(live_server, new_phone, lang):
    created = demo_game(live_server, "scorepad")
    anna, bela = created["seats"][0]["player"], created["seats"][1]["player"]
    phone = new_phone()
    sit_in(phone, live_server, created, lang)
    phone.context.set_offline(True)
    for points in (2, 3, 4):                                       # a queue of three
        _save(phone, lang, anna, points)
    expect(phone.get_by_test_id("pending")).to_contain_text("(3)")
    move_from_another_phone(live_server, created, 1, "points-recorded", {"seat": 1, "points": 9})  # another phone: #2
    phone.context.set_offline(False)
    # the first is refused beside the button, with what changed ...
    expect(phone.locator("#move-form").get_by_test_id("problems")).to_contain_text(STALE[lang])
    expect(phone.get_by_test_id("meanwhile")).to_contain_text(f"{bela}: +9")
    # ... and the two after it are held, each shown, nothing of them recorded
    held = phone.get_by_test_id("held-move")
    expect(held).to_have_count(2)
    expect(held.nth(0)).to_contain_text(f"{anna}: 3")
    expect(held.nth(1)).to_contain_text(f"{anna}: 4")
    assert _in_view(phone, phone.get_by_test_id("held"))
    expect(phone.get_by_test_id("pending")).to_be_hidden()
    screenshot(phone, f"offline-chain-held-{lang}")
    expect(phone.locator("#live")).to_have_attribute("data-seq", "2")
    other = new_phone()
    sit_in(other, live_server, created, lang, seat=1)
    expect(other.locator("#log li .what", has_text=f"{anna} +")).to_have_count(0)
    # the player decides each: the first is sent on the table as it is now, the other dropped
    held.nth(0).get_by_test_id("held-send").click()
    expect(phone.get_by_test_id("ack")).to_contain_text("#3")
    expect(phone.get_by_test_id("held-move")).to_have_count(1)
    phone.get_by_test_id("held-move").get_by_test_id("held-drop").click()
    expect(phone.get_by_test_id("held")).to_be_hidden()
    expect(other.locator("#log li .what", has_text=f"{anna} +3")).to_have_count(1)
    expect(other.locator("#log li .what", has_text=f"{anna} +4")).to_have_count(0)
    expect(other.locator("#log li .what", has_text=f"{anna} +2")).to_have_count(0)


# ---- issue 26 item 2: a half-filled form keeps the table it was filled against -------------

ROUND = {"en": "Round {}", "hu": "{}. kör"}
SAVE_AS = {"en": "Save as: Round {}: {} +{}", "hu": "Mentés így: {}. kör: {} +{}"}
FROM = {"en": "Just saved from {}’s phone", "hu": "{} telefonjáról most mentették"}


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_half_filled_score_pad_is_not_retargeted_and_save_shows_what_changed(live_server, new_phone, lang):
    created = demo_game(live_server, "scorepad")
    anna, bela = created["seats"][0]["player"], created["seats"][1]["player"]
    a, b = new_phone(), new_phone()
    sit_in(a, live_server, created, lang)
    sit_in(b, live_server, created, lang, seat=1)
    expect(b.locator("html[data-live=open]")).to_have_count(1)
    _type(b, bela, 6)                                              # B is typing round 1 ...
    _type(a, anna, 12)
    _type(a, bela, 5)
    a.get_by_role("button", name=SAVE[lang], exact=True).click()   # ... when A saves round 1
    expect(b.get_by_test_id("score-0")).to_have_text("12")
    expect(b.locator("#pad-round")).to_contain_text(ROUND[lang].format(1))  # not quietly round 2
    expect(b.get_by_label(bela, exact=True)).to_have_value("6")
    expect(b.get_by_test_id("form-behind")).to_be_visible()
    b.get_by_role("button", name=SAVE[lang], exact=True).click()
    expect(b.get_by_test_id("problems")).to_contain_text(STALE[lang])
    expect(b.get_by_test_id("meanwhile")).to_contain_text(FROM[lang].format(anna))
    expect(b.get_by_test_id("meanwhile")).to_contain_text(f"{anna} +12, {bela} +5")
    save_as = b.get_by_test_id("stale-save")
    expect(save_as).to_have_text(SAVE_AS[lang].format(2, bela, 6))
    b.get_by_test_id("stale-compare").locator("summary").click()
    expect(b.get_by_test_id("stale-compare")).to_contain_text(f"{bela} +6")
    what_the_phone_shows(b, f"stale-scorepad-{lang}")
    save_as.click()                                                 # the player's choice
    expect(b.get_by_test_id("ack")).to_contain_text(f"#3: {ROUND[lang].format(2)}")
    expect(a.get_by_test_id("score-1")).to_have_text("11")


def test_discard_empties_the_stale_form(live_server, new_phone):
    created = demo_game(live_server, "scorepad")
    bela = created["seats"][1]["player"]
    b = new_phone()
    sit_in(b, live_server, created, "en")
    _type(b, bela, 6)
    move_from_another_phone(live_server, created, 1, "points-recorded", {"seat": 0, "points": 1})
    expect(b.get_by_test_id("form-behind")).to_be_visible()
    b.get_by_role("button", name=SAVE["en"], exact=True).click()
    b.get_by_test_id("stale-discard").click()
    expect(b.get_by_test_id("stale")).to_have_count(0)
    expect(b.get_by_label(bela, exact=True)).to_have_value("")
    expect(b.locator("#expected-seq")).to_have_value("2")
    expect(b.locator("#log li .what", has_text="+6")).to_have_count(0)


CHOOSES = {"en": "chooses a character", "hu": "karaktert választ"}


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_half_filled_maharaja_step_is_not_retargeted_to_the_next_player(live_server, new_phone, lang):
    """B ticked a character for Anna; A recorded Anna's choice meanwhile. B's form used to
    become 'Béla chooses', keeping the tick: B's Choose recorded it as Béla's."""
    created = demo_game(live_server, "maharaja", moves=1)
    anna, bela = created["seats"][0]["player"], created["seats"][1]["player"]
    a, b = new_phone(), new_phone()
    sit_in(a, live_server, created, lang)
    sit_in(b, live_server, created, lang, seat=1)
    expect(b.locator("html[data-live=open]")).to_have_count(1)
    expect(b.get_by_test_id("mh-step")).to_contain_text(f"{anna}: {CHOOSES[lang]}")
    b.locator("input[name=character][value='5']").check()
    a.locator("input[name=character][value='7']").check()
    a.locator("#move-form button[value=character-chosen]").click()
    expect(a.get_by_test_id("mh-step")).to_contain_text(f"{bela}: {CHOOSES[lang]}")
    expect(b.locator("#log li")).to_have_count(3)                   # the push is in ...
    expect(b.get_by_test_id("mh-step")).to_contain_text(f"{anna}: {CHOOSES[lang]}")  # ... not re-targeted
    expect(b.get_by_test_id("form-behind")).to_be_visible()
    b.locator("#move-form button[value=character-chosen]").click()
    expect(b.get_by_test_id("problems")).to_contain_text(STALE[lang])
    expect(b.get_by_test_id("meanwhile")).to_contain_text(FROM[lang].format(anna))
    expect(b.get_by_test_id("stale-save")).to_contain_text(bela)    # saving now would be Béla's
    what_the_phone_shows(b, f"stale-maharaja-{lang}")
    expect(b.locator("#log li")).to_have_count(3)                   # nothing recorded for B ...
    b.get_by_test_id("stale-save").click()                          # ... until B chooses so
    expect(b.get_by_test_id("ack")).to_contain_text("#4")
    expect(a.locator("#log li")).to_have_count(4)
    expect(a.get_by_test_id("mh-step")).not_to_contain_text(CHOOSES[lang])  # both have chosen
