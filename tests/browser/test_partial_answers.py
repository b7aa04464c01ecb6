"""A tap's answer is only the regions the move changed (web/partial.py), swapped in by their
ids, and so is the push of the move to the other phones of the table: after rounds tapped on
a long score pad — each adding a round, taking the oldest shown one away, moving the count
of earlier rounds — the tapping phone and the others, seated or watching, show what a
freshly loaded page shows; a form being filled in keeps what it shows and records; a phone
that missed a push, or was offline, catches up with the whole region. In real Chromium at
390 × 844, on the LAN name."""
import pytest
from playwright.sync_api import expect

from scoring import GAMES
from tests.browser.phones import record_a_round, sit_in
from tests.conftest import api_game, sit

pytestmark = pytest.mark.browser

SHOWN = ("#scoreboard", "#pad-rows", "#pad-totals", "#events", "#log-undo", "#log-seq", "#log-more")


def _regions(page) -> dict:
    """What each region shows, as text, and the order of its rows."""
    return page.evaluate("""regions => Object.fromEntries(regions.map(r => {
        const el = document.querySelector(r);
        if (!el) return [r, null];
        const rows = Array.from(el.children).filter(c => !c.hidden).map(c => c.id || c.tagName);
        return [r, {text: el.innerText.replace(/\\s+/g, " ").trim(), rows}];
    }))""", list(SHOWN))


def _long_pad(live_server) -> dict:
    """A score pad of eleven rounds entered: the next ones take the oldest shown rounds away."""
    players, _, _ = GAMES["scorepad"].demo()
    moves = [("round-entered", {"round": r, "entries": [{"seat": 0, "points": r}, {"seat": 1, "points": 2 * r}]})
             for r in range(1, 12)]
    return api_game(live_server, "scorepad", players=players, moves=moves)


def test_rounds_tapped_on_a_long_pad_show_what_a_fresh_page_shows(live_server, new_phone):
    created = _long_pad(live_server)
    phone = new_phone()
    sit_in(phone, live_server, created, "en")
    anna = created["seats"][0]["player"]
    answers = []
    phone.on("response", lambda r: answers.append(r.headers.get("hx-reswap")) if r.url.endswith("/moves") else None)
    for n, points in enumerate((5, 40, 7), start=1):  # rounds 12, 13, 14: past the 12 rounds the pad shows
        record_a_round(phone, anna, points)
        expect(phone.get_by_test_id("ack")).to_contain_text(f"#{12 + n}:")
        expect(phone.locator("#live")).to_have_attribute("data-seq", str(12 + n))
    assert answers == ["none"] * 3  # each answer was the regions alone
    tapped = _regions(phone)
    fresh = new_phone()
    sit_in(fresh, live_server, created, "en")
    assert tapped == _regions(fresh)
    assert tapped["#pad-rows"]["rows"][0] == "pad-hidden" and "2 earlier rounds" in tapped["#pad-rows"]["text"]
    assert len(tapped["#events"]["rows"]) == 12


# The move form as the browser would submit it, and the round it shows: what it records
# beside what it shows (the form token and the move's fresh id left out).
FORM = r"""() => {
  const form = document.getElementById("move-form");
  const data = [...new FormData(form)].filter(([n]) => n !== "csrf_token" && n !== "client_event_id");
  const round = document.getElementById("pad-round");
  return {data, shows: round ? round.textContent.replace(/\s+/g, " ").trim() : null};
}"""


def _pushes(page) -> list:
    """The kinds of the pushes that reach ``page`` from now on ("live": the whole region,
    "regions": a move's regions alone), as the stream names them."""
    page.evaluate("""() => { window.pushes = [];
        document.addEventListener("htmx:sseBeforeMessage", e => window.pushes.push(e.detail.type), true); }""")
    return page


def _open(phone, base, created, seat=None, lang="en"):
    """``phone`` on the table page (``seat``: holding it, else watching), its stream open."""
    if seat is not None:
        sit(phone, created, seat)
    phone.goto(f"{base}/lang/{lang}?next=/games/{created['id']}")
    expect(phone.locator("html")).to_have_attribute("data-live", "open")
    return _pushes(phone)


def _as_fresh(phone, fresh, seq: int) -> None:
    """``phone`` shows the table at ``seq`` as ``fresh`` (a page of its view) loaded now shows it."""
    expect(phone.locator("#live")).to_have_attribute("data-seq", str(seq))
    fresh.reload()
    expect(fresh.locator("#live")).to_have_attribute("data-seq", str(seq))
    assert _regions(phone) == _regions(fresh)
    if phone.locator("#move-form").count():
        assert phone.evaluate(FORM) == fresh.evaluate(FORM)


def test_moves_pushed_to_the_other_phones_show_what_a_fresh_page_shows(live_server, new_phone):
    """Each round tapped reaches the other seated phone and a spectator (in Hungarian: a view
    of its own) as the regions it changed; after each push both show what a freshly loaded
    page of their view shows, the other phone's move form included."""
    created = _long_pad(live_server)
    tapper = new_phone()
    sit_in(tapper, live_server, created, "en")
    other, watcher = (_open(new_phone(), live_server, created, seat=1),
                      _open(new_phone(), live_server, created, lang="hu"))
    fresh_other, fresh_watcher = (_open(new_phone(), live_server, created, seat=1),
                                  _open(new_phone(), live_server, created, lang="hu"))
    anna = created["seats"][0]["player"]
    for n, points in enumerate((5, 40, 7), start=1):
        record_a_round(tapper, anna, points)
        expect(tapper.get_by_test_id("ack")).to_contain_text(f"#{12 + n}:")
        _as_fresh(other, fresh_other, 12 + n)
        _as_fresh(watcher, fresh_watcher, 12 + n)
    for phone in (other, watcher):
        assert "regions" in phone.evaluate("window.pushes")  # not the whole region every time
    assert _regions(other)["#pad-rows"]["rows"][0] == "pad-hidden"


def test_a_push_into_a_form_being_filled_in_keeps_what_it_shows_and_records(live_server, new_phone):
    """Béla's phone has points typed for the next round when Anna's round is pushed: the
    table around the form moves on, the form keeps the round it shows and the table it was
    filled against (what it records is what it shows), a note says so, and Save answers
    with what changed instead of recording the typed points as another round."""
    created = _long_pad(live_server)
    tapper = new_phone()
    sit_in(tapper, live_server, created, "en")
    other = _open(new_phone(), live_server, created, seat=1)
    bela = created["seats"][1]["player"]
    other.get_by_label(bela, exact=True).fill("9")
    typed = other.evaluate(FORM)
    assert typed["shows"].startswith("Round 12") and ["round", "12"] in typed["data"]
    record_a_round(tapper, created["seats"][0]["player"], 5)
    expect(other.locator("#live")).to_have_attribute("data-seq", "13")
    expect(other.locator("#pad-round-12")).to_be_visible()  # the board took the push
    assert "regions" in other.evaluate("window.pushes")
    expect(other.get_by_test_id("form-behind")).to_be_visible()
    assert other.evaluate(FORM) == typed  # the same round shown, the same fields sent
    other.get_by_role("button", name="Save the round", exact=True).click()
    expect(other.get_by_test_id("stale")).to_be_visible()
    expect(other.get_by_test_id("problems")).to_contain_text("Someone else recorded a move meanwhile")


def test_a_phone_that_missed_a_push_takes_none_of_the_next_and_fetches_the_whole_region(live_server, new_phone):
    """A push lost on the way (here: dropped by the page) leaves the phone a move behind: the
    next move's regions do not fit the table it shows, so it applies none of them and polls
    the whole region from the table it shows."""
    created = _long_pad(live_server)
    tapper = new_phone()
    sit_in(tapper, live_server, created, "en")
    other = _open(new_phone(), live_server, created, seat=1)
    fresh = _open(new_phone(), live_server, created, seat=1)
    other.evaluate("""() => document.addEventListener("htmx:sseBeforeMessage", e => {
        if (!window.dropped) { window.dropped = e.detail.type; e.preventDefault(); } }, true)""")
    polls = []
    other.on("request", lambda r: polls.append(r.url) if "/live?" in r.url else None)
    anna = created["seats"][0]["player"]
    record_a_round(tapper, anna, 5)
    expect(tapper.get_by_test_id("ack")).to_contain_text("#13:")
    other.wait_for_function("() => window.dropped")
    expect(other.locator("#live")).to_have_attribute("data-seq", "12")  # the push of #13 lost
    record_a_round(tapper, anna, 6)
    _as_fresh(other, fresh, 14)
    assert other.evaluate("window.pushes").count("regions") >= 1  # #14's regions came, and were not applied
    assert any("seq=12" in url for url in polls)  # the whole region fetched from the table it showed


def test_a_phone_back_online_catches_up_with_the_whole_region(live_server, new_phone):
    """Offline while two rounds are tapped elsewhere, the phone's stream resumes from the last
    push it had: the whole region, then the next move's regions again."""
    created = _long_pad(live_server)
    tapper = new_phone()
    sit_in(tapper, live_server, created, "en")
    other = _open(new_phone(), live_server, created, seat=1)
    fresh = _open(new_phone(), live_server, created, seat=1)
    anna = created["seats"][0]["player"]
    other.context.set_offline(True)
    expect(other.locator("#connection")).to_contain_text("Offline")
    for n, points in enumerate((5, 6), start=13):
        record_a_round(tapper, anna, points)
        expect(tapper.get_by_test_id("ack")).to_contain_text(f"#{n}:")
    other.context.set_offline(False)
    _as_fresh(other, fresh, 14)
    record_a_round(tapper, anna, 7)
    _as_fresh(other, fresh, 15)
    assert other.evaluate("window.pushes")[-1] == "regions"  # caught up, it takes regions again


def test_a_tap_whose_form_stays_leaves_the_next_tap_a_move_of_its_own(live_server, new_phone):
    """A Han card exchange leaves the move form as it was (the pile holds about what the app
    expects): the answer keeps the form on the tapping phone, resets what was chosen in it as
    a fresh form is, and gives it a fresh move id and seq, so the next tap records a move
    of its own — the same form's id again would have been taken for the move before."""
    players, options, _ = GAMES["han"].demo()
    created = api_game(live_server, "han", players=players, options=options,
                       moves=[("card-exchanged", {"seat": s % 3}) for s in range(28)])
    phone = new_phone()
    sit_in(phone, live_server, created, "en")
    fresh = new_phone()
    sit_in(fresh, live_server, created, "en")
    phone.evaluate("() => { document.getElementById('move-form').dataset.tapped = 'kept'; }")
    for seq in (30, 31):
        phone.locator("label.han-tile").first.click()  # a province chosen, then a card exchanged instead
        phone.locator("details.han-more summary").last.click()
        phone.get_by_role("button", name="Exchange a card").click()
        expect(phone.get_by_test_id("ack")).to_contain_text(f"#{seq}:")
        expect(phone.locator("#live")).to_have_attribute("data-seq", str(seq))
        expect(phone.locator("#move-form")).to_have_attribute("data-tapped", "kept")  # the form stayed
        expect(phone.locator("#move-form details[open]")).to_have_count(0)
        fresh.reload()
        assert phone.evaluate(FORM) == fresh.evaluate(FORM)  # the same fields, the next seq
