"""Five Tribes through the phone forms (Flask test client): sheet, set-up, a turn, refusals."""
import re

import pytest

from tests.conftest import app_on, csrf_of
from events.application.table import load, record
from events.domain.projection import standings
from events.storage import store
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


def _lay_untracked(db, game_id):
    """The sultanate without its meeples (the documented "meeples not tracked" mode, §13): as the
    API or a game recorded before records it; the phone form always deals or enters the meeples."""
    record(db, game_id, "board-laid", {"tiles": DEMO_BOARD}, load(db, game_id).seq, 0, "test", "lay")


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
    assert '/rules/five-tribes#s7' in html and 'value="33"' in html


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
    _lay_untracked(db, game_id)
    for _ in range(3):
        page = client.get(f"/games/{game_id}").get_data(as_text=True)
        costs = re.findall(r'name="cost" value="(\d+)"', page)
        assert _post(client, db, game_id, action="bid-placed", cost=costs[0]).status_code == 303
    table = load(db, game_id)
    assert table.game["next"]["step"] == "turn" and table.game["next"]["seat"] == 2
    # Cili ends on B2 (oasis) with 3 builders: 4 blue tiles around × 3 = 12 gold; the palm is compulsory.
    assert _post(client, db, game_id, action="meeples-moved", move_tile="B2", tribe="builder", count="3",
                 emptied="1").status_code == 303
    r = _post(client, db, game_id, action="turn-ended")
    assert r.status_code == 422 and '/rules/five-tribes#s5' in r.get_data(as_text=True)
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
    _lay_untracked(db, game_id)
    for cost in ("3", "0", "1"):                                   # Anna 3, Béla 0, Cili 1
        assert _post(client, db, game_id, action="bid-placed", cost=cost).status_code == 303
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    track = re.findall(r'<li class="c-\w+( now| done)?" data-testid="ft-track-\d">([^<]*)</li>', page)
    assert track == [(" now", "Anna: 3"), ("", "Cili: 1"), ("", "Béla: 0")]   # docs/rules/five-tribes.md §3: higher price first


def test_a_whole_turn_of_form_actions_djinns_assassins_and_a_sale(client, db):
    game_id = _new(client)
    _lay_untracked(db, game_id)
    for _ in range(3):
        _post(client, db, game_id, action="bid-placed", cost="0")
    # Cili (seat 2): 4 elders on B1 (sacred place), takes Enki for 2 elders, plants a palm on C1 with Enki
    assert _post(client, db, game_id, action="meeples-moved", move_tile="B1", tribe="elder", count="4").status_code == 303
    assert _post(client, db, game_id, action="djinn-taken", take_djinn="Enki", take_pay="elders").status_code == 303
    assert _post(client, db, game_id, action="djinn-used", use_djinn="Enki", use_pay="elder", use_tile="C1").status_code == 303
    assert _post(client, db, game_id, action="turn-ended").status_code == 303
    # Béla (seat 1): merchants on D1 name their cards (displays not tracked), then sells two
    assert _post(client, db, game_id, action="meeples-moved", move_tile="D1", tribe="merchant", count="3",
                 mcard_fish="1", mcard_silk="1", mcard_fakir="1", path="c1 d1").status_code == 303
    assert _post(client, db, game_id, action="goods-sold", sell_fish="1", sell_silk="1").status_code == 303
    _post(client, db, game_id, action="turn-ended")
    # Anna (seat 0): assassins on E1 kill one of Cili's elders
    r = _post(client, db, game_id, action="meeples-moved", move_tile="E1", tribe="assassin", count="2",
              v1_seat="2", v1_tribe="elder")
    assert r.status_code == 303
    g = load(db, game_id).game
    assert g["players"][2]["elders"] == 0 and g["board"][2]["palms"]
    assert g["players"][1]["gold"] == 53 and g["players"][1]["fakirs"] == 1
    log = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Enki" in log and "C1" in log
    bad = _post(client, db, game_id, action="meeples-moved", move_tile="E1", tribe="elder", count="2", path="Z9")
    assert bad.status_code == 422


def test_ties_are_shared_with_no_tie_break(client, db):
    game_id = _new(client)
    _post(client, db, game_id, **_sheet(0, gold=50, viziers=2))
    _post(client, db, game_id, **_sheet(1, gold=50, elders=11))
    _post(client, db, game_id, **_sheet(2, gold=40))
    rows = standings(load(db, game_id))
    # Anna 50 + 2 viziers + 20 (two opponents with fewer), Béla 50 + 11 elders × 2: both 72, both first
    assert [(r["player"], r["score"], r["rank"]) for r in rows] == [("Anna", 72, 1), ("Béla", 72, 1), ("Cili", 40, 3)]


# ---- the meeples tracked: dealt by the app, a move tapped on the board (CSRF on) -------------

@pytest.fixture
def phone(tmp_path):
    """A phone on an app with CSRF on: every post carries the page's token."""
    app = app_on(str(tmp_path / "ft.db"), WTF_CSRF_ENABLED=True)
    return app.test_client(), store.connect(app.config["DATABASE"])


def _csrf_new(client):
    token = csrf_of(client.get("/games/new").get_data(as_text=True))
    r = client.post("/games/new", data={"csrf_token": token, "kind": "five-tribes", "name": ["Anna", "Béla", "Cili"],
                                        "colour": ["red", "blue", "green"]})
    assert r.status_code == 302
    return r.headers["Location"].rsplit("/", 1)[1]


def _csrf_post(client, db, game_id, page=None, **fields):
    page = page or client.get(f"/games/{game_id}").get_data(as_text=True)
    data = {"csrf_token": csrf_of(page), "expected_seq": load(db, game_id).seq, **fields}
    return client.post(f"/games/{game_id}/moves", data=data)


# an offered tile (outlined: "tap"); the others are links too, which say why they are not offered
TAP = re.compile(r'class="ft-cell[^"]*\btap\b[^"]*"\s+data-testid="ft-tile-(\w\d)"\s+href')
FINAL = re.compile(r'data-testid="ft-tile-(\w\d)"\s+type="submit" form="move-form" name="tap" value="([\w.]+)"')


def _dealt_and_bid(client, db):
    game_id = _csrf_new(client)
    assert _csrf_post(client, db, game_id, action="board-dealt", seed="7").status_code == 303
    for _ in range(3):
        page = client.get(f"/games/{game_id}").get_data(as_text=True)
        cost = re.findall(r'name="cost" value="(\d+)"', page)[0]
        assert _csrf_post(client, db, game_id, page, action="bid-placed", cost=cost).status_code == 303
    return game_id


DROP = re.compile(r'name="drop" value="(\w+)"')
RECORDS = re.compile(r'name="drop" value="(\w+)" data-testid')   # a meeple whose tap records the move


def _tap_the_drops(client, db, game_id, page, path):
    """The meeples tapped in the order dropped, the first offered each time, each tap drawing
    the form again (POST /form, as without a script) until one records the move or the
    outcome asks for what is left; the taps made."""
    drops, taps = [], 0
    while True:
        if (records := RECORDS.findall(page)):
            return _csrf_post(client, db, game_id, page, path=path, drops=".".join(drops), drop=records[0]), taps + 1
        offered = DROP.findall(page)
        if not offered:
            return _csrf_post(client, db, game_id, page, action="meeples-moved", path=path, drops=".".join(drops)), taps + 1
        drops.append(offered[0])
        page = client.post(f"/games/{game_id}/form", data={"csrf_token": csrf_of(page), "path": path,
                                                            "drops": ".".join(drops[:-1]), "drop": drops[-1]}).get_data(as_text=True)
        taps += 1


def test_the_app_deals_and_a_move_is_tapped_tile_by_tile(phone):
    client, db = phone
    game_id = _dealt_and_bid(client, db)
    laid = store.read_events(db, game_id)[1]
    assert laid.type == "board-laid" and laid.data["seed"] == 7 and len(laid.data["meeples"]) == 30
    path, taps = "", 0
    for _ in range(40):                                 # a move has at most 1 + 39 steps here
        page = client.get(f"/games/{game_id}" + (f"?path={path}" if path else "")).get_data(as_text=True)
        finals = FINAL.findall(page)
        if finals:                                    # the last tap records the move: nothing left to choose
            r = _csrf_post(client, db, game_id, page, tap=finals[0][1])
            taps += 1
            break
        links = TAP.findall(page)
        if not links:                                 # the path is whole: the meeples, in the order dropped
            r, dropping = _tap_the_drops(client, db, game_id, page, path)
            taps += dropping
            break
        path = f"{path}.{links[0]}" if path else links[0]
        taps += 1
    assert r.status_code == 303, r.get_data(as_text=True)[:800]
    moved = store.read_events(db, game_id)[-1]
    assert moved.type == "meeples-moved" and ".".join(moved.data["path"]) in (path, finals and finals[0][1])
    assert {"tile", "tribe", "count", "emptied", "drops"} <= set(moved.data)
    # one tap a tile, the start included, and one a meeple the rules left a choice for
    assert len(moved.data["path"]) <= taps <= 2 * len(moved.data["path"])
    assert load(db, game_id).game["next"]["moved"]


def test_a_bad_path_is_refused_with_the_rule_and_nothing_is_appended(phone):
    client, db = phone
    game_id = _dealt_and_bid(client, db)
    before = load(db, game_id).seq
    for path in ("A1 B2 C3 D4", "A1 B1 A1 A2", "A1", "Z9 A1"):
        r = _csrf_post(client, db, game_id, action="meeples-moved", path=path)
        assert r.status_code == 422, path
        assert load(db, game_id).seq == before
    assert "/rules/five-tribes#s4" in _csrf_post(client, db, game_id, action="meeples-moved", path="A1 B2 C3 D4").get_data(as_text=True)


def test_a_tapped_step_that_is_not_legal_is_named_on_the_board(phone):
    client, db = phone
    game_id = _dealt_and_bid(client, db)
    start = TAP.findall(client.get(f"/games/{game_id}").get_data(as_text=True))[0]
    col, row = "ABCDEF".index(start[0]), int(start[1])
    diagonal = "ABCDEF"[col + 1 if col < 5 else col - 1] + str(row + 1 if row < 5 else row - 1)
    page = client.get(f"/games/{game_id}?path={start}.{diagonal}").get_data(as_text=True)
    assert 'data-testid="ft-tap-refused"' in page
    assert f"{diagonal} átlósan van a(z) {start} mellett" in page     # why, in the table's language
    assert load(db, game_id).seq == 5                        # a tap appends nothing


def test_hand_entered_meeples_are_refused_saying_which_colour_is_off(phone):
    client, db = phone
    game_id = _csrf_new(client)
    fields = {f"tile_{i}": kind for i, kind in enumerate(DEMO_BOARD)}
    fields |= {f"meeple_{i}_{k}": "vizier" for i in range(30) for k in range(3)}
    r = _csrf_post(client, db, game_id, action="board-laid", **fields)
    body = r.get_data(as_text=True)
    assert r.status_code == 422 and ("yellow 90 (+74, too many)" in body or "sárga 90 (+74, túl sok)" in body)
    assert load(db, game_id).seq == 1


def test_every_place_select_starts_empty(client, db):
    game_id = _new(client)
    _lay_untracked(db, game_id)
    for _ in range(3):
        _post(client, db, game_id, action="bid-placed", cost="0")
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    selects = re.findall(r'<select name="(move_tile|v1_tile|use_tile|target)">(.*?)</select>', page, re.S)
    assert {name for name, _ in selects} >= {"move_tile", "v1_tile"}
    for name, options in selects:
        assert re.match(r'\s*<option value="">', options) and "selected" not in options, name


def _meeples_laid_and_bid(client, db):
    """test_meeples' BOARD laid by hand, the three bids placed: the first turn's move is next."""
    from tests.scoring.five_tribes.table import BOARD
    game_id = _csrf_new(client)
    fields = {f"tile_{i}": kind for i, kind in enumerate(DEMO_BOARD)}
    fields |= {f"meeple_{i}_{k}": tribe for i, tile in enumerate(BOARD) for k, tribe in enumerate(tile)}
    assert _csrf_post(client, db, game_id, action="board-laid", **fields).status_code == 303
    for _ in range(3):
        assert _csrf_post(client, db, game_id, action="bid-placed", cost="0").status_code == 303
    return game_id


def _redraw(client, game_id, page, **fields):
    return client.post(f"/games/{game_id}/form", data={"csrf_token": csrf_of(page), **fields}).get_data(as_text=True)


def test_a_move_with_choices_asks_only_what_the_rules_leave_open(phone):
    client, db = phone
    game_id = _meeples_laid_and_bid(client, db)
    # B1 (M B A) → C1 → D1 → E1 (A A M): the last meeple may be the merchant or the assassin
    page = client.get(f"/games/{game_id}?path=B1.C1.D1").get_data(as_text=True)
    assert not FINAL.search(page) and 'data-testid="ft-tile-E1"' in page     # a choice is left: no record on tap
    page = client.get(f"/games/{game_id}?path=B1.C1.D1.E1").get_data(as_text=True)
    assert sorted(DROP.findall(page)) == ["assassin", "builder", "merchant"]  # each can start a legal order
    assert 'name="victim"' not in page and 'data-testid="ft-record-move"' not in page   # no order proposed
    # the merchant on C1: then only the builder on D1 lets the last (the assassin) stand on E1
    page = _redraw(client, game_id, page, path="B1.C1.D1.E1", drop="merchant")
    assert re.findall(r'<li data-tribe="(\w*)"', page) == ["merchant", "builder", "assassin"]
    assert "no other choice" in page or "nincs más lehetőség" in page
    assert 'value="tile:D1:elder"' in page and 'name="victim"' in page
    assert 'name="drops" value="merchant"' in page
    r = _csrf_post(client, db, game_id, page, action="meeples-moved", path="B1.C1.D1.E1", drops="merchant",
                   victim="tile:D1:elder")
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    moved = store.read_events(db, game_id)[-1].data
    assert moved["drops"] == ["merchant", "builder", "assassin"]
    assert moved["tribe"] == "assassin" and moved["count"] == 3 and moved["victims"] == [{"tile": "D1", "tribe": "elder"}]
    assert load(db, game_id).game["meeples"][3] == {"elder": 1, "builder": 2}   # D1: E E B + B dropped, an elder killed
    page = client.get(f"/games/{game_id}").get_data(as_text=True)         # the path, numbered on the board
    assert re.findall(r'class="ft-cell[^"]*\blast\b[^"]*"\s+data-testid="ft-tile-(\w\d)"', page) == ["B1", "C1", "D1", "E1"]


def test_buying_with_no_card_chosen_says_so_in_the_players_words_not_the_schemas(client, db):
    """The market's "Buy" tapped before a card was chosen answered 'Hibás adat: „cards”: legalább
    1 elem kell (core §2)' — the payload schema's words on a phone."""
    from scoring.base import FormError
    from scoring.five_tribes.forms import parse_form
    with pytest.raises(FormError) as refused:
        parse_form({}, {"action": "goods-bought", "buy_0": "", "buy_1": ""})
    problem = refused.value.problems[0]
    assert "cards" not in problem.en and "card to buy" in problem.en
    assert "lapot" in problem.hu and problem.rule == rule(5)


def test_the_victims_offered_are_those_of_the_drop_order_tapped_without_a_script(phone):
    """Issue 34 item 3, issue 39 item 3: B1 (M B A) → C1 → D1 → E1, the table dropped the builder
    on C1 first, so D1 holds a merchant to kill. The app proposes no order: the meeples are
    tapped as dropped (each tap posts the form, no script needed), the rest left no choice, and
    the victims offered are those of that order."""
    client, db = phone
    game_id = _meeples_laid_and_bid(client, db)
    page = client.get(f"/games/{game_id}?path=B1.C1.D1.E1").get_data(as_text=True)
    assert 'value="tile:D1:merchant"' not in page
    before = load(db, game_id).seq
    page = _redraw(client, game_id, page, path="B1.C1.D1.E1", drop="builder")
    assert 'value="tile:D1:merchant"' not in page and sorted(DROP.findall(page)) == ["assassin", "merchant"]
    page = _redraw(client, game_id, page, path="B1.C1.D1.E1", drops="builder", drop="merchant")
    assert 'value="tile:D1:merchant"' in page and 'name="drops" value="builder.merchant"' in page
    undone = _redraw(client, game_id, page, path="B1.C1.D1.E1", drops="builder.merchant", undrop="1")
    assert 'name="drops" value="builder"' in undone and 'value="tile:D1:merchant"' not in undone   # ↶ the last tap
    assert load(db, game_id).seq == before                     # drawing the form again records nothing
    r = _csrf_post(client, db, game_id, page, action="meeples-moved", path="B1.C1.D1.E1", drops="builder.merchant",
                   victim="tile:D1:merchant")
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    moved = store.read_events(db, game_id)[-1].data
    assert moved["drops"] == ["builder", "merchant", "assassin"] and moved["victims"] == [{"tile": "D1", "tribe": "merchant"}]


def test_an_order_of_drops_that_cannot_end_is_not_offered_and_refused_when_sent(phone):
    client, db = phone
    game_id = _meeples_laid_and_bid(client, db)
    page = client.get(f"/games/{game_id}?path=B1.C1.D1.E1").get_data(as_text=True)
    # the assassin on C1 first: the merchant next would leave the builder last, and no builder stands on E1
    page = _redraw(client, game_id, page, path="B1.C1.D1.E1", drop="assassin")
    assert DROP.findall(page) == [] and 'data-testid="ft-outcome"' in page     # builder, then merchant: no other choice
    before = load(db, game_id).seq
    r = _csrf_post(client, db, game_id, page, action="meeples-moved", path="B1.C1.D1.E1", drops="assassin.merchant")
    body = r.get_data(as_text=True)
    assert r.status_code == 422 and "/rules/five-tribes#s4" in body and load(db, game_id).seq == before
    r = _csrf_post(client, db, game_id, page, action="meeples-moved", path="B1.C1.D1.E1")   # nothing tapped
    assert r.status_code == 422 and load(db, game_id).seq == before


def test_the_board_has_a_key_to_its_tile_codes_in_the_pages_language(phone):
    client, db = phone
    game_id = _dealt_and_bid(client, db)
    for lang, key in (("hu", "<b>NP</b> = Nagy piac"), ("en", "<b>LM</b> = Large market"), ("de", "<b>GM</b> = ")):
        client.get(f"/lang/{lang}")
        page = client.get(f"/games/{game_id}").get_data(as_text=True)
        legend = re.search(r'data-testid="ft-tile-key">(.*?)</p>', page, re.S).group(1)
        assert key in legend, (lang, legend)
        assert legend.count("<b>") == 8                        # every kind of tile the board holds
