"""Maharaja on the phone pages (Flask's client): every step renders, forms record,
bad forms are refused beside the form, gold stays secret unless the table says not."""
import re

import pytest

from events.application.table import new_game, record
from events.storage import store
from scoring.maharaja import GAME as M
from tests.conftest import expected_seq, post_move


def _game(client, **options):
    data = {"kind": "maharaja", "name": ["Anna", "Béla", "Csaba"], "colour": ["red", "blue", "green"]}
    options = {"secret_gold": "1", **options}  # the new-game form's checkbox is ticked by default
    data.update({f"opt_{k}": v for k, v in options.items() if v is not None})
    response = client.post("/games/new", data=data)
    assert response.status_code == 302, response.data[:2000]
    return response.headers["Location"]


def _set_up(client, url):
    assert post_move(client, url, action="governors-laid", **{f"gov{i}": c for i, c in enumerate("CABDEFG", 1)}).status_code == 303
    for character in ("3", "1", "2"):
        assert post_move(client, url, action="character-chosen", character=character).status_code == 303
    for i in range(12):
        assert post_move(client, url, action="start-house-placed", place=f"v{i + 1}").status_code == 303


def test_a_round_starts_from_the_phone_forms_with_the_maharaja_in_the_bottom_city(client):
    client.set_cookie("lang", "en")
    url = _game(client)
    _set_up(client, url)
    page = client.get(url).data.decode()
    assert 'data-testid="mh-maharaja">C<' in page and 'data-testid="mh-next">A<' in page
    assert "Béla" in re.search(r'data-testid="mh-step">(.*?)</p>', page, re.S).group(1)  # the Mogul acts first
    assert post_move(client, url, action="actions-revealed", action1="gold", action2="palace").status_code == 303
    assert post_move(client, url, action="gold-taken").status_code == 303
    assert post_move(client, url, action="architect-travelled", travel_city="C", via=["v1", "v2"]).status_code == 303
    assert post_move(client, url, action="palace-built", palace_site="inner").status_code == 303
    assert post_move(client, url, action="turn-ended").status_code == 303
    page = client.get(url).data.decode()
    assert "Csaba" in re.search(r'data-testid="mh-step">(.*?)</p>', page, re.S).group(1)  # the Trader next
    city_c = re.search(r'data-testid="mh-city-C">(.*?)</li>', page, re.S).group(1)
    assert 'class="mh-dot c-blue inner"' in city_c                      # Béla's inner palace


def test_gold_is_secret_on_other_phones_unless_the_table_turns_it_off(client, app):
    client.set_cookie("lang", "en")
    url = _game(client)
    page = client.get(url).data.decode()
    assert re.search(r'data-testid="mh-gold-0">15<', page)                   # this phone is seat 0
    assert re.search(r'data-testid="mh-gold-1"><span class="mh-secret"', page)
    open_url = _game(app.test_client(), secret_gold=None)                      # box unticked: off
    assert re.search(r'data-testid="mh-gold-1">15<', app.test_client().get(open_url).data.decode())


@pytest.mark.parametrize("fields", [{"action": "governors-laid", "gov1": "Z"}, {"action": "nope"},
                                    {"action": "character-chosen", "character": "x"},
                                    {"action": "governors-laid", **{f"gov{i}": "A" for i in range(1, 8)}}])
def test_bad_forms_are_refused_beside_the_form(client, app, fields):
    client.set_cookie("lang", "en")
    url = _game(client)
    response = post_move(client, url, **fields)
    assert response.status_code == 422 and b'class="problems"' in response.data
    assert store.last_seq(store.connect(app.config["DATABASE"]), url.rsplit("/", 1)[1]) == 1


@pytest.mark.parametrize("lang", ["hu", "en"])
def test_every_step_of_the_demo_renders(app, client, lang):
    players, options, moves = M.demo()
    db = store.connect(app.config["DATABASE"])
    created = new_game(db, "maharaja", players, options, "dev")
    client.set_cookie(f"seat_{created['id']}", created["seats"][0]["token"])
    client.set_cookie("lang", lang)
    url = f"/games/{created['id']}"
    for seq, (type_, data) in enumerate(moves, start=1):
        page = client.get(url)
        assert page.status_code == 200 and b'data-testid="mh-board"' in page.data
        record(db, created["id"], type_, data, seq, 0, "dev", f"d{seq}")
    assert client.get(url).status_code == 200


def test_any_form_is_refused_or_checked_never_a_crash():
    """Random phone forms at every step of the demo: a FormError or a checked move."""
    from hypothesis import given, settings, strategies as st

    from events.domain.projection import fold
    from events.application.table import check_move
    from scoring.base import FormError
    from scoring.maharaja.forms import PARSERS
    from tests.conftest import demo_events

    events = demo_events(M)
    tables = [fold(events, upto=n) for n in range(1, len(events) + 1)]
    fields = ["action", "seat", "character", "paid", "place", "action1", "action2", "travel_city", "via",
              "house_place", "move_from", "move_to", "palace_site", "governor", "swap_character",
              "pick_character", "chip_action", *[f"gov{i}" for i in range(1, 8)]]
    values = st.sampled_from(["", "A", "G", "Z", "v1", "v30", "v31", "0", "1", "7", "99", "-1", "inner",
                              "gold", "character", "x" * 50, *PARSERS])

    @settings(max_examples=150, deadline=None)
    @given(st.integers(0, len(tables) - 1), st.dictionaries(st.sampled_from(fields), values))
    def run(index, form):
        table = tables[index]
        try:
            type_, data = M.parse_form(table.game, form)
        except FormError:
            return
        assert isinstance(check_move(table, type_, data), list)

    run()


def test_the_set_up_form_offers_secret_gold_ticked_and_no_profile_chosen(client):
    page = client.get("/games/new?kind=maharaja").data.decode()
    assert re.search(r'name="opt_secret_gold" value="1" checked', page)
    assert not re.search(r'name="opt_short" value="1" checked', page)
    assert re.search(r'name="opt_board" value="" checked', page)


def test_the_final_page_of_the_example_shows_why_the_winner_won(app, client):
    import json
    import os

    from events.application.export import import_game
    path = os.path.join(os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..")), "examples", "maharaja-4p.json")
    db = store.connect(app.config["DATABASE"])
    game_id = import_game(db, json.load(open(path, encoding="utf-8")), "test")["id"]
    client.set_cookie("lang", "en")
    page = client.get(f"/games/{game_id}").data.decode()
    final = re.search(r'data-testid="mh-final">(.*?)</div>', page, re.S).group(1)
    assert "most palaces; on a tie more gold, then the lower character number" in final
    assert re.search(r"Krisztina: 7 palaces, \d+ gold, 1\. Mogul", final)
    assert 'data-testid="mh-gold-1">' in page and "mh-secret" not in page   # gold revealed at the end
    assert "Earlier evaluations" in page


@pytest.mark.parametrize("lang, words", [
    ("en", ["inner palace (3 points)", "outer palace (1, Sadhu 2)", "houses", "architect"]),
    ("hu", ["belső palota (3 pont)", "külső palota (1, szádhunak 2)", "házak", "építész"])])
def test_the_board_explains_its_symbols(client, lang, words):
    """A phone shows what the circles, squares, numbered boxes and triangles on the cities mean."""
    client.set_cookie("lang", lang)
    page = client.get(_game(client)).data.decode()
    key = re.search(r'data-testid="mh-key">(.*?)</p>', page, re.S).group(1)
    assert all(word in key for word in words)
    assert 'class="mh-dot inner empty"' in key and 'class="mh-arch"' in key


def test_the_reveal_offers_no_action_until_one_is_chosen(client, app):
    """A disc is entered as revealed: nothing is preselected, and a missing action is asked for."""
    client.set_cookie("lang", "en")
    url = _game(client)
    _set_up(client, url)
    page = client.get(url).data.decode()
    assert "Béla (1. Mogul): reveals their two actions" in re.sub(r"<[^>]+>|\s+", lambda m: " " if m.group(0).isspace() else "", page)
    firsts = re.findall(r'<input type="radio" name="action1"[^>]*>', page)
    assert len(firsts) == 9 and not any("checked" in r for r in firsts)       # a tile per action, none ticked
    assert page.count('value="actions-revealed:') == 9                       # the second: a tap reveals both
    before = expected_seq(client, url)
    response = post_move(client, url, action="actions-revealed:palace")      # no first action tapped
    assert response.status_code == 422 and "first action: choose one" in response.data.decode()
    response = post_move(client, url, action="actions-revealed", action1="gold")
    assert response.status_code == 422 and "second action: choose one" in response.data.decode()
    assert expected_seq(client, url) == before


def test_the_final_page_of_a_running_secret_gold_game_shows_no_gold_in_its_ties(app, client):
    """Before the end, equal palaces share a rank on the result page too, which says why."""
    players, options, moves = M.demo()
    db = store.connect(app.config["DATABASE"])
    created = new_game(db, "maharaja", players, {**options, "secret_gold": True}, "dev")
    for seq, (type_, data) in enumerate(moves[:16], start=1):           # before the first palace
        record(db, created["id"], type_, data, seq, 0, "dev", f"d{seq}")
    client.set_cookie("lang", "en")
    page = client.get(f"/games/{created['id']}/final").data.decode()
    tie = re.search(r'data-testid="tie">(.*?)</li>', page, re.S).group(1)
    assert "They share rank 1" in tie and "only once the game is over" in tie
    assert "The tie-break decides" not in tie


def test_the_log_says_who_acted_and_which_phone_recorded_it(client):
    """Anna's phone records Béla's move: the row names both (docs/rules/maharaja.md §6)."""
    client.set_cookie("lang", "en")
    url = _game(client)
    _set_up(client, url)
    assert post_move(client, url, action="actions-revealed", action1="gold", action2="gold").status_code == 303
    assert post_move(client, url, action="gold-taken").status_code == 303
    page = client.get(url).data.decode()
    row = re.search(r'<li id="e\d+"[^>]*>\s*<span class="seq">#\d+</span>\s*<span class="what">Béla: took 2 gold</span>'
                    r'\s*<small class="who">(.*?)</small>', page, re.S)
    assert row and row.group(1).startswith("recorded by Anna&#39;s phone"), page[:200]


def _selected(page: str, name: str):
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', page, re.S).group(1)
    options = re.findall(r'<option value="([^"]*)"([^>]*)>', select)
    chosen = [value for value, attrs in options if "selected" in attrs]
    return options[0][0], chosen


def test_every_place_choice_starts_empty(client):
    """Issue 17 item 3: a hurried tap must not record a place nobody chose."""
    client.set_cookie("lang", "en")
    url = _game(client)
    page = client.get(url).data.decode()
    governors = re.findall(r'<input type="radio" name="gov\d"[^>]*>', page)
    assert len(governors) == 49 and not any("checked" in r for r in governors)   # 7 boxes × 7 cities, none ticked
    _set_up(client, url)
    assert post_move(client, url, action="actions-revealed", action1="two-houses", action2="move-house").status_code == 303
    assert post_move(client, url, action="architect-travelled", travel_city="C", via=["v1"]).status_code == 303
    page = client.get(url).data.decode()
    for name in ("house_place", "move_from", "move_to"):
        assert _selected(page, name) == ("", []), name
    assert 'name="travel_city"' not in page and 'value="architect-travelled:' in page   # a city is a tap, never preset


def test_villages_are_numbered_on_the_board_and_in_the_forms_help(client):
    """Issue 17 item 8: the board view lists villages 1–30, the form says how they are numbered."""
    client.set_cookie("lang", "en")
    url = _game(client)
    _set_up(client, url)
    page = client.get(url).data.decode()
    assert all(f'data-testid="mh-village-{n}"' in page for n in range(1, 31))
    assert post_move(client, url, action="actions-revealed", action1="house", action2="gold").status_code == 303
    page = client.get(url).data.decode()
    assert 'data-testid="mh-village-help"' in page and "numbered 1–30" in page


def test_with_secret_gold_the_api_state_shows_a_players_gold_only_to_his_own_seat(client, app):
    """Issue 16 item 8: the API's state showed every player's gold to anyone."""
    created = client.post("/api/games", json={"kind": "maharaja", "players": [
        {"name": "Anna"}, {"name": "Béla"}, {"name": "Csaba"}]}).get_json()
    game, tokens = created["id"], [s["token"] for s in created["seats"]]
    url = f"/api/games/{game}/state"
    assert client.get(url).get_json()["state"]["gold"] == [None, None, None]          # a spectator
    assert client.get(url, headers={"X-Seat-Token": tokens[1]}).get_json()["state"]["gold"] == [None, 15, None]
    open_game = client.post("/api/games", json={"kind": "maharaja", "players": [{"name": "Anna"}, {"name": "Béla"}],
                                                "options": {"secret_gold": False}}).get_json()
    assert client.get(f"/api/games/{open_game['id']}/state").get_json()["state"]["gold"] == [15, 15]


def test_with_secret_gold_a_disputes_raw_state_shows_only_the_phones_own_gold(client):
    """The dispute page prints the state before and after a move: with secret gold, the
    other players' gold is hidden there too (docs/rules/maharaja.md §16)."""
    client.set_cookie("lang", "en")
    url = _game(client)
    _set_up(client, url)
    seq = expected_seq(client, url)
    opened = client.post(f"{url}/events/{seq}/dispute", data={"comment": "which village?", "expected_seq": str(seq)})
    assert opened.status_code == 303
    page = client.get(opened.headers["Location"]).data.decode()
    assert re.search(r'&#34;gold&#34;: \[\s*15,\s*null,\s*null\s*\]|"gold": \[\s*15,\s*null,\s*null\s*\]', page)


def test_the_swap_offers_every_other_character_under_its_own_number(app, client):
    """Issue 34 item 2: the swap's options were numbered inside a loop that skipped the player's own
    character, so each label after it was one off ("5. Builder" took 6) and the last one was missing."""
    players, options, moves = M.demo()
    db = store.connect(app.config["DATABASE"])
    created = new_game(db, "maharaja", players, options, "dev")
    client.set_cookie(f"seat_{created['id']}", created["seats"][1]["token"])
    client.set_cookie("lang", "en")
    upto = next(i for i, (type_, _) in enumerate(moves) if type_ == "character-swapped")
    for seq, (type_, data) in enumerate(moves[:upto], start=1):
        record(db, created["id"], type_, data, seq, 0, "dev", f"d{seq}")
    page = client.get(f"/games/{created['id']}").data.decode()
    offered = re.findall(r'<button [^>]*value="character-swapped:(\d+)"[^>]*>(\d+)\. ', page)
    assert [value for value, _ in offered] == [label for _, label in offered]
    assert [int(value) for value, _ in offered] == [1, 2, 3, 4, 6, 7]  # Béla holds the Builder, 5 (of 7 with the Yogi)


def test_the_log_names_whom_a_swapped_character_was_taken_from(app, client):
    """Issue 34 item 2: the swap's option names the character's holder ("7. Yogi – Anna"), so does
    its line in the log: a bank character's line says no one."""
    players, options, moves = M.demo()
    db = store.connect(app.config["DATABASE"])
    created = new_game(db, "maharaja", players, options, "dev")
    client.set_cookie(f"seat_{created['id']}", created["seats"][1]["token"])
    client.set_cookie("lang", "en")
    upto = next(i for i, (type_, _) in enumerate(moves) if type_ == "character-picked") + 1
    for seq, (type_, data) in enumerate(moves[:upto], start=1):
        record(db, created["id"], type_, data, seq, 0, "dev", f"d{seq}")
    page = client.get(f"/games/{created['id']}").data.decode()
    assert "Béla: Swapped to: Yogi (taken from Anna)" in page and "Anna: Picked: Artist" in page


TILE = re.compile(r'<button [^>]*name="action" value="([a-z-]+):([^"]+)"[^>]*>(.*?)</button>', re.S)


def _tiles(page: str, move: str) -> dict[str, str]:
    """The tiles of one move on the page: the choice each records → the words it shows."""
    return {choice: " ".join(re.sub(r"<[^>]+>", " ", label).split())
            for kind, choice, label in TILE.findall(page) if kind == move}


def _newest_line(client, url) -> str:
    page = client.get(url).data.decode()
    return " ".join(re.sub(r"<[^>]+>", " ", re.search(r'<span class="what">(.*?)</span>', page, re.S).group(1)).split())


def test_each_tile_of_a_turn_records_what_it_says(client):
    """Issue 39 (a turn in ≤ 8 taps): the reveal's second action, the city travelled to, the
    palace site, the house in the architect's city, the governor and the starting house are
    each one tile; the move each records names what the tile says, tried tile by tile."""
    client.set_cookie("lang", "en")
    url = _game(client)
    assert post_move(client, url, action="governors-laid", **{f"gov{i}": c for i, c in enumerate("CABDEFG", 1)}).status_code == 303
    for character in ("3", "1", "2"):
        assert post_move(client, url, action="character-chosen", character=character).status_code == 303
    starting = _tiles(client.get(url).data.decode(), "start-house-placed")
    assert starting == {f"v{n}": str(n) for n in range(1, 31)}                # a village by its number
    for n in range(1, 13):
        assert post_move(client, url, action=f"start-house-placed:v{n}").status_code == 303
        assert _newest_line(client, url).endswith(f"starting house – village {n}")

    page = client.get(url).data.decode()
    seconds = _tiles(page, "actions-revealed")
    assert list(seconds) == ["gold", "house", "two-houses", "move-house", "quarry", "palace", "palace-house",
                             "governor", "character"]
    assert seconds["palace-house"] == "Palace and house 13 gold"
    assert post_move(client, url, action="actions-revealed:palace-house", action1="governor").status_code == 303
    assert _newest_line(client, url) == "Béla: Governor track + Palace and house"

    cities = _tiles(client.get(url).data.decode(), "architect-travelled")
    assert cities == {c: f"To {c}" for c in "ABCDEFG"}                       # the architect is on the start space
    assert post_move(client, url, action="architect-travelled:C", via="v1").status_code == 303
    assert _newest_line(client, url) == "Béla: Architect → city C (villages: 1)"

    page = client.get(url).data.decode()
    assert _tiles(page, "palace-built") == {"inner": "Inner palace in city C (3 points)",
                                            "outer": "Outer palace in city C (6 free)"}
    assert _tiles(page, "house-built") == {"C": "House in city C (1 gold)"}
    assert post_move(client, url, action="palace-built:inner").status_code == 303
    assert _newest_line(client, url) == "Béla: Palace – city C, inner"
    assert post_move(client, url, action="house-built:C").status_code == 303
    assert _newest_line(client, url) == "Béla: House – city C"
    governors = _tiles(client.get(url).data.decode(), "governor-moved")
    city = next(iter(governors))
    assert governors[city] == city
    assert post_move(client, url, action=f"governor-moved:{city}").status_code == 303
    assert _newest_line(client, url) == f"Béla: Governor {city} two boxes down"


def test_a_tile_for_a_move_without_one_or_a_made_up_choice_is_refused(client):
    client.set_cookie("lang", "en")
    url = _game(client)
    _set_up(client, url)
    for action in ("gold-taken:C", "actions-revealed:banquet", "turn-ended:now"):
        answer = post_move(client, url, action=action, action1="gold")
        assert answer.status_code == 422, action
