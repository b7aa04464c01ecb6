"""Maharaja's pure rule computations: the city evaluation, travel fees, the
governor track and the turn order. Every function takes JSON-shaped data and
returns new data; nothing here validates a move (that is ``maharaja.check``).

Rules as implemented, with their sources: docs/rules/maharaja.md.
"""
from __future__ import annotations

from scoring.base import text

CITIES = tuple("ABCDEFG")                       # seed 003 §3.1: 7 cities
VILLAGES = 30                                   # seed 003 §3.1: 30 villages
PRE_BOXES = 7                                   # seed 003 §3.2: the 7 boxes above the arrow
TRACK_BOXES = PRE_BOXES + 10                    # then boxes 1..10 (the round numbers)
LAST_BOX = TRACK_BOXES - 1                      # index of box 10: the game ends (seed 003 §10)
OUTER_SITES = 6                                 # seed 003 §4.0: 1 inner + 6 outer sites
HOUSES_PER_COLOUR = 20                          # seed 003 §2.0
START_HOUSES, START_RESERVE, START_GOLD = 4, 6, 15  # seed 003 §3.2, §5.2
PALACE_COST, ARTIST_PALACE_COST, HOUSE_COST = 12, 9, 1
MONOPOLY_BONUS = 5                              # GAMES.md Maharaja
RENOUNCE_GOLD = 2                               # seed 003 §7.7
INNER_POINTS = 3
# GAMES.md Maharaja (research/games-data.md §2.1): gold by rank, per player count.
PAYOUTS = {2: (10, 5), 3: (11, 7, 3), 4: (12, 9, 6, 3), 5: (13, 10, 7, 4, 1)}

MOGUL, TRADER, SADHU, MONK, BUILDER, ARTIST, YOGI = range(1, 8)
CHARACTERS = {
    MOGUL: text("Mogul", "Mogul"),
    TRADER: text("Kereskedő", "Trader"),
    SADHU: text("Szádhu", "Sadhu"),
    MONK: text("Vándorszerzetes", "Wandering Monk"),
    BUILDER: text("Kőműves", "Builder"),
    ARTIST: text("Művész", "Artist"),
    YOGI: text("Jógi", "Yogi"),
}

# seed 003 §6.2: the action disc; each action is a list of parts to carry out.
ACTIONS = {
    "gold": (["gold"], text("Arany (+2)", "Gold (+2)")),
    "house": (["house"], text("Ház", "House")),
    "two-houses": (["house-city", "house"], text("2 ház (egy városban)", "Two houses (one in a city)")),
    "move-house": (["move"], text("Ház áthelyezése", "Move a house")),
    "quarry": (["quarry"], text("Kőbánya (+2 ház)", "Quarry (+2 houses)")),
    "palace": (["palace"], text("Palota", "Palace")),
    "palace-house": (["palace", "house"], text("Palota/ház", "Palace and house")),
    "governor": (["governor"], text("Kormányzósáv", "Governor track")),
    "character": (["character"], text("Karaktercsere", "Character swap")),
}
PARTS = {
    "gold": text("2 arany felvétele", "take 2 gold"),
    "house": text("házépítés (falu vagy város)", "build a house (village or city)"),
    "house-city": text("házépítés városban", "build a house in a city"),
    "move": text("ház áthelyezése", "move a house"),
    "quarry": text("kőbánya", "quarry"),
    "palace": text("palotaépítés", "build a palace"),
    "governor": text("kormányzó léptetése", "move a governor"),
    "character": text("karaktercsere", "swap character"),
}


def is_city(place: str) -> bool:
    return place in CITIES


def village_index(place: str) -> int:
    """'v1'..'v30' -> 0..29."""
    return int(place[1:]) - 1


def place_label(place: str | None) -> dict:
    if place is None:
        return text("indulási hely", "start space")
    if is_city(place):
        return text(f"{place} város", f"city {place}")
    return text(f"{place[1:]}. falu", f"village {place[1:]}")


# ---- characters and turn order -------------------------------------------------

def character_of(state: dict, seat: int) -> int | None:
    """The character card a seat holds (one per player in the basic game)."""
    for number, holder in enumerate(state["characters"], start=1):
        if holder == seat:
            return number
    return None


def holds(state: dict, seat: int, number: int) -> bool:
    return len(state["characters"]) >= number and state["characters"][number - 1] == seat


def palace_cost(state: dict, seat: int) -> int:
    return ARTIST_PALACE_COST if holds(state, seat, ARTIST) else PALACE_COST


def palaces_left(state: dict, seat: int) -> int:
    return state["palaces_each"] - sum(1 for p in state["palaces"] if p["seat"] == seat)


def bank_characters(state: dict) -> list[int]:
    return [n for n, holder in enumerate(state["characters"], start=1) if holder is None]


def order_key(state: dict, seat: int) -> int:
    """Lower character first (seed 003 §5.1); a seat without one goes last."""
    number = character_of(state, seat)
    return number if number is not None else 99


def character_order(state: dict) -> list[int]:
    return sorted(range(state["n"]), key=lambda s: (order_key(state, s), s))


def next_actor(state: dict) -> int | None:
    """Seed 003 §7.6: of those who have not acted this round, the lowest character."""
    waiting = [s for s in character_order(state) if s not in state["acted"]]
    return waiting[0] if waiting else None


# ---- the governor track ---------------------------------------------------------

def bottom_governor(track: list) -> int | None:
    return next((i for i, city in enumerate(track) if city), None)


def next_city(track: list) -> str | None:
    """The city the Maharaja visits next: the lowest governor (seed 003 §6.1)."""
    index = bottom_governor(track)
    return track[index] if index is not None else None


def maharaja_moves(track: list) -> tuple[list, str, int]:
    """Start of a round: the lowest governor's city gets the Maharaja and that governor
    goes to the box above the topmost one (seed 003 §6.1, §9.0). Returns the new
    track, the city and the box index the governor reached."""
    track = list(track)
    low = bottom_governor(track)
    top = max(i for i, city in enumerate(track) if city)
    city = track[low]
    track[low] = None
    track[top + 1] = city
    return track, city, top + 1


def governor_target(track: list, city: str) -> int | None:
    """Where a governor moved two boxes down lands, or None if there is no such box."""
    index = track.index(city)
    return index - 2 if index >= 2 else None


def move_governor(track: list, city: str) -> list:
    """Seed 003 §7.5: the governor goes two boxes down, the governors it passes move
    up one box; an empty box passed stays an empty box (example 2)."""
    track = list(track)
    index = track.index(city)
    passed = track[index - 2:index]
    track[index - 2] = city
    track[index - 1], track[index] = passed
    return track


def box_number(index: int) -> int | None:
    """Track index -> the printed box number 1..10 (None above the arrow)."""
    return index - PRE_BOXES + 1 if index >= PRE_BOXES else None


# ---- travel -----------------------------------------------------------------------

def travel_fees(villages: list, seat: int, via: list[int]) -> dict[int, int]:
    """Seed 003 §7.1: passing a village where the traveller has no house costs 1 gold
    per house there, paid to each house's owner. ``via`` are village indexes 0..29."""
    fees: dict[int, int] = {}
    for index in via:
        owners = villages[index]
        if seat in owners:
            continue
        for owner in owners:
            fees[owner] = fees.get(owner, 0) + 1
    return fees


# ---- the city evaluation ----------------------------------------------------------

def presence_parts(state: dict, city: str) -> list[dict[str, int]]:
    """Seed 003 §8.0: where each seat's points in a city come from: architect 1, each house 1,
    each outer palace 1 (2 for the Sadhu holder), the inner palace 3; +1 to the home
    character's holder (advanced, seed 003 §12.6) when the table set the homes."""
    site = state["cities"][city]
    parts = [{"architect": int(state["architects"][seat] == city), "houses": site["houses"][seat],
              "outer": site["outer"].count(seat) * (2 if holds(state, seat, SADHU) else 1),
              "inner": INNER_POINTS if site["inner"] == seat else 0, "home": 0}
             for seat in range(state["n"])]
    homes = state["homes"]
    if homes and homes.index(city) < len(state["characters"]):
        holder = state["characters"][homes.index(city)]
        if holder is not None:
            parts[holder]["home"] = 1
    return parts


def presence(state: dict, city: str) -> list[int]:
    """Presence points per seat in a city (the sum of ``presence_parts``)."""
    return [sum(p.values()) for p in presence_parts(state, city)]


def payouts(points: list[int], characters: list[int | None], players: int) -> list[dict]:
    """Gold for each seat with points: ranked by points, ties to the lower character
    number; 0 points → nothing; a sole player present gets +5 (GAMES.md Maharaja)."""
    present = [s for s, p in enumerate(points) if p > 0]
    present.sort(key=lambda s: (-points[s], characters[s] if characters[s] is not None else 99))
    table = PAYOUTS[players]
    rows = []
    for rank, seat in enumerate(present):
        gold = table[rank] if rank < len(table) else 0
        bonus = MONOPOLY_BONUS if len(present) == 1 else 0
        rows.append({"seat": seat, "points": points[seat], "rank": rank + 1,
                     "gold": gold + bonus, "monopoly": bool(bonus)})
    return rows


def evaluate(state: dict, city: str) -> list[dict]:
    """The payout rows, each with the parts its points came from (to show why)."""
    characters = [character_of(state, s) for s in range(state["n"])]
    parts = presence_parts(state, city)
    rows = payouts([sum(p.values()) for p in parts], characters, state["n"])
    return [row | {"parts": parts[row["seat"]]} for row in rows]
