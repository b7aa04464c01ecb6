"""Generic score pad: the event types and limits. Rules as implemented, numbered:
docs/rules/scorepad.md (the ``R_*`` references below)."""
from __future__ import annotations

from scoring.base import EventSpec, text
from scoring.schema import obj

RULES = "docs/rules/scorepad.md"
R_POINTS = f"{RULES} §1"
R_ROUND = f"{RULES} §2"
R_END = f"{RULES} §3"
R_FORM = f"{RULES} §4"

MAX_ABS_POINTS = 1_000_000
MAX_NOTE = 200

EVENT_TYPES = {
    "points-recorded": EventSpec(
        schema=obj(["seat", "points"], seat={"type": "integer"}, points={"type": "integer"},
                   note={"type": "string", "maxLength": MAX_NOTE}),
        label=text("Pont beírva", "Points recorded")),
    "round-closed": EventSpec(
        schema={"type": "object", "additionalProperties": False},
        label=text("Kör lezárva", "Round closed")),
    "game-ended": EventSpec(
        schema={"type": "object", "additionalProperties": False},
        label=text("Játék vége", "Game ended")),
}
