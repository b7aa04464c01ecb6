"""Maharaja (Kramer & Kiesling, Phalanx 2004): set-up, guided rounds, automatic city
evaluations and the race to seven palaces. Rules as implemented:
docs/rules/maharaja.md; its presentation: ``presentation.py``; where each part lives:
docs/architecture.md."""
from scoring.base import Boards, GameKind, Rules
from scoring.maharaja import apply, boards, check, data, demo, score, setup, turns

RULES = Rules(
    kind="maharaja", bgg_id=9440, min_players=2, max_players=5,
    rules_version=setup.RULES_VERSION, event_types=data.EVENT_TYPES, setup=setup.setup, check=check.check,
    apply=apply.apply, score=score.score, is_over=score.is_over, options=data.OPTIONS,
    check_setup=setup.check_setup, tiebreak=score.tiebreak, demo=demo.demo,
    boards=Boards(validate=boards.validate, builtin=boards.BUILTIN), turn=turns.turn,
)
GAME = GameKind(RULES, "scoring.maharaja.presentation")

# Games recorded under rules version 1 keep scoring as they did (scoring.RETIRED).
GAME_V1 = GAME.changed(rules_version=1, setup=setup.setup_v1)
