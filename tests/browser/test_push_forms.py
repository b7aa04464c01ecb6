"""A push never changes what a form sends (issue 34, deliverable 2b): a phone holds a seat
of an example game of every kind, open at a random point, while another seat records the
game's moves one by one (through the API, as its phone's tap does). After every push, each
form on the phone sends what the same form of a freshly loaded page sends at the same
state; where the player had made a choice first, the form keeps it and the table it was
filled against (a note says the table moved on), sending what the fresh page of that table
sends with the same choice. Six moves of each kind's demo in `make test`; whole games, the
demos and the exports in examples/, marked slow."""
import json
import os
import random

import pytest
from playwright.sync_api import expect

from scoring import GAMES
from tests.conftest import ROOT, api, sit

pytestmark = pytest.mark.browser

EXAMPLES = os.path.join(ROOT, "examples")

# Each form of the table body, as the browser would submit it: its place on the page and its
# FormData. Left out: the form token (one per phone) and the fresh id each render gives a move.
FORMS = r"""() => {
  const seen = {};
  return [...document.querySelectorAll("#table-body form")].map(form => {
    const key = form.id || form.getAttribute("hx-post") || form.getAttribute("action") || "form";
    seen[key] = (seen[key] || 0) + 1;
    const data = [...new FormData(form)].filter(([name]) => name !== "csrf_token" && name !== "client_event_id")
      .map(([name, value]) => [name, typeof value === "string" ? value : "(file)"]);
    return [key + "#" + seen[key], data];
  });
}"""

# A choice the player makes in the move form: a random control that offers another value
# than the one it shows, on screen (a select's other option, a radio not chosen).
CONTROLS = "#move-form select, #move-form input[type=radio]"
CHOICES = r"""controls => [...document.querySelectorAll(controls)].flatMap((el, index) =>
  el.disabled || !el.name || !(el.checkVisibility() || el.labels[0]?.checkVisibility()) ? []
  : el instanceof HTMLSelectElement
    ? [...el.options].filter(o => !o.selected && !o.disabled).map(o => ({kind: "select", index, value: o.value}))
    : (el.checked ? [] : [{kind: el.type, index, value: el.value}]))"""


def example_games() -> dict:
    """kind: (players, options, moves) of every kind's example game: its export in examples/
    (the current format, not the -v1 copies), else the game's own demo."""
    games = {kind: GAMES[kind].demo() for kind in GAMES}
    for name in sorted(os.listdir(EXAMPLES)):
        if name.endswith("-v1.json"):
            continue
        with open(os.path.join(EXAMPLES, name)) as f:
            events = json.load(f)["events"]
        created = events[0]["data"]
        games[f"{created['kind']}:{name[:-5]}"] = (created["players"], created["options"],
                                                   [(e["type"], e["data"]) for e in events[1:]])
    return games


def _kind(name: str) -> str:
    return name.split(":")[0]


def _forms(page) -> list:
    return page.evaluate(FORMS)


def _differ(shown: list, fresh: list) -> list:
    """The forms whose FormData differs: (place, the phone's, the fresh page's)."""
    shown, fresh = dict(shown), dict(fresh)
    return [(key, [e for e in shown.get(key, []) if e not in fresh.get(key, [])],
             [e for e in fresh.get(key, []) if e not in shown.get(key, [])])
            for key in dict.fromkeys([*shown, *fresh]) if shown.get(key) != fresh.get(key)]


def _choose(page, choice: dict) -> None:
    """The player's own tap on the choice (a select's option, a radio); two steps of a form
    may name a field alike, so the control is found by its place."""
    control = page.locator(CONTROLS).nth(choice["index"])
    if choice["kind"] == "select":
        control.select_option(value=choice["value"])
    else:   # a tile's radio is drawn by its label, which takes the tap
        control.check(force=True)


def _fresh(page, url: str, choice: dict | None) -> list:
    page.goto(url)
    if choice:
        _choose(page, choice)
    return _forms(page)


def play_beside_an_open_phone(base: str, new_phone, name: str, start: int, end: int, rng: random.Random) -> int:
    """Moves [start, end) of example ``name`` recorded by seat 0 while seat 1's phone is open
    from move ``start`` on; every push checked against a fresh page. The number of pushes."""
    players, options, moves = example_games()[name]
    created = api(base, "/api/games", {"kind": _kind(name), "players": players, "options": options})
    token = created["seats"][0]["token"]

    def record(seq: int) -> None:
        type_, data = moves[seq - 1]
        api(base, f"/api/games/{created['id']}/events",
            {"type": type_, "data": data, "expected_seq": seq, "client_event_id": f"push-{seq}"}, token)

    for seq in range(1, start + 1):
        record(seq)
    url = f"{base}/lang/{rng.choice(['en', 'hu', 'de'])}?next=/games/{created['id']}"
    phone, fresh = new_phone(), new_phone()
    sit(phone, created, 1)
    sit(fresh, created, 1)
    phone.goto(url)
    expect(phone.locator("html[data-live=open]")).to_have_count(1)
    for seq in range(start + 1, min(end, len(moves)) + 1):
        offered = phone.evaluate(CHOICES, CONTROLS)
        choice = rng.choice(offered) if offered and rng.random() < 0.3 else None
        if choice:
            _choose(phone, choice)
        before = _fresh(fresh, url, choice)
        assert not _differ(_forms(phone), before), f"{name}: before move {seq + 1}"
        record(seq)
        expect(phone.locator("#live")).to_have_attribute("data-seq", str(seq + 1))
        after = _fresh(fresh, url, None)
        if choice and "move-form#1" in dict(after):   # (a move that ends the game closes every form)
            # the move form is kept as the player left it, for the table it was filled against
            expect(phone.get_by_test_id("form-behind")).to_be_visible()
            after = [(key, data) for key, data in after if key != "move-form#1"] + [
                (key, data) for key, data in before if key == "move-form#1"]
        assert not _differ(_forms(phone), after), f"{name}: after move {seq + 1}" + (f", {choice} chosen" if choice else "")
        if choice:
            phone.goto(url)   # the player starts again on the table as it is now
            expect(phone.locator("html[data-live=open]")).to_have_count(1)
    return min(end, len(moves)) - start


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_push_never_changes_what_a_form_sends(live_server, new_phone, name):
    """Six moves from a random point of each kind's demo game."""
    rng = random.Random(f"push-{name}")
    moves = example_games()[name][2]
    start = rng.randrange(max(1, len(moves) - 6))
    assert play_beside_an_open_phone(live_server, new_phone, name, start, start + 6, rng) >= min(6, len(moves))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(example_games()))
def test_a_push_never_changes_what_a_form_sends_through_a_whole_game(live_server, new_phone, name):
    rng = random.Random(f"whole-{name}")
    moves = example_games()[name][2]
    assert play_beside_an_open_phone(live_server, new_phone, name, 0, len(moves), rng) == len(moves)
