"""In the Year of the Dragon (Stefan Feld, alea 2007): twelve months kept by the app.

The table enters only its choices; the app computes every consequence. Rules as
implemented, each with its source: docs/rules/dragon.md. Where things live: data.py
(printed tables, event types), setup.py, check.py (refusals), apply.py (the fold:
the month's flow, events, scoring), score.py, forms.py, view.py, demo.py.
"""
from __future__ import annotations

from dataclasses import replace

from scoring.base import GameKind
from scoring.dragon.apply import apply
from scoring.dragon.check import check
from scoring.dragon.data import EVENT_TYPES, OPTIONS, RULES_VERSION, labels
from scoring.dragon.demo import demo
from scoring.dragon.forms import describe, parse_form
from scoring.dragon.score import is_over, score, tiebreak, tiebreak_words
from scoring.dragon.turns import turn
from scoring.dragon.setup import setup, setup_v1
from scoring.dragon.view import view
from scoring.i18n import msg

GAME = GameKind(
    kind="dragon", bgg_id=31594, title=msg("In the Year of the Dragon"),
    min_players=2, max_players=5, rules_version=RULES_VERSION, event_types=EVENT_TYPES,
    setup=setup, check=check, apply=apply, score=score, is_over=is_over,
    describe=describe, parse_form=parse_form, options=OPTIONS, categories=labels(),
    tiebreak=tiebreak, tiebreak_words=tiebreak_words,
    tiebreak_rule=msg("Ties: the player further ahead on the person track wins."),
    has_board=True, demo=demo, view=view, templates=frozenset({"_board.html", "_players.html", "_live_oob.html", "_form_fields.html"}), turn=turn,
)

# Rules version 1 (its festival paid a leader twice, docs/rules/dragon.md §24), kept so the
# games recorded under it score as they did until the table rescores them.
GAME_V1 = replace(GAME, rules_version=1, setup=setup_v1)
