"""Touch targets of at least 44 × 44 px (issue 17, item 12) on the shared pages, in real
Chromium at 390 × 844, in Hungarian and English: the HU/EN links (41–42 px wide before),
the timeline's "#13" links (30 × 16 px before), every link, button, summary and field."""
import pytest

from tests.browser.phones import TAPPABLE
from tests.conftest import api_game

pytestmark = pytest.mark.browser

# What a finger taps: links, buttons, summaries, fields; a radio or checkbox is tapped
# through its label. Anything inside a closed <details> is not on screen.
SMALL = """min => [...document.querySelectorAll('a, button, summary, select, textarea, input:not([type=hidden])')]
  .map(e => (e.type === 'radio' || e.type === 'checkbox') && e.closest('label') ? e.closest('label') : e)
  .filter(e => e.getClientRects().length && !e.closest('details:not([open]) > :not(summary)'))
  .map(e => { const r = e.getBoundingClientRect();
              return [e.tagName, (e.textContent || e.name || '').trim().slice(0, 30), Math.round(r.width), Math.round(r.height)]; })
  .filter(([tag, text, w, h]) => w < min || h < min)"""



@pytest.mark.parametrize("lang", ["hu", "en"])
def test_every_tap_target_of_the_shared_pages_is_at_least_44_px(live_server, seated_phone, lang):
    created = api_game(live_server, "scorepad", players=[
        {"name": "Anna", "colour": "red"}, {"name": "Béla", "colour": "blue"}, {"name": "Cili", "colour": "green"},
        {"name": "Dóra", "colour": "black"}], moves=[
        ("points-recorded", {"seat": 0, "points": 5}), ("points-recorded", {"seat": 1, "points": 7}),
        ("event-voided", {"target": 3, "reason": "typo"}), ("round-closed", {}),
        ("points-recorded", {"seat": 2, "points": 9}), ("dispute-opened", {"target": 6, "comment": "nine?"})])
    game_id = created["id"]
    phone, _ = seated_phone(lang=lang, game=created)
    phone.goto(f"{live_server}/lang/{lang}?next=/")
    pages = ["/", "/games/new", "/import"] + [f"/games/{game_id}{p}" for p in (
        "", "/timeline", "/final", "/replay?at=3", "/disputes/7", "/seats")]
    small = {}
    for page in pages:
        phone.goto(live_server + page)
        phone.evaluate("document.querySelectorAll('main details').forEach(d => d.open = true)")  # what opens is tapped too
        found = phone.evaluate(SMALL, TAPPABLE)
        if found:
            small[page] = found
    assert small == {}
