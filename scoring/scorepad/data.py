"""Generic score pad: the event types and limits. Rules as implemented, numbered:
docs/rules/scorepad.md (the ``R_*`` references below)."""
from __future__ import annotations

from scoring import text
from scoring.base import EventSpec, Option
from scoring.i18n import msg
from scoring.schema import count, obj

RULES = "docs/rules/scorepad.md"
R_POINTS = f"{RULES} §1"
R_ROUND = f"{RULES} §2"
R_END = f"{RULES} §3"
R_FORM = f"{RULES} §4"
R_ROW = f"{RULES} §5"
R_GAME = f"{RULES} §7"

MAX_ABS_POINTS = 1_000_000
MAX_NOTE = text.NOTE.most  # the one text policy (scoring/text.py)
MAX_ROUND = 100_000
MAX_TITLE = text.TITLE.most
MAX_BGG_ID = 99_999_999

# What the pad is kept for, both optional (§7): the statistics group plays by it and a BG
# Stats export names the game. Games created before these options have neither.
OPTIONS = (
    Option("title", "", msg("Which game? (optional)")),
    Option("bgg_id", 0, msg("BoardGameGeek id (optional)"),
           help=msg("The number in the game's boardgamegeek.com address; 0: none.")),
)

EVENT_TYPES = {
    "points-recorded": EventSpec(
        schema=obj(["seat", "points"], seat={"type": "integer"}, points={"type": "integer"},
                   note={"type": "string", "maxLength": MAX_NOTE}),
        label=msg("Points recorded")),
    "round-closed": EventSpec(
        schema={"type": "object", "additionalProperties": False},
        label=msg("Round closed")),
    # A whole round at once, as a row of the paper pad (§5): the round it fills and one entry
    # per player who scored in it.
    "round-entered": EventSpec(
        schema=obj(["round", "entries"], round=count(MAX_ROUND, low=1),
                   entries={"type": "array", "minItems": 1, "maxItems": 12,
                            "items": obj(["seat", "points"], seat={"type": "integer"},
                                         points={"type": "integer"})},
                   note={"type": "string", "maxLength": MAX_NOTE}),
        label=msg("Round entered")),
    "game-ended": EventSpec(
        schema={"type": "object", "additionalProperties": False},
        label=msg("Game ended")),
}
