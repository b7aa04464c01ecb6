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


def _row(r, *points):
    return {"round": r, "entries": [{"seat": s, "points": p} for s, p in enumerate(points) if p is not None]}


def test_a_whole_round_is_one_row_that_closes_the_round_with_running_totals():
    state = pad.setup(PLAYERS, {})
    state = pad.apply(state, Move(2, "round-entered", _row(1, 12, 8)))
    state = pad.apply(state, Move(3, "round-entered", _row(2, 5, None)))
    assert state["round"] == 3 and state["totals"] == [17, 8]
    grid = pad.view(state, PLAYERS)
    assert [[c and (c["points"], c["total"]) for c in row["cells"]] for row in grid["rows"]] == \
        [[(12, 12), (8, 8)], [(5, 17), None]]
    assert grid["fill"] == 3 and grid["totals"] == [17, 8]
    assert {p.category: p.points for p in pad.score(state)[0]} == {"round-1": 12, "round-2": 5}
    said = pad.describe(Move(2, "round-entered", _row(1, 12, -3)), PLAYERS, None)
    assert said == {"hu": "1. kör: Anna +12, Béla -3", "en": "Round 1: Anna +12, Béla -3", "de": "Runde 1: Anna +12, Béla -3"}


def test_a_filled_cell_is_refused_naming_the_player_the_points_and_the_entry():
    state = pad.apply(pad.setup(PLAYERS, {}), Move(2, "round-entered", _row(1, 12, 8)))
    problems = [p.naming(PLAYERS) for p in pad.check(state, Move(3, "round-entered", _row(1, None, 9)))]
    assert [p.rule for p in problems] == ["docs/rules/scorepad.md §5"]
    assert problems[0].en == "Béla already has 8 in round 1 (#2); to change it, void that entry and enter it again."
    assert pad.check(state, Move(3, "round-entered", {"round": 2, "entries": [{"seat": 0, "points": 1}] * 2}))
    assert pad.check(state, Move(3, "round-entered", _row(2, 1, 2))) == []


def test_the_grid_shows_only_the_last_rounds_with_running_totals_from_the_start():
    state = pad.setup(PLAYERS, {})
    for r in range(1, 31):
        state = pad.apply(state, Move(r + 1, "round-entered", _row(r, r, 1)))
    grid = pad.view(state, PLAYERS)
    assert grid["hidden"] == 30 - len(grid["rows"]) and grid["rows"][0]["round"] == grid["hidden"] + 1
    assert grid["rows"][-1]["cells"][0]["total"] == sum(range(31)) and grid["rows"][-1]["cells"][1]["total"] == 30


def test_the_form_parses_one_field_per_player_and_a_minus_tick():
    state = pad.setup(PLAYERS, {})
    form = {"action": "round-entered", "round": "1", "points_0": "12", "points_1": "3", "minus_1": "1"}
    assert pad.parse_form(state, form) == ("round-entered", _row(1, 12, -3))
    assert pad.parse_form(state, {**form, "points_0": ""})[1] == _row(1, None, -3)
    with pytest.raises(FormError):
        pad.parse_form(state, {"action": "round-entered", "round": "1"})
    with pytest.raises(FormError):
        pad.parse_form(state, {**form, "points_0": "12x"})


def test_a_cell_is_changed_by_voiding_its_row_and_entering_the_round_again(db):
    from events.application.states import uncached as load
    from events.domain.projection import standings
    from events.application.table import new_game, record
    gid = new_game(db, "scorepad", PLAYERS, {}, "dev")["id"]
    for seq, row in enumerate((_row(1, 12, 8), _row(2, 5, 7), _row(3, 1, 1)), start=1):
        record(db, gid, "round-entered", row, seq, 0, "dev", f"r{seq}")
    record(db, gid, "event-voided", {"target": 3, "reason": "typo"}, 4, 0, "dev", "v")
    table = load(db, gid)
    assert table.flagged == {}  # the later round stands: rows name their round
    grid = pad.view(table.game, PLAYERS)
    assert grid["fill"] == 2 and [c is None for c in grid["rows"][1]["cells"]] == [True, True]
    record(db, gid, "round-entered", _row(2, 5, 17), 5, 0, "dev", "again")
    table = load(db, gid)
    assert [r["score"] for r in sorted(standings(table), key=lambda r: r["seat"])] == [18, 26]
    assert pad.view(table.game, PLAYERS)["fill"] == 4
