"""In the Year of the Dragon (Stefan Feld, alea 2007): twelve months kept by the app.

The table enters only its choices; the app computes every consequence. Rules as
implemented, each with its source: docs/rules/dragon.md. Where things live: data.py
(printed tables, event types), setup.py, check.py (refusals), apply.py (the fold:
the month's flow, events, scoring), score.py, demo.py; as the phones show it:
presentation.py (forms.py, view.py).
"""
from __future__ import annotations

from scoring.base import GameKind, Rules
from scoring.dragon.apply import apply
from scoring.dragon.check import check
from scoring.dragon.data import EVENT_TYPES, OPTIONS, RULES_VERSION
from scoring.dragon.demo import demo
from scoring.dragon.score import is_over, score, tiebreak
from scoring.dragon.turns import turn
from scoring.dragon.setup import setup, setup_v1

RULES = Rules(
    kind="dragon", bgg_id=31594, min_players=2, max_players=5, rules_version=RULES_VERSION, event_types=EVENT_TYPES,
    setup=setup, check=check, apply=apply, score=score, is_over=is_over, options=OPTIONS,
    tiebreak=tiebreak, demo=demo, turn=turn,
)
GAME = GameKind(RULES, "scoring.dragon.presentation")

# Rules version 1 (its festival paid a leader twice, docs/rules/dragon.md §24), kept so the
# games recorded under it score as they did until the table rescores them.
GAME_V1 = GAME.changed(rules_version=1, setup=setup_v1)
