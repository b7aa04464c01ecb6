"""The generic score pad's rules and form (scoring/scorepad/), without a server."""
import pytest

from scoring.base import FormError, Move
from scoring.forms import parse_action
from scoring.scorepad import GAME as pad

PLAYERS = [{"name": "Anna"}, {"name": "Béla"}]


def test_parse_action_picks_the_parser_by_action_and_refuses_an_unknown_one():
    parsers = {"a": lambda state, form: {"got": form["x"]}}
    assert parse_action(parsers, {}, {"action": "a", "x": 1}) == ("a", {"got": 1})
    assert parse_action(parsers, {}, {"x": 2}, default="a") == ("a", {"got": 2})
    with pytest.raises(FormError) as err:
        parse_action(parsers, {}, {"action": "b"}, rule="docs/rules/scorepad.md §4")
    assert err.value.problems[0].rule == "docs/rules/scorepad.md §4" and "Unknown action" in err.value.problems[0].en


def test_one_point_is_said_in_the_singular():
    said = pad.describe(Move(2, "points-recorded", {"seat": 0, "points": 1}), PLAYERS, None)
    assert said["en"] == "Anna: +1 point" and said["hu"] == "Anna: +1 pont"
    said = pad.describe(Move(2, "points-recorded", {"seat": 1, "points": -3}), PLAYERS, None)
    assert said["en"] == "Béla: -3 points"


def test_refusals_cite_the_rules_document_with_the_numbers():
    state = pad.setup(PLAYERS, {})
    problems = pad.check(state, Move(2, "points-recorded", {"seat": 5, "points": 2_000_000}))
    assert [p.rule for p in problems] == ["docs/rules/scorepad.md §1"] * 2
    assert "no player 6 (2 players)" in problems[0].en and "got 2000000" in problems[1].en
    assert "round 1" in pad.check(state, Move(2, "round-closed", {}))[0].en
