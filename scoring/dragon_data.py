"""In the Year of the Dragon: the printed data the rules work with.

Sources: seed 004 (the Hungarian rulebook), GAMES.md "In the Year of the Dragon" and
research/games-data.md §3 (the person-tile table). Rules as implemented: docs/rules/dragon.md.
"""
from __future__ import annotations

from scoring.base import text

# Person tiles: type -> age -> (symbols on the tile, value = person-track advance).
# GAMES.md "Person tiles"; research/games-data.md §3.1.
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
CARDS = TYPES + (WILD, WILD)  # 11 person cards per player: one per type and two "?" (seed 004 Tartozékok)

PERSON_NAMES = {
    "craftsman": text("kézműves", "craftsman"),
    "lady": text("udvarhölgy", "court lady"),
    "tax": text("adószedő", "tax collector"),
    "pyro": text("tűzijáték-készítő", "pyrotechnist"),
    "warrior": text("harcos", "warrior"),
    "monk": text("szerzetes", "monk"),
    "healer": text("gyógyító", "healer"),
    "farmer": text("földműves", "farmer"),
    "scholar": text("tudós", "scholar"),
    WILD: text("„?” kártya", "“?” card"),
}
AGE_NAMES = {"young": text("fiatal", "young"), "old": text("idős", "old")}

# Actions and the person whose symbols add to each (seed 004 "Az akciók részletezése").
ACTIONS = ("taxes", "build", "harvest", "fireworks", "parade", "research", "privilege")
ACTION_PERSON = {"taxes": "tax", "build": "craftsman", "harvest": "farmer", "fireworks": "pyro",
                 "parade": "warrior", "research": "scholar"}
ACTION_NAMES = {
    "taxes": text("Adók", "Taxes"),
    "build": text("Építkezés", "Build"),
    "harvest": text("Betakarítás", "Harvest"),
    "fireworks": text("Tűzijáték", "Fireworks display"),
    "parade": text("Katonai parádé", "Military parade"),
    "research": text("Kutatás", "Research"),
    "privilege": text("Kiváltságjog", "Privilege"),
}
# Group sizes of the 7 action cards by player count (seed 004 "1. fázis").
GROUP_SIZES = {2: (4, 3), 3: (3, 2, 2), 4: (2, 2, 2, 1), 5: (2, 2, 1, 1, 1)}
SHARED_GROUP_FEE = 3   # seed 004 "1. fázis", Megjegyzés
REFILL_TO = 3          # seed 004 "1. fázis": top the purse up to 3 yuan
SMALL_PRIVILEGE = 2    # seed 004 "Kiváltságjog"; the large price is the option (GAMES.md)
PRIVILEGE_DRAGONS = {"small": 1, "large": 2}

# Events (seed 004 "Eseménylapkák", "3. fázis").
EVENTS = ("peace", "tribute", "drought", "festival", "mongols", "contagion")
EVENT_NAMES = {
    "peace": text("Béke", "Peace"),
    "tribute": text("Császári hűbér", "Imperial tribute"),
    "drought": text("Aszály", "Drought"),
    "festival": text("Sárkányfesztivál", "Dragon festival"),
    "mongols": text("Mongol támadás", "Mongol invasion"),
    "contagion": text("Fertőzés", "Contagion"),
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
    "research": text("Kutatás", "Research"),
    "mongols": text("Mongol támadás", "Mongol invasion"),
    "festival": text("Sárkányfesztivál", "Dragon festival"),
    "palaces": text("Paloták (havi)", "Palaces (monthly)"),
    "ladies": text("Udvarhölgyek (havi)", "Court ladies (monthly)"),
    "privileges": text("Kiváltságjogok (havi)", "Privileges (monthly)"),
    "persons": text("Alattvalók (vége, 2 pont)", "Persons (end, 2 each)"),
    "monks": text("Szerzetesek (vége)", "Monks (end)"),
    "money": text("Pénz (vége, 3 yüan = 1 pont)", "Money (end, 1 per 3 yuan)"),
    "earlier": text("Eddigi pontok", "Points so far"),
}

# What the table is doing now (the phase names of the guided month).
PHASE_NAMES = {
    "lay-events": text("az eseménysor lerakása", "laying the event row"),
    "opening": text("az első két alattvaló kiválasztása", "the opening recruitment"),
    "deal": text("az akciókártyák kiosztása", "dealing the action cards"),
    "action": text("akcióválasztás", "the action phase"),
    "build": text("a palotaszintek lerakása", "placing palace floors"),
    "person": text("új alattvaló behívása", "the person phase"),
    "release": text("elbocsátás", "releasing persons"),
    "over": text("vége a játéknak", "the game is over"),
}


def supply_for(players: int) -> dict[str, dict[str, int]]:
    """Tiles per type and age: 10 each at 5 players (6 young + 4 old of split types);
    each missing player removes 1 young + 1 old, or 2 of an unsplit type (seed 004
    Előkészületek, Megjegyzés)."""
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
    name = PERSON_NAMES[person["type"]]
    if len(PERSONS[person["type"]]) == 1:
        return dict(name)
    age = AGE_NAMES[person["age"]]
    return text(f"{age['hu']} {name['hu']}", f"{age['en']} {name['en']}")


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
