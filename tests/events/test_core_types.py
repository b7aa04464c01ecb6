"""The core events every game shares (events/domain/core_types.py): each refusal cites a
section of the core's rulebook; a void, a dispute, a break and a rescore are checked
against the table as it stands; only a void (or a dispute resolved by voiding) and a
rescore change the past."""
import pytest

from events.application.states import uncached as load
from events.domain.core_types import CORE_EVENTS, RULEBOOK
from scoring import cited
from scoring.base import Problem


@pytest.fixture
def game(table_of):
    return table_of(moves=[("points-recorded", {"seat": 0, "points": 3})])


def _refused(db, game, type_, data) -> list[str]:
    problems = CORE_EVENTS[type_].check(load(db, game.id), data)
    assert all(isinstance(p, Problem) and cited(p.rule)[0] == "core" for p in problems)
    return [p.rule for p in problems]


def test_every_section_a_refusal_cites_is_in_the_core_rulebook(db, game):
    sections = {s.ref for s in RULEBOOK}
    said = _refused(db, game, "game-created", {}) + _refused(db, game, "event-voided", {"target": 9}) \
        + _refused(db, game, "dispute-commented", {"dispute": 9}) + _refused(db, game, "game-resumed", {}) \
        + _refused(db, game, "rules-rescored", {"rules_version": 1})
    assert {cited(rule)[1] for rule in said} <= sections and len(said) == 5


def test_a_move_is_voided_once_and_the_set_up_never(db, game):
    assert _refused(db, game, "event-voided", {"target": 2}) == []
    assert _refused(db, game, "event-voided", {"target": 1}) == ["core §3"]
    game.play("event-voided", {"target": 2, "reason": "wrong"})
    assert _refused(db, game, "event-voided", {"target": 2}) == ["core §3"]


def test_one_open_dispute_per_move_and_only_an_open_one_takes_comments(db, game):
    game.play("dispute-opened", {"target": 2, "comment": "really?"})
    assert _refused(db, game, "dispute-opened", {"target": 2, "comment": "again"}) == ["core §4"]
    assert _refused(db, game, "dispute-commented", {"dispute": 3, "comment": "yes"}) == []
    game.play("dispute-resolved", {"dispute": 3, "outcome": "kept", "reason": "fine"})
    assert _refused(db, game, "dispute-commented", {"dispute": 3, "comment": "late"}) == ["core §4"]


def test_a_break_is_taken_once_and_ended_once(db, game):
    assert _refused(db, game, "game-resumed", {}) == ["core §8"]
    game.play("game-paused", {})
    assert _refused(db, game, "game-paused", {}) == ["core §8"] and _refused(db, game, "game-resumed", {}) == []
    assert load(db, game.id).paused is not None


def test_only_a_void_a_voiding_resolution_and_a_rescore_change_the_past():
    changes = {t for t, spec in CORE_EVENTS.items() if spec.changes_the_past({"outcome": "voided"})}
    assert changes == {"event-voided", "dispute-resolved", "rules-rescored"}
    assert not CORE_EVENTS["dispute-resolved"].changes_the_past({"outcome": "kept"})
