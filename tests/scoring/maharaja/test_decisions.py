"""Maharaja rules a table can trust: the decisions of rules version 2 and the clearer
refusals (docs/rules/maharaja.md §2, §4–§6, §8, §9, §15, §16). Each test failed on the
code before the change it proves."""
from scoring import rules_for
from scoring.base import Move
from scoring.maharaja import GAME as M
from scoring.maharaja import data as D
from scoring.maharaja.score import evaluate
from tests.scoring.maharaja.table import NAMES, refused, started, step


def _problems(state, type_, data, seat=None):
    """As the recorder gives them: the players the rules name by seat, named."""
    return [p.naming([{"name": n} for n in NAMES]) for p in M.check(state, Move(0, type_, data, seat))]


# ---- a journey passes at least one village (§8) -------------------------------------------

def test_a_journey_through_no_village_is_refused_citing_the_road_rule():
    s = step(started([D.MOGUL, D.TRADER]), "actions-revealed", {"seat": 0, "actions": ["gold", "gold"]})
    problems = _problems(s, "architect-travelled", {"city": "B", "via": []})
    assert [p.rule for p in problems] == ["docs/rules/maharaja.md §8"]
    assert "one or two villages" in problems[0].en


def test_a_game_recorded_under_rules_version_1_keeps_its_journeys_through_no_village():
    old = rules_for("maharaja", 1)
    assert old.rules_version == 1 and M.rules_version == 2
    state = old.setup([{"name": n} for n in NAMES[:2]], old.default_options())
    assert state["rules_version"] == 1
    s = started([D.MOGUL, D.TRADER])
    s["rules_version"] = 1
    s = step(s, "actions-revealed", {"seat": 0, "actions": ["gold", "gold"]})
    assert old.check(s, Move(0, "architect-travelled", {"city": "B", "via": []})) == []


# ---- one village notation, "vN", with recorded games upcast (docs/events.md) ----------------

def test_a_journey_names_villages_as_every_other_payload_does_and_old_numbers_upcast():
    spec = M.event_types["architect-travelled"]
    assert spec.version == 2
    assert spec.upcasters[1]({"city": "C", "via": [5, 9]}) == {"city": "C", "via": ["v5", "v9"]}
    s = step(started([D.MOGUL, D.TRADER]), "actions-revealed", {"seat": 0, "actions": ["gold", "gold"]})
    gold = list(s["gold"])
    s = step(s, "architect-travelled", {"city": "C", "via": ["v5"]})  # seat 1's house: 1 gold to him
    assert s["gold"] == [gold[0] - 1, gold[1] + 1]
    from jsonschema import Draft202012Validator
    assert not Draft202012Validator(spec.schema).is_valid({"city": "C", "via": [5]})


# ---- the seat is whose turn it is (§4–§6) ----------------------------------------------------

def test_a_seat_left_out_of_a_payload_is_whose_turn_it_is():
    s = step(started([D.MOGUL, D.TRADER]), "actions-revealed", {"actions": ["gold", "gold"]})
    assert s["turn"]["seat"] == 0
    for type_ in ("character-chosen", "start-house-placed", "actions-revealed"):
        assert "seat" not in M.event_types[type_].schema["required"]


def test_a_seat_given_that_is_not_whose_turn_is_refused_naming_whose_turn_it_is():
    s = started([D.MOGUL, D.TRADER])
    problems = _problems(s, "actions-revealed", {"seat": 1, "actions": ["gold", "gold"]}, seat=1)
    assert [p.en for p in problems] == ["It is Krisztina's turn, not Péter's."]


def test_in_the_auction_a_choice_without_a_seat_is_the_recording_phones():
    players = [{"name": n} for n in NAMES[:3]]
    s = M.setup(players, {**M.default_options(), "auction": True})
    s = step(s, "governors-laid", {"order": list("ABCDEFG")})
    s = M.apply(s, Move(3, "character-chosen", {"character": 2, "paid": 4}, 2))
    assert s["characters"][1] == 2 and s["gold"][2] == D.START_GOLD - 4


# ---- the move log says who acted (§6) ----------------------------------------------------------

def test_the_move_log_names_who_made_each_move_not_only_who_recorded_it():
    s = step(started([D.MOGUL, D.TRADER]), "actions-revealed", {"seat": 0, "actions": ["gold", "gold"]})
    s = M.apply(s, Move(40, "gold-taken", {}, 1))          # Péter's phone records Krisztina's gold
    players = [{"name": n} for n in NAMES[:2]]
    assert M.describe(Move(40, "gold-taken", {}, 1), players, s)["en"] == "Krisztina: took 2 gold"


# ---- decisions from the rulebook's wording (§2, §15) -------------------------------------------

def test_a_home_point_alone_does_not_break_a_monopoly():
    """HU 8.0: a monopoly is when the others have neither building nor architect there;
    HU 12.6 gives the home point even to a player not otherwise present."""
    s = started([D.MOGUL, D.TRADER], homes="ABCDEFG")        # the Trader's home is B
    s["cities"]["B"]["houses"][0] = 1
    rows = {r["seat"]: r for r in evaluate(s, "B")}
    assert rows[0]["monopoly"] and rows[0]["gold"] == 10 + 5
    assert rows[1]["points"] == 1 and rows[1]["gold"] == 5 and not rows[1]["monopoly"]
    s["rules_version"] = 1                                            # games of rules version 1 score as they did
    rows = {r["seat"]: r for r in evaluate(s, "B")}
    assert not rows[0]["monopoly"]


def test_the_neutral_palaces_apply_with_fewer_than_five_players_unless_the_table_turns_them_off():
    """HU 5.0 (the basic rules): with fewer than five players certain rules change (11.2.4)."""
    assert M.default_options()["neutral_palaces"] is True
    assert started([D.MOGUL, D.TRADER, D.SADHU])["outer_sites"] == 4
    assert started([D.MOGUL, D.TRADER, D.SADHU], neutral_palaces=False)["outer_sites"] == 6


# ---- money refusals name the price and the holdings (§9) ----------------------------------------

def test_a_palace_one_cannot_pay_names_its_price_and_the_players_gold():
    s = step(started([D.MOGUL, D.TRADER]), "actions-revealed", {"seat": 0, "actions": ["palace", "gold"]})
    s = step(s, "architect-travelled", {"city": "A", "via": ["v1"]})
    s["gold"][0] = 3
    problems = _problems(s, "palace-built", {"city": "A", "site": "inner"})
    assert [p.en for p in problems] == ["A palace costs 12 gold; Krisztina has 3."]
    assert problems[0].hu == "Egy palota 12 aranyba kerül; Krisztina aranya: 3."
    assert refused(s, "palace-built", {"city": "A", "site": "inner"}) == ["docs/rules/maharaja.md §9"]


# ---- refusals say what they mean (issue 15 item 11) ---------------------------------------------

def test_a_refused_form_cites_the_rule_its_field_belongs_to_never_an_internal_tag():
    import pytest
    from scoring.base import FormError
    s = step(started([D.MOGUL, D.TRADER]), "actions-revealed", {"seat": 0, "actions": ["house", "gold"]})
    for form in ({"action": "house-built", "house_place": ""}, {"action": "architect-travelled", "travel_city": "Q"},
                 {"action": "governor-moved"}, {"action": "nonsense"}):
        with pytest.raises(FormError) as refused_form:
            M.parse_form(s, form)
        assert all(p.rule.startswith("docs/rules/maharaja.md §") for p in refused_form.value.problems), form
