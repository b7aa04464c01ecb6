"""In the Year of the Dragon, final tally mode: the one event type, a finished position.
The printed tiles and the scoring arithmetic are the full game's (scoring/dragon/)."""
from __future__ import annotations

from scoring.base import EventSpec
from scoring.dragon.data import AGES, MAX_FLOORS, TYPES
from scoring.i18n import msg
from scoring.schema import count, obj, seat

MAX_PALACES = 8
_N = count(999)

EVENT_TYPES = {
    "dragon-position-entered": EventSpec(
        schema=obj(["seat", "score", "yuan", "rice", "fireworks", "track", "palaces"],
                   seat=seat(5), score=_N, yuan=_N, rice=_N, fireworks=_N, track=_N,
                   palaces={"type": "array", "maxItems": MAX_PALACES, "items": obj(
                       ["floors", "persons"], floors=count(MAX_FLOORS, low=1),
                       persons={"type": "array", "maxItems": MAX_FLOORS, "items": obj(
                           ["type", "age"], type={"enum": list(TYPES)}, age={"enum": list(AGES)})})}),
        label=msg("Final position entered")),
}
