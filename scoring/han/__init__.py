"""Han (Michael Schacht, ABACUSSPIELE 2014): scored move by move, every rule checked.

The rules as implemented, with the rulebook passages they follow: docs/rules/han.md.
The board's unknown facts come from a pinned board profile (``boards.py``); while one is
missing the app asks the table (province full, alliances, road chains).
"""
from dataclasses import replace

from scoring.base import Boards, GameKind
from scoring.han import boards
from scoring.han.apply import apply
from scoring.han.check import check
from scoring.han.data import CATEGORIES, EVENT_TYPES, OPTIONS
from scoring.han.demo import demo
from scoring.han.forms import describe, parse_form, parse_options
from scoring.han.score import TIEBREAK_RULE, is_over, kept_totals, score, tiebreak, tiebreak_words
from scoring.han.turns import turn
from scoring.han.setup import RULES_VERSION, check_setup, setup, setup_v1
from scoring.han.view import view
from scoring.i18n import msg

GAME = GameKind(
    kind="han", bgg_id=153625, title=msg("Han"), min_players=2, max_players=5, rules_version=RULES_VERSION,
    event_types=EVENT_TYPES, setup=setup, check=check, apply=apply, score=score, is_over=is_over,
    describe=describe, parse_form=parse_form, options=OPTIONS, check_setup=check_setup,
    categories=CATEGORIES, tiebreak=tiebreak, tiebreak_rule=TIEBREAK_RULE, tiebreak_words=tiebreak_words,
    has_board=True, parse_options=parse_options, demo=demo, view=view, last_of=(), totals=kept_totals,
    templates=frozenset({"_board.html", "_setup.html", "_live_oob.html", "_form_fields.html"}),
    boards=Boards(validate=boards.validate, from_form=boards.from_form, missing=boards.missing,
                  builtin=boards.BUILTIN, complete=boards.complete, learn=boards.learn,
                  learns_from=frozenset({"alliances-entered"})), turn=turn,
)

# Games recorded under rules version 1 keep checking and scoring as they did (scoring.RETIRED).
GAME_V1 = replace(GAME, rules_version=1, setup=setup_v1)
