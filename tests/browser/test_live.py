"""Live updates in real Chromium at 390 × 844: pushed to every phone (issue 18), never
taking what a phone is doing (issue 17 item 2), and a move tapped offline sent once."""
import urllib.parse

import pytest
from playwright.sync_api import expect

from tests.browser.phones import record_a_round
from tests.conftest import LAN_NAME, api, api_game, lan_url, loopback_url, screenshot, start_game, stop_server

pytestmark = pytest.mark.browser


def _polls(page) -> list:
    polls = []
    page.on("request", lambda r: polls.append(r.url) if "/live?" in r.url else None)
    return polls


def test_a_phone_opens_the_table_by_its_lan_name_which_is_no_secure_context(seated_phone):
    """As at a real table (issue 34, deliverable 3): plain http to a name on the LAN, where
    the browser offers no secure-context API (crypto.randomUUID, the Wake Lock API)."""
    page, _ = seated_phone()
    expect(page.locator("#move-form")).to_be_visible()
    assert urllib.parse.urlsplit(page.url).hostname == LAN_NAME
    assert page.evaluate("[isSecureContext, typeof crypto.randomUUID, 'wakeLock' in navigator]") == [
        False, "undefined", False]


def test_a_void_reason_being_typed_on_a_freshly_loaded_page_survives_a_push(live_server, seated_phone):
    """Issue 34 item 8: a full page's void form has a token field a push's has not; matched by
    place, the morph dropped the reason being typed."""
    moves = [("points-recorded", {"seat": 0, "points": points}) for points in (1, 2, 3)]
    created = api_game(live_server, "scorepad", players=[{"name": "Anna"}, {"name": "Béla"}], moves=moves)
    phone, _ = seated_phone(game=created, seat=1)
    expect(phone.locator("html[data-live=open]")).to_have_count(1)
    phone.locator("#e3 details.void summary").click()
    phone.locator("#e3").get_by_label("Reason").click()
    phone.keyboard.type("wrong pl")
    api(live_server, f"/api/games/{created['id']}/events", {"type": "points-recorded", "data": {"seat": 1, "points": 4},
        "expected_seq": 4, "client_event_id": "meanwhile"}, created["seats"][0]["token"])
    expect(phone.locator("#live")).to_have_attribute("data-seq", "5")
    phone.keyboard.type("ayer")              # still in the box: the push took neither text nor focus
    expect(phone.locator("#e3").get_by_label("Reason")).to_have_value("wrong player")
    phone.locator("#e3").get_by_role("button", name="Void").click()
    expect(phone.locator("#e3 .why")).to_contain_text("wrong player")


def test_back_and_forward_to_the_table_show_the_moves_made_meanwhile_before_a_tap(live_server, seated_phone):
    """Issue 34 item 7: the table page shown again from history is the table as it is now,
    not a copy of it as first loaded: the page as it arrives, before any push or poll could
    bring it up to date, already shows the newer moves."""
    page, created = seated_phone()
    page.context.add_init_script("""document.addEventListener("DOMContentLoaded", () => {
        const live = document.getElementById("live");
        if (live) sessionStorage.setItem("seq-as-loaded", live.dataset.seq); });""")
    table_url = page.url
    record_a_round(page, "Anna", 5)                                     # the page is at #2 by its own tap
    expect(page.locator("#live")).to_have_attribute("data-seq", "2")

    def meanwhile(seq: int, points: int) -> None:               # Béla's phone records a round
        api(live_server, f"/api/games/{created['id']}/events", {"type": "points-recorded",
            "data": {"seat": 1, "points": points}, "expected_seq": seq - 1, "client_event_id": f"b{seq}"},
            created["seats"][1]["token"])

    def as_loaded() -> str:
        return page.evaluate("sessionStorage.getItem('seq-as-loaded')")
    page.goto(f"{live_server}/rules/scorepad")
    meanwhile(3, 4)
    page.go_back()
    assert page.url == table_url and as_loaded() == "3"
    expect(page.get_by_test_id("score-1")).to_have_text("4")
    page.go_forward()                                             # the rules again
    meanwhile(4, 6)
    page.go_back()
    assert as_loaded() == "4"
    page.go_back()                                                # the blank page the phone began on
    meanwhile(5, 1)
    page.go_forward()
    assert page.url == table_url and as_loaded() == "5"
    expect(page.locator("#expected-seq")).to_have_value("5")
    record_a_round(page, "Anna", 7)                                     # recorded, not refused as stale
    expect(page.get_by_test_id("ack")).to_contain_text("#6")
    expect(page.get_by_test_id("score-0")).to_have_text("12")


def test_a_move_is_pushed_to_the_other_phone_without_polling(phones_at_a_table):
    host, guest = phones_at_a_table()
    polls = _polls(guest)
    record_a_round(host, "Anna", 5)
    expect(guest.get_by_test_id("score-0")).to_have_text("5")  # no clock: the polls below say how it came
    record_a_round(host, "Anna", 4)
    expect(guest.get_by_test_id("score-0")).to_have_text("9")
    assert polls == []  # pushed by the stream; the poll waits for a stream that fails
    expect(guest.locator("#expected-seq")).to_have_value("3")  # the guest's next move is not stale


def test_a_live_update_keeps_an_open_void_form_its_text_open_details_and_the_scroll(phones_at_a_table):
    host, guest = phones_at_a_table()
    for points, total in ((1, "1"), (2, "3"), (3, "6")):
        record_a_round(host, "Anna", points)
        expect(host.get_by_test_id("score-0")).to_have_text(total)
    expect(guest.locator("#e4")).to_be_visible()
    guest.locator("[data-seat='1'] details summary").click()     # Béla's score breakdown
    guest.locator(".race-chart summary").click()                 # the score race
    guest.locator("#e3 details.void summary").click()
    guest.locator("#e3").get_by_label("Reason").fill("wrong player")
    guest.evaluate("window.scrollTo(0, document.querySelector('#e3').offsetTop - 300)")
    scroll, form_top = guest.evaluate("[scrollY, document.querySelector('#e3 form').getBoundingClientRect().top]")
    assert scroll > 0

    record_a_round(host, "Anna", 10)
    expect(guest.get_by_test_id("score-0")).to_have_text("16")
    expect(guest.locator("#e5")).to_be_visible()

    expect(guest.locator("#e3 details.void")).to_have_attribute("open", "")
    expect(guest.locator("#e3").get_by_label("Reason")).to_have_value("wrong player")
    expect(guest.locator("[data-seat='1'] details")).to_have_attribute("open", "")
    expect(guest.locator(".race-chart")).to_have_attribute("open", "")
    # the page did not jump: the score pad's grid grew by one round above, which the browser's
    # scroll anchoring may follow (scrollY grows by that row, the content stays put) ...
    row = guest.evaluate("document.querySelector('.pad-grid tbody tr:last-child').offsetHeight")
    assert 0 <= guest.evaluate("scrollY") - scroll <= row + 2
    # ... and the form under the thumb moved by at most the new rows above it
    moved = guest.evaluate("document.querySelector('#e3 form').getBoundingClientRect().top") - form_top
    assert 0 <= moved <= guest.evaluate("document.querySelector('#e5').offsetHeight") + row + 2
    # and it now voids against the fresh sequence: no 409
    expect(guest.locator("#e3 input[name=expected_seq]")).to_have_value("5")
    guest.locator("#e3").get_by_role("button", name="Void").click()
    expect(host.locator("#e3")).to_have_class("voided")
    screenshot(guest, "live-void-kept")


def test_undo_of_the_end_gives_every_phone_its_form_back_without_a_reload(phones_at_a_table):
    host, guest = phones_at_a_table()
    record_a_round(host, "Anna", 5)
    expect(guest.get_by_test_id("score-0")).to_have_text("5")
    guest.evaluate("window.notReloaded = true")  # gone if the page loads again
    host.get_by_test_id("end-game").click()
    host.get_by_test_id("end-game-confirm").click()
    expect(guest.locator("#move-form")).to_have_count(0)   # the end closes every phone's form
    expect(guest.get_by_text("The game is over.")).to_be_visible()

    host.get_by_test_id("undo").click()                     # ended by mistake: reopened on the host
    expect(host.locator("#move-form")).to_be_visible()
    expect(guest.get_by_text("The game is over.")).to_have_count(0)
    expect(guest.locator("#move-form")).to_be_visible()     # ... and on the other phone, live
    assert guest.evaluate("window.notReloaded") is True
    record_a_round(guest, "Béla", 7)                               # and the form it got back records
    expect(host.get_by_test_id("score-1")).to_have_text("7")


def test_a_move_tapped_offline_waits_and_is_sent_once_when_back(phones_at_a_table):
    host, guest = phones_at_a_table()
    host.context.set_offline(True)
    expect(host.locator("#connection")).to_contain_text("Offline")
    record_a_round(host, "Anna", 8)
    expect(host.get_by_test_id("pending")).to_contain_text("Not saved yet, waiting to send (1)")
    expect(guest.get_by_test_id("score-0")).to_have_text("0")
    screenshot(host, "live-offline-waiting")

    host.context.set_offline(False)
    expect(host.locator("#connection")).to_contain_text("Back online")
    expect(host.get_by_test_id("score-0")).to_have_text("8")
    expect(guest.get_by_test_id("score-0")).to_have_text("8")
    expect(host.get_by_test_id("pending")).to_be_hidden()
    for phone in (host, guest):
        expect(phone.locator("#log li .what", has_text="+8")).to_have_count(1)
    expect(guest.locator("#e2")).to_be_visible()
    expect(guest.locator("#e3")).to_have_count(0)


def test_a_move_tapped_offline_after_someone_else_recorded_shows_the_refusal_and_fresh_board(phones_at_a_table):
    host, guest = phones_at_a_table()
    host.context.set_offline(True)
    record_a_round(host, "Anna", 8)
    record_a_round(guest, "Béla", 2)
    # the guest's move is stored before the host is back: on a loaded machine its answer
    # can come later than the host's queued tap, which would then be the one recorded
    expect(guest.get_by_test_id("score-1")).to_have_text("2")
    host.context.set_offline(False)
    expect(host.get_by_test_id("problems")).to_contain_text("Someone else recorded a move meanwhile")
    expect(host.get_by_test_id("score-1")).to_have_text("2")
    expect(host.get_by_test_id("score-0")).to_have_text("0")
    expect(host.get_by_test_id("pending")).to_be_hidden()


@pytest.fixture
def full_server(tmp_path):
    """A server whose every live stream is over the limit (0 per worker): each phone is
    answered 503 and must fall back to polling."""
    import os
    from tests.conftest import free_port, start_server
    port = free_port()
    os.environ["TABLESCRIBE_MAX_STREAMS"] = "0"
    try:
        proc = start_server(str(tmp_path / "full.db"), port)
    finally:
        del os.environ["TABLESCRIBE_MAX_STREAMS"]
    yield lan_url(port)
    stop_server(proc)


def test_over_the_stream_limit_a_phone_falls_back_to_polling(full_server, new_phone):
    host = new_phone()
    start_game(host, full_server)
    watcher = new_phone()
    refused = []
    watcher.on("response", lambda r: refused.append(r.status) if "/stream" in r.url else None)
    polls = _polls(watcher)
    watcher.goto(host.url)
    expect(watcher.locator("html[data-live=closed]")).to_have_count(1)
    record_a_round(host, "Anna", 6)
    expect(watcher.get_by_test_id("score-0")).to_have_text("6", timeout=5000)  # a poll is every 1.5 s
    assert polls and 503 in refused


def test_after_a_server_restart_the_phone_reconnects_by_itself(tmp_path, new_phone):
    from tests.conftest import free_port, start_server
    port, db_path = free_port(), str(tmp_path / "restart.db")
    base = lan_url(port)
    server = start_server(db_path, port)
    try:
        created = api(base, "/api/games", {"kind": "scorepad", "players": [{"name": "Anna"}, {"name": "Béla"}]})
        watcher = new_phone()
        watcher.goto(f"{base}/lang/en?next=/games/{created['id']}")
        expect(watcher.locator("html[data-live=open]")).to_have_count(1)
        server.terminate()
        server.wait(10)
        expect(watcher.locator("html[data-live=closed]")).to_have_count(1)  # the stream was closed
        server = start_server(db_path, port)
        api(base, f"/api/games/{created['id']}/events",
             {"type": "points-recorded", "data": {"seat": 1, "points": 4}, "expected_seq": 1,
              "client_event_id": "after-restart"}, created["seats"][0]["token"])
        expect(watcher.get_by_test_id("score-1")).to_have_text("4", timeout=15_000)  # no reload
        expect(watcher.locator("html[data-live=open]")).to_have_count(1, timeout=15_000)
    finally:
        stop_server(server)


def test_a_move_tapped_while_the_server_is_down_is_sent_once_when_it_is_back(tmp_path, new_phone):
    """The phone thinks it is online, but the POST cannot reach the server: the move waits
    on the phone and goes when the stream reopens."""
    from tests.conftest import free_port, start_server
    port, db_path = free_port(), str(tmp_path / "down.db")
    base = lan_url(port)
    server = start_server(db_path, port)
    try:
        host = new_phone()
        start_game(host, base)
        expect(host.locator("html[data-live=open]")).to_have_count(1)
        server.terminate()
        server.wait(10)
        record_a_round(host, "Anna", 7)
        expect(host.get_by_test_id("pending")).to_contain_text("Not saved yet, waiting to send (1)")
        server = start_server(db_path, port)
        expect(host.get_by_test_id("score-0")).to_have_text("7", timeout=15_000)
        expect(host.get_by_test_id("pending")).to_be_hidden()
        expect(host.locator("#log li .what", has_text="+7")).to_have_count(1)
    finally:
        stop_server(server)


def test_a_push_waits_while_the_phones_own_write_is_on_its_way(phones_at_a_table):
    """A push that came before the phone's own answer showed the next step first; the answer
    then replaced the table body and wiped any choice made there. Pushes now wait for it."""
    host, guest = phones_at_a_table()
    held = []
    host.route("**/moves", lambda route: held.append(route))   # the host's write stays on its way
    record_a_round(host, "Anna", 5)
    host.wait_for_timeout(300)
    assert len(held) == 1
    record_a_round(guest, "Béla", 7)                                    # recorded as #2 meanwhile
    expect(guest.get_by_test_id("score-1")).to_have_text("7")
    host.wait_for_timeout(1000)                                 # the push of #2 has reached the host ...
    expect(host.locator("#live")).to_have_attribute("data-seq", "1")   # ... and waits
    held[0].continue_()                                          # stale now: refused beside the button
    expect(host.locator("#live")).to_have_attribute("data-seq", "2")
    expect(host.get_by_test_id("problems")).to_contain_text("Not recorded")
    expect(host.get_by_test_id("score-1")).to_have_text("7")
    expect(host.get_by_test_id("score-0")).to_have_text("0")


def test_a_move_pushed_while_the_answer_was_on_its_way_is_fetched_once_it_lands(phones_at_a_table):
    host, guest = phones_at_a_table()
    answers = []
    # recorded, answer held (route.fetch goes from Playwright's own process, which does not
    # know the LAN name: it asks the same server on 127.0.0.1)
    host.route("**/moves", lambda route: answers.append((route, route.fetch(url=loopback_url(route.request.url)))))
    record_a_round(host, "Anna", 5)
    expect(guest.get_by_test_id("score-0")).to_have_text("5")   # #2 is in
    record_a_round(guest, "Béla", 7)                                    # #3, pushed to the host while it waits
    expect(guest.get_by_test_id("score-1")).to_have_text("7")
    host.wait_for_timeout(1000)
    route, answer = answers[0]
    route.fulfill(response=answer)                               # the answer shows #2 only ...
    expect(host.locator("#live")).to_have_attribute("data-seq", "3", timeout=3000)  # ... #3 follows
    expect(host.get_by_test_id("score-1")).to_have_text("7")
    expect(host.get_by_test_id("ack")).to_be_visible()           # the host's own ✓ stays in view
