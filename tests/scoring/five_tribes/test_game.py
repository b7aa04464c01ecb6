"""Five Tribes: the seed's worked examples, final scoring by hand, rule checks, both modes agree."""
from scoring.five_tribes import GAME
from scoring.five_tribes.data import rule
from scoring.five_tribes.score import best_with_wilds, holdings_parts, score, suit_layers
from tests.scoring.five_tribes.table import B2, C2, D1, NAMES, Table


# ---------------------------------------------------------------- the seed's worked examples

def _builders_table():
    t = Table().bids(0, 0, 0)                                   # turn order: Gerda, Zoli, Peti
    t.turn(D1, "merchant", 2, cards=["fakir", "fakir"]).end()   # Gerda takes 2 fakirs
    t.turn(6, "vizier", 2).end()
    t.turn(10, "elder", 2).end()
    t.do("round-ended", {}).bids(0, 0, 0)                       # order: Peti, Zoli, Gerda
    t.turn(12, "vizier", 2).end().turn(13, "elder", 2).end()
    return t


def test_seed_builders_4_blue_tiles_times_3_plus_2_fakirs_is_20():
    # B2 (oasis, red) has 4 blue tiles in its 3 × 3 block: A1 village, B1 sacred, C2 sacred, C3 village.
    t = _builders_table()
    t.turn(B2, "builder", 3, fakirs=2)
    assert t.player(2)["gold"] == 50 + 20
    assert t.player(2)["fakirs"] == 0


def test_seed_builders_on_a_blue_tile_is_25():
    # C2 (sacred place, blue) counts itself + 4 blue neighbours: 5 × (3 + 2).
    t = _builders_table()
    t.turn(C2, "builder", 3, fakirs=2)
    assert t.player(2)["gold"] == 50 + 25


def test_seed_merchandise_sale_30_plus_7():
    t = Table().bids(0, 0, 0)
    six = ["ivory", "jewels", "gold", "papyrus", "silk", "spice"]
    t.turn(D1, "merchant", 9, cards=six + ["ivory", "jewels", "gold"])
    t.do("goods-sold", {"goods": {k: (2 if k in ("ivory", "jewels", "gold") else 1) for k in six}})
    assert t.player(2)["gold"] == 50 + 30 + 7
    assert t.player(2)["goods"] == {}


def test_seed_bid_example_peti_3_zoli_1_gerda_0_levi_0_plays_peti_zoli_levi_gerda():
    t = Table(n=4).bids(3, 1, 0, 0)
    assert [NAMES[s] for s in t.state["turn_order"]] == ["Peti", "Zoli", "Levi", "Gerda"]
    assert [t.player(s)["gold"] for s in range(4)] == [47, 49, 50, 50]
    assert t.state["next"]["seat"] == 0


# ---------------------------------------------------------------- final scoring by hand

def holdings(**kw):
    base = {"gold": 0, "viziers": 0, "elders": 0, "djinns": [], "palms": 0, "palaces": 0,
            "tile_vp": 0, "goods": {}, "fakirs": 0}
    return base | kw


def parts(seat, everyone):
    return {p.category: p.points for p in holdings_parts(seat, everyone, {})}


def test_gold_scores_one_each():
    assert parts(0, [holdings(gold=37), holdings()])["gold"] == 37


def test_viziers_one_each_plus_10_per_opponent_with_strictly_fewer_ties_share_nothing():
    everyone = [holdings(viziers=3), holdings(viziers=3), holdings(viziers=1), holdings()]
    got = [parts(s, everyone) for s in range(4)]
    assert [(g["viziers"], g["vizier-bonus"]) for g in got] == [(3, 20), (3, 20), (1, 10), (0, 0)]


def test_all_tied_viziers_give_no_bonus():
    everyone = [holdings(viziers=2)] * 3
    assert {parts(s, everyone)["vizier-bonus"] for s in range(3)} == {0}


def test_elders_two_each():
    assert parts(0, [holdings(elders=5)])["elders"] == 10


def test_djinns_printed_vp():
    # docs/rules/five-tribes.md §6: Hagis 10, Sibittis 4, Monkir 6
    assert parts(0, [holdings(djinns=["Hagis", "Sibittis", "Monkir"])])["djinns"] == 20


def test_palm_trees_3_and_palaces_5_and_tiles_vp():
    got = parts(0, [holdings(palms=2, palaces=3, tile_vp=29)])
    assert (got["palms"], got["palaces"], got["tiles"]) == (6, 15, 29)


def test_merchandise_single_suit():
    assert parts(0, [holdings(goods={"fish": 1, "silk": 1, "ivory": 1, "gold": 1, "wheat": 1})])["goods"] == 21


def test_merchandise_multi_layer_fakirs_excluded():
    # fish ×3, wheat ×2, silk, ivory: suits of 4, 2 and 1 kinds = 13 + 3 + 1; fakirs count nothing.
    h = holdings(goods={"fish": 3, "wheat": 2, "silk": 1, "ivory": 1}, fakirs=6)
    assert suit_layers(h["goods"]) == [13, 3, 1]
    assert parts(0, [h])["goods"] == 17


def test_jafaar_makes_viziers_3_each():
    assert parts(0, [holdings(viziers=4, djinns=["Jafaar"])])["viziers"] == 12


def test_shamhat_makes_elders_4_each():
    assert parts(0, [holdings(elders=3, djinns=["Shamhat"])])["elders"] == 12


def test_haurvatat_makes_palm_trees_5_each():
    assert parts(0, [holdings(palms=2, djinns=["Haurvatat"])])["palms"] == 10


def test_al_amin_fakir_pairs_are_wild_goods():
    # fish + wheat and 5 fakirs → 2 wild goods of new kinds: one suit of 4 = 13 (without: 3).
    h = holdings(goods={"fish": 1, "wheat": 1}, fakirs=5, djinns=["Al-Amin"])
    assert parts(0, [h])["goods"] == 13
    assert parts(0, [h | {"djinns": []}])["goods"] == 3
    best, layers = best_with_wilds({"fish": 1, "wheat": 1}, 2)
    assert sum(best.values()) == 4 and layers == [13]


def test_al_amin_completes_a_second_layer_when_that_pays_more():
    # 9 different goods already: a 10th kind does not exist, so 2 wilds go to a second layer: 60 + 3.
    goods = {k: 1 for k in ("ivory", "jewels", "gold", "papyrus", "silk", "spice", "fish", "wheat", "pottery")}
    assert parts(0, [holdings(goods=goods, fakirs=4, djinns=["Al-Amin"])])["goods"] == 63


def test_every_part_explains_its_points_in_both_languages():
    h = holdings(viziers=2, djinns=["Jafaar"], goods={"fish": 2})
    for part in holdings_parts(0, [h, holdings()], {}):
        assert part.label["hu"] and part.label["en"]
    labels = {p.category: p.label["en"] for p in holdings_parts(0, [h, holdings()], {})}
    assert labels["viziers"] == "Viziers: 2 × 3 (Jafaar)"
    assert labels["goods"] == "Merchandise sets: 1 + 1"


# ---------------------------------------------------------------- score sheet

def sheet(seat, **kw):
    return {"seat": seat, "gold": 0, "viziers": 0, "elders": 0, "djinns": [], "palms": 0, "palaces": 0,
            "goods": {}, "fakirs": 0} | kw


def test_score_sheet_game_scores_every_category_and_ends_when_all_are_in():
    t = Table(n=3, board=False)
    t.do("sheet-entered", sheet(0, gold=41, viziers=4, elders=3, djinns=["Jafaar", "Boaz"], palms=2, palaces=1,
                                tiles={"oasis": 2, "sacred-15": 1}, goods={"fish": 2, "silk": 1}, fakirs=3))
    assert not GAME.is_over(t.state)
    t.do("sheet-entered", sheet(1, gold=60, viziers=4, tile_vp=20))
    t.do("sheet-entered", sheet(2, gold=12, viziers=1))
    assert GAME.is_over(t.state)
    got = t.points(0)
    # viziers 4 × 3 (Jafaar) + 10 (only Gerda has fewer; Zoli ties); tiles 8 + 8 + 15; goods 3 + 1.
    assert got == {"gold": 41, "viziers": 12, "vizier-bonus": 10, "elders": 6, "djinns": 12, "palms": 6,
                   "palaces": 5, "tiles": 31, "goods": 4}
    assert sum(got.values()) == 127
    assert all(p.events == (2,) for p in score(t.state)[0])


def test_sheet_refuses_a_djinn_owned_twice_and_supplies_over_the_limit():
    t = Table(n=3, board=False).do("sheet-entered", sheet(0, djinns=["Enki"], viziers=10, palms=8))
    assert rule(7) in t.refused("sheet-entered", sheet(1, djinns=["Enki"]))
    assert rule(1) in t.refused("sheet-entered", sheet(1, viziers=7))
    assert rule(1) in t.refused("sheet-entered", sheet(1, palms=5))
    assert rule(8) in t.refused("sheet-entered", sheet(0))
    assert rule(8) in t.refused("sheet-entered", sheet(1, tile_vp=5, tiles={"oasis": 1}))
    assert rule(2) in t.refused("sheet-entered", sheet(1, tiles={"small-market": 8, "oasis": 1}))


def test_sheet_goods_by_kind_never_exceed_the_deck():
    t = Table(n=3, board=False).do("sheet-entered", sheet(0, goods={"ivory": 1}, fakirs=17))
    assert rule(1) in t.refused("sheet-entered", sheet(1, goods={"ivory": 2}))
    assert rule(1) in t.refused("sheet-entered", sheet(1, fakirs=2))


def test_keeping_the_books_and_the_score_sheet_give_the_same_breakdown():
    t = _builders_table()
    t.turn(B2, "builder", 3, fakirs=2, emptied=True).do("palm-placed", {"tile": B2}).end()
    kept = Table(n=3, board=False)
    from scoring.five_tribes.score import holdings_all
    for seat, h in enumerate(holdings_all(t.state)):
        kept.do("sheet-entered", sheet(seat, **{k: v for k, v in h.items() if k != "seat"}))
    for seat in range(3):
        assert t.points(seat) == kept.points(seat)
    assert t.points(2)["tiles"] == 8 and t.points(2)["palms"] == 3


def test_a_running_game_is_finished_on_the_sheet_and_then_takes_only_sheets():
    t = Table().bids(0, 0, 0)
    t.do("sheet-entered", sheet(0, gold=50))
    assert t.refused("turn-ended", {}) == [rule(8)]
    t.do("sheet-entered", sheet(1, gold=50)).do("sheet-entered", sheet(2, gold=51))
    assert GAME.is_over(t.state)
    assert t.refused("sheet-entered", sheet(2)) == [rule(10)]
