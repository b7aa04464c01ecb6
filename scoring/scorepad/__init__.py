"""Generic score pad: points per player per round, for any game without a module.
Rules as implemented: docs/rules/scorepad.md. Its presentation: ``presentation.py``."""
from __future__ import annotations

from scoring.base import GameKind, Rules
from scoring.scorepad.apply import apply
from scoring.scorepad.check import check
from scoring.scorepad.data import EVENT_TYPES, OPTIONS
from scoring.scorepad.demo import demo
from scoring.scorepad.score import is_over, recent_parts, score, totals
from scoring.scorepad.turns import turn
from scoring.scorepad.setup import check_setup, setup

RULES = Rules(
    kind="scorepad", min_players=1, max_players=12, rules_version=1, event_types=EVENT_TYPES,
    setup=setup, check=check, apply=apply, score=score, is_over=is_over,
    demo=demo, totals=totals, recent_parts=recent_parts, options=OPTIONS, check_setup=check_setup,
    turn=turn,
)
GAME = GameKind(RULES, "scoring.scorepad.presentation")
