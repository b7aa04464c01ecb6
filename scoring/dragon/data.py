"""In the Year of the Dragon: the printed components and tables, the event types, and
what the printed rules compute from a position (yields, prices, turn order), which
``check``, ``apply`` and ``view`` all read.

Every number and decision is written, with the rulebook section it follows, in
docs/rules/dragon.md; the ``R_*`` names below are the references refusals cite.
"""
from __future__ import annotations

from scoring.base import EventSpec, Option
from scoring.i18n import msgn
from scoring.i18n import msg
from scoring.schema import count, obj, seat

RULES = "docs/rules/dragon.md"
RULES_VERSION = 2  # 2: the festival's places are taken before anyone returns a tile (§24)
R_PLAYERS = f"{RULES} §2"
R_TILES = f"{RULES} §3"
R_EVENTS_ROW = f"{RULES} §4"
R_PALACE = f"{RULES} §5"
R_OPENING = f"{RULES} §6"
R_FLOW = f"{RULES} §7"
R_DEAL = f"{RULES} §8"
R_ACTION = f"{RULES} §9"
R_PRIVILEGE = f"{RULES} §10"
R_BUILD = f"{RULES} §11"
R_PERSON = f"{RULES} §12"
R_RELEASE = f"{RULES} §13"
R_TRIBUTE = f"{RULES} §14"
R_DROUGHT = f"{RULES} §15"
R_FESTIVAL = f"{RULES} §16"
R_MONGOLS = f"{RULES} §17"
R_CONTAGION = f"{RULES} §18"
R_END = f"{RULES} §20"
R_TALLY = f"{RULES} §22"
R_FORM = f"{RULES} §23"

# Person tiles: type -> age -> (symbols on the tile, value = person-track advance), §3.
PERSONS: dict[str, dict[str, tuple[int, int]]] = {
    "craftsman": {"young": (1, 2)},
    "lady": {"young": (1, 1)},
    "tax": {"young": (3, 3)},
    "pyro": {"young": (1, 5), "old": (2, 3)},
    "warrior": {"young": (1, 5), "old": (2, 3)},
    "monk": {"young": (1, 6), "old": (2, 2)},
    "healer": {"young": (1, 4), "old": (2, 1)},
    "farmer": {"young": (1, 4), "old": (2, 1)},
    "scholar": {"young": (2, 4), "old": (3, 2)},
}
TYPES = tuple(PERSONS)
AGES = ("young", "old")
WILD = "wild"
CARDS = TYPES + (WILD, WILD)  # 11 person cards per player: one per type and two "?" (§5)

PERSON_NAMES = {
    "craftsman": msg("craftsman"),
    "lady": msg("court lady"),
    "tax": msg("tax collector"),
    "pyro": msg("pyrotechnist"),
    "warrior": msg("warrior"),
    "monk": msg("monk"),
    "healer": msg("healer"),
    "farmer": msg("farmer"),
    "scholar": msg("scholar"),
    WILD: msg("“?” card"),
}
# A person of a type with two ages, named whole: German puts the age into the word
# ("junger Gelehrter", not "jung Gelehrter"), so no language composes age and name.
AGED_NAMES = {
    ("pyro", "young"): msg("young pyrotechnist"), ("pyro", "old"): msg("old pyrotechnist"),
    ("warrior", "young"): msg("young warrior"), ("warrior", "old"): msg("old warrior"),
    ("monk", "young"): msg("young monk"), ("monk", "old"): msg("old monk"),
    ("healer", "young"): msg("young healer"), ("healer", "old"): msg("old healer"),
    ("farmer", "young"): msg("young farmer"), ("farmer", "old"): msg("old farmer"),
    ("scholar", "young"): msg("young scholar"), ("scholar", "old"): msg("old scholar"),
}

# Actions and the person whose symbols add to each (§9).
ACTIONS = ("taxes", "build", "harvest", "fireworks", "parade", "research", "privilege")
ACTION_PERSON = {"taxes": "tax", "build": "craftsman", "harvest": "farmer", "fireworks": "pyro",
                 "parade": "warrior", "research": "scholar"}
ACTION_NAMES = {
    "taxes": msg("Taxes"),
    "build": msg("Build"),
    "harvest": msg("Harvest"),
    "fireworks": msg("Fireworks display"),
    "parade": msg("Military parade"),
    "research": msg("Research"),
    "privilege": msg("Privilege"),
}
# Group sizes of the 7 action cards by player count (§8).
GROUP_SIZES = {2: (4, 3), 3: (3, 2, 2), 4: (2, 2, 2, 1), 5: (2, 2, 1, 1, 1)}
SHARED_GROUP_FEE = 3   # §9: a group that already holds a dragon
REFILL_TO = 3          # §9: top the purse up to 3 yuan
SMALL_PRIVILEGE = 2    # §10; the large price is the option ``large_privilege``
PRIVILEGE_DRAGONS = {"small": 1, "large": 2}

# Events (§4, §13).
EVENTS = ("peace", "tribute", "drought", "festival", "mongols", "contagion")
EVENT_NAMES = {
    "peace": msg("Peace"),
    "tribute": msg("Imperial tribute"),
    "drought": msg("Drought"),
    "festival": msg("Dragon festival"),
    "mongols": msg("Mongol invasion"),
    "contagion": msg("Contagion"),
}
DRAWN_EVENTS = EVENTS[1:]  # 2 of each are shuffled for months 3–12
TRIBUTE = 4
CONTAGION = 3
FESTIVAL_POINTS = (6, 3)
MONTHS = 12

START_YUAN = 6
START_PALACES = (2, 2)
MAX_FLOORS = 3

CATEGORIES = {
    "research": msg("Research"),
    "mongols": msg("Mongol invasion"),
    "festival": msg("Dragon festival"),
    "palaces": msg("Palaces (monthly)"),
    "ladies": msg("Court ladies (monthly)"),
    "privileges": msg("Privileges (monthly)"),
    "persons": msg("Persons (end, 2 each)"),
    "monks": msg("Monks (end)"),
    "money": msg("Money (end, 1 per 3 yuan)"),
    "earlier": msg("Points so far"),
}

# What the table is doing now (the phase names of the guided month).
PHASE_NAMES = {
    "lay-events": msg("laying the event row"),
    "opening": msg("the opening recruitment"),
    "deal": msg("dealing the action cards"),
    "action": msg("the action phase"),
    "build": msg("placing palace floors"),
    "person": msg("the person phase"),
    "release": msg("releasing persons"),
    "over": msg("the game is over"),
}


def supply_for(players: int) -> dict[str, dict[str, int]]:
    """Tiles per type and age: 10 each at 5 players (6 young + 4 old of split types);
    each missing player removes 1 young + 1 old, or 2 of an unsplit type (§3)."""
    missing = 5 - players
    supply = {}
    for kind, ages in PERSONS.items():
        if "old" in ages:
            supply[kind] = {"young": 6 - missing, "old": 4 - missing}
        else:
            supply[kind] = {"young": 10 - 2 * missing}
    return supply


def symbols(person: dict) -> int:
    return PERSONS[person["type"]][person["age"]][0]


def value(kind: str, age: str) -> int:
    return PERSONS[kind][age][1]


def person_name(person: dict) -> dict[str, str]:
    if len(PERSONS[person["type"]]) == 1:
        return dict(PERSON_NAMES[person["type"]])
    return dict(AGED_NAMES[(person["type"], person["age"])])


def labels() -> dict[str, dict[str, str]]:
    """Every name the templates show, by key (merged into GameKind.categories, which
    the templates can read): tile:<type>:<age>, card:<card>, action:<a>, event:<e>."""
    names = dict(CATEGORIES)
    for kind, ages in PERSONS.items():
        for age in ages:
            names[f"tile:{kind}:{age}"] = person_name({"type": kind, "age": age})
    for card, name in PERSON_NAMES.items():
        names[f"card:{card}"] = dict(name)
    names.update({f"action:{a}": dict(n) for a, n in ACTION_NAMES.items()})
    names.update({f"event:{e}": dict(n) for e, n in EVENT_NAMES.items()})
    names.update({f"phase:{p}": dict(n) for p, n in PHASE_NAMES.items()})
    return names


# ---------------------------------------------------------------- event types

_TYPE = {"enum": list(TYPES)}
_AGE = {"enum": list(AGES)}
_SEAT = seat(5)

EVENT_TYPES = {
    "dragon-events-laid": EventSpec(
        schema=obj(["row"], row={"type": "array", "minItems": 10, "maxItems": 10,
                                 "items": {"enum": list(DRAWN_EVENTS)}}),
        label=msg("Event row laid")),
    "dragon-opening-recruited": EventSpec(
        schema=obj(["seat", "persons"], seat=_SEAT, persons={
            "type": "array", "minItems": 2, "maxItems": 2,
            "items": obj(["type", "palace"], type=_TYPE, palace={"enum": [0, 1]})}),
        label=msg("Opening recruitment")),
    "dragon-actions-dealt": EventSpec(
        schema=obj(["groups"], groups={"type": "array", "minItems": 2, "maxItems": 5,
                                       "items": {"type": "array", "minItems": 1, "maxItems": 4,
                                                 "items": {"enum": list(ACTIONS)}}}),
        label=msg("Action cards dealt")),
    "dragon-action-chosen": EventSpec(
        schema=obj(["seat", "group", "action"], seat=_SEAT, group=count(4),
                   action={"enum": list(ACTIONS)}, privilege={"enum": ["small", "large"]}),
        label=msg("Action")),
    "dragon-money-refilled": EventSpec(
        schema=obj(["seat"], seat=_SEAT),
        label=msg("Money refilled to 3 yuan")),
    "dragon-floors-placed": EventSpec(
        schema=obj(["seat", "add", "new"], seat=_SEAT,
                   add={"type": "array", "maxItems": 40, "items": count(99)},
                   new={"type": "array", "maxItems": 20, "items": count(MAX_FLOORS, low=1)}),
        label=msg("Palace floors placed")),
    "dragon-person-recruited": EventSpec(
        schema=obj(["seat", "card"], seat=_SEAT, card={"enum": list(TYPES) + [WILD]},
                   person=obj(["type", "age"], type=_TYPE, age=_AGE),
                   palace=count(40), replace=count(2), away={"type": "boolean"}),
        label=msg("Person recruited")),
    # persons: [palace, slot] pairs, both counted in the court as it was before the
    # release (the phone form computes them from "old monk, palace 2", §23).
    "dragon-persons-released": EventSpec(
        schema=obj(["seat", "persons"], seat=_SEAT, persons={
            "type": "array", "minItems": 1, "maxItems": 40,
            "items": {"type": "array", "minItems": 2, "maxItems": 2,
                      "prefixItems": [count(40), count(2)]}}),
        label=msg("Persons released")),
}

OPTIONS = (
    Option("large_privilege", 6, msg("Large privilege price (yuan)"),
           choices=(6, 7),
           help=msg("6: the 2007 edition and the Hungarian rules; 7: newer edition.")),
)


# ---------------------------------------------------------------- reading a position


def turn_order(state: dict) -> list[int]:
    """Person-track order: further ahead first; on one space the marker placed later
    sits on top and is ahead (§7)."""
    players = state["players"]
    return sorted(range(state["n"]), key=lambda s: (-players[s]["track"], -players[s]["stamp"], s))


def persons_of(player: dict) -> list[dict]:
    return [p for palace in player["palaces"] for p in palace["persons"]]


def count_symbols(player: dict, kind: str) -> int:
    return sum(symbols(p) for p in persons_of(player) if p["type"] == kind)


def free_rooms(player: dict) -> list[int]:
    return [i for i, pal in enumerate(player["palaces"]) if len(pal["persons"]) < pal["floors"]]


def available(state: dict, kind: str) -> list[str]:
    return [age for age, left in state["supply"][kind].items() if left > 0]


def action_yield(player: dict, action: str) -> int:
    """What an action gives: 1 for the card (2 for taxes) + the symbols of the
    matching persons (§9); the privilege gives none."""
    if action not in ACTION_PERSON:
        return 0
    return 1 + (1 if action == "taxes" else 0) + count_symbols(player, ACTION_PERSON[action])


def privilege_price(state: dict, size: str) -> int:
    return SMALL_PRIVILEGE if size == "small" else state["large_privilege"]


def group_fee(state: dict, group: int) -> int:
    return SHARED_GROUP_FEE if state["dragons"][group] > 0 else 0


# What each yielding action gives, in words: (Hungarian, English singular, English plural).
# What each action's gain is counted in, with its plural: the month's report says "+2 rice".
GAIN_UNITS = {
    "taxes": lambda n: msgn("+%(num)d yuan", "+%(num)d yuan", n),
    "build": lambda n: msgn("+%(num)d palace floor", "+%(num)d palace floors", n),
    "harvest": lambda n: msgn("+%(num)d rice", "+%(num)d rice", n),
    "fireworks": lambda n: msgn("+%(num)d fireworks", "+%(num)d fireworks", n),
    "parade": lambda n: msgn("+%(num)d step on the person track", "+%(num)d steps on the person track", n),
    "research": lambda n: msgn("+%(num)d point", "+%(num)d points", n),
}


def gain_text(action: str, gain: int) -> dict:
    return GAIN_UNITS[action](gain)
