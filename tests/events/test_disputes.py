"""A disputed move examined (events/application/disputes.py): the rules run again on the
state before it, the score parts that name it, and the standings as they would be without
it — folded in memory, nothing stored."""
import pytest

from events.application import disputes
from events.domain.projection import fold
from events.storage import store


@pytest.fixture
def game(table_of):
    return table_of(names=("Anna", "Béla"), moves=[("points-recorded", {"seat": 0, "points": 10}),
                                                   ("points-recorded", {"seat": 1, "points": 4})])


def _examined(db, game_id, target):
    events = store.read_events(db, game_id)
    return disputes.examine(events, fold(events), fold(events[:target - 1]), target)


def test_a_legal_move_passes_the_rules_and_its_parts_and_what_if_are_shown(db, game):
    found = _examined(db, game.id, 2)
    assert found.check == []
    assert [(p["player"], p["points"]) for p in found.parts] == [("Anna", 10)]
    assert {row["player"]: row["score"] for row in found.whatif} == {"Anna": 0, "Béla": 4}
    assert store.last_seq(db, game.id) == 3  # nothing stored by the what-if


def test_a_core_event_is_not_the_games_rules_to_check(db, game):
    game.play("event-voided", {"target": 3, "reason": "wrong seat"})
    assert _examined(db, game.id, 4).check is None


def test_a_voided_move_has_no_what_if(db, game):
    game.play("event-voided", {"target": 3, "reason": "wrong seat"})
    found = _examined(db, game.id, 3)
    assert found.whatif is None and found.parts == []

