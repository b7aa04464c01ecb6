"""In the Year of the Dragon, final tally mode (kind ``dragon-tally``): a game played
without the app; each player's finished position is entered and the app computes the
final scoring with its breakdown. Rules as implemented: docs/rules/dragon.md §22. Its
presentation: ``presentation.py``."""
from __future__ import annotations

from scoring.base import GameKind, Rules
from scoring.dragon_tally.apply import apply
from scoring.dragon_tally.check import check
from scoring.dragon_tally.data import EVENT_TYPES
from scoring.dragon_tally.demo import demo
from scoring.dragon_tally.score import is_over, score, tiebreak
from scoring.dragon_tally.setup import setup

RULES = Rules(
    kind="dragon-tally", bgg_id=31594, min_players=2, max_players=5, rules_version=1, event_types=EVENT_TYPES,
    setup=setup, check=check, apply=apply, score=score, is_over=is_over, tiebreak=tiebreak, demo=demo,
)
GAME = GameKind(RULES, "scoring.dragon_tally.presentation")
