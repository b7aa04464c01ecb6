"""One contract, every registered game: the fold, JSON round trips, pure checks,
documented and exercised event types."""
import copy
import json
import pathlib

import pytest

from events.projection import fold, standings
from events.store import Event
from scoring import GAMES

DOCS = pathlib.Path(__file__).parent.parent / "docs" / "events.md"


def _events_of_demo(game):
    players, options, moves = game.demo()
    created = Event(1, "game-created", 1, {"kind": game.kind, "rules_version": game.rules_version,
                                           "players": players, "options": {**game.default_options(), **options}},
                    None, "dev", "t", "c1", "h")
    events = [created]
    for i, (type_, data) in enumerate(moves, start=2):
        events.append(Event(i, type_, game.event_types[type_].version, data, 0, "dev", "t", f"c{i}", "h"))
    return events


@pytest.fixture(params=sorted(GAMES))
def game(request):
    return GAMES[request.param]


def test_every_game_declares_a_demo(game):
    assert game.demo is not None, f"{game.kind} needs a demo game for the contract test"


def test_demo_moves_are_legal_one_by_one(game):
    from events.table import check_move
    events = _events_of_demo(game)
    for event in events[1:]:
        table = fold(events, upto=event.seq - 1)
        assert check_move(table, event.type, event.data) == [], (event.seq, event.type)


def test_fold_all_at_once_equals_fold_one_by_one(game):
    from events.projection import advance
    events = _events_of_demo(game)
    whole = fold(events)
    stepwise = fold(events[:1])
    for event in events[1:]:
        stepwise = advance(stepwise, event)
    assert stepwise.game == whole.game
    assert standings(stepwise) == standings(whole)


def test_state_and_scores_survive_a_json_round_trip(game):
    events = _events_of_demo(game)
    for n in range(1, len(events) + 1):
        table = fold(events, upto=n)
        assert json.loads(json.dumps(table.game)) == table.game
        scores = game.score(table.game)
        round_tripped = json.loads(json.dumps({s: [p.as_dict() for p in parts] for s, parts in scores.items()}))
        assert round_tripped == {str(s): [p.as_dict() for p in parts] for s, parts in scores.items()}


def test_check_and_apply_never_mutate_their_input(game):
    from events.projection import upcast
    events = _events_of_demo(game)
    for event in events[1:]:
        state = fold(events, upto=event.seq - 1).game
        before = copy.deepcopy(state)
        move = upcast(game, event)
        game.check(state, move)
        assert state == before, f"check mutated the state at {event.type}"
        game.apply(state, move)
        assert state == before, f"apply mutated the state at {event.type}"


def test_demo_exercises_every_event_type(game):
    used = {type_ for type_, _ in game.demo()[2]}
    assert used == set(game.event_types), set(game.event_types) - used


def test_every_event_type_is_documented(game):
    text = DOCS.read_text(encoding="utf-8")
    for type_ in game.event_types:
        assert f"`{type_}`" in text, f"{game.kind}: {type_} missing from docs/events.md"


def test_every_event_type_has_a_schema_and_labels(game):
    for type_, spec in game.event_types.items():
        assert spec.schema.get("type") == "object"
        assert spec.label["hu"] and spec.label["en"]
        assert set(spec.upcasters) == set(range(1, spec.version))


def test_describe_speaks_both_languages(game):
    events = _events_of_demo(game)
    players = events[0].data["players"]
    from events.projection import upcast
    for event in events[1:]:
        move = upcast(game, event)
        with_state = game.describe(move, players, fold(events, upto=event.seq).game)
        without = game.describe(move, players)  # e.g. an event of a game that cannot be folded
        assert with_state["hu"] and with_state["en"] and without["hu"] and without["en"]
