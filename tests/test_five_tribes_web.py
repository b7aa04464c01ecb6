"""Five Tribes through the phone forms (Flask test client): sheet, set-up, a turn, refusals."""
import re

from events.projection import standings
from events.table import load
from scoring.five_tribes.data import rule
from scoring.five_tribes.demo import DEMO_BOARD


def _new(client, names=("Anna", "Béla", "Cili")):
    r = client.post("/games/new", data={"kind": "five-tribes", "name": list(names),
                                        "colour": ["red", "blue", "green", "yellow"][:len(names)]})
    assert r.status_code == 302
    return r.headers["Location"].rsplit("/", 1)[1]


def _post(client, db, game_id, **fields):
    seq = load(db, game_id).seq
    return client.post(f"/games/{game_id}/moves", data={"expected_seq": seq, **fields})


def _sheet(seat, **kw):
    base = {"action": "sheet-entered", "sheet_seat": seat}
    return base | {f"s_{k}": v for k, v in kw.items()}


def test_score_sheet_form_for_three_players(client, db):
    game_id = _new(client)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert page.count('name="sheet_djinn"') == 22
    r = _post(client, db, game_id, **_sheet(0, gold=40, viziers=5, elders=2, palms=1, palaces=2, tile_vp=30,
                                            goods_fish=2, goods_silk=1, fakirs=4), sheet_djinn=["Jafaar", "Al-Amin"])
    assert r.status_code == 303, r.get_data(as_text=True)
    _post(client, db, game_id, **_sheet(1, gold=55, viziers=5, tiles_oasis=2, **{"tiles_sacred-15": 1}))
    _post(client, db, game_id, **_sheet(2, gold=70, viziers=1))
    table = load(db, game_id)
    assert table.rules.is_over(table.game)
    rows = {r["seat"]: r for r in standings(table)}
    # Anna: 40 + 5×3 + 10 (Cili) + 4 + djinns 6+5 + 3 + 10 + 30 + goods (fish, silk + 2 wilds: 13, fish: 1)
    assert rows[0]["breakdown"]["goods"] == 14
    assert rows[0]["score"] == 40 + 15 + 10 + 4 + 11 + 3 + 10 + 30 + 14
    assert rows[1]["breakdown"]["tiles"] == 31 and rows[1]["breakdown"]["vizier-bonus"] == 10
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Viziers: 5 × 3 (Jafaar)" in page or "Vezírek: 5 × 3 (Jafaar)" in page


def test_a_refused_sheet_names_the_rule_and_keeps_the_typed_values(client, db):
    game_id = _new(client)
    _post(client, db, game_id, **_sheet(0, gold=40), sheet_djinn=["Enki"])
    r = _post(client, db, game_id, **_sheet(1, gold=33), sheet_djinn=["Enki"])
    assert r.status_code == 422
    html = r.get_data(as_text=True)
    assert rule(7) in html and 'value="33"' in html


def test_malformed_numbers_are_refused_not_a_500(client, db):
    game_id = _new(client)
    assert _post(client, db, game_id, **_sheet(0, gold="lots")).status_code == 422
    assert _post(client, db, game_id, **_sheet(0, gold="-4")).status_code == 422
    assert _post(client, db, game_id, **_sheet(9, gold="4")).status_code == 422
    assert _post(client, db, game_id, action="meeples-moved", tribe="x").status_code == 422
    half = {f"tile_{i}": kind for i, kind in enumerate(DEMO_BOARD) if i % 2}
    r = _post(client, db, game_id, action="board-laid", **half)
    assert r.status_code == 422 and "hiányzik: A1 C1" in r.get_data(as_text=True)


def test_keeping_the_books_through_the_forms(client, db):
    game_id = _new(client)
    lay = {f"tile_{i}": kind for i, kind in enumerate(DEMO_BOARD)}
    assert _post(client, db, game_id, action="board-laid", **lay).status_code == 303
    for _ in range(3):
        page = client.get(f"/games/{game_id}").get_data(as_text=True)
        costs = re.findall(r'name="cost" value="(\d+)"', page)
        assert _post(client, db, game_id, action="bid-placed", cost=costs[0]).status_code == 303
    table = load(db, game_id)
    assert table.game["next"]["step"] == "turn" and table.game["next"]["seat"] == 2
    # Cili ends on B2 (oasis) with 3 builders: 4 blue tiles around × 3 = 12 gold; the palm is compulsory.
    assert _post(client, db, game_id, action="meeples-moved", move_tile="7", tribe="builder", count="3",
                 emptied="1").status_code == 303
    r = _post(client, db, game_id, action="turn-ended")
    assert r.status_code == 422 and rule(5) in r.get_data(as_text=True)
    assert _post(client, db, game_id, action="palm-placed").status_code == 303
    assert _post(client, db, game_id, action="turn-ended").status_code == 303
    table = load(db, game_id)
    assert table.game["players"][2]["gold"] == 62
    rows = {r["seat"]: r for r in standings(table)}
    assert rows[2]["breakdown"]["tiles"] == 8 and rows[2]["breakdown"]["palms"] == 3
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'data-testid="ft-map"' in page and "Béla" in page
    # the score sheet, reachable from the running game, is prefilled from the books of the chosen player
    prefilled = client.get(f"/games/{game_id}?sheet=2").get_data(as_text=True)
    assert re.search(r'name="s_gold"[^>]*value="62"', prefilled)
    assert re.search(r'name="s_tile_vp"[^>]*value="8"', prefilled)
    assert re.search(r'name="sheet_seat" value="2" checked', prefilled)


def test_the_board_shows_the_turn_order_track_with_each_bid_and_whose_turn_it_is(client, db):
    game_id = _new(client)
    _post(client, db, game_id, action="board-laid", **{f"tile_{i}": kind for i, kind in enumerate(DEMO_BOARD)})
    for cost in ("3", "0", "1"):                                   # Anna 3, Béla 0, Cili 1
        assert _post(client, db, game_id, action="bid-placed", cost=cost).status_code == 303
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    track = re.findall(r'<li class="c-\w+( now| done)?" data-testid="ft-track-\d">([^<]*)</li>', page)
    assert track == [(" now", "Anna: 3"), ("", "Cili: 1"), ("", "Béla: 0")]   # docs/rules/five-tribes.md §3: higher price first


def test_a_whole_turn_of_form_actions_djinns_assassins_and_a_sale(client, db):
    game_id = _new(client)
    lay = {f"tile_{i}": kind for i, kind in enumerate(DEMO_BOARD)}
    _post(client, db, game_id, action="board-laid", **lay)
    for _ in range(3):
        _post(client, db, game_id, action="bid-placed", cost="0")
    # Cili (seat 2): 4 elders on B1 (sacred place), takes Enki for 2 elders, plants a palm on C1 with Enki
    assert _post(client, db, game_id, action="meeples-moved", move_tile="1", tribe="elder", count="4").status_code == 303
    assert _post(client, db, game_id, action="djinn-taken", take_djinn="Enki", take_pay="elders").status_code == 303
    assert _post(client, db, game_id, action="djinn-used", use_djinn="Enki", use_pay="elder", use_tile="2").status_code == 303
    assert _post(client, db, game_id, action="turn-ended").status_code == 303
    # Béla (seat 1): merchants on D1 name their cards (displays not tracked), then sells two
    assert _post(client, db, game_id, action="meeples-moved", move_tile="3", tribe="merchant", count="3",
                 mcard_fish="1", mcard_silk="1", mcard_fakir="1", path="c1 d1").status_code == 303
    assert _post(client, db, game_id, action="goods-sold", sell_fish="1", sell_silk="1").status_code == 303
    _post(client, db, game_id, action="turn-ended")
    # Anna (seat 0): assassins on E1 kill one of Cili's elders
    r = _post(client, db, game_id, action="meeples-moved", move_tile="4", tribe="assassin", count="2",
              v1_seat="2", v1_tribe="elder")
    assert r.status_code == 303
    g = load(db, game_id).game
    assert g["players"][2]["elders"] == 0 and g["board"][2]["palms"]
    assert g["players"][1]["gold"] == 53 and g["players"][1]["fakirs"] == 1
    log = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Enki" in log and "C1" in log
    bad = _post(client, db, game_id, action="meeples-moved", move_tile="4", tribe="elder", count="2", path="Z9")
    assert bad.status_code == 422


def test_ties_are_shared_with_no_tie_break(client, db):
    game_id = _new(client)
    _post(client, db, game_id, **_sheet(0, gold=50, viziers=2))
    _post(client, db, game_id, **_sheet(1, gold=50, elders=11))
    _post(client, db, game_id, **_sheet(2, gold=40))
    rows = standings(load(db, game_id))
    # Anna 50 + 2 viziers + 20 (two opponents with fewer), Béla 50 + 11 elders × 2: both 72, both first
    assert [(r["player"], r["score"], r["rank"]) for r in rows] == [("Anna", 72, 1), ("Béla", 72, 1), ("Cili", 40, 3)]
