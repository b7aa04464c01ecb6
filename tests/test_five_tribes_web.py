"""Five Tribes through the phone forms (Flask test client): sheet, set-up, a turn, refusals."""
import re

from events.projection import standings
from events.table import load
from scoring.five_tribes import DEMO_BOARD


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
    assert "FT §7" in html and 'value="33"' in html


def test_malformed_numbers_are_refused_not_a_500(client, db):
    game_id = _new(client)
    assert _post(client, db, game_id, **_sheet(0, gold="lots")).status_code == 422
    assert _post(client, db, game_id, **_sheet(0, gold="-4")).status_code == 422
    assert _post(client, db, game_id, **_sheet(9, gold="4")).status_code == 422
    assert _post(client, db, game_id, action="meeples-moved", tribe="x").status_code == 422


def test_keeping_the_books_through_the_forms(client, db):
    game_id = _new(client)
    lay = {f"tile_{i}": kind for i, kind in enumerate(DEMO_BOARD)}
    assert _post(client, db, game_id, action="board-laid", **lay).status_code == 303
    for _ in range(3):
        page = client.get(f"/games/{game_id}").get_data(as_text=True)
        costs = re.findall(r'name="cost" value="(\d+)"', page)
        assert _post(client, db, game_id, action="bid-placed", cost=costs[0]).status_code == 303
    table = load(db, game_id)
    assert table.game["phase"] == "turn" and table.game["turn"]["seat"] == 2
    # Cili ends on B2 (oasis) with 3 builders: 4 blue tiles around × 3 = 12 gold; the palm is compulsory.
    assert _post(client, db, game_id, action="meeples-moved", move_tile="7", tribe="builder", count="3",
                 emptied="1").status_code == 303
    r = _post(client, db, game_id, action="turn-ended")
    assert r.status_code == 422 and "seed 002 §2.5" in r.get_data(as_text=True)
    assert _post(client, db, game_id, action="palm-placed").status_code == 303
    assert _post(client, db, game_id, action="turn-ended").status_code == 303
    table = load(db, game_id)
    assert table.game["players"][2]["gold"] == 62
    rows = {r["seat"]: r for r in standings(table)}
    assert rows[2]["breakdown"]["tiles"] == 8 and rows[2]["breakdown"]["palms"] == 3
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'data-testid="ft-map"' in page and "Béla" in page
