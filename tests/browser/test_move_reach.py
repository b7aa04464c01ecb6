"""The move form where the thumb is (issue 39 §10, deliverable 4): on every game's table page,
at the length the game has reached, a seated 390 × 844 phone has the move form — or the
button that brings it — on its first screen, and that button brings the form into view."""
import pytest

from scoring import GAMES
from tests.browser.test_fit import play
from tests.conftest import sit

pytestmark = pytest.mark.browser
SCREEN = 844


def _running_game(base: str, kind: str, rounds: int = 0) -> dict:
    """The kind's demo game but its last move (so it is still running); a score pad with
    ``rounds`` rounds more (the page grows with every round)."""
    players, options, moves = GAMES[kind].demo()
    moves = moves[:-1]
    if kind == "scorepad":
        moves = [m for m in moves if m[0] != "game-ended"]
        moves += [("round-entered", {"round": 100 + r, "entries": [{"seat": s, "points": r + s} for s in range(len(players))]})
                  for r in range(rounds)]
    return play(base, kind, moves)


def _on_first_screen(locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 48) <= SCREEN


@pytest.mark.parametrize("kind, rounds", [(kind, 0) for kind in sorted(GAMES)] + [("scorepad", 14)])
def test_the_move_form_or_its_button_is_on_the_first_screen(live_server, new_phone, kind, rounds):
    created = _running_game(live_server, kind, rounds)
    phone = new_phone("hu-HU")
    sit(phone, created)
    phone.goto(f"{live_server}/games/{created['id']}")
    form = phone.locator("#move-form")
    if form.count() == 0:
        pytest.skip(f"{kind}: its demo minus one move leaves no move to enter")
    if _on_first_screen(form):
        return
    button = phone.get_by_test_id("to-move")
    assert button.count() == 1 and _on_first_screen(button), (kind, form.bounding_box())
    button.click()  # a link to the form: no script needed
    phone.wait_for_function("() => { const r = document.getElementById('move-form').getBoundingClientRect();"
                            " return r.top >= 0 && r.top < innerHeight; }")
