"""No select cuts its text on a 390 px phone (issue 17 item 9, "Dragon festiva"): every
option of every select, on each game's new-game page and on its table page after each move
of its demo, in Hungarian and English, fits the select's box."""
import pytest
from playwright.sync_api import expect

from scoring import GAMES
from tests.conftest import api, cut_selects

pytestmark = pytest.mark.browser


def _cut_on_this_page(phone, where: str) -> dict[str, str]:
    """Each cut select ("name: 'text' width/room px") and where it was first seen; the
    selects inside a closed <details> too (opened first: they are one tap away)."""
    phone.evaluate("document.querySelectorAll('main details').forEach(d => d.open = true)")
    return {cut: where for cut in cut_selects(phone)}


def _walk_the_demo(phone, base: str, kind: str) -> dict[str, str]:
    """Each select cut on the table page after each move of ``kind``'s demo (a seated phone)."""
    players, options, moves = GAMES[kind].demo()
    created = api(base, "/api/games", {"kind": kind, "players": players, "options": options})
    answer = phone.goto(created["join_url"])
    seat = phone.locator("button[name=seat]").first
    # the German walk comes last on a loaded CI machine: a slow join page gets 30 s, and a
    # page that is not the join form says what it was instead
    assert answer.ok, f"{kind}: the join page answered {answer.status}: {phone.inner_text('body')[:300]}"
    expect(seat).to_be_visible(timeout=30_000)
    seat.click()
    expect(phone.locator("#move-form")).to_be_visible()  # seated, on the table page
    cuts = _cut_on_this_page(phone, f"{kind} table #1")
    for seq, (type_, data) in enumerate(moves, start=1):
        api(base, f"/api/games/{created['id']}/events", {"type": type_, "data": data, "expected_seq": seq,
                                                        "client_event_id": f"demo-{seq}"},
            created["seats"][0]["token"])
        phone.goto(f"{base}/games/{created['id']}")
        cuts = _cut_on_this_page(phone, f"{kind} table #{seq + 1}") | cuts
    return cuts


@pytest.mark.parametrize("locale, lang", [("hu-HU", "hu"), ("en-GB", "en"), ("de-DE", "de")])
def test_no_select_cuts_its_text_on_a_phone(live_server, new_phone, locale, lang):
    phone = new_phone(locale)
    phone.goto(f"{live_server}/lang/{lang}?next=/")
    cuts = []
    for kind in sorted(GAMES):
        phone.goto(f"{live_server}/games/new?kind={kind}")
        seen = _cut_on_this_page(phone, f"{kind} new game")
        seen = _walk_the_demo(phone, live_server, kind) | seen
        cuts += [f"{where}: {cut}" for cut, where in seen.items()]
    assert cuts == [], "\n".join(cuts)
