"""Five Tribes (Days of Wonder, 2014): the books turn by turn, or the score sheet at the end.

Both ways end in the same per-player holdings, scored by ``score.py``, so both give the
same breakdown. The rules as implemented, with the rulebook sections they follow:
docs/rules/five-tribes.md. Its presentation: ``presentation.py``.
"""
from __future__ import annotations

from scoring.base import GameKind, Rules
from scoring.five_tribes.apply import apply
from scoring.five_tribes.check import check
from scoring.five_tribes.data import EVENT_TYPES
from scoring.five_tribes.demo import demo
from scoring.five_tribes.score import is_over, score
from scoring.five_tribes.turns import turn
from scoring.five_tribes.setup import setup, setup_v1

RULES = Rules(
    kind="five-tribes", bgg_id=157354, min_players=2, max_players=4, rules_version=2, event_types=EVENT_TYPES,
    setup=setup, check=check, apply=apply, score=score, is_over=is_over, demo=demo, turn=turn,
)
GAME = GameKind(RULES, "scoring.five_tribes.presentation")

# Rules version 1 (docs/rules/five-tribes.md §14): games recorded before the rulebook fixes of
# version 2 keep the checks they were played with; scoring is the same.
GAME_V1 = GAME.changed(rules_version=1, setup=setup_v1)
