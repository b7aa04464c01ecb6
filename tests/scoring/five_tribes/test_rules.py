"""Five Tribes bookkeeping: every rule check refuses with its rule cited; djinn effects."""
from scoring.five_tribes import GAME
from scoring.five_tribes.data import rule
from scoring.five_tribes.demo import DEMO_BOARD
from scoring.five_tribes.score import score
from tests.scoring.five_tribes.table import B2, C1, D1, NAMES, Table

A1, E1, A2, B1, B3 = 0, 4, 6, 1, 13   # DEMO_BOARD: A1 village, E1 large market, A2 small market, B1 sacred


def fresh(n=3, **board):
    t = Table(n=n, board=False)
    t.do("board-laid", {"tiles": DEMO_BOARD} | board)
    return t


def elders_round(t):
    """Every player takes 2 elders on a market (no compulsory action); the round ends."""
    for tile in (A2, E1, B3):
        t.turn(tile, "elder", 2).end()
    return t.do("round-ended", {})


def over(t):
    return GAME.is_over(t.state)


def test_the_board_must_be_the_30_tiles():
    t = Table(board=False)
    assert t.refused("board-laid", {"tiles": ["oasis"] * 30}) == [rule(1)]
    assert rule(2) in t.refused("board-laid", {"tiles": DEMO_BOARD, "djinns": ["Enki"] * 3})
    assert rule(1) in t.refused("board-laid", {"tiles": DEMO_BOARD, "djinns": ["Enki", "Boaz", "Leta"],
                                                       "cards": ["ivory"] * 3 + ["fish"] * 6})


def test_moves_wait_for_the_board_and_for_the_bids():
    assert Table(board=False).refused("bid-placed", {"seat": 0, "cost": 0}) == [rule(2)]
    t = fresh()
    assert t.refused("meeples-moved", {"tile": 0, "tribe": "elder", "count": 2}) == [rule(3)]


def test_bid_spots_taken_and_at_most_three_zeros():
    t = Table(n=4).bids(3)
    assert t.refused("bid-placed", {"seat": 1, "cost": 3}) == [rule(3)]
    assert t.refused("bid-placed", {"seat": 2, "cost": 0}) == [rule(3)]   # not Gerda's turn to bid
    t.bids(0, 0, 0)
    assert [NAMES[s] for s in t.state["turn_order"]] == ["Peti", "Levi", "Gerda", "Zoli"]


def test_a_fourth_zero_bid_is_refused_with_two_players():
    t = fresh(n=2).bids(0, 0, 0)
    assert t.refused("bid-placed", {"seat": 1, "cost": 0}) == [rule(3)]
    t.bids(1)
    # the 1 plays first, then the zeros, latest first
    assert t.state["turn_order"] == [1, 0, 1, 0]
    assert t.state["camels"] == 11


def test_gold_never_goes_below_zero():
    t = Table().bids(18, 12, 8)
    elders_round(t).bids(18, 12, 8)
    assert [t.player(s)["gold"] for s in range(3)] == [14, 26, 34]
    elders_round(t)
    assert t.refused("bid-placed", {"seat": 0, "cost": 18}) == [rule(3)]
    t.bids(12, 8, 5)                                    # Peti keeps 2 gold
    assert t.refused("goods-bought", {"cards": ["fish"]}) == [rule(5)]   # move first
    t.turn(A2, "merchant", 2, cards=[])
    assert t.refused("goods-bought", {"cards": ["fish"]}) == [rule(5)]   # 3 gold, has 2
    assert t.player(0)["gold"] == 2


def test_market_purchase_costs_3_or_6():
    t = Table().bids(18, 12, 8)
    t.turn(A2, "elder", 2)
    assert t.refused("goods-bought", {"cards": ["fish", "silk"]}) == [rule(5)]   # small: 1 card
    t.do("goods-bought", {"cards": ["fish"]}).end()
    assert t.player(0)["gold"] == 50 - 18 - 3 and t.player(0)["goods"] == {"fish": 1}
    t.turn(E1, "elder", 2).do("goods-bought", {"cards": ["silk", "wheat"]})
    assert t.player(1)["gold"] == 50 - 12 - 6


def test_compulsory_palm_and_palace_then_the_supply_runs_out():
    t = Table().bids(0, 0, 0)
    t.turn(C1, "elder", 2)
    assert t.refused("turn-ended", {}) == [rule(5)]
    assert t.refused("palace-placed", {"tile": C1}) == [rule(5)]      # an oasis takes a palm
    t.do("palm-placed", {"tile": C1})
    assert t.refused("palm-placed", {"tile": C1}) == [rule(5)]        # once
    t.end()
    t.state["supply"]["palaces"] = 0   # as if all 10 were placed
    t.turn(A1, "elder", 2)
    assert t.refused("palace-placed", {"tile": A1}) == [rule(5)]
    t.end()                                                                    # skipped, no palace left


def test_camels_place_owners_and_the_last_camel_ends_the_game_after_the_round():
    t = Table().bids(0, 0, 0)
    t.turn(A2, "elder", 2, emptied=True).end()          # Gerda (seat 2) owns A2
    t.turn(A2, "elder", 2, emptied=True).end()          # owned tiles never change owner
    assert t.state["board"][A2]["owner"] == 2 and t.player(1)["camels_left"] == 8
    t.state["players"][0]["camels_left"] = 1
    t.turn(E1, "vizier", 2, emptied=True).end()
    assert t.state["last_camel"] and t.player(0)["camels_left"] == 0
    assert not over(t)
    t.do("round-ended", {})
    assert over(t)
    assert t.refused("bid-placed", {"seat": 0, "cost": 0}) == [rule(10)]


def test_no_legal_move_ends_the_game_after_the_round():
    t = Table().bids(0, 0, 0)
    assert t.refused("turn-ended", {}) == [rule(4)]
    t.do("turn-ended", {"no_move": True}).do("turn-ended", {"no_move": True}).do("turn-ended", {"no_move": True})
    t.do("round-ended", {})
    assert over(t)


def test_at_least_two_meeples_and_the_vizier_supply():
    t = Table().bids(0, 0, 0)
    assert t.refused("meeples-moved", {"tile": A2, "tribe": "elder", "count": 1}) == [rule(4)]
    t.state["players"][1]["viziers"] = 15
    assert t.refused("meeples-moved", {"tile": A2, "tribe": "vizier", "count": 2}) == [rule(1)]


def test_djinn_costs_and_one_djinn_per_owner():
    t = fresh(djinns=["Enki", "Jafaar", "Sloar"], cards=["fish"] * 6 + ["wheat"] * 3).bids(0, 0, 0)
    t.turn(B1, "elder", 2)
    assert t.refused("djinn-taken", {"djinn": "Hagis", "pay": "elders"}) == [rule(5)]  # not on display
    assert t.refused("djinn-taken", {"djinn": "Enki", "pay": "elder-fakir"}) == [rule(5)]  # no fakir
    t.do("djinn-taken", {"djinn": "Enki", "pay": "elders"}).end()
    assert t.player(2)["djinns"] == ["Enki"] and t.player(2)["elders"] == 0
    assert t.state["djinn_row"] == ["Jafaar", "Sloar"]
    t.turn(B1, "elder", 3)
    assert t.refused("djinn-taken", {"djinn": "Enki", "pay": "elders"}) == [rule(7)]


def test_a_paid_power_once_per_turn_by_its_owner():
    t = Table().bids(0, 0, 0)
    t.turn(B1, "elder", 4).do("djinn-taken", {"djinn": "Enki", "pay": "elders"})
    t.do("djinn-used", {"djinn": "Enki", "pay": "elder", "tile": C1})
    assert t.state["board"][C1]["palms"] and t.state["supply"]["palms"] == 11
    assert t.refused("djinn-used", {"djinn": "Enki", "pay": "elder", "tile": B2}) == [rule(6)]
    t.end()
    assert t.refused("djinn-used", {"djinn": "Enki", "pay": "elder", "tile": B2}) == [rule(5)]  # Zoli's turn
    assert rule(6) in Table().bids(0, 0, 0).turn(B1, "elder", 2).do(
        "djinn-taken", {"djinn": "Jafaar", "pay": "elders"}).refused("djinn-used", {"djinn": "Jafaar", "pay": "elder"})


def test_enki_needs_an_oasis_and_a_payment():
    t = Table().bids(0, 0, 0)
    t.turn(B1, "elder", 2).do("djinn-taken", {"djinn": "Enki", "pay": "elders"})
    assert t.refused("djinn-used", {"djinn": "Enki", "pay": "elder", "tile": C1}) == [rule(6)]   # no elder left
    t2 = Table().bids(0, 0, 0).turn(B1, "elder", 3).do("djinn-taken", {"djinn": "Enki", "pay": "elders"})
    assert t2.refused("djinn-used", {"djinn": "Enki", "pay": "elder", "tile": A1}) == [rule(6)]  # a village


def test_echidna_doubles_the_builders_gold():
    t = Table().bids(0, 0, 0)
    t.turn(B1, "elder", 4).do("djinn-taken", {"djinn": "Echidna", "pay": "elders"}).end()
    t.turn(A2, "elder", 2).end().turn(E1, "elder", 2).end().do("round-ended", {}).bids(0, 0, 0)
    t.turn(A2, "elder", 2).end().turn(E1, "elder", 2).end()
    assert t.state["next"]["seat"] == 2
    t.do("djinn-used", {"djinn": "Echidna", "pay": "elders"}).turn(B2, "builder", 3)
    assert t.player(2)["gold"] == 50 + 4 * 3 * 2


def test_kumarbi_lowers_the_bid_by_a_spot_per_fakir():
    t = Table().bids(0, 0, 0)
    t.turn(D1, "merchant", 3, cards=["fakir", "fakir", "fish"]).end()
    t.turn(A2, "elder", 2).end().turn(E1, "elder", 2).end().do("round-ended", {})
    t.state["players"][2]["djinns"].append("Kumarbi")
    t.do("bid-placed", {"seat": 2, "cost": 8, "fakirs": 2})          # 8 → 5 → 3
    assert t.player(2)["gold"] == 47 and t.player(2)["fakirs"] == 0
    assert t.refused("bid-placed", {"seat": 1, "cost": 5, "fakirs": 1}) == [rule(6)]


def test_assassins_reach_boaz_and_a_second_tile():
    t = Table().bids(0, 0, 0)
    t.turn(A2, "vizier", 2).end()                                       # Gerda: 2 viziers
    t.state["players"][0]["djinns"].append("Boaz")
    rules = t.refused("meeples-moved", {"tile": A1, "tribe": "assassin", "count": 2,
                                        "victims": [{"tile": 29, "tribe": "elder"}]})
    assert rules == [rule(4)]                                   # F5 is 9 steps from A1
    assert t.refused("meeples-moved", {"tile": E1, "tribe": "assassin", "count": 2, "victims": [
        {"seat": 0, "tribe": "vizier"}]}) == [rule(4), rule(6)]   # none, and Boaz
    t.turn(E1, "assassin", 2, victims=[{"seat": 2, "tribe": "vizier"}]).end()
    assert t.player(2)["viziers"] == 1
    t.state["players"][2]["djinns"].append("Boaz")
    assert rule(6) in t.refused("meeples-moved", {"tile": E1, "tribe": "assassin", "count": 2,
                                                               "victims": [{"seat": 2, "tribe": "vizier"}]})
    t.turn(A1, "assassin", 2, victims=[{"tile": A2, "tribe": "elder", "emptied": True}])
    assert t.state["board"][A2]["owner"] == 0        # the second tile, taken by the kill


def test_passive_djinns_pay_gold():
    t = Table().bids(0, 0, 0)
    t.state["players"][0]["djinns"] += ["Monkir", "Ba'al", "Nekir"]
    t.turn(A1, "elder", 3).do("palace-placed", {"tile": A1})              # Gerda places a palace: Monkir +2
    assert t.player(0)["gold"] == 52
    t.end().turn(B1, "elder", 2).do("djinn-taken", {"djinn": "Hagis", "pay": "elders"})   # Zoli: Ba'al +2
    assert t.player(0)["gold"] == 54
    t.end().turn(E1, "assassin", 2, victims=[{"tile": E1, "tribe": "merchant"}])            # Peti's own: Nekir +1
    assert t.player(0)["gold"] == 55
    assert 7 in [p for part in score(t.state)[0] if part.category == "gold" for p in part.events]


def test_marid_pays_for_meeples_dropped_on_the_owners_tiles():
    t = Table().bids(0, 0, 0)
    t.turn(A2, "elder", 2, emptied=True).end()                            # Gerda owns A2
    t.state["players"][2]["djinns"].append("Marid")
    t.turn(12, "elder", 2, path=[A2, 12]).end()                           # Zoli drops 1 on A2: +2
    assert t.player(2)["gold"] == 52
    assert t.refused("meeples-moved", {"tile": A1, "tribe": "elder", "count": 2, "path": [B2, A1]}) == [rule(4)]


def test_leta_takes_an_empty_tile_and_hagis_moves_the_palace():
    t = Table().bids(0, 0, 0)
    t.turn(B1, "elder", 4).do("djinn-taken", {"djinn": "Leta", "pay": "elders"})
    t.do("djinn-used", {"djinn": "Leta", "pay": "elders", "tile": 29})
    assert t.state["board"][29]["owner"] == 2 and t.player(2)["camels_left"] == 7
    t.end()
    t.turn(A1, "elder", 3)
    assert t.refused("palace-placed", {"tile": A2}) == [rule(6)]


def test_goods_sold_must_be_held():
    t = Table().bids(0, 0, 0)
    t.turn(D1, "merchant", 2, cards=["fish", "fakir"])
    assert t.refused("goods-sold", {"goods": {"silk": 1}}) == [rule(5)]
    t.do("goods-sold", {"goods": {"fish": 1}})
    assert t.player(2)["gold"] == 51 and t.player(2)["fakirs"] == 1


def test_a_tile_is_never_owned_twice():
    t = Table().bids(0, 0, 0)
    t.turn(B1, "elder", 4, emptied=True).do("djinn-taken", {"djinn": "Utug", "pay": "elders"})
    assert t.state["board"][B1]["owner"] == 2
    assert t.refused("djinn-used", {"djinn": "Utug", "pay": "elders", "tile": B1}) == [rule(6)]
    t.do("djinn-used", {"djinn": "Utug", "pay": "elders", "tile": E1})
    assert t.state["board"][E1]["owner"] == 2 and t.player(2)["camels_left"] == 6


def test_hagis_puts_the_palace_on_a_neighbouring_tile_diagonals_included():
    t = Table().bids(0, 0, 0)
    t.turn(B1, "elder", 4).do("djinn-taken", {"djinn": "Hagis", "pay": "elders"}).end()
    t.turn(A2, "elder", 2).end().turn(E1, "elder", 2).end()
    t.do("round-ended", {}).bids(0, 0, 0)
    t.turn(A2, "vizier", 2).end().turn(E1, "vizier", 2).end()
    t.do("djinn-used", {"djinn": "Hagis", "pay": "elder"}).turn(A1, "elder", 2)
    assert t.refused("palace-placed", {"tile": 29}) == [rule(6)]
    t.do("palace-placed", {"tile": B2}).end()
    assert t.state["board"][B2]["palaces"] and not t.state["board"][A1]["palaces"]


def test_kandicha_keeps_the_killed_vizier_and_takes_a_builders_gold():
    t = Table().bids(0, 0, 0)
    t.turn(A2, "vizier", 2).end().turn(E1, "elder", 2).end()           # Gerda 2 viziers
    t.state["players"][0]["djinns"].append("Kandicha")
    t.turn(A1, "assassin", 2, victims=[{"seat": 2, "tribe": "vizier"}]).do("palace-placed", {"tile": A1}).end()
    assert (t.player(0)["viziers"], t.player(2)["viziers"]) == (1, 1)
    t.do("round-ended", {}).bids(0, 0, 0)                              # Peti bid last: plays first
    t.turn(A2, "assassin", 2, victims=[{"tile": B2, "tribe": "builder"}])  # B2: 4 blue tiles around
    assert t.player(0)["gold"] == 50 + 4


def test_sibittis_keeps_a_djinn_baal_pays_and_sloar_needs_a_fakir():
    t = Table().bids(0, 0, 0)
    t.state["players"][0]["djinns"].append("Ba'al")
    t.turn(D1, "merchant", 2, cards=["fakir", "fakir"]).end()
    t.turn(B1, "elder", 4).do("djinn-taken", {"djinn": "Sibittis", "pay": "elders"})         # Ba'al +2
    t.do("djinn-used", {"djinn": "Sibittis", "pay": "elders", "keep": "Sloar"})               # Ba'al +2
    assert t.player(1)["djinns"] == ["Sibittis", "Sloar"] and t.player(0)["gold"] == 54
    assert rule(6) in t.refused("djinn-used", {"djinn": "Sloar", "pay": "fakir", "card": "ivory"})  # no fakir
