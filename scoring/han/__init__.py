"""Han (Michael Schacht, ABACUSSPIELE 2014): scored move by move, every rule checked.

The rules as implemented, with the rulebook passages they follow: docs/rules/han.md.
The board's unknown facts come from a pinned board profile (``boards.py``); while one is
missing the app asks the table (province full, alliances, road chains). Its presentation:
``presentation.py``.
"""
from scoring.base import Boards, GameKind, Rules
from scoring.han import boards
from scoring.han.apply import apply
from scoring.han.check import check
from scoring.han.data import EVENT_TYPES, OPTIONS
from scoring.han.demo import demo
from scoring.han.score import is_over, kept_totals, score, tiebreak
from scoring.han.turns import turn
from scoring.han.setup import RULES_VERSION, check_setup, setup, setup_v1

RULES = Rules(
    kind="han", bgg_id=153625, min_players=2, max_players=5, rules_version=RULES_VERSION,
    event_types=EVENT_TYPES, setup=setup, check=check, apply=apply, score=score, is_over=is_over,
    options=OPTIONS, check_setup=check_setup, tiebreak=tiebreak, demo=demo, totals=kept_totals,
    boards=Boards(validate=boards.validate, builtin=boards.BUILTIN, complete=boards.complete, learn=boards.learn,
                  learns_from=frozenset({"alliances-entered"})), turn=turn,
    place_names=boards.place_names,
)
GAME = GameKind(RULES, "scoring.han.presentation")

# Games recorded under rules version 1 keep checking and scoring as they did (scoring.RETIRED).
GAME_V1 = GAME.changed(rules_version=1, setup=setup_v1)
