"""The table's clock in real Chromium at 390 × 844, several phones, English and Hungarian
(issue 28): the running clock advances with no request, a pause on one phone stops it on
the other, the turn timer runs out and the page says so (the alarm on seated phones only),
and the screen-awake toggle by the Wake Lock API or, where a page has none (plain http on
the LAN), nosleep.js."""
import re
import time
import urllib.parse

import pytest
from playwright.sync_api import expect

from tests.conftest import loopback_url, screenshot

pytestmark = pytest.mark.browser


@pytest.fixture
def table(phones_at_a_table):
    """Anna's phone in English, Béla's in Hungarian, a spectator's in English."""
    return phones_at_a_table(guests={"Béla": "hu"}, watchers=1)


def _seconds(page) -> int:
    m, s = page.get_by_test_id("turn-time").inner_text().split(":")[-2:]
    return int(m) * 60 + int(s)


def test_the_clock_advances_on_every_phone_without_a_request(table):
    host, guest, watcher = table
    requests = []
    guest.on("request", lambda r: requests.append(r.url))
    expect(guest.get_by_test_id("turn-who")).to_have_text("Az asztal")
    expect(host.get_by_test_id("turn-who")).to_have_text("The table")
    before = _seconds(guest)
    guest.wait_for_timeout(2600)
    assert _seconds(guest) >= before + 2 and _seconds(watcher) >= 2
    assert requests == []   # no poll, no clock request: the phone ticks by itself
    screenshot(guest, "clock-running-hu")


def test_a_pause_on_one_phone_stops_the_clock_on_the_other(table):
    host, guest, watcher = table
    before, asked = _seconds(host), time.monotonic()
    host.get_by_test_id("pause").click()
    expect(guest.get_by_test_id("turn-clock")).to_contain_text("Szünet")       # pushed, HU
    pausing = time.monotonic() - asked
    expect(watcher.get_by_test_id("turn-clock")).to_contain_text("Paused")
    expect(guest.get_by_test_id("turn-time")).to_have_count(0)                 # the turn's clock stands
    expect(guest.get_by_test_id("resume")).to_be_visible()
    shown = guest.get_by_test_id("pause-time").inner_text()
    guest.wait_for_timeout(2100)
    assert guest.get_by_test_id("pause-time").inner_text() != shown             # the break's own time runs
    screenshot(guest, "clock-paused-hu")
    asked = time.monotonic()
    guest.get_by_test_id("resume").click()
    expect(host.get_by_test_id("turn-time")).to_be_visible()
    resuming = time.monotonic() - asked
    # the break (2 s and more) was not counted: only the time the two taps took to arrive
    assert _seconds(host) <= before + pausing + resuming + 1


def test_the_turn_timer_runs_out_and_every_phone_says_so(table):
    host, guest, watcher = table
    host.locator(".timer-settings summary").click()
    host.get_by_test_id("timer-turn").fill("0:03")
    host.get_by_test_id("timer-save").click()
    expect(guest.get_by_test_id("countdown")).to_be_visible()
    # a new round starts with the full 3 s (the timer counts the running turn from its start)
    host.get_by_label("Anna", exact=True).fill("5")
    host.get_by_role("button", name="Save the round").click()
    expect(guest.get_by_test_id("score-0")).to_have_text("5")
    expect(guest.get_by_test_id("countdown")).to_contain_text("még")
    expect(host.get_by_test_id("countdown")).to_contain_text("Time is up", timeout=5000)
    expect(guest.get_by_test_id("countdown")).to_contain_text("Lejárt az idő", timeout=5000)
    expect(watcher.get_by_test_id("countdown")).to_contain_text("Time is up", timeout=5000)
    expect(host.get_by_test_id("countdown")).to_have_class(re.compile(r"\bover\b"))
    # the alarm (vibration, beep) on the phones whose turn it is: a round is every seated player's
    expect(host.locator("html[data-alarm]")).to_have_count(1)
    expect(guest.locator("html[data-alarm]")).to_have_count(1)
    assert watcher.locator("html[data-alarm]").count() == 0
    screenshot(host, "timer-over-en")


def test_the_wake_lock_toggle_by_the_api_and_by_nosleep_where_there_is_none(live_server, new_phone, phones_at_a_table):
    # 127.0.0.1 is a secure context: Chromium offers the Screen Wake Lock API (the host's
    # laptop); the only page of the browser tests not opened by the LAN name
    host, guest, watcher = phones_at_a_table(guests={"Béla": "hu"}, watchers=1, base=loopback_url(live_server))
    assert host.evaluate("isSecureContext")
    expect(host.locator("html[data-wake-via=wake-lock]")).to_have_count(1)
    toggle = host.get_by_test_id("wake-toggle")
    expect(toggle).to_be_visible()
    expect(toggle).to_have_attribute("aria-pressed", "true")      # on by default while the game runs
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(toggle).to_have_text("☾ Screen may sleep")
    host.reload()
    expect(host.get_by_test_id("wake-toggle")).to_have_attribute("aria-pressed", "false")   # the choice is kept
    # Plain http on the LAN: no navigator.wakeLock, so nosleep.js's looping video, from a tap
    lan = new_phone("hu-HU")
    lan.goto(f"{live_server}/lang/hu?next=/")
    lan.goto(live_server + urllib.parse.urlsplit(host.url).path)
    assert lan.evaluate("!isSecureContext && !('wakeLock' in navigator)")
    expect(lan.locator("html[data-wake-via=nosleep]")).to_have_count(1)
    lan.get_by_test_id("wake-toggle").click()
    expect(lan.get_by_test_id("wake-toggle")).to_have_attribute("aria-pressed", "true")
    expect(lan.get_by_test_id("wake-toggle")).to_have_text("☀ A kijelző ébren marad")
