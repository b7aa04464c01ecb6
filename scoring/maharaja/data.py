"""Maharaja's printed components and tables: the board (7 cities, 30 villages), the
governor track, the characters, the action disc, the payout table, the event types and
the set-up options. Rules as implemented: docs/rules/maharaja.md."""
from __future__ import annotations

from scoring.base import EventSpec, Option, Text
from scoring.i18n import msg, msgp
from scoring.schema import count, obj

RULES = "docs/rules/maharaja.md"


def rule(section: int) -> str:
    """The citation of a numbered section of docs/rules/maharaja.md."""
    return f"{RULES} §{section}"


CITIES = tuple("ABCDEFG")                       # §1: 7 cities
VILLAGES = 30                                   # §1: 30 villages
PRE_BOXES = 7                                   # §3: the 7 boxes above the arrow
TRACK_BOXES = PRE_BOXES + 10                    # then boxes 1..10 (the round numbers)
LAST_BOX = TRACK_BOXES - 1                      # index of box 10: the game ends (§16)
OUTER_SITES = 6                                 # §9: 1 inner + 6 outer sites
HOUSES_PER_COLOUR = 20                          # §10
START_HOUSES, START_RESERVE, START_GOLD = 4, 6, 15  # §5
PALACE_COST, ARTIST_PALACE_COST, HOUSE_COST = 12, 9, 1  # §9
MONOPOLY_BONUS = 5                              # §15
RENOUNCE_GOLD = 2                               # §14
INNER_POINTS = 3                                # §15
SHORT_GAME_ROUNDS = 8                           # §16
# §15: gold by rank, per player count.
PAYOUTS = {2: (10, 5), 3: (11, 7, 3), 4: (12, 9, 6, 3), 5: (13, 10, 7, 4, 1)}

MOGUL, TRADER, SADHU, MONK, BUILDER, ARTIST, YOGI = range(1, 8)
CHARACTERS = {
    MOGUL: msg("Mogul"),
    TRADER: msg("Trader"),
    SADHU: msg("Sadhu"),
    MONK: msg("Wandering Monk"),
    BUILDER: msg("Builder"),
    ARTIST: msg("Artist"),
    YOGI: msg("Yogi"),
}

# §7: the action disc; each action is a list of parts to carry out.
ACTIONS = {
    "gold": (["gold"], msg("Gold (+2)")),
    "house": (["house"], msg("House")),
    "two-houses": (["house-city", "house"], msg("2 houses (one in a city)")),
    "move-house": (["move"], msg("Move a house")),
    "quarry": (["quarry"], msg("Quarry (+2 houses)")),
    "palace": (["palace"], msg("Palace")),
    "palace-house": (["palace", "house"], msg("Palace and house")),
    "governor": (["governor"], msg("Governor track")),
    "character": (["character"], msg("Character swap")),
}
CHIP_ACTIONS = tuple(a for a in ACTIONS if a != "character")  # §13: never the swap
PARTS = {
    "gold": msg("take 2 gold"),
    "house": msg("build a house (village or city)"),
    "house-city": msg("build a house in a city"),
    "move": msg("move a house"),
    "quarry": msg("quarry"),
    "palace": msg("build a palace"),
    "governor": msg("move a governor"),
    "character": msg("swap character"),
}


# ---- places: a city letter or a village "v1".."v30" --------------------------------

def is_city(place: str) -> bool:
    return place in CITIES


def village_index(place: str) -> int:
    """'v1'..'v30' -> 0..29."""
    return int(place[1:]) - 1


def place_label(place: str | None, names: dict | None = None) -> dict:
    """A place in words; ``names``: what the table calls cities and villages (a board
    profile's names by id, ``boards.place_names``), e.g. "village 5 (by the river)"."""
    if place is None:
        return msg("start space")
    name = (names or {}).get(place if is_city(place) else place[1:])
    named = f" ({name})" if name else ""
    if is_city(place):
        return msg("city %(place)s%(named)s", place=place, named=named)
    return msg("village %(value)s%(named)s", value=place[1:], named=named)


# ---- event types ----------------------------------------------------------------------

_VILLAGE_PATTERN = "v([1-9]|[12][0-9]|30)"
_PLACE = {"type": "string", "pattern": f"^([A-G]|{_VILLAGE_PATTERN})$"}
_VILLAGE = {"type": "string", "pattern": f"^{_VILLAGE_PATTERN}$"}
_CITY = {"enum": list(CITIES)}
_CHARACTER = count(7, low=1)
_SEAT = {"type": "integer", "minimum": 0}


def _spec(schema: dict, label: Text, version: int = 1, upcasters=None) -> EventSpec:
    return EventSpec(schema=schema, label=label, version=version, upcasters=upcasters or {})


def _same(data: dict) -> dict:
    """v1 → v2 of an event whose seat became optional: every v1 payload carries it."""
    return data


def _villages_named(data: dict) -> dict:
    """v1 → v2 of ``architect-travelled``: villages as numbers (5) become "v5", as every
    other payload names them."""
    return {**data, "via": [f"v{v}" for v in data["via"]]}


# Version 2 (docs/events.md): the seat of a set-up or reveal step may be left out (it is
# whose turn it is, §6); a journey names its villages "vN" like every other place.
EVENT_TYPES = {
    "governors-laid": _spec(obj(["order"], order={"type": "array", "items": _CITY, "minItems": 7, "maxItems": 7}),
                            msg("Governor track laid")),
    "character-chosen": _spec(obj(["character"], seat=_SEAT, character=_CHARACTER, paid=count(1000)),
                              msg("Character chosen"), 2, {1: _same}),
    "start-house-placed": _spec(obj(["place"], seat=_SEAT, place=_PLACE),
                                msg("Starting house placed"), 2, {1: _same}),
    "actions-revealed": _spec(obj(["actions"], seat=_SEAT, actions={
        "type": "array", "items": {"enum": list(ACTIONS)}, "minItems": 2, "maxItems": 2}),
                              msg("Actions revealed"), 2, {1: _same}),
    "architect-travelled": _spec(obj(["city", "via"], city=_CITY, via={
        "type": "array", "maxItems": VILLAGES, "uniqueItems": True, "items": _VILLAGE}),
                                 msg("Architect travelled"), 2, {1: _villages_named}),
    "gold-taken": _spec(obj([]), msg("Took 2 gold")),
    "house-built": _spec(obj(["place"], place=_PLACE, free={"type": "boolean"}), msg("House built")),
    "house-moved": _spec(obj(["source", "place"], source=_PLACE, place=_PLACE, free={"type": "boolean"}),
                         msg("House moved")),
    "quarry-used": _spec(obj([]), msg("Quarry")),
    "palace-built": _spec(obj(["city", "site"], city=_CITY, site={"enum": ["inner", "outer"]}),
                          msg("Palace built")),
    "governor-moved": _spec(obj(["city"], city=_CITY), msg("Governor moved")),
    "character-swapped": _spec(obj(["character"], character=_CHARACTER), msg("Character swapped")),
    "character-picked": _spec(obj(["character"], character=_CHARACTER),
                              msg("Character picked from the bank")),
    "chip-used": _spec(obj(["action"], action={"enum": list(CHIP_ACTIONS)}), msg("Action chip used")),
    "turn-ended": _spec(obj([], renounce={"type": "boolean"}), msgp("Maharaja", "Turn ended")),
}

# ---- set-up options (§2) ----------------------------------------------------------------

OPTIONS = (
    Option("short", False, msg("Short game: 6 palaces, at most 8 rounds (11.1)")),
    Option("yogi", False, msg("Advanced: Yogi and action chips (11.2.2)")),
    Option("auction", False, msg("Advanced: characters auctioned (11.2.5)")),
    Option("neutral_palaces", True, msg("Neutral outer palaces with fewer than 5 players (5.0, 11.2.4)")),
    Option("homes", "", msg("Advanced: homes – the city letter of characters 1–7, e.g. CAGBEDF (12.6)"),
           help=msg("Leave empty for no home bonus.")),
    Option("secret_gold", True, msg("Gold is secret: shown only on the owner's phone")),
    Option("board", {}, msg("Board profile (optional)"),
           help=msg("City names and roads; without one, cities A–G and travel not checked.")),
)
TICKS = ("short", "yogi", "auction", "neutral_palaces", "secret_gold")

# Score category plus the names the templates show (game.categories).
LABELS = {"palaces": msg("Palaces"),
          **{f"char-{n}": label for n, label in CHARACTERS.items()},
          **{f"act-{a}": label for a, (_, label) in ACTIONS.items()},
          **{f"part-{p}": label for p, label in PARTS.items()}}


# ---- who holds which card (one per player in the basic game) --------------------------

def character_of(state: dict, seat: int) -> int | None:
    """The character card a seat holds."""
    for number, holder in enumerate(state["characters"], start=1):
        if holder == seat:
            return number
    return None


def holds(state: dict, seat: int, number: int) -> bool:
    return len(state["characters"]) >= number and state["characters"][number - 1] == seat


def bank_characters(state: dict) -> list[int]:
    return [n for n, holder in enumerate(state["characters"], start=1) if holder is None]


def palace_cost(state: dict, seat: int) -> int:
    return ARTIST_PALACE_COST if holds(state, seat, ARTIST) else PALACE_COST


def palaces_left(state: dict, seat: int) -> int:
    return state["palaces_each"] - sum(1 for p in state["palaces"] if p["seat"] == seat)
