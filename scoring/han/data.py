"""Han (Michael Schacht, ABACUSSPIELE 2014): the printed components, the set-up tables,
the event types and the options. Every figure here is explained, with the rulebook
passage it follows, in docs/rules/han.md."""
from __future__ import annotations

from scoring.base import EventSpec, Option
from scoring.i18n import msg, msgp
from scoring.schema import count, obj, seat

COLOURS = ("violet", "yellow", "orange", "green", "red")
COLOUR_TEXT = {"violet": msg("violet"), "yellow": msg("yellow"),
               "orange": msg("orange"), "green": msg("green"),
               "red": msgp("Han province", "red")}
COLOUR_AREAS = {"violet": 1, "yellow": 2, "orange": 2, "green": 2, "red": 2}  # provinces per colour
# The 57 cards by colour (docs/rules/han.md §1.3).
CARDS = {"violet": 10, "yellow": 11, "orange": 11, "green": 12, "red": 13}
# Cards removed at set-up, by (side, players) (docs/rules/han.md §1.3): side 2 and side 1 with
# five players as the Hungarian text; side 1 with 3-4 players the predecessor China's scheme.
REMOVED = {(2, 4): 3, (2, 3): 4, (2, 2): 5, (1, 5): 0, (1, 4): 5, (1, 3): 10}
UNCONFIRMED_REMOVAL = {(1, 4), (1, 3)}
POINT_CARDS = (50, 100)  # docs/rules/han.md §3.8
SUPPLY = {"pagoda": 20, "envoy": 8, "fortress": 1}  # per player, docs/rules/han.md §2.10
MAX_CARDS, MAX_PIECES = 3, 2  # the 3-2-1 rule, docs/rules/han.md §2.3
# A run-out this many cards from the expected pile passes unconfirmed: two turns' draws, as
# the table records it after the move of the player drawing (docs/rules/han.md §4.1).
PILE_SLACK = 2 * MAX_CARDS
PIECE_TEXT = {"pagoda": msg("pagoda"), "envoy": msg("envoy"),
              "fortress": msg("fortress")}
AREAS = 9
ALLIANCES = 15
MAX_SITES = 20
# Per side: player counts, face-up cards, border sites, harbours (docs/rules/han.md §1.1, §2.7, §2.8).
SIDES = {
    1: {"players": (3, 5), "face_up": 4, "border_sites": 6, "harbours": 7,
        "name": msg("Side 1: Border Disputes")},
    2: {"players": (2, 4), "face_up": 3, "border_sites": 0, "harbours": 0,
        "name": msg("Side 2: Ways of Diplomacy")},
}
PLAYERS_MAX = 5


def removed_default(side: int, players: int) -> int:
    return REMOVED.get((side, players), 0)


def deck_size(side: int, players: int, removed: int) -> int:
    """The draw pile at the start: every card but the removed ones, three in each hand and
    the face-up ones (docs/rules/han.md §1.3)."""
    return sum(CARDS.values()) - removed - 3 * players - SIDES[side]["face_up"]


# ---- event types -------------------------------------------------------------------

_id = {"type": "string", "maxLength": 24}
_seat = seat(PLAYERS_MAX)
_counts = {"type": "array", "maxItems": PLAYERS_MAX, "items": count(40)}

V1_END_REASON = "recorded before the app checked the end (payload version 1)"

EVENT_TYPES = {
    "pieces-placed": EventSpec(
        schema=obj(["seat", "cards", "pieces"], seat=_seat,
                   cards={"type": "array", "maxItems": 6, "items": {"enum": list(COLOURS)}},
                   pieces={"type": "array", "maxItems": 4, "items": obj(
                       ["type", "area"], type={"enum": ["pagoda", "envoy", "fortress"]}, area=_id,
                       site={"enum": ["ordinary", "border", "harbour", "fortress"]},
                       at={"type": "string", "maxLength": 30}, **{"with": _id})}),
        label=msg("Pieces placed")),
    "card-exchanged": EventSpec(schema=obj(["seat"], seat=_seat),
                                label=msg("Card exchanged")),
    # v2: "confirmed" when the pile ran out far from the count the app expected (docs/rules/han.md
    # §4.1); a v1 run-out was the table's word before the app checked, so it reads as confirmed.
    "draw-pile-ran-out": EventSpec(schema=obj([], confirmed={"type": "boolean"}),
                                   label=msg("Draw pile ran out"), version=2,
                                   upcasters={1: lambda d: {**d, "confirmed": True}}),
    "province-scored": EventSpec(schema=obj(["area"], area=_id),
                                 label=msg("Province full, scored")),
    # v2: "confirmed" and "reason" when a player could still place (docs/rules/han.md §4.2); a v1
    # end was the table's word before the app checked, so it reads as confirmed.
    "game-ended": EventSpec(schema=obj([], confirmed={"type": "boolean"}, reason={"type": "string", "maxLength": 200}),
                            label=msg("Nobody can place: game over"), version=2,
                            upcasters={1: lambda d: {**d, "confirmed": True, "reason": V1_END_REASON}}),
    "alliances-entered": EventSpec(
        schema=obj(["alliances"], alliances={"type": "array", "minItems": 1, "maxItems": ALLIANCES, "items": obj(
            ["n", "areas"], n=count(ALLIANCES, low=1),
            areas={"type": "array", "minItems": 2, "maxItems": 2, "items": _id})}),
        label=msg("Alliances entered")),
    "road-chains-entered": EventSpec(
        schema=obj(["chains"], chains={"type": "array", "maxItems": 25, "items": obj(
            ["seat", "length", "fortified"], seat=_seat, length=count(20, low=1),
            fortified={"type": "boolean"})}),
        label=msg("Road chains entered")),
    "final-position-entered": EventSpec(
        schema=obj(["areas", "harbours", "border_pagodas", "fortresses"],
                   areas={"type": "object", "maxProperties": AREAS, "additionalProperties": obj(
                       ["pagodas", "envoys"], pagodas=_counts, envoys=_counts)},
                   harbours=_counts, border_pagodas=_counts,
                   fortresses={"type": "array", "maxItems": PLAYERS_MAX, "items": obj(
                       ["seat", "area", "site"], seat=_seat, area=_id,
                       site={"enum": ["ordinary", "border", "harbour"]}, **{"with": _id})}),
        label=msg("End position entered")),
}

CATEGORIES = {"provinces": msg("Provinces"), "harbours": msg("Harbours"),
              "alliances": msg("Alliances"), "roads": msg("Roads")}

OPTIONS = (
    Option("board", {}, msg("Board profile"),
           help=msg("The board side and its known facts (board editor).")),
    Option("start_player", 0, msg("Start player (emperor)")),
    Option("fortress", False, msg("Advanced game: fortresses")),
    Option("fortress_rule", "hu", msg("Fortress cost"), choices=("hu", "together"),
           help=msg("hu: one card per piece (example 8); together: two cards for the fortress and the pagoda on it in one turn.")),
    Option("removed_cards", -1, msg("Cards removed at set-up"),
           help=msg("-1: the default for the side and player count.")),
    Option("end_all_placed", False, msg("Also end when a player has placed every piece"),
           help=msg("Disputed rule; the Hungarian text does not have it.")),
)
