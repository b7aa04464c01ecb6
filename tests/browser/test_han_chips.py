"""Han's move form at 390 × 844 (issue 17, item 12 and the contrast of item 11): the
card chips, "–" (no card) among them, are at least 44 px wide and high, and every text of
the page, the colour chips' among them, is readable (WCAG 4.5:1) in the light and the dark
scheme."""
import pytest

from scoring import GAMES
from tests.conftest import api, sit
from tests.browser.phones import CONTRAST, READABLE, TAPPABLE

pytestmark = pytest.mark.browser
CHIP_SIZES = """() => [...document.querySelectorAll('.han-card, .han-tile')].filter(e => e.getClientRects().length)
  .map(e => { const r = e.getBoundingClientRect(); return [e.textContent.trim(), Math.round(r.width), Math.round(r.height)]; })"""


def _han_table_with_card_rows(base: str, phone) -> None:
    """A Han demo game, played until the move form asks for the cards played, on ``phone``
    seated as the host."""
    players, options, moves = GAMES["han"].demo()
    created = api(base, "/api/games", {"kind": "han", "players": players, "options": options})
    game_id, token = created["id"], created["seats"][0]["token"]
    sit(phone, created)
    for seq, (type_, data) in enumerate(moves, start=1):
        phone.goto(f"{base}/games/{game_id}?lang=en")
        if phone.locator(".han-card-row").count():
            return
        api(base, f"/api/games/{game_id}/events",
            {"type": type_, "data": data, "expected_seq": seq, "client_event_id": f"m{seq}"}, token)
    pytest.fail("the Han demo never asks for the cards played")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_hans_card_chips_are_tappable_and_readable(live_server, new_phone, scheme):
    phone = new_phone("en-GB")
    phone.emulate_media(color_scheme=scheme)
    _han_table_with_card_rows(live_server, phone)
    chips = phone.evaluate(CHIP_SIZES)
    assert "–" in [text for text, _, _ in chips]
    assert [c for c in chips if c[1] < TAPPABLE or c[2] < TAPPABLE] == []
    assert phone.evaluate(CONTRAST) == [], f"texts below {READABLE}:1 (the green chips were 4.49)"
