"""Maharaja (Kramer & Kiesling, Phalanx 2004): set-up, guided rounds, automatic city
evaluations and the race to seven palaces. Rules as implemented:
docs/rules/maharaja.md; where each part lives: docs/architecture.md."""
from dataclasses import replace

from scoring.base import Boards, GameKind
from scoring.i18n import msg
from scoring.maharaja import apply, boards, check, data, demo, forms, score, setup, turns, view

GAME = GameKind(
    kind="maharaja", bgg_id=9440, title=msg("Maharaja"), min_players=2, max_players=5,
    rules_version=setup.RULES_VERSION, event_types=data.EVENT_TYPES, setup=setup.setup, check=check.check,
    apply=apply.apply, score=score.score, is_over=score.is_over, describe=forms.describe,
    parse_form=forms.parse_form, options=data.OPTIONS, categories=data.LABELS,
    check_setup=setup.check_setup, tiebreak=score.tiebreak, tiebreak_words=score.tiebreak_words,
    tiebreak_rule=msg("Equal palaces: more gold wins, then the lower character number (with secret gold it decides only once the game is over)."),
    has_board=True, demo=demo.demo, parse_options=forms.parse_options, view=view.view, redact=view.redact,
    templates=frozenset({"_board.html", "_setup.html", "_live_oob.html", "_form_fields.html"}),
    boards=Boards(validate=boards.validate, from_form=boards.from_form, missing=boards.missing,
                  builtin=boards.BUILTIN), turn=turns.turn,
)

# Games recorded under rules version 1 keep scoring as they did (scoring.RETIRED).
GAME_V1 = replace(GAME, rules_version=1, setup=setup.setup_v1)
