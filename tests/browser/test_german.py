"""German at 390 × 844 (issue 30): its long words ("Zugreihenfolgeleiste",
"Spielplanprofil", "Personenpunkteleiste") stay inside their boxes on every page a table reads:
no horizontal scroll, and no text sticking out of its own button, cell, label or heading.
Screenshots: test-artifacts/de-*.png."""
import pytest

from scoring import GAMES
from tests.conftest import api_game, screenshot, sit

pytestmark = pytest.mark.browser
GAME_PAGES = ["", "/timeline", "/replay?at=2", "/final", "/seats"]
BOOKS = ["scorepad", "han", "five-tribes", "maharaja", "dragon"]

# Elements whose text is drawn in a box of their own: a word wider than the box sticks out.
OVERFLOWING = """() => [...document.querySelectorAll(
        'main button, main a.button, main label, main th, main td, main li, main p, main h1, main h2, main h3, '
        + 'main legend, main summary, main dt, main dd, header a, nav a')]
    .filter(e => e.getClientRects().length && getComputedStyle(e).overflowX === 'visible')
    .filter(e => e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0)
    .filter(e => !e.closest('.scroll, [data-scroll], table.wide'))
    .map(e => `${e.tagName.toLowerCase()} '${e.innerText.trim().slice(0, 40)}' ${e.scrollWidth}/${e.clientWidth}px`)"""


def _check(phone, where: str) -> list[str]:
    out = []
    width = phone.evaluate("document.documentElement.scrollWidth")
    if width > 390:
        out.append(f"{where}: the page is {width}px wide")
    out += [f"{where}: {e}" for e in phone.evaluate(OVERFLOWING)]
    assert phone.locator("html").get_attribute("lang") == "de", where
    return out


def test_every_page_in_german_fits_a_phone(live_server, new_phone):
    phone = new_phone("de-DE")
    phone.goto(f"{live_server}/lang/de?next=/")
    found = _check(phone, "home")
    screenshot(phone, "de-home")
    for book in BOOKS:
        phone.goto(f"{live_server}/rules/{book}")
        found += _check(phone, f"rules {book}")
    screenshot(phone, "de-rules-dragon")
    for kind in sorted(GAMES):
        phone.goto(f"{live_server}/games/new?kind={kind}")
        found += _check(phone, f"{kind} new game")
        created = api_game(live_server, kind, moves=GAMES[kind].demo()[2])
        sit(phone, created)
        for page in GAME_PAGES:
            phone.goto(f"{live_server}/games/{created['id']}{page}")
            found += _check(phone, f"{kind}{page or ' table'}")
        phone.goto(f"{live_server}/games/{created['id']}")
        screenshot(phone, f"de-{kind}")
        phone.goto(f"{live_server}/games/{created['id']}/final")
        screenshot(phone, f"de-{kind}-final")
    for page in ("/stats", "/people", "/boards/"):
        phone.goto(f"{live_server}{page}")
        found += _check(phone, page)
    screenshot(phone, "de-boards")
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("kind", ["five-tribes", "han", "maharaja", "dragon"])
def test_a_game_in_progress_in_german_fits_a_phone(live_server, new_phone, kind):
    """Half-way through the demo each game shows its move form, the longest German labels."""
    moves = GAMES[kind].demo()[2]
    created = api_game(live_server, kind, moves=moves[:max(1, len(moves) // 2)])
    phone = new_phone("de-DE")
    sit(phone, created)
    phone.goto(f"{live_server}/lang/de?next=/games/{created['id']}")
    found = _check(phone, f"{kind} half-way")
    screenshot(phone, f"de-{kind}-halfway")
    assert found == [], "\n".join(found)
