"""Generic score pad: the event types and limits. Rules as implemented, numbered:
docs/rules/scorepad.md (the ``R_*`` references below)."""
from __future__ import annotations

from scoring.base import EventSpec, text
from scoring.schema import count, obj

RULES = "docs/rules/scorepad.md"
R_POINTS = f"{RULES} §1"
R_ROUND = f"{RULES} §2"
R_END = f"{RULES} §3"
R_FORM = f"{RULES} §4"
R_ROW = f"{RULES} §5"

MAX_ABS_POINTS = 1_000_000
MAX_NOTE = 200
MAX_ROUND = 100_000

EVENT_TYPES = {
    "points-recorded": EventSpec(
        schema=obj(["seat", "points"], seat={"type": "integer"}, points={"type": "integer"},
                   note={"type": "string", "maxLength": MAX_NOTE}),
        label=text("Pont beírva", "Points recorded")),
    "round-closed": EventSpec(
        schema={"type": "object", "additionalProperties": False},
        label=text("Kör lezárva", "Round closed")),
    # A whole round at once, as a row of the paper pad (§5): the round it fills and one entry
    # per player who scored in it.
    "round-entered": EventSpec(
        schema=obj(["round", "entries"], round=count(MAX_ROUND, low=1),
                   entries={"type": "array", "minItems": 1, "maxItems": 12,
                            "items": obj(["seat", "points"], seat={"type": "integer"},
                                         points={"type": "integer"})},
                   note={"type": "string", "maxLength": MAX_NOTE}),
        label=text("Kör beírva", "Round entered")),
    "game-ended": EventSpec(
        schema={"type": "object", "additionalProperties": False},
        label=text("Játék vége", "Game ended")),
}
