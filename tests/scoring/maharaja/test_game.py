"""Maharaja rules: the rulebook's worked examples, evaluations, travel, turn order, the
end triggers and every rule check (docs/rules/maharaja.md)."""
import pytest

from scoring.base import FormError, Move
from scoring.maharaja import GAME as M
from scoring.maharaja import apply as A, data as D, score as S
from tests.scoring.maharaja.table import NAMES, pass_round, refused, started, step, turn


# ---- the rulebook's worked examples ---------------------------------------------------

def test_example_8_city_a_jeno_12_peter_9_krisztina_6_anita_3_and_d_next():
    # The rulebook's §8.0 example (docs/rules/maharaja.md §15): Krisztina Mogul, Péter Sadhu, Jenő Builder, Anita Artist; city A evaluated.
    s = started([D.MOGUL, D.SADHU, D.BUILDER, D.ARTIST])
    assert s["maharaja"] == "A"
    gold_before = list(s["gold"])
    s = turn(s, 0, ["palace-house", "gold"], ("gold-taken", {}), ("house-built", {"place": "v17"}),
             ("architect-travelled", {"city": "A", "via": ["v1"]}), ("palace-built", {"city": "A", "site": "inner"}))
    s = turn(s, 1, ["palace-house", "move-house"], ("architect-travelled", {"city": "A", "via": ["v5"]}),
             ("palace-built", {"city": "A", "site": "outer"}), ("house-built", {"place": "A"}),
             ("house-moved", {"source": "v5", "place": "A"}))
    s = turn(s, 2, ["two-houses", "two-houses"], ("architect-travelled", {"city": "A", "via": ["v9"]}),
             *[("house-built", {"place": "A"})] * 4, ("house-built", {"place": "A", "free": True}))
    s = turn(s, 3, ["palace-house", "governor"], ("architect-travelled", {"city": "D", "via": ["v13"]}),
             ("palace-built", {"city": "D", "site": "inner"}), ("house-built", {"place": "D"}),
             ("governor-moved", {"city": "D"}), ("architect-travelled", {"city": "A", "via": ["v13"]}))
    evaluation = s["evaluations"][-1]
    assert evaluation["city"] == "A"
    assert evaluation["points"] == [4, 5, 6, 1]
    why = {NAMES[row["seat"]]: {k: v for k, v in row["parts"].items() if v} for row in evaluation["rows"]}
    assert why == {"Krisztina": {"architect": 1, "inner": 3},              # "építész és belső palota"
                   "Péter": {"architect": 1, "outer": 2, "houses": 2},     # "külső palota (2 pont a szádhu miatt), 2 ház"
                   "Jenő": {"architect": 1, "houses": 5},                  # "építész és 5 ház"
                   "Anita": {"architect": 1}}
    paid = {NAMES[row["seat"]]: row["gold"] for row in evaluation["rows"]}
    assert paid == {"Jenő": 12, "Péter": 9, "Krisztina": 6, "Anita": 3}
    spent = [13 - 2, 13, 4, 10]  # the example's payments
    assert s["gold"] == [gold_before[i] - spent[i] + paid[NAMES[i]] for i in range(4)]
    # "A következő forduló elején a maharadzsa D városba utazik, és a D ... a 2-es mezőre kerül"
    assert s["round"] == 2 and s["maharaja"] == "D"
    assert A.box_number(s["track"].index("D")) == 2


def test_example_7_1_blue_and_red_house_cost_1_to_blue_and_1_to_red():
    blue, red, green = 0, 1, 2
    villages = [[blue, red]] + [[] for _ in range(29)]
    assert A.travel_fees(villages, green, [0]) == {blue: 1, red: 1}


def test_example_7_1_two_blue_houses_cost_2_to_blue():
    blue, green = 0, 2
    villages = [[blue, blue]] + [[] for _ in range(29)]
    assert A.travel_fees(villages, green, [0]) == {blue: 2}


def test_travel_fees_are_paid_at_the_table_and_own_house_passes_free():
    s = started([D.MOGUL, D.TRADER, D.SADHU])
    gold = list(s["gold"])
    # seat 0 passes v5 (seat 1's house), v9 (seat 2's) and v1 (its own house: free).
    s = step(step(s, "actions-revealed", {"seat": 0, "actions": ["gold", "gold"]}),
             "architect-travelled", {"city": "C", "via": ["v5", "v9", "v1"]})
    assert s["gold"] == [gold[0] - 2, gold[1] + 1, gold[2] + 1]
    assert s["architects"][0] == "C"


def test_wandering_monk_travels_free_and_the_owners_are_still_paid():
    s = started([D.MONK, D.MOGUL])
    gold = list(s["gold"])
    s = step(s, "actions-revealed", {"seat": 1, "actions": ["gold", "gold"]})
    s = step(step(s, "gold-taken", {}), "gold-taken", {})
    s = step(s, "turn-ended", {})
    s = step(s, "actions-revealed", {"seat": 0, "actions": ["gold", "gold"]})
    s = step(s, "architect-travelled", {"city": "B", "via": ["v5", "v6"]})
    assert s["gold"][0] == gold[0] and s["gold"][1] == gold[1] + 4 + 2


def test_a_village_without_houses_blocks_the_road():
    s = step(started([D.MOGUL, D.TRADER]), "actions-revealed", {"seat": 0, "actions": ["gold", "gold"]})
    assert refused(s, "architect-travelled", {"city": "B", "via": ["v30"]}) == ["docs/rules/maharaja.md §8"]


def test_example_7_6_character_swap_changes_the_turn_order():
    # Péter Builder (5), Krisztina Sadhu (3), Jenő Monk (4). Krisztina starts and takes the Builder.
    s = started([D.SADHU, D.BUILDER, D.MONK])
    assert s["next"] == {"step": "reveal", "seat": 0}
    s = step(s, "actions-revealed", {"seat": 0, "actions": ["character", "gold"]})
    s = step(s, "character-swapped", {"character": D.BUILDER})
    assert s["next"] == {"step": "pick-character", "seat": 1}
    assert refused(s, "gold-taken", {}) == ["docs/rules/maharaja.md §6"]
    s = step(s, "character-picked", {"character": D.SADHU})   # the one just put back
    s = step(step(s, "gold-taken", {}), "turn-ended", {})
    assert s["next"] == {"step": "reveal", "seat": 1}   # Péter: Sadhu 3 comes before Monk 4
    s = turn(s, 1, ["gold", "gold"], ("gold-taken", {}), ("gold-taken", {}))
    assert s["next"] == {"step": "reveal", "seat": 2}   # then Jenő; Krisztina does not act again
    s = turn(s, 2, ["gold", "gold"], ("gold-taken", {}), ("gold-taken", {}))
    assert s["round"] == 2 and s["evaluations"][-1]["round"] == 1


def test_example_7_5_1_governor_two_down_passed_ones_up():
    track = [None, "B", "C", "D", "E", "F", "G", "A"] + [None] * 9
    moved = A.move_governor(track, "D")
    assert moved[:4] == [None, "D", "B", "C"] and A.next_city(moved) == "D"


def test_example_7_5_2_an_empty_box_passed_stays_empty_f_to_box_5_then_e():
    track = [None] * 4 + ["E", "F", "G", "A", "B", "D", "C"] + [None] * 6   # C tops the track at box 4
    moved = A.move_governor(track, "F")
    assert moved[3:6] == ["F", None, "E"]
    track, city, box = A.maharaja_moves(moved)
    assert city == "F" and A.box_number(box) == 5
    assert A.next_city(track) == "E"


# ---- evaluation ---------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_payouts_follow_the_table_for_each_player_count(n):
    points = list(range(n, 0, -1))
    rows = S.payouts(points, list(range(1, n + 1)), n)
    assert [r["gold"] for r in rows] == list(D.PAYOUTS[n])
    assert D.PAYOUTS[4] == (12, 9, 6, 3)


def test_a_tie_goes_to_the_lower_character_number():
    rows = S.payouts([3, 3, 1], [6, 2, 1], 3)
    assert [(r["seat"], r["gold"]) for r in rows] == [(1, 11), (0, 7), (2, 3)]


def test_zero_points_get_nothing():
    rows = S.payouts([0, 2, 1, 0], [1, 2, 3, 4], 4)
    assert [(r["seat"], r["gold"]) for r in rows] == [(1, 12), (2, 9)]


def test_monopoly_adds_5_to_the_sole_player_present():
    rows = S.payouts([0, 0, 4], [1, 2, 3], 3)
    assert rows == [{"seat": 2, "points": 4, "rank": 1, "gold": 11 + 5, "monopoly": True}]


def test_sadhu_outer_palaces_count_2_and_home_bonus_counts_1():
    s = started([D.SADHU, D.MOGUL], homes="BACDEFG")  # Mogul's home is B, Sadhu's C
    s["cities"]["A"]["outer"] = [0, 1]
    s["cities"]["B"]["outer"] = [0]
    assert S.presence(s, "A") == [2, 1 + 0]
    assert S.presence(s, "B") == [2, 1]


# ---- turns, powers and rule checks --------------------------------------------------

def test_renouncing_a_part_gives_every_other_player_2_gold():
    s = started([D.MOGUL, D.SADHU, D.MONK])
    gold = list(s["gold"])
    s = step(step(s, "actions-revealed", {"seat": 0, "actions": ["palace-house", "gold"]}), "gold-taken", {})
    assert refused(s, "turn-ended", {}) == ["docs/rules/maharaja.md §14"]           # the app asks first
    s = step(s, "turn-ended", {"renounce": True})
    assert s["gold"] == [gold[0] + 2, gold[1] + 2, gold[2] + 2]
    assert s["renounced"][0]["parts"] == ["palace", "house"]


def test_renouncing_with_nothing_left_is_refused():
    s = step(started([D.MOGUL, D.SADHU]), "actions-revealed", {"seat": 0, "actions": ["gold", "gold"]})
    s = step(step(s, "gold-taken", {}), "gold-taken", {})
    assert refused(s, "turn-ended", {"renounce": True}) == ["docs/rules/maharaja.md §14"]


def test_trader_gets_1_gold_when_his_turn_starts_and_artist_builds_for_9():
    s = started([D.TRADER, D.ARTIST])
    gold = list(s["gold"])
    s = turn(s, 0, ["gold", "gold"], ("gold-taken", {}), ("gold-taken", {}))
    assert s["gold"][0] == gold[0] + 1 + 4
    s = step(s, "actions-revealed", {"seat": 1, "actions": ["palace", "gold"]})
    s = step(s, "architect-travelled", {"city": "A", "via": ["v5"]})
    s = step(s, "palace-built", {"city": "A", "site": "outer"})
    assert s["gold"][1] == gold[1] - 9


def test_builder_free_house_once_a_turn_and_only_for_the_builder():
    s = step(started([D.BUILDER, D.MOGUL]), "actions-revealed", {"seat": 1, "actions": ["gold", "gold"]})
    assert refused(s, "house-built", {"place": "v20", "free": True}) == ["docs/rules/maharaja.md §12"]
    s = step(step(step(s, "gold-taken", {}), "gold-taken", {}), "turn-ended", {})
    s = step(s, "actions-revealed", {"seat": 0, "actions": ["gold", "gold"]})
    reserve, gold = s["reserve"][0], s["gold"][0]
    s = step(s, "house-built", {"place": "v20", "free": True})
    assert (s["reserve"][0], s["gold"][0]) == (reserve - 1, gold)
    assert s["turn"]["parts"] == ["gold", "gold"]
    assert refused(s, "house-built", {"place": "v21", "free": True}) == ["docs/rules/maharaja.md §12"]


def test_gold_never_below_zero():
    s = step(started([D.MOGUL, D.TRADER]), "actions-revealed", {"seat": 0, "actions": ["palace", "palace"]})
    s = step(s, "architect-travelled", {"city": "A", "via": ["v1"]})
    s = step(s, "palace-built", {"city": "A", "site": "inner"})
    assert refused(s, "palace-built", {"city": "A", "site": "outer"}) == ["docs/rules/maharaja.md §9"]


def test_city_has_one_inner_and_six_outer_sites():
    s = started([D.MOGUL, D.TRADER])
    s["cities"]["A"]["outer"] = [1] * 6
    s["cities"]["A"]["inner"] = 1
    s = step(s, "actions-revealed", {"seat": 0, "actions": ["palace", "gold"]})
    s = step(s, "architect-travelled", {"city": "A", "via": ["v1"]})
    assert refused(s, "palace-built", {"city": "A", "site": "inner"}) == ["docs/rules/maharaja.md §9"]
    assert refused(s, "palace-built", {"city": "A", "site": "outer"}) == ["docs/rules/maharaja.md §9"]


def test_neutral_palaces_take_outer_sites_with_fewer_players():
    assert M.setup([{"name": "a"}] * 3, {"neutral_palaces": True})["outer_sites"] == 4


def test_palace_supply_runs_out():
    s = started([D.MOGUL, D.TRADER])
    s["palaces"] = [{"seat": 0, "city": "B", "site": "outer", "seq": 1}] * 7
    s["gold"][0] = 50
    s = step(s, "actions-revealed", {"seat": 0, "actions": ["palace", "gold"]})
    s = step(s, "architect-travelled", {"city": "A", "via": ["v1"]})
    assert refused(s, "palace-built", {"city": "A", "site": "outer"}) == ["docs/rules/maharaja.md §9"]


def test_village_capacity_is_2_and_1_with_two_players():
    three = started([D.MOGUL, D.TRADER, D.SADHU])
    three = step(three, "actions-revealed", {"seat": 0, "actions": ["house", "house"]})
    three = step(three, "house-built", {"place": "v5"})
    assert refused(three, "house-built", {"place": "v5"}) == ["docs/rules/maharaja.md §5"]
    two = step(started([D.MOGUL, D.TRADER]), "actions-revealed", {"seat": 0, "actions": ["house", "house"]})
    assert refused(two, "house-built", {"place": "v5"}) == ["docs/rules/maharaja.md §5"]


def test_city_building_only_where_the_architect_stands_and_two_houses_need_a_city():
    s = step(started([D.MOGUL, D.TRADER]), "actions-revealed", {"seat": 0, "actions": ["two-houses", "gold"]})
    assert refused(s, "house-built", {"place": "B"}) == ["docs/rules/maharaja.md §9"]
    s = step(s, "house-built", {"place": "v20"})
    assert refused(s, "house-built", {"place": "v21"}) == ["docs/rules/maharaja.md §7"]
    s = step(step(s, "architect-travelled", {"city": "B", "via": ["v1"]}), "house-built", {"place": "B"})
    assert s["cities"]["B"]["houses"][0] == 1


def test_two_actions_only_and_a_chip_buys_a_third_but_never_the_swap():
    s = step(started([D.YOGI, D.MOGUL], yogi=True), "actions-revealed", {"seat": 1, "actions": ["gold", "gold"]})
    s = step(step(s, "gold-taken", {}), "gold-taken", {})
    assert refused(s, "gold-taken", {}) == ["docs/rules/maharaja.md §7"]
    s = step(step(s, "turn-ended", {}), "actions-revealed", {"seat": 0, "actions": ["gold", "gold"]})
    assert s["chips"][0] == 1
    s = step(s, "chip-used", {"action": "quarry"})
    assert refused(s, "chip-used", {"action": "gold"}) == ["docs/rules/maharaja.md §13"]
    assert "character" not in M.event_types["chip-used"].schema["properties"]["action"]["enum"]
    assert s["turn"]["parts"] == ["gold", "gold", "quarry"]


def test_each_player_acts_once_a_round():
    s = turn(started([D.MOGUL, D.TRADER, D.SADHU]), 0, ["gold", "gold"], ("gold-taken", {}), ("gold-taken", {}))
    assert refused(s, "actions-revealed", {"seat": 0, "actions": ["gold", "gold"]}) == ["docs/rules/maharaja.md §6"]


def test_governor_cannot_go_below_the_track():
    s = step(started([D.MOGUL, D.TRADER]), "actions-revealed", {"seat": 0, "actions": ["governor", "gold"]})
    assert A.bottom_governor(s["track"]) == 1
    assert refused(s, "governor-moved", {"city": "B"}) == ["docs/rules/maharaja.md §11"]


def test_auction_winner_pays_his_bid_the_last_chooses_free_and_no_pay_without_the_auction():
    """docs/rules/maharaja.md §4 (the rulebook's §11.2.5): the winner pays his bid to the bank; the last player without a character
    chooses free; without the auction variant nobody pays; a bid is never more than one's gold."""
    players = [{"name": n, "colour": ""} for n in NAMES[:3]]
    plain = step(M.setup(players, {}), "governors-laid", {"order": list("ABCDEFG")})
    assert refused(plain, "character-chosen", {"seat": 0, "character": 1, "paid": 2}) == ["docs/rules/maharaja.md §4"]
    s = step(M.setup(players, {"auction": True}), "governors-laid", {"order": list("ABCDEFG")})
    assert refused(s, "character-chosen", {"seat": 1, "character": 1, "paid": 16}) == ["docs/rules/maharaja.md §9"]
    s = step(s, "character-chosen", {"seat": 1, "character": 1, "paid": 4})
    s = step(s, "character-chosen", {"seat": 0, "character": 3, "paid": 0})
    assert refused(s, "character-chosen", {"seat": 2, "character": 2, "paid": 1}) == ["docs/rules/maharaja.md §4"]
    s = step(s, "character-chosen", {"seat": 2, "character": 2})
    assert s["gold"] == [15, 11, 15]


def test_start_houses_go_in_character_order_into_villages():
    players = [{"name": n} for n in NAMES[:3]]
    s = M.setup(players, {})
    s = step(s, "governors-laid", {"order": list("GFEDCBA")})
    for seat, number in enumerate([4, 1, 2]):
        s = step(s, "character-chosen", {"seat": seat, "character": number})
    assert s["next"] == {"step": "start-house", "seat": 1}
    assert refused(s, "start-house-placed", {"seat": 0, "place": "v1"}) == ["docs/rules/maharaja.md §5"]
    assert refused(s, "start-house-placed", {"seat": 1, "place": "A"}) == ["docs/rules/maharaja.md §5"]


# ---- the end --------------------------------------------------------------------------

def test_game_ends_after_the_evaluation_of_the_round_with_a_last_palace():
    s = started([D.MOGUL, D.TRADER])
    s["palaces"] = [{"seat": 1, "city": "B", "site": "outer", "seq": 1}] * 6
    s = turn(s, 0, ["gold", "gold"], ("gold-taken", {}), ("gold-taken", {}))
    s = step(s, "actions-revealed", {"seat": 1, "actions": ["palace", "gold"]})
    s = step(step(s, "architect-travelled", {"city": "A", "via": ["v5"]}), "palace-built", {"city": "A", "site": "inner"})
    assert not M.is_over(s)
    s = step(step(s, "gold-taken", {}), "turn-ended", {})
    assert M.is_over(s) and s["evaluations"][-1]["round"] == 1
    assert M.check(s, Move(0, "actions-revealed", {"seat": 0, "actions": ["gold", "gold"]}))[0].rule == "docs/rules/maharaja.md §16"


def test_game_ends_when_a_governor_reaches_box_10():
    s = started([D.MOGUL, D.TRADER])
    for _ in range(9):
        s = pass_round(s)
    assert s["round"] == 10 and s["last_round"] and not M.is_over(s)
    assert A.box_number(max(i for i, c in enumerate(s["track"]) if c)) == 10
    s = pass_round(s)
    assert M.is_over(s) and len(s["evaluations"]) == 10


def test_short_variant_6_palaces_and_at_most_8_rounds():
    s = started([D.MOGUL, D.TRADER], short=True)
    assert s["palaces_each"] == 6
    for _ in range(8):
        s = pass_round(s)
    assert M.is_over(s) and s["round"] == 8


def _ranked(s):
    return sorted(range(s["n"]), key=lambda seat: (-sum(p.points for p in M.score(s)[seat]),
                                                  [-x for x in M.tiebreak(s, seat)], seat))


def test_winner_by_palaces_then_gold_then_lower_character():
    s = started([D.TRADER, D.MOGUL, D.SADHU])
    s["palaces"] = [{"seat": 2, "city": "A", "site": "outer", "seq": 5}]
    s["gold"] = [20, 20, 3]
    s["phase"] = "over"
    assert _ranked(s) == [2, 1, 0]


def test_secret_gold_does_not_rank_equal_palaces_while_the_game_runs():
    """The scoreboard must not tell who is richer: equal palaces share a rank until the end."""
    s = started([D.TRADER, D.MOGUL, D.SADHU])
    s["gold"] = [3, 20, 40]
    assert {M.tiebreak(s, seat) for seat in range(3)} == {()}
    s["phase"] = "over"                                   # the end reveals the gold (docs/rules/maharaja.md §16)
    assert _ranked(s) == [2, 1, 0]


def test_during_play_equal_palaces_share_a_rank_even_with_gold_open():
    """The tie-break is the end's: during play equal scores share a rank (§16)."""
    shown = started([D.TRADER, D.MOGUL, D.SADHU], secret_gold=False)
    shown["gold"] = [3, 20, 40]
    assert {M.tiebreak(shown, seat) for seat in range(3)} == {()}
    shown["phase"] = "over"
    assert _ranked(shown) == [2, 1, 0]


# ---- the phone form ----------------------------------------------------------------------

@pytest.mark.parametrize("form", [{}, {"action": "drop-table"}, {"action": "house-built"},
                                  {"action": "house-built", "house_place": "v31"},
                                  {"action": "architect-travelled", "travel_city": "A", "via": "x"},
                                  {"action": "palace-built", "palace_site": "inner"}])
def test_malformed_forms_raise_form_error(form):
    s = step(started([D.MOGUL, D.TRADER]), "actions-revealed", {"seat": 0, "actions": ["gold", "gold"]})
    with pytest.raises(FormError):
        M.parse_form(s, form)


def test_form_free_and_renounce_buttons_become_flags():
    s = step(started([D.BUILDER, D.MOGUL]), "actions-revealed", {"seat": 1, "actions": ["gold", "gold"]})
    assert M.parse_form(s, {"action": "house-built-free", "house_place": "v3"}) == \
        ("house-built", {"place": "v3", "free": True})
    assert M.parse_form(s, {"action": "turn-ended-renounce"}) == ("turn-ended", {"renounce": True})


def test_the_move_log_names_a_city_as_the_board_profile_does():
    board = {"cities": [{"id": "A", "name": "Jaipur", "colour": ""}, {"id": "B", "name": "", "colour": ""}]}
    options = {"board": {"id": "t", "version": 1, "data": board}}  # the names are the set-up's, not the state's
    state = started([D.MOGUL, D.TRADER])
    palace = Move(9, "palace-built", {"city": "A", "site": "inner"})
    governor = Move(10, "governor-moved", {"city": "B"})
    assert M.describe(palace, [{"name": "Anna"}], state, options)["en"] == "Palace – city A (Jaipur), inner"
    assert M.describe(governor, [{"name": "Anna"}], state, options)["en"] == "Governor B two boxes down"  # unnamed yet
    assert M.describe(palace, [{"name": "Anna"}])["en"] == "Palace – city A, inner"
