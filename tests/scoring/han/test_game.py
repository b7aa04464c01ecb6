"""Han: the rulebook's worked examples 1–8 (docs/rules/han.md), the placement rules one by one, scoring.

Boards here are the INVENTED example layouts of scoring/han/demo.py (the printed
topology is unknown), keeping the rulebook's known facts: Vej red, Csi/Csin yellow,
Lu/Csao orange, Csou violet, alliance 3 = Vej–Csin, alliance 4 = Csin–Su.
"""
import pytest
from werkzeug.datastructures import MultiDict

from scoring.base import FormError, Move
from scoring.han import GAME
from scoring.han.apply import waiting_for
from scoring.han.demo import example_profile, pinned
from scoring.han.score import expected_pile as expected_deck
from scoring.han.score import rank_points, supply
from scoring.han.view import view
from tests.scoring.han.table import (ANITA, EVA, JENO, MARK, PLAYERS, E, F, P, big_board, final, new, points, problems,
                                     put, rules_of, said)


# ---- the rulebook's worked examples -------------------------------------------------

def test_example_1_jeno_one_red_card_places_one_pagoda_in_empty_vej():
    s = new()
    assert problems(s, JENO, ["red"], P("vej")) == []
    assert rules_of(problems(s, JENO, ["red", "red", "red"], P("vej"), P("vej"))) == ["docs/rules/han.md §2.5"]


def test_example_1_anita_red_card_and_green_pair_place_two_in_vej():
    s = put(new(), JENO, ["red"], P("vej"))
    assert problems(s, ANITA, ["red", "green", "green"], P("vej"), P("vej")) == []
    assert rules_of(problems(s, ANITA, ["red", "green"], P("vej"), P("vej"))) == ["docs/rules/han.md §2.3–2.4"]


def test_example_1_mark_three_yellow_cards_two_pieces_in_one_province_only():
    s = put(put(new(profile=big_board()), JENO, ["yellow"], P("csi")), ANITA, ["yellow"], P("csin"))
    assert problems(s, MARK, ["yellow", "yellow"], P("csi"), E("csi")) == []
    assert problems(s, MARK, ["yellow", "yellow"], P("csin"), P("csin")) == []
    assert problems(s, MARK, ["yellow", "yellow"], P("vej")) == []            # the pair as a joker
    assert rules_of(problems(s, MARK, ["yellow", "yellow", "yellow"], P("csi"), P("csi"))) == ["docs/rules/han.md §2.3–2.4"]
    assert rules_of(problems(s, MARK, ["yellow", "yellow"], P("csi"), P("csin"))) == ["docs/rules/han.md §2.2"]


def test_example_2_eva_two_envoys_to_csou_with_violet_and_orange_pair():
    s = new(profile=big_board())
    for _ in range(4):
        s = put(s, MARK, ["violet"], P("csou"))
    s = put(s, JENO, ["violet", "violet"], E("csou"), E("csou"))
    assert problems(s, EVA, ["violet", "orange", "orange"], E("csou"), E("csou")) == []
    s = put(s, ANITA, ["violet"], E("csou"))
    found = problems(s, EVA, ["violet", "orange", "orange"], E("csou"), E("csou"))
    assert rules_of(found) == ["docs/rules/han.md §2.6"] and "at most 4 envoys" in found[0].en


def test_example_3_jeno_two_envoys_in_csin_where_anita_and_mark_tie_with_two():
    s = new(profile=big_board())
    s = put(s, ANITA, ["yellow"], P("csin"))
    s = put(s, ANITA, ["yellow"], P("csin"))
    s = put(s, MARK, ["yellow", "yellow"], P("csin"), P("csin"))
    for pieces in ((E("csin"), E("csin")), (E("csin"), P("csin")), (P("csin"), P("csin"))):
        assert problems(s, JENO, ["yellow", "yellow"], *pieces) == []


def test_example_4_wei_4_2_1_pagodas_score_7_4_2():
    assert rank_points([4, 2, 1, 0]) == [7, 4, 2, 0]
    s = new(profile=big_board())
    for seat, n in ((JENO, 4), (ANITA, 2), (EVA, 1)):
        for _ in range(n):
            s = put(s, seat, ["red"], P("vej"))
    s = final(s)
    assert [points(s, seat, "provinces") for seat in (JENO, ANITA, EVA, MARK)] == [7, 4, 2, 0]


def test_example_5_chi_2_2_1_pagodas_score_5_5_2():
    assert rank_points([0, 2, 2, 1]) == [0, 5, 5, 2]
    s = new(profile=big_board())
    for seat, n in ((ANITA, 2), (MARK, 2), (EVA, 1)):
        for _ in range(n):
            s = put(s, seat, ["yellow"], P("csi"))
    s = final(s)
    assert [points(s, seat, "provinces") for seat in (ANITA, MARK, EVA, JENO)] == [5, 5, 2, 0]


def test_example_6_alliance_3_scores_6_for_blue_and_alliance_4_nothing():
    s = new(profile=big_board())
    s = put(s, JENO, ["red", "red"], P("vej"), P("vej"))          # pagodas so envoys may come
    s = put(s, JENO, ["yellow", "yellow"], P("csin"), P("csin"))
    s = put(s, JENO, ["green", "green"], P("su"), P("su"))
    s = put(s, JENO, ["green"], P("su"))
    s = put(s, JENO, ["yellow", "yellow"], P("csin"), P("csin"))
    s = put(s, ANITA, ["red"], E("vej"))
    s = put(s, EVA, ["red"], E("vej"))
    s = put(s, EVA, ["yellow", "yellow"], E("csin"), E("csin"))
    s = put(s, ANITA, ["yellow"], E("csin"))
    s = put(s, JENO, ["yellow"], E("csin"))
    s = put(s, MARK, ["green", "green"], E("su"), E("su"))
    s = put(s, EVA, ["green"], E("su"))
    s = final(s)
    alliances = {said(p): (seat, p.points) for seat, parts in GAME.score(s).items()
                 for p in parts if p.category == "alliances"}
    assert alliances["Alliance 3 (Vej–Csin)"] == (EVA, 6)
    assert not any(label.startswith("Alliance 4 ") for label in alliances)
    assert alliance_outcome(s, 4)["winners"] == []


def alliance_outcome(state, n):
    from scoring.han.score import alliance_result
    return alliance_result(state, n)


def _at_final_with_pagodas(seat, n, **options):
    s = new(profile=big_board(), **options)
    areas = ["vej", "csi", "lu", "csou", "su"]
    for i in range(n):
        s = put(s, seat, [{"vej": "red", "csi": "yellow", "lu": "orange", "csou": "violet", "su": "green"}[areas[i % 5]]],
                P(areas[i % 5]))
    return final(s)


def test_example_7_a_road_chain_of_5_pagodas_scores_5():
    s = _at_final_with_pagodas(EVA, 5)
    chains = Move(950, "road-chains-entered", {"chains": [{"seat": EVA, "length": 5, "fortified": False}]})
    assert GAME.check(s, chains) == []
    assert points(GAME.apply(s, chains), EVA, "roads") == 5
    short = Move(950, "road-chains-entered", {"chains": [{"seat": EVA, "length": 3, "fortified": False}]})
    assert rules_of(GAME.check(s, short)) == ["docs/rules/han.md §3.6"]


def test_example_8_the_fortress_turn_one_card_each_two_pieces_at_most():
    s = put(new(fortress=True), ANITA, ["yellow"], P("csi"))
    assert problems(s, JENO, ["yellow", "yellow"], F("csi"), P("csi", "fortress")) == []
    assert rules_of(problems(s, JENO, ["yellow", "yellow", "yellow"], F("csi"), P("csi", "fortress"))) == ["docs/rules/han.md §2.3–2.4"]
    assert rules_of(problems(s, JENO, ["yellow"] * 3, F("csi"), P("csi", "fortress"), P("csi")))[0] == "docs/rules/han.md §2.3"
    after = put(s, JENO, ["yellow", "yellow"], F("csi"), P("csi", "fortress"))
    assert sum(supply(after, JENO).values()) == 20 - 1 + 8  # the fortress is placed, one pagoda too


# ---- placement rules one by one ---------------------------------------------------

def test_turn_order_is_clockwise_from_the_start_player():
    s = new(start_player=2)
    assert s["next"]["seat"] == EVA
    found = GAME.check(s, Move(2, "pieces-placed", {"seat": JENO, "cards": ["red"], "pieces": [P("vej")]}))
    assert rules_of(found) == ["docs/rules/han.md §2.1"]
    s = GAME.apply(s, Move(2, "card-exchanged", {"seat": EVA}))
    assert s["next"]["seat"] == MARK
    s = GAME.apply(s, Move(3, "card-exchanged", {"seat": MARK}))
    assert s["next"]["seat"] == JENO


def test_at_most_three_cards_and_two_pieces():
    s = put(new(), JENO, ["red"], P("vej"))
    assert rules_of(problems(s, ANITA, ["red"] * 4, P("vej"), P("vej"))) == ["docs/rules/han.md §2.3"]
    assert rules_of(problems(s, ANITA, ["red"] * 3, P("vej"), P("vej"), P("vej"))) == ["docs/rules/han.md §2.3"]


def test_a_pair_of_the_provinces_own_colour_is_no_joker():
    s = put(new(), JENO, ["red"], P("vej"))
    assert rules_of(problems(s, ANITA, ["red", "red"], P("vej"))) == ["docs/rules/han.md §2.3–2.4"]
    assert rules_of(problems(s, ANITA, ["green"], P("vej"))) == ["docs/rules/han.md §2.3–2.4"]


def test_an_empty_province_takes_exactly_one_pagoda_never_an_envoy():
    s = new()
    assert rules_of(problems(s, JENO, ["red"], E("vej"))) == ["docs/rules/han.md §2.5"]
    assert rules_of(problems(s, JENO, ["red", "red"], P("vej"), P("vej"))) == ["docs/rules/han.md §2.5"]


def test_envoy_cap_counts_the_pagodas_placed_this_turn_and_stays_open_after_scoring():
    s = put(new(), JENO, ["yellow"], P("csi"))
    assert problems(s, ANITA, ["yellow", "yellow"], P("csi"), E("csi")) == []
    assert rules_of(problems(s, ANITA, ["yellow", "yellow"], E("csi"), E("csi"))) == ["docs/rules/han.md §2.6"]
    s = put(s, ANITA, ["yellow"], P("csi"))           # Csi has 2 sites: full, scored at once
    assert "csi" in s["scored"]
    assert problems(s, EVA, ["yellow"], E("csi")) == []
    assert rules_of(problems(s, EVA, ["yellow"], P("csi"))) == ["docs/rules/han.md §2.9"]


def test_border_site_costs_one_card_of_each_province_or_two_of_one():
    s = put(put(new(), JENO, ["red"], P("vej")), ANITA, ["green"], P("su"))
    border = P("vej", "border", **{"with": "su"})
    for cards in (["red", "green"], ["red", "red"], ["green", "green"]):
        assert problems(s, EVA, cards, border) == [], cards
    assert rules_of(problems(s, EVA, ["red"], border)) == ["docs/rules/han.md §2.3–2.4"]
    assert rules_of(problems(s, EVA, ["yellow", "yellow"], border)) == ["docs/rules/han.md §2.3–2.4"]
    no_such = P("vej", "border", **{"with": "csi"})
    assert "docs/rules/han.md §2.7" in rules_of(problems(s, EVA, ["red", "yellow"], no_such))


def test_a_border_pagoda_counts_in_both_provinces():
    s = put(put(new(), JENO, ["red"], P("vej")), ANITA, ["green"], P("su"))
    s = put(s, EVA, ["red", "green"], P("vej", "border", **{"with": "su"}))
    from scoring.han.score import pagodas
    assert pagodas(s, "vej")[EVA] == 1 and pagodas(s, "su")[EVA] == 1


def test_harbours_only_where_the_profile_has_a_free_one():
    s = put(new(), JENO, ["orange"], P("lu", "harbour"))
    assert problems(s, ANITA, ["orange"], P("lu", "harbour")) == []
    s = put(s, ANITA, ["orange"], P("lu", "harbour"))
    assert rules_of(problems(s, EVA, ["orange"], P("lu", "harbour"))) == ["docs/rules/han.md §2.8"]
    assert rules_of(problems(new(), JENO, ["yellow"], P("csi", "harbour"))) == ["docs/rules/han.md §2.8"]


def test_the_supply_holds_20_pagodas_and_8_envoys():
    s = new(profile=big_board())
    colours = {"vej": "red", "csi": "yellow", "csin": "yellow", "lu": "orange", "csao": "orange",
               "csou": "violet", "su": "green", "x8": "green", "x9": "red"}
    areas = list(colours)
    for i in range(20):
        s = put(s, JENO, [colours[areas[i % 9]]], P(areas[i % 9]))
    assert rules_of(problems(s, JENO, ["red"], P("vej"))) == ["docs/rules/han.md §2.10"]
    for i in range(8):
        s = put(s, JENO, [colours[areas[i]]], E(areas[i]))
    assert rules_of(problems(s, JENO, ["red"], E("vej"))) == ["docs/rules/han.md §2.10"]


def test_fortress_only_in_the_variant_and_only_on_a_site():
    s = put(new(), ANITA, ["yellow"], P("csi"))
    assert rules_of(problems(s, JENO, ["yellow"], F("csi"))) == ["docs/rules/han.md §2.11"]
    s = put(new(fortress=True), ANITA, ["yellow"], P("csi"))
    assert rules_of(problems(s, JENO, ["yellow"], P("csi", "fortress"))) == ["docs/rules/han.md §2.11"]
    s = put(s, JENO, ["yellow"], F("csi"))
    assert problems(s, EVA, ["yellow"], P("csi", "fortress")) == []   # neutral: anyone may top it
    assert rules_of(problems(s, JENO, ["yellow"], F("csi")))[0] == "docs/rules/han.md §2.10"


def test_a_topped_fortress_on_a_harbour_or_border_takes_one_site_not_two():
    # Lu has 2 harbours: a fortress on one, topped, leaves the other free (and only it).
    s = put(new(fortress=True, profile=big_board()), JENO, ["orange", "orange"], F("lu", "harbour"), P("lu", "fortress"))
    assert problems(s, ANITA, ["orange"], P("lu", "harbour")) == []
    s = put(s, ANITA, ["orange"], P("lu", "harbour"))
    assert rules_of(problems(s, EVA, ["orange"], P("lu", "harbour"))) == ["docs/rules/han.md §2.8"]
    # 6 border sites whose pairs the profile does not know: a topped fortress uses one of them.
    data = big_board()
    data["border_sites"] = [{"areas": [None, None]} for _ in range(6)]
    s = put(new(fortress=True, profile=data), JENO, ["red"], P("vej"))
    s = put(s, JENO, ["green"], P("su"))
    s = put(s, ANITA, ["red", "green"], F("vej", "border") | {"with": "su"}, P("vej", "fortress"))
    for _ in range(5):
        assert problems(s, EVA, ["red", "green"], P("vej", "border", **{"with": "su"})) == []
        s = put(s, EVA, ["red", "green"], P("vej", "border", **{"with": "su"}))
    assert rules_of(problems(s, EVA, ["red", "green"], P("vej", "border", **{"with": "su"}))) == ["docs/rules/han.md §2.7"]


def test_fortress_rule_together_option_needs_fortress_and_pagoda_with_two_matching_cards():
    s = put(new(fortress=True, fortress_rule="together"), ANITA, ["yellow"], P("csi"))
    assert problems(s, JENO, ["yellow", "yellow"], F("csi"), P("csi", "fortress")) == []
    assert rules_of(problems(s, JENO, ["yellow"], F("csi"))) == ["docs/rules/han.md §2.11"]


def test_full_province_scored_at_once_with_its_events():
    s = put(new(), JENO, ["yellow"], P("csi"))
    s = put(s, ANITA, ["yellow"], P("csi"))
    seq = s["scored"]["csi"]
    marked = GAME.view(s, PLAYERS, last=Move(seq, "pieces-placed", {}))["last"]  # the board's marks of the move
    assert marked == {"seq": seq, "areas": ["csi"], "scored": ["csi"]}
    parts = GAME.score(s)
    assert [p.points for p in parts[JENO]] == [2] and [p.points for p in parts[ANITA]] == [2]
    assert seq in parts[JENO][0].events and said(parts[JENO][0]) == "Province Csi"


def test_province_with_unknown_site_count_is_scored_when_the_table_confirms():
    data = example_profile(1)
    data["areas"][1]["sites"] = None
    s = put(put(new(profile=data), JENO, ["yellow"], P("csi")), ANITA, ["yellow"], P("csi"))
    assert s["scored"] == {}
    confirm = Move(500, "province-scored", {"area": "csi"})
    assert GAME.check(s, confirm) == []
    s = GAME.apply(s, confirm)
    assert points(s, JENO) == 2 and 500 in GAME.score(s)[JENO][0].events
    assert rules_of(GAME.check(s, confirm)) == ["docs/rules/han.md §3.2"]
    known = put(new(), JENO, ["yellow"], P("csi"))
    assert rules_of(GAME.check(known, confirm)) == ["docs/rules/han.md §3.2"]


def test_a_province_with_an_open_fortress_cannot_be_confirmed_full():
    data = example_profile(1)
    data["areas"][1]["sites"] = None                 # Csi: the table confirms when it is full
    s = put(new(fortress=True, profile=data), JENO, ["yellow"], P("csi"))
    s = put(s, ANITA, ["yellow"], F("csi"))
    confirm = Move(600, "province-scored", {"area": "csi"})
    assert rules_of(GAME.check(s, confirm)) == ["docs/rules/han.md §2.11"]
    assert not next(a for a in view(s)["areas"] if a["id"] == "csi")["confirmable"]   # not offered
    s = put(s, EVA, ["yellow"], P("csi", "fortress"))
    assert GAME.check(s, confirm) == []
    assert next(a for a in view(s)["areas"] if a["id"] == "csi")["confirmable"]


# ---- scoring -------------------------------------------------------------------

@pytest.mark.parametrize("counts, expected", [
    ([3, 3, 2, 2, 1], [11, 11, 3, 3, 2]),
    ([2, 2, 2, 2, 2], [10, 10, 10, 10, 10]),
    ([4, 3, 3, 1, 1], [12, 4, 4, 3, 3]),
    ([5, 4, 3, 2, 1], [15, 5, 4, 3, 2]),
    ([0, 1, 0, 1, 0], [0, 2, 0, 2, 0]),
])
def test_ties_at_every_rank_with_5_players(counts, expected):
    assert rank_points(counts) == expected


def test_fortress_doubles_province_harbour_and_chain():
    s = new(fortress=True)
    s = put(s, JENO, ["orange"], F("lu", "harbour"))
    s = put(s, JENO, ["orange"], P("lu", "fortress"))
    s = put(s, ANITA, ["orange"], P("lu", "harbour"))
    s = final(s)
    # Lu: Jenő 1, Anita 1 -> 2 each; Jenő doubled. Harbours: the same counts.
    assert points(s, JENO, "provinces") == 4 and points(s, ANITA, "provinces") == 2
    assert points(s, JENO, "harbours") == 4 and points(s, ANITA, "harbours") == 2
    labels = [said(p) for p in GAME.score(s)[JENO]]
    assert "Province Lu (fortress: ×2)" in labels


def test_a_fortress_on_a_border_site_is_open_in_both_provinces_until_topped():
    # Vej (4 sites + the Vej–Su border site) with a fortress on the border placed from Su.
    s = put(new(fortress=True), JENO, ["green", "red"], F("su", "border") | {"with": "vej"})
    for seat in (ANITA, EVA, ANITA, EVA):
        s = put(s, seat, ["red"], P("vej"))
    assert "vej" not in s["scored"]            # its border site holds an open fortress
    assert problems(s, MARK, ["red"], P("vej", "fortress")) == []   # topped from either province
    s = put(s, MARK, ["red"], P("vej", "fortress"))
    assert "vej" in s["scored"]
    assert points(s, MARK, "provinces") == 2 * 2   # Vej 2/2/1 scores 5/5/2: Márk's 2 doubled
    s = final(s)
    assert points(s, MARK, "provinces") == 2 * 2 + 2 * 1   # + Su, where his one pagoda scores 1, doubled
    assert "Province Su (fortress: ×2)" in [said(p) for p in GAME.score(s)[MARK]]


def test_harbours_score_as_an_extra_province_on_side_1():
    s = new(profile=big_board())
    tally = _tally(s, harbours=[4, 2, 1, 0], lu=[2, 1, 0, 0], csao=[1, 1, 1, 0], x8=[1, 0, 0, 0])
    s = GAME.apply(s, Move(70, "final-position-entered", tally))
    # planneu: all 7 harbours filled, the player with 4 scores 7; the next the leader's count
    assert [points(s, seat, "harbours") for seat in range(4)] == [7, 4, 2, 0]


def _tally(state, harbours=None, **areas):
    n = state["n"]
    data = {"areas": {a["id"]: {"pagodas": [0] * n, "envoys": [0] * n} for a in state["areas"]},
            "harbours": harbours or [0] * n, "border_pagodas": [0] * n, "fortresses": []}
    for area, counts in areas.items():
        data["areas"][area]["pagodas"] = counts
    return data


def test_final_tally_gives_the_same_scoring_as_moves():
    moves = new(profile=big_board())
    for seat, n in ((JENO, 4), (ANITA, 2), (EVA, 1)):
        for _ in range(n):
            moves = put(moves, seat, ["red"], P("vej"))
    moves = final(moves)
    tally = new(profile=big_board())
    entered = Move(2, "final-position-entered", _tally(tally, vej=[4, 2, 1, 0]))
    assert GAME.check(tally, entered) == []
    tally = GAME.apply(tally, entered)
    assert [points(tally, s) for s in range(4)] == [points(moves, s) for s in range(4)] == [7, 4, 2, 0]


def test_final_tally_refuses_fewer_pieces_than_recorded_and_too_many_envoys():
    s = put(new(profile=big_board()), JENO, ["red"], P("vej"))
    assert rules_of(GAME.check(s, Move(9, "final-position-entered", _tally(s)))) == ["docs/rules/han.md §5"]
    bad = _tally(s, vej=[1, 0, 0, 0])
    bad["areas"]["vej"]["envoys"] = [0, 2, 0, 0]
    assert rules_of(GAME.check(s, Move(9, "final-position-entered", bad))) == ["docs/rules/han.md §2.6"]


def test_final_tally_refuses_more_pagodas_than_sites_harbours_or_border_sites():
    s = new()                                        # invented board: Csi has 2 sites
    assert GAME.check(s, Move(9, "final-position-entered", _tally(s, csi=[1, 1, 0, 0]))) == []
    assert rules_of(GAME.check(s, Move(9, "final-position-entered", _tally(s, csi=[2, 1, 0, 0])))) == ["docs/rules/han.md §2.9"]
    ok = _tally(s, harbours=[4, 3, 0, 0], csou=[4, 0, 0, 0], su=[0, 4, 0, 0])
    assert GAME.check(s, Move(9, "final-position-entered", ok)) == []
    too_many = _tally(s, harbours=[4, 4, 0, 0], csou=[4, 0, 0, 0], su=[0, 4, 0, 0])   # 7 harbours
    assert rules_of(GAME.check(s, Move(9, "final-position-entered", too_many))) == ["docs/rules/han.md §2.8"]
    border = _tally(s, csou=[4, 3, 0, 0])                                              # 6 border sites
    border["border_pagodas"] = [4, 3, 0, 0]
    assert rules_of(GAME.check(s, Move(9, "final-position-entered", border))) == ["docs/rules/han.md §2.7"]


def test_second_draw_pile_run_out_finishes_the_round_then_final_scoring():
    s = new(players=3, start_player=1)
    out = Move(5, "draw-pile-ran-out", {})
    s = GAME.apply(s, out)
    assert s["deck_outs"] == 1 and s["next"]["step"] == "play"
    s = GAME.apply(s, Move(6, "card-exchanged", {"seat": 1}))
    s = GAME.apply(s, Move(7, "draw-pile-ran-out", {}))
    assert s["last_round"] and s["next"]["step"] == "play" and s["next"]["seat"] == 2
    s = GAME.apply(s, Move(8, "card-exchanged", {"seat": 2}))
    assert s["next"]["step"] == "play"
    s = GAME.apply(s, Move(9, "card-exchanged", {"seat": 0}))
    assert s["next"]["step"] == "final"          # the start player's right-hand neighbour has played
    assert waiting_for(s) == ["chains"]
    assert rules_of(GAME.check(s, Move(10, "card-exchanged", {"seat": 1}))) == ["docs/rules/han.md §4"]
    s = GAME.apply(s, Move(10, "road-chains-entered", {"chains": []}))
    assert GAME.is_over(s)


def test_alliances_unknown_in_the_profile_are_entered_at_the_end():
    data = example_profile(1)
    data["alliances"][0]["areas"] = [None, None]
    s = final(new(profile=data))
    assert waiting_for(s) == ["alliances", "chains"]
    dup = Move(20, "alliances-entered", {"alliances": [{"n": 1, "areas": ["vej", "csin"]}]})
    assert rules_of(GAME.check(s, dup)) == ["docs/rules/han.md §6"]           # alliance 3 already joins them
    known = Move(20, "alliances-entered", {"alliances": [{"n": 2, "areas": ["vej", "lu"]}]})
    assert rules_of(GAME.check(s, known)) == ["docs/rules/han.md §3.5"]
    ok = Move(20, "alliances-entered", {"alliances": [{"n": 1, "areas": ["vej", "lu"]}]})
    assert GAME.check(s, ok) == []
    assert waiting_for(GAME.apply(s, ok)) == ["chains"]


def test_point_cards_are_announced_at_50_and_100():
    s = new(players=3)
    tally = _tally(s)
    for area in tally["areas"].values():
        area["pagodas"] = [2, 1, 1]
        area["envoys"] = [1, 0, 0]
    tally["areas"]["x9"]["pagodas"] = [0, 1, 1]
    tally["areas"]["x9"]["envoys"] = [0, 0, 0]
    s = GAME.apply(s, Move(2, "final-position-entered", tally))
    total = points(s, 0)
    assert 50 <= total < 100
    assert s["point_cards"] == [{"seat": 0, "points": 50, "seq": 2}]


def test_winner_tie_break_counts_unplaced_pieces():
    from events.domain.projection import standings
    from events.domain.event import Event
    players = PLAYERS[:3]
    opts = {**GAME.default_options(), "board": pinned(example_profile(1))}
    events = [Event(1, "game-created", 1, {"kind": "han", "rules_version": 1, "players": players, "options": opts},
                    None, "d", "t", "c1", "h")]
    tally = _tally(GAME.setup(players, opts), vej=[1, 1, 0])
    tally["areas"]["su"]["pagodas"] = [0, 0, 1]
    tally["areas"]["csi"]["pagodas"] = [0, 0, 1]
    tally["areas"]["csi"]["envoys"] = [0, 0, 1]
    tally["areas"]["vej"]["envoys"] = [1, 0, 0]
    for i, (type_, data) in enumerate([("final-position-entered", tally),
                                       ("road-chains-entered", {"chains": []})], start=2):
        events.append(Event(i, type_, 1, data, 0, "d", "t", f"c{i}", "h"))
    from events.domain.projection import fold
    rows = standings(fold(events))
    # Vej 1/1: 2 each; Éva: Su 1 + Csi 1 = 2. Unplaced: Jenő 19+7, Anita 19+8, Éva 18+7.
    by_seat = {r["seat"]: r for r in rows}
    assert {r["score"] for r in rows} == {2}
    assert by_seat[1]["rank"] == 1 and by_seat[1]["tiebreak"] == [20 - 1 + 8]
    assert by_seat[0]["tiebreak"] == [20 - 1 + 7] and by_seat[0]["rank"] == 2


def test_expected_draw_pile_counts_cards_drawn():
    s = new(players=4)
    assert expected_deck(s) == 57 - 5 - 12 - 4
    s = put(s, JENO, ["red"], P("vej"))
    assert expected_deck(s) == 57 - 5 - 12 - 4 - 1


def test_player_counts_per_side_and_a_playable_profile():
    opts = {**GAME.default_options(), "board": pinned(example_profile(2))}
    assert GAME.check_setup(PLAYERS[:2], opts) == []
    assert rules_of(GAME.check_setup(PLAYERS[:2] + [{"name": "x"}] * 3, opts)) == ["docs/rules/han.md §1.1"]
    from scoring.han.boards import BUILTIN
    shipped = {**opts, "board": pinned(BUILTIN[0]["data"], "han-side1")}
    assert rules_of(GAME.check_setup(PLAYERS[:3], shipped)) == ["docs/rules/han.md §1.5"]
    assert rules_of(GAME.check_setup(PLAYERS[:3], {**opts, "board": {}})) == ["docs/rules/han.md §1.5"]


# ---- forms ---------------------------------------------------------------------

def test_move_form_builds_a_placement_and_refuses_rubbish_without_crashing():
    s = new()
    form = MultiDict({"action": "pieces-placed", "seat": "0", "area": "vej", "card1": "red",
                      "piece1": "pagoda", "site1": "ordinary", "piece2": ""})
    assert GAME.parse_form(s, form) == ("pieces-placed", {
        "seat": 0, "cards": ["red"], "pieces": [{"type": "pagoda", "area": "vej", "site": "ordinary"}]})
    border = MultiDict({"action": "pieces-placed", "seat": "0", "area": "vej", "card1": "red", "card2": "green",
                        "piece1": "pagoda", "site1": "border:su"})
    assert GAME.parse_form(s, border)[1]["pieces"][0] == {"type": "pagoda", "area": "vej", "site": "border", "with": "su"}
    for bad in ({"action": "pieces-placed", "seat": "x"}, {"action": "nope"},
                {"action": "pieces-placed", "seat": "0", "area": "vej", "card1": "pink", "piece1": "pagoda"},
                {"action": "pieces-placed", "seat": "0", "area": "vej", "card1": "red"},
                {"action": "road-chains-entered", "chain_len_0": "4", "chain_seat_0": "z"}):
        with pytest.raises(FormError):
            GAME.parse_form(s, MultiDict(bad))


# ---- roads from the profile's road network ---------------------------------------

def road_board():
    data = big_board()
    data["roads"] = [["csin-1", "csin-2", "csin-3", "b2", "su-1"], ["csin-2", "csin-4"]]
    return data


def at(area, site, **kw):
    kind = "border" if site.startswith("b") else "ordinary"
    return {"type": "pagoda", "area": area, "site": kind, "at": site, **kw}


def test_example_7_road_chain_of_5_with_a_branch_scores_5_from_the_road_network():
    s = new(profile=road_board())
    for site in ("csin-1", "csin-2", "csin-3", "csin-4"):
        s = put(s, EVA, ["yellow"], at("csin", site))
    s = put(s, EVA, ["yellow", "green"], at("csin", "b2", **{"with": "su"}))
    s = put(s, EVA, ["green"], at("su", "su-1"))
    s = final(s)
    assert GAME.is_over(s)                      # nothing to ask: the profile knows the roads
    roads = [p for p in GAME.score(s)[EVA] if p.category == "roads"]
    assert [(p.points, p.label["en"]) for p in roads] == [(5, "Road: chain of 5 pagodas")]
    assert len(roads[0].events) == 5           # csin-4 hangs off a branch: not counted


def test_a_road_board_needs_the_site_of_every_pagoda():
    s = put(new(profile=road_board()), EVA, ["yellow"], at("csin", "csin-1"))
    assert rules_of(problems(s, JENO, ["yellow"], P("csin"))) == ["docs/rules/han.md §2.9"]
    assert rules_of(problems(s, JENO, ["yellow"], at("csin", "csin-1"))) == ["docs/rules/han.md §2.9"]
    assert rules_of(problems(s, JENO, ["yellow"], at("csin", "su-2"))) == ["docs/rules/han.md §2.9"]
    assert problems(s, JENO, ["yellow"], at("csin", "csin-2")) == []
    assert rules_of(problems(new(), JENO, ["yellow"], at("csin", "csin-2"))) == ["docs/rules/han.md §6"]


def test_a_fortified_pagoda_doubles_its_computed_chain():
    s = new(profile=road_board(), fortress=True)
    s = put(s, EVA, ["yellow"], {"type": "fortress", "area": "csin", "site": "ordinary", "at": "csin-1"})
    s = put(s, EVA, ["yellow"], P("csin", "fortress"))
    for site in ("csin-2", "csin-3"):
        s = put(s, EVA, ["yellow"], at("csin", site))
    s = put(s, EVA, ["yellow", "green"], at("csin", "b2", **{"with": "su"}))
    assert [p.points for p in GAME.score(final(s))[EVA] if p.category == "roads"] == [8]


def test_road_network_needs_every_site_known_and_names_real_sites():
    from scoring.han.boards import validate
    data = road_board()
    data["roads"].append(["csin-1", "nowhere"])
    assert "Unknown sites" in validate(data)[0].en
    data = example_profile(1)
    data["areas"][0]["sites"] = None
    data["roads"] = [["csin-1", "csin-2"]]
    assert "every site known" in validate(data)[0].en


def test_ties_at_every_rank_in_a_5_player_province():
    s = new(players=5, profile=big_board())
    for seat, n in ((0, 3), (1, 3), (2, 2), (3, 2), (4, 1)):
        for _ in range(n):
            s = put(s, seat, ["red"], P("vej"))
    s = final(s)
    assert [points(s, seat, "provinces") for seat in range(5)] == [11, 11, 3, 3, 2]


def test_option_end_when_a_player_has_placed_everything_starts_the_last_round():
    s = new(players=3, profile=big_board(), end_all_placed=True)
    s["pieces"] = [{"seq": 1, "seat": 1, "type": t, "area": "vej", "with": None, "site": None if t == "envoy" else "ordinary",
                    "fortified": False, "topped": False} for t in ["pagoda"] * 20 + ["envoy"] * 7]
    s = put(s, 1, ["red"], E("vej"))
    assert s["last_round"] and s["next"]["seat"] == 2 and s["next"]["step"] == "play"
    s = GAME.apply(s, Move(600, "card-exchanged", {"seat": 2}))
    assert s["next"]["step"] == "final"
    off = new(players=3, profile=big_board())
    off["pieces"] = s["pieces"][:-1]
    assert not put(off, 1, ["red"], E("vej"))["last_round"]


def test_the_draw_pile_runs_out_twice_at_most_and_nothing_is_played_after_the_end():
    s = GAME.apply(new(), Move(2, "draw-pile-ran-out", {}))
    s = GAME.apply(s, Move(3, "card-exchanged", {"seat": 0}))
    s = GAME.apply(s, Move(3, "draw-pile-ran-out", {}))
    assert s["next"]["step"] == "play" and s["last_round"]
    assert rules_of(GAME.check(s, Move(4, "draw-pile-ran-out", {}))) == ["docs/rules/han.md §4.1"]
    over = GAME.apply(GAME.apply(final(new()), Move(5, "road-chains-entered", {"chains": []})), Move(6, "game-ended", {}))
    assert rules_of(GAME.check(over, Move(7, "card-exchanged", {"seat": 0}))) == ["docs/rules/han.md §4"]


def test_final_tally_fortress_of_a_seat_that_does_not_play_is_refused_not_crashed():
    s = new(players=3, fortress=True)
    tally = _tally(s, vej=[1, 0, 0])
    tally["fortresses"] = [{"seat": 4, "area": "vej", "site": "ordinary"}]
    assert rules_of(GAME.check(s, Move(2, "final-position-entered", tally))) == ["docs/rules/han.md §2.11"]


def test_the_move_log_names_provinces_as_the_board_profile_does():
    state = {"areas": [{"id": "a1", "name": "Vej"}, {"id": "a2", "name": "Csi"}, {"id": "a3", "name": None}]}
    placed = Move(2, "pieces-placed", {"seat": 0, "cards": ["red"], "pieces": [
        {"type": "pagoda", "area": "a1", "site": "border", "with": "a2"}]})
    players = [{"name": "Anna"}]
    assert GAME.describe(placed, players, state)["en"] == "Anna: pagoda (border with Csi) → Vej (red)"
    assert GAME.describe(placed, players)["en"] == "Anna: pagoda (border with A2) → A1 (red)"  # no state: ids
    scored = Move(3, "province-scored", {"area": "a3"})
    assert GAME.describe(scored, players, state)["hu"] == "#3 megtelt: kiértékelve"  # unnamed: its one name, as on the board
