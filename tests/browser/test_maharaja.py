"""One round of a 3-player Maharaja game on phones, in real Chromium at 390 × 844."""

import pytest
from playwright.sync_api import expect

from tests.browser.taps import Taps, example_on_a_phone
from tests.conftest import fill_new_game, screenshot

pytestmark = pytest.mark.browser


def _click(page, name: str):
    """Press a button and wait until the move is recorded (the sequence number moves on)."""
    Taps(page).button(name)


def _reveal(taps: Taps, first: str, second: str):
    """The first action a tile, the second a button that reveals both: two taps."""
    taps.tap(taps.page.locator(f"label.mh-tile:has([data-testid=mh-first-{first}])"), records=False)
    taps.tap(taps.page.get_by_test_id(f"mh-second-{second}"))


def test_three_players_play_a_round_on_phones(live_server, new_phone):
    host = new_phone()
    fill_new_game(host, live_server, ("Anna", "Béla", "Csaba"), kind="maharaja")
    screenshot(host, "maharaja-new-game")
    host.get_by_role("button", name="Start the game").click()
    expect(host.get_by_role("heading", name="Maharaja")).to_be_visible()
    screenshot(host, "maharaja-setup")

    small = host.evaluate("""[...document.querySelectorAll('#move-form .mh-tile')].map(e => e.getBoundingClientRect())
        .filter(r => r.width < 44 || r.height < 44).length""")
    assert small == 0                                        # each city tile of the track a 44 px target
    track = Taps(host)
    for i, city in enumerate("ABCDEFG", start=1):           # A..G from the bottom; nothing preselected
        track.tap(host.locator(f'label.mh-tile:has(input[name="gov{i}"][value="{city}"])'), records=False)
    track.button("Record the governor track")
    assert track.count == 8                                  # issue 39: was 15 (a select per box)
    for character in ("Sadhu", "Mogul", "Trader"):           # Anna 3, Béla 1, Csaba 2
        host.get_by_label(character).check()
        _click(host, "Choose")
    for _ in range(12):                                       # 4 starting houses each, first village with room
        Taps(host).tap(host.get_by_test_id("mh-place").locator("button").first)
    expect(host.get_by_test_id("mh-maharaja")).to_have_text("A")
    expect(host.get_by_test_id("mh-next")).to_have_text("B")
    expect(host.get_by_test_id("mh-step")).to_contain_text("Béla")   # the Mogul first

    guest = new_phone()
    guest.goto(f"{live_server}/lang/en?next=/")
    guest.goto(host.get_by_test_id("join-link").get_attribute("href"))
    guest.get_by_role("button", name="Béla").click()                 # the host's seat is never offered
    expect(guest.get_by_test_id("mh-gold-1")).to_have_text("15")
    expect(guest.get_by_test_id("mh-gold-0")).to_have_text("?")      # secret on other phones

    # Béla (Mogul): gold, then a palace in A on the inner site.
    turn = Taps(host)
    _reveal(turn, "gold", "palace")
    turn.button("+2 gold")
    turn.tap(host.locator('label.mh-tile:has(input[name="via"][value="v1"])'), records=False)  # through village 1
    turn.button("To A")
    turn.button("Inner palace in city A (3 points)")
    screenshot(host, "maharaja-turn")
    turn.button("End my turn")
    assert turn.count == 7 <= 8, turn.count                  # issue 39: was 17 (selects, a closed list)

    # Csaba (Trader, +1 at the start): gold and a governor move that makes D next.
    expect(host.get_by_test_id("mh-step")).to_contain_text("Csaba")
    turn = Taps(host)
    _reveal(turn, "gold", "governor")
    turn.button("+2 gold")
    turn.tap(host.get_by_test_id("mh-governor-D"))
    turn.button("End my turn")
    assert turn.count == 5, turn.count

    # Anna (Sadhu): takes gold, leaves the house undone and renounces it.
    turn = Taps(host)
    _reveal(turn, "gold", "house")
    turn.button("+2 gold")
    expect(host.get_by_test_id("mh-todo")).to_contain_text("build a house")
    expect(host.get_by_test_id("mh-house-place")).to_have_value("")   # no place chosen for a hurried tap
    expect(host.get_by_test_id("mh-village-help").first).to_contain_text("numbered 1–30")
    expect(host.get_by_test_id("mh-village-30")).to_be_attached()           # the board lists every village
    screenshot(host, "maharaja-house-form")
    _click(host, "End my turn, renouncing the rest (every other player +2 gold)")

    # The app evaluated A and moved the Maharaja to D, the governor Csaba moved down.
    expect(host.get_by_test_id("mh-eval")).to_contain_text(
        "Béla: 4 points (architect 1 + inner palace 3) → +16 gold (monopoly +5)")
    expect(host.get_by_test_id("mh-maharaja")).to_have_text("D")
    expect(host.get_by_test_id("mh-step")).to_contain_text("Round 2")
    expect(guest.get_by_test_id("mh-maharaja")).to_have_text("D", timeout=4000)   # live, no reload
    expect(host.get_by_test_id("mh-gold-0")).to_have_text("17")                   # 15 + 2 (she renounced)
    expect(guest.get_by_test_id("mh-gold-1")).to_have_text("23")   # 15 + 2 − 12 + 2 (renounced) + 16
    for page, name in ((host, "maharaja-round-2-host"), (guest, "maharaja-round-2-guest")):
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        screenshot(page, name)
    guest.get_by_role("link", name="HU").click()
    expect(guest.get_by_role("heading", name="Maharadzsa", exact=True)).to_be_visible()
    expect(guest.get_by_test_id("mh-step")).to_contain_text("2. forduló")
    expect(guest.get_by_role("button", name="Arany (+2)", exact=True)).to_be_visible()   # the second action reveals
    screenshot(guest, "maharaja-round-2-guest-hu")
    small = host.evaluate("""[...document.querySelectorAll('#move-form button, #move-form select, #move-form .mh-tile')]
        .filter(e => e.offsetParent && Math.min(e.getBoundingClientRect().height, e.getBoundingClientRect().width) < 44).length""")
    assert small == 0


# ---- issue 39: the example game tapped whole, its taps counted ------------------------------

def _tile(page, name: str, value: str):
    return page.locator(f'#move-form label:has(input[name="{name}"][value="{value}"])')


def _button(page, value: str):
    return page.locator(f'#move-form button[value="{value}"]')


def _select_and_tap(taps: Taps, fields: dict, action: str):
    for name, value in fields.items():
        taps.select(name, value)
    taps.tap(_button(taps.page, action))


def _house(taps: Taps, data: dict):
    action = "house-built-free" if data.get("free") else "house-built"
    if data["place"] in "ABCDEFG":           # the architect's city: its own button
        taps.tap(_button(taps.page, f"{action}:{data['place']}"))
    else:
        _select_and_tap(taps, {"house_place": data["place"]}, action)


def _travel(taps: Taps, data: dict):
    for village in data["via"]:
        taps.tap(_tile(taps.page, "via", village), records=False)
    taps.tap(_button(taps.page, f"architect-travelled:{data['city']}"))


def _governors(taps: Taps, data: dict):
    for i, city in enumerate(data["order"], start=1):
        taps.tap(_tile(taps.page, f"gov{i}", city), records=False)
    taps.tap(_button(taps.page, "governors-laid"))


def _two(name: str, key: str, action: str):
    """A tile, then the button that records it."""
    def tap(taps: Taps, data: dict):
        taps.tap(_tile(taps.page, name, str(data[key][0] if isinstance(data[key], list) else data[key])), records=False)
        taps.tap(_button(taps.page, action if ":" not in action else f"{action}{data[key][1]}"))
    return tap


def _one(value):
    return lambda taps, data: taps.tap(_button(taps.page, value(data)))


TAPPED = {
    "governors-laid": _governors,
    "character-chosen": _two("character", "character", "character-chosen"),
    "character-picked": _two("pick_character", "character", "character-picked"),
    "start-house-placed": _one(lambda d: f"start-house-placed:{d['place']}"),
    "actions-revealed": _two("action1", "actions", "actions-revealed:"),
    "gold-taken": _one(lambda d: "gold-taken"),
    "quarry-used": _one(lambda d: "quarry-used"),
    "architect-travelled": _travel,
    "palace-built": _one(lambda d: f"palace-built:{d['site']}"),
    "house-built": _house,
    "house-moved": lambda taps, d: _select_and_tap(taps, {"move_from": d["source"], "move_to": d["place"]},
                                                   "house-moved-free" if d.get("free") else "house-moved"),
    "governor-moved": _one(lambda d: f"governor-moved:{d['city']}"),
    "character-swapped": _one(lambda d: f"character-swapped:{d['character']}"),
    "turn-ended": _one(lambda d: "turn-ended-renounce" if d.get("renounce") else "turn-ended"),
}


def tap_the_example(base, new_phone, limit=None) -> dict:
    """The shipped example game (docs/rules/maharaja.md §19) tapped on one phone that records
    for the whole table, as one phone often does (§6): every move made by the taps a player
    makes, counted per move kind and per turn (reveal … end; a pick a swap asks for is the
    other player's turn, §20). The final standings are the example's."""
    created, phone, moves = example_on_a_phone(base, new_phone, "examples/maharaja-4p.json", limit)
    kinds: dict[str, list[int]] = {}
    turns, turn, free = [], None, 0
    for seq, (type_, data, _) in enumerate(moves, start=1):
        expect(phone.locator("#live")).to_have_attribute("data-seq", str(seq))
        taps = Taps(phone)
        TAPPED[type_](taps, data)
        kinds.setdefault(type_, []).append(taps.count)
        if type_ == "actions-revealed":
            turn, free = 0, 0
        if turn is not None and type_ != "character-picked":
            turn += taps.count
            free += type_ == "house-built" and bool(data.get("free"))
        if type_ == "turn-ended":
            turns.append((turn, free))
            turn = None
    return {"kinds": kinds, "turns": turns, "created": created}


def _figures(counts: list[int]) -> str:
    ordered = sorted(counts)
    return f"{ordered[0]}/{ordered[len(ordered) // 2]}/{ordered[-1]} (n={len(ordered)})"


def _assert_turns_within_eight(done: dict):
    """Issue 39 deliverable 3: a turn ≤ 8 taps; the Builder's free house is the power's extra
    tap on top (docs/rules/maharaja.md §12)."""
    print("\nMaharaja taps min/median/max:", {k: _figures(v) for k, v in done["kinds"].items()},
          "turn:", _figures([t for t, _ in done["turns"]]),
          "turn without the Builder's free house:", _figures([t - f for t, f in done["turns"]]))
    assert done["turns"] and all(taps - free <= 8 for taps, free in done["turns"]), done["turns"]
    assert max(done["kinds"]["actions-revealed"]) == 2 and max(done["kinds"]["palace-built"]) == 1


def test_the_example_games_first_rounds_are_tapped_within_8_taps_a_turn(live_server, new_phone):
    done = tap_the_example(live_server, new_phone, limit=80)      # set-up and the first turns
    _assert_turns_within_eight(done)


@pytest.mark.slow
def test_the_example_game_is_tapped_whole_within_8_taps_a_turn(live_server, new_phone):
    import json
    import urllib.request
    done = tap_the_example(live_server, new_phone)
    _assert_turns_within_eight(done)
    state = json.loads(urllib.request.urlopen(f"{live_server}/api/games/{done['created']['id']}/state").read())
    ranked = [(r["seat"], r["score"]) for r in state["standings"]]
    assert ranked == [(0, 7), (1, 6), (3, 5), (2, 4)], ranked    # §19: Krisztina 7, Péter 6, Anita 5, Jenő 4
