"""In the Year of the Dragon, final tally mode (kind ``dragon-tally``): a game played
without the app; each player's finished position is entered and the app computes the
final scoring with its breakdown. Rules as implemented: docs/rules/dragon.md §22."""
from __future__ import annotations

from scoring.base import GameKind
from scoring.dragon import GAME as DRAGON
from scoring.dragon.data import labels
from scoring.dragon_tally.apply import apply
from scoring.dragon_tally.check import check
from scoring.dragon_tally.data import EVENT_TYPES
from scoring.dragon_tally.demo import demo
from scoring.dragon_tally.forms import describe, parse_form
from scoring.dragon_tally.score import is_over, score, tiebreak
from scoring.dragon_tally.setup import setup
from scoring.i18n import msg

GAME = GameKind(
    kind="dragon-tally", bgg_id=31594, title=msg("In the Year of the Dragon – final tally"),
    min_players=2, max_players=5, rules_version=1, event_types=EVENT_TYPES,
    setup=setup, check=check, apply=apply, score=score, is_over=is_over, describe=describe,
    parse_form=parse_form, categories=labels(), tiebreak=tiebreak, tiebreak_words=DRAGON.tiebreak_words,
    tiebreak_rule=DRAGON.tiebreak_rule, demo=demo, templates=frozenset({"_live_oob.html"}),
)
