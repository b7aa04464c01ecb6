"""The move form where the thumb is (issue 39 §10, deliverable 4): on every game's table page,
at the length the game has reached, a seated 390 × 844 phone has the move form — or the
button that brings it — on its first screen, and that button brings the form into view."""
import pytest

from scoring import GAMES
from tests.conftest import api_game, sit

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
    return api_game(base, kind, moves=moves)


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


LONG = {"dragon": "dragon-4p.json", "five-tribes": "five-tribes-3p.json", "han": "han-side1-3p.json",
        "maharaja": "maharaja-4p.json"}   # the longest shipped example of each kind that has one


def _long_game(base: str, kind: str) -> dict:
    """A long game of ``kind`` still running: its shipped example but the last move, each move
    from the seat that made it; a score pad of 40 rounds; the final tally's demo (it has
    no length: one sheet a player)."""
    from tests.conftest import api
    from tests.conftest import ROOT, example_moves
    if kind not in LONG:
        return _running_game(base, kind, rounds=40 if kind == "scorepad" else 0)
    kind, players, options, moves = example_moves(f"{ROOT}/examples/{LONG[kind]}")
    created = api(base, "/api/games", {"kind": kind, "players": players, "options": options})
    for seq, (type_, data, seat) in enumerate(moves[:-1], start=1):
        api(base, f"/api/games/{created['id']}/events",
            {"type": type_, "data": data, "expected_seq": seq, "client_event_id": f"long-{seq}"},
            created["seats"][seat or 0]["token"])
    return created


FIRST_CONTROL = ("() => [...document.querySelectorAll('#move-form :is(input:not([type=hidden]), select, textarea,"
                 " button, a[href]), .ft-map .ft-cell.tap')].find(el => el.getClientRects().length)")


def _whole_on_screen(box) -> bool:
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= SCREEN


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_long_games_move_form_or_its_button_is_whole_on_the_first_screen(live_server, new_phone, kind):
    """Issue 39 item 4, at any length: the score pad's first field was at 1,223 px by round 13,
    the Dragon's Record button at 2,400 px. The move form's first control, or the button that
    brings it, lies whole inside a 390 × 844 screen as the page opens, in every language; the
    button then brings that control whole into view."""
    created = _long_game(live_server, kind)
    phone = new_phone()
    sit(phone, created)
    for lang in ("hu", "en", "de"):
        phone.goto(f"{live_server}/lang/{lang}?next=/games/{created['id']}")
        assert phone.locator("#move-form").count() == 1, f"{kind}: the long game left no move form"
        first = phone.evaluate_handle(FIRST_CONTROL).as_element()
        assert first is not None, f"{kind}: the move form shows no control"
        if _whole_on_screen(first.bounding_box()):
            continue
        button = phone.get_by_test_id("to-move")
        assert button.count() == 1 and _whole_on_screen(button.bounding_box()), \
            (kind, lang, first.bounding_box(), button.bounding_box() if button.count() else None)
        button.click()
        phone.wait_for_function(f"() => {{ const el = ({FIRST_CONTROL})(); const r = el.getBoundingClientRect();"
                                f" return r.top >= 0 && r.bottom <= innerHeight; }}")
