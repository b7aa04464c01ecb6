"""Five Tribes with every meeple tracked (docs/rules/five-tribes.md §4, §13): the dealt board, the
path checks, what a move collects computed by the app, and the rulebook fixes of rules version 2
(§5, §6, §10, §14). Each refusal is checked against the old behaviour where it had one: rules
version 1 (``Table(rules=1)``, the checks games recorded before keep) accepts what version 2 refuses."""
from collections import Counter

import pytest

from scoring.base import Move
from scoring.five_tribes import GAME
from scoring.five_tribes.data import EVENT_TYPES, TILE_INDEX, TRIBES, deal, rule
from scoring.five_tribes.demo import DEMO_BOARD
from scoring.five_tribes.view import last_path
from tests.scoring.five_tribes.table import BOARD, LETTERS, Table, layout


def tracked(n=3, rules=2, meeples=BOARD, **extra) -> Table:
    t = Table(n=n, board=False, rules=rules)
    t.do("board-laid", {"tiles": DEMO_BOARD, "meeples": meeples} | extra)
    return t


def move(path, drops, **extra) -> dict:
    return {"path": path.split(), "drops": [LETTERS[c] for c in drops]} | extra


# ---------------------------------------------------------------- the board and its meeples

def test_the_layout_helper_holds_the_90_meeples():
    assert Counter(t for tile in BOARD for t in tile) == {t: v["count"] for t, v in TRIBES.items()}


def test_a_dealt_board_is_the_deal_of_its_recorded_seed():
    tiles, meeples = deal(2014)
    assert Counter(tiles) == Counter(DEMO_BOARD) and all(len(m) == 3 for m in meeples)
    t = Table(board=False)
    t.do("board-laid", {"tiles": tiles, "meeples": meeples, "seed": 2014})
    assert t.state["meeples"][0] == dict(Counter(meeples[0]))
    swapped = [meeples[1]] + [meeples[0]] + meeples[2:]
    if swapped != meeples:
        assert Table(board=False).refused("board-laid", {"tiles": tiles, "meeples": swapped, "seed": 2014}) == [rule(2)]


def test_hand_entered_meeples_with_wrong_colour_counts_say_which_colour_is_off():
    wrong = [list(m) for m in BOARD]
    wrong[0] = ["vizier", "vizier", "vizier"]          # A1 was V V E: one vizier too many, one elder short
    problems = GAME.check(Table(board=False).state, Move(2, "board-laid", {"tiles": DEMO_BOARD, "meeples": wrong}))
    assert [p.rule for p in problems] == [rule(2)]
    assert "yellow 17 (+1, too many)" in problems[0].en and "white 19 (-1, too few)" in problems[0].en
    assert "sárga 17 (+1, túl sok)" in problems[0].hu


# ---------------------------------------------------------------- the path

def ready(**kw) -> Table:
    return tracked(**kw).bids(0, 0, 0)        # turn order Gerda, Zoli, Peti


def test_the_app_computes_what_a_move_collects():
    t = ready()
    # A1 holds V V E: drop V on B1, V on C1, E on D1 (E E B) → 3 elders taken, B stays on D1
    t.do("meeples-moved", move("A1 B1 C1 D1", "VVE"))
    assert t.player(2)["elders"] == 3
    assert t.state["meeples"][TILE_INDEX["D1"]] == {"builder": 1}
    assert t.state["meeples"][TILE_INDEX["A1"]] == {}
    assert t.state["meeples"][TILE_INDEX["B1"]] == {"merchant": 1, "builder": 1, "assassin": 1, "vizier": 1}
    assert t.state["next"]["tile"] == TILE_INDEX["D1"]
    assert last_path(Move(t.seq, "meeples-moved", move("A1 B1 C1 D1", "VVE"))) == [0, 1, 2, 3]  # what the board numbers
    assert t.state["board"][TILE_INDEX["D1"]]["owner"] is None      # not emptied: no camel


def test_a_first_move_claiming_12_viziers_is_refused():
    t = ready()
    problems = t.refused("meeples-moved", move("A1 B1 C1 D1", "VVE", tribe="vizier", count=12))
    assert problems == [rule(13)]
    # the old entry without the meeples took the claim as it came: 12 viziers
    old = Table(rules=1).bids(0, 0, 0)
    old.turn(3, "vizier", 12)
    assert old.player(2)["viziers"] == 12


@pytest.mark.parametrize("path, drops, why", [
    ("A1 B1 A1 A2", "VVE", "never straight back"),
    ("A1 B2 C2 D2", "VVE", "never diagonally"),
    ("A1 B1 C1", "VE", "so the path takes 3 steps"),
    ("A1 B1 C1 C2", "VVE", "where no white meeple stands"),
    ("A1 B1 C1 D1", "VEE", "are not those picked up"),
])
def test_illegal_paths_are_refused_with_the_rule(path, drops, why):
    t = ready()
    problems = GAME.check(t.state, Move(9, "meeples-moved", move(path, drops)))
    assert [p.rule for p in problems] == [rule(4)] and why in problems[0].en


def test_straight_back_is_refused_also_when_the_meeples_are_not_tracked():
    # the path of an untracked move lists the tiles dropped on: B1, B2, back to B1
    t = Table().bids(0, 0, 0)
    assert t.refused("meeples-moved", {"tile": 1, "tribe": "elder", "count": 2, "path": [1, 7, 1]}) == [rule(4)]
    old = Table(rules=1).bids(0, 0, 0)
    old.turn(1, "elder", 2, path=[1, 7, 1])                         # the old books accepted it


def test_a_move_from_an_empty_tile_is_refused():
    t = ready()
    t.do("meeples-moved", move("A1 B1 C1 D1", "VVE")).end()        # A1 is left empty
    problems = t.refused("meeples-moved", move("A1 A2", "E"))
    assert problems == [rule(4)]
    assert "A1 is empty" in GAME.check(t.state, Move(9, "meeples-moved", move("A1 A2", "E")))[0].en


def test_an_emptied_end_tile_takes_a_camel():
    t = ready(meeples=layout(A1="EEV", B1="EEE"))
    # A1 (E E V) → A2 → B2 → B1: V on A2, E on B2, E on B1 (E E E) → 4 elders, B1 empty → Gerda's camel
    t.do("meeples-moved", move("A1 A2 B2 B1", "VEE"))
    assert t.player(2)["elders"] == 4
    assert t.state["board"][TILE_INDEX["B1"]]["owner"] == 2 and t.player(2)["camels_left"] == 7
    assert t.state["board"][TILE_INDEX["A1"]]["owner"] is None      # the start tile is left empty, not taken


# ---------------------------------------------------------------- the tribes, computed

def test_builders_gold_is_computed_from_the_blue_tiles_around():
    t = ready()
    # D1 (E E B) → C1 → B1 → B2: the builder last on B2 (V M B): 2 builders × 4 blue tiles around B2
    t.do("meeples-moved", move("D1 C1 B1 B2", "EEB"))
    assert t.player(2)["gold"] == 50 + 4 * 2


def test_assassins_kill_within_reach_a_meeple_that_stands_there():
    t = ready()
    # B1 (M B A) → C1 → D1 → E1: the assassin last on E1 (A A M): 3 assassins, reach 3
    m = move("B1 C1 D1 E1", "MBA")
    assert t.refused("meeples-moved", m | {"victims": [{"tile": "D1", "tribe": "vizier"}]}) == [rule(4)]
    assert t.refused("meeples-moved", m | {"victims": [{"tile": "F5", "tribe": "elder"}]}) == [rule(4)]
    # the merchant left on E1 is killed: E1 is emptied by the kill and taken (rulebook 2.4)
    t.do("meeples-moved", m | {"victims": [{"tile": "E1", "tribe": "merchant"}]})
    assert t.state["meeples"][TILE_INDEX["E1"]] == {}
    assert t.state["board"][TILE_INDEX["E1"]]["owner"] == 2


def test_no_legal_move_is_verified_not_claimed():
    t = ready()
    assert t.refused("turn-ended", {"no_move": True}) == [rule(10)]
    lone = [{} for _ in range(30)]
    lone[0], lone[29] = {"vizier": 1}, {"elder": 1}       # A1 and F5: no move can end legally
    t.state["meeples"] = lone
    t.do("turn-ended", {"no_move": True})
    assert t.state["no_moves"]
    # the old books took the claim on trust
    Table(rules=1).bids(0, 0, 0).do("turn-ended", {"no_move": True})


# ---------------------------------------------------------------- rulebook fixes of rules version 2

CARDS = ["fish", "wheat", "pottery", "silk", "spice", "fakir", "ivory", "gold", "jewels"]


def displayed(rules=2, n=3) -> Table:
    t = Table(n=n, board=False, rules=rules)
    return t.do("board-laid", {"tiles": DEMO_BOARD, "djinns": ["Enki", "Jafaar", "Sloar"], "cards": CARDS})


def test_a_large_market_sells_2_cards_while_2_are_shown():
    for rules, accepted in ((2, False), (1, True)):
        t = displayed(rules).bids(0, 0, 0)
        t.turn(4, "elder", 2)                                  # E1, a large market
        problems = t.problems("goods-bought", {"cards": ["fish"]})
        assert (problems == []) is accepted
    t = displayed().bids(0, 0, 0).turn(4, "elder", 2)
    assert t.refused("goods-bought", {"cards": ["fish"]}) == [rule(5)]
    t.do("goods-bought", {"cards": ["fish", "wheat"]})
    assert t.player(2)["goods"] == {"fish": 1, "wheat": 1} and t.player(2)["gold"] == 44


def _played_round(t):
    for tile in (6, 4, 13):                                    # A2, E1, B3: markets, no compulsory action
        t.turn(tile, "elder", 2).end()
    return t


def test_a_refill_brings_the_rows_back_to_9_cards_and_3_djinns():
    t = _played_round(displayed().bids(0, 0, 0))
    assert t.refused("round-ended", {"cards": ["silk"]}) == [rule(2)]   # the row is full: no new card
    t.do("round-ended", {})
    t2 = displayed().bids(0, 0, 0)
    t2.turn(3, "merchant", 2).end()                           # D1: the merchants take fish and wheat
    t2.turn(4, "elder", 2).end().turn(13, "elder", 2).end()
    assert t2.refused("round-ended", {}) == [rule(10)]
    assert t2.refused("round-ended", {"cards": ["silk"]}) == [rule(10)]
    t2.do("round-ended", {"cards": ["silk", "papyrus"]})
    assert len(t2.state["card_row"]) == 9
    old = displayed(rules=1).bids(0, 0, 0)
    old.turn(3, "merchant", 2).end().turn(4, "elder", 2).end().turn(13, "elder", 2).end()
    old.do("round-ended", {})                                 # the old books left the row short
    assert len(old.state["card_row"]) == 7


def test_goods_are_sold_only_after_the_tile_action():
    t = displayed().bids(0, 0, 0)
    t.turn(2, "merchant", 2)                                   # C1, an oasis: fish and wheat; the palm is compulsory
    assert t.refused("goods-sold", {"goods": {"fish": 1, "wheat": 1}}) == [rule(5)]
    t.do("palm-placed", {"tile": "C1"}).do("goods-sold", {"goods": {"fish": 1, "wheat": 1}})
    assert t.player(2)["gold"] == 53
    t2 = displayed().bids(0, 0, 0)
    t2.turn(3, "merchant", 2).do("goods-sold", {"goods": {"fish": 1}})   # D1 market: selling forgoes the purchase
    assert t2.refused("goods-bought", {"cards": ["pottery"]}) == [rule(5)]
    old = displayed(rules=1).bids(0, 0, 0)
    old.turn(2, "merchant", 2).do("goods-sold", {"goods": {"fish": 1, "wheat": 1}})


def test_a_paid_djinn_power_once_per_round_across_both_turns_of_a_2_player_game():
    for rules, accepted in ((2, False), (1, True)):
        t = Table(n=2, rules=rules).bids(0, 0, 0, 1)           # turn order Zoli, Peti, Zoli, Peti
        assert t.state["turn_order"] == [1, 0, 1, 0]
        t.turn(6, "elder", 2).end()
        t.turn(1, "elder", 4).do("djinn-taken", {"djinn": "Enki", "pay": "elders"})
        t.do("djinn-used", {"djinn": "Enki", "pay": "elder", "tile": "C1"}).end()
        t.turn(4, "elder", 2).end()
        t.turn(13, "elder", 2)                                 # Peti's second turn of the round
        problems = t.problems("djinn-used", {"djinn": "Enki", "pay": "elder", "tile": "B2"})
        assert (problems == []) is accepted, problems
        if not accepted:
            assert [p.rule for p in problems] == [rule(6)] and "this round" in problems[0].en


# ---------------------------------------------------------------- old games

def test_version_1_payloads_name_their_tiles_when_read():
    up = EVENT_TYPES["meeples-moved"].upcasters[1]
    assert up({"tile": 7, "tribe": "elder", "count": 2, "path": [1, 7], "victims": [{"tile": 3, "tribe": "elder"}]}) \
        == {"tile": "B2", "tribe": "elder", "count": 2, "path": ["B1", "B2"], "victims": [{"tile": "D1", "tribe": "elder"}]}
    assert EVENT_TYPES["palm-placed"].upcasters[1]({"tile": 29}) == {"tile": "F5"}


# ---------------------------------------------------------------- the rulebook's worked examples, tracked

def test_rulebook_movement_example_a_loop_brings_the_last_green_back_to_the_oasis():
    # Rulebook 2.2: 5 meeples from a small market – green on the oasis (1), blue (2), red (3),
    # yellow (4), the last green on the oasis again (5): 3 green merchants on the oasis.
    # Here: A2 (small market) → B2 (oasis, one green there) → C2 → C3 → B3 → B2, a loop round
    # the 2 × 2 block; coming back is no step straight back.
    t = ready(meeples=layout(B2="MVV"))
    t.state["meeples"][TILE_INDEX["A2"]] = {"merchant": 2, "builder": 1, "assassin": 1, "vizier": 1}
    t.do("meeples-moved", move("A2 B2 C2 C3 B3 B2", "MBAVM"))
    assert t.state["next"]["tribe"] == "merchant" and t.state["next"]["count"] == 3
    assert t.state["meeples"][TILE_INDEX["B2"]] == {"vizier": 2}


def test_rulebook_builders_example_tracked_4_blue_tiles_times_3_plus_2_fakirs():
    # Rulebook 2.4: the last builder on a red tile with 4 blue tiles around, 2 builders there
    # before: 3 builders, 2 fakirs discarded → 4 × (3 + 2) = 20 gold. B2 is an oasis (red)
    # with A1, B1, C2, C3 blue around it.
    t = ready(meeples=layout(B2="BBV", D1="EEB"))
    t.state["players"][2]["fakirs"] = 2                    # Gerda holds 2 fakirs
    t.do("meeples-moved", move("D1 C1 B1 B2", "EEB", fakirs=2))
    assert t.player(2)["gold"] == 50 + 20 and t.player(2)["fakirs"] == 0


def test_the_board_offers_only_legal_taps_and_lists_the_assassins_victims():
    from scoring.five_tribes.view import view
    t = ready()
    draft = view(t.state, [{"name": n, "colour": ""} for n in ("Peti", "Zoli", "Gerda")])["draft"]
    d = draft("B1")
    assert d["left"] == 3 and sorted(d["taps"]) == ["A1", "B2", "C1"]      # beside B1, never diagonally
    d = draft("B1.C1")
    assert "B1" not in d["taps"]                                            # never straight back
    assert draft("B1.C3")["path"] == ["B1"]                                 # an illegal tap in the address is dropped
    d = draft("B1.C1.D1.E1")                                               # E1 holds A A M: two tribes may be last
    assert d["drops"] is None and "outcome" not in d                       # no order proposed
    assert [o["tribe"] for o in d["offer"]] == ["merchant", "builder", "assassin"]
    assert [s["tribe"] for s in d["sequence"]] == [None, None, None] and d["sequence"][0]["next"]
    o = draft("B1.C1.D1.E1", None, {"drop": "merchant"})["outcome"]       # M tapped; then B, A: no other choice
    assert (o["tribe"], o["count"], o["tile"]) == ("assassin", 3, "E1")
    assert (o["tribe"], o["count"], o["tile"]) == ("assassin", 3, "E1")
    victims = {v["value"]: v["fakirs"] for v in o["victims"]}
    assert victims["tile:E1:merchant"] == 0 and victims["tile:D1:elder"] == 0
    assert "tile:F5:elder" not in victims                                   # 5 steps away, reach 3, no fakirs


def test_a_meeple_is_offered_next_exactly_when_some_order_of_the_rest_ends_legally():
    """§4: the drops offered one by one are exactly the prefixes of the legal orders (every
    order tried, on random boards and paths, the loop back to the end tile included)."""
    import itertools
    import random
    from scoring.five_tribes.data import CELLS, TRIBES, can_drop, hand_of, neighbours, walk
    rng, tried = random.Random(39), 0
    while tried < 300:
        meeples = [{t: rng.randint(0, 1) for t in TRIBES if rng.random() < .4} for _ in range(CELLS)]
        path = [rng.randrange(CELLS)]
        hand = hand_of(meeples, path[0])
        if not 2 <= sum(hand.values()) <= 5:
            continue
        for _ in range(sum(hand.values())):
            path.append(rng.choice([n for n in neighbours(path[-1], diagonal=False) if len(path) < 2 or n != path[-2]]))
        orders = set(itertools.permutations([t for t, n in hand.items() for _ in range(n)]))
        legal = {o for o in orders if walk(meeples, path, list(o))["count"] >= 2}
        for order in orders:
            for i, tribe in enumerate(order):
                assert can_drop(meeples, path, list(order[:i]), tribe) == any(o[:i + 1] == order[:i + 1] for o in legal)
        tried += 1


def test_the_turn_offers_no_legal_move_only_when_the_app_finds_none():
    from scoring.five_tribes.view import view
    players = [{"name": n, "colour": ""} for n in ("Peti", "Zoli", "Gerda")]
    t = ready()
    assert view(t.state, players)["stuck"] is False
    lone = [{} for _ in range(30)]
    lone[0], lone[29] = {"vizier": 1}, {"elder": 1}
    t.state["meeples"] = lone
    assert view(t.state, players)["stuck"] is True
    assert view(t.state, players)["draft"]("")["taps"] == []


def test_an_illegal_step_in_the_address_is_named_and_cut_off():
    from scoring.five_tribes.view import view
    draft = view(ready().state, [{"name": n, "colour": ""} for n in ("Peti", "Zoli", "Gerda")])["draft"]
    d = draft("B1.C2.D2")                                   # B1 → C2 is diagonal
    assert d["path"] == ["B1"] and d["refused"] == "C2"
    assert d["refused_why"]["en"] == "C2 is diagonal from B1 – steps go only up, down, left or right."
    assert draft("B1.C1.B1")["refused_why"]["en"].startswith("B1: you just came from there")
    assert draft("B1.C1.E1")["refused_why"]["hu"].startswith("E1 nem szomszédos")
    from scoring.five_tribes.view import tap_refusal
    empty = [{} for _ in range(30)]
    assert tap_refusal(empty, [], "C3")["en"] == "C3: there are no meeples on it to pick up."
    assert draft("B1.C1")["refused"] is None
