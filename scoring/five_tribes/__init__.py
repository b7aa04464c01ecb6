"""Five Tribes (Days of Wonder, 2014): the books turn by turn, or the score sheet at the end.

Both ways end in the same per-player holdings, scored by ``score.py``, so both give the
same breakdown. The rules as implemented, with the rulebook sections they follow:
docs/rules/five-tribes.md.
"""
from __future__ import annotations

from dataclasses import replace

from scoring.base import GameKind
from scoring.five_tribes.apply import apply
from scoring.five_tribes.check import check
from scoring.five_tribes.data import EVENT_TYPES
from scoring.five_tribes.demo import demo
from scoring.five_tribes.forms import describe, parse_form
from scoring.five_tribes.score import CATEGORIES, is_over, score
from scoring.five_tribes.turns import turn
from scoring.five_tribes.setup import setup, setup_v1
from scoring.five_tribes.view import view
from scoring.i18n import msg

GAME = GameKind(
    kind="five-tribes", bgg_id=157354, title=msg("Five Tribes"),
    min_players=2, max_players=4, rules_version=2, event_types=EVENT_TYPES,
    setup=setup, check=check, apply=apply, score=score, is_over=is_over,
    describe=describe, parse_form=parse_form, categories=CATEGORIES,
    has_board=True, demo=demo, view=view, last_of=("meeples-moved",), templates=frozenset({"_board.html", "_live_oob.html"}), turn=turn,
    form_per_seat=True,
)

# Rules version 1 (docs/rules/five-tribes.md §14): games recorded before the rulebook fixes of
# version 2 keep the checks they were played with; scoring is the same.
GAME_V1 = replace(GAME, rules_version=1, setup=setup_v1)
