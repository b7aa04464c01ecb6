"""Maharaja's scoring: the city evaluation that pays gold at the end of each round
(docs/rules/maharaja.md §15), and the score itself, the palaces built (§16)."""
from __future__ import annotations

from scoring.base import ScorePart
from scoring.i18n import msg
from scoring.maharaja.data import (CITIES, INNER_POINTS, MONOPOLY_BONUS, PAYOUTS, SADHU, character_of,
                                   holds)

# ---- the city evaluation (§15) ----------------------------------------------------------


def presence_parts(state: dict, city: str) -> list[dict[str, int]]:
    """Where each seat's points in a city come from: architect 1, each house 1, each outer
    palace 1 (2 for the Sadhu holder), the inner palace 3; +1 to the home character's
    holder when the table set the homes."""
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


def payouts(points: list[int], characters: list[int | None], players: int,
            present: list[bool] | None = None) -> list[dict]:
    """Gold for each seat with points: ranked by points, ties to the lower character
    number; 0 points → nothing; the only player present gets +5 (a monopoly).
    ``present``: who is there with a building or an architect (default: whoever has
    points); a home point alone is not presence (§15)."""
    scoring = [s for s, p in enumerate(points) if p > 0]
    scoring.sort(key=lambda s: (-points[s], characters[s] if characters[s] is not None else 99))
    there = [s for s in scoring if present is None or present[s]]
    table = PAYOUTS[players]
    rows = []
    for rank, seat in enumerate(scoring):
        gold = table[rank] if rank < len(table) else 0
        bonus = MONOPOLY_BONUS if there == [seat] else 0
        rows.append({"seat": seat, "points": points[seat], "rank": rank + 1,
                     "gold": gold + bonus, "monopoly": bool(bonus)})
    return rows


def evaluate(state: dict, city: str) -> list[dict]:
    """The payout rows, each with the parts its points came from (to show why)."""
    characters = [character_of(state, s) for s in range(state["n"])]
    parts = presence_parts(state, city)
    points = [sum(p.values()) for p in parts]
    present = None  # rules version 1: whoever has points is present, a home point too
    if state["rules_version"] >= 2:
        present = [point - p["home"] > 0 for point, p in zip(points, parts)]
    rows = payouts(points, characters, state["n"], present)
    return [row | {"parts": parts[row["seat"]]} for row in rows]


# ---- the score, the end and the tie-break (§16) -----------------------------------------

def score(state: dict) -> dict[int, list[ScorePart]]:
    """The score is the palaces built, one part per city, naming the palace-built events."""
    parts: dict[int, list[ScorePart]] = {s: [] for s in range(state["n"])}
    for seat in parts:
        for city in CITIES:
            mine = [p["seq"] for p in state["palaces"] if p["seat"] == seat and p["city"] == city]
            if mine:
                parts[seat].append(ScorePart("palaces", len(mine), tuple(mine),
                                             msg("Palaces – city %(city)s", city=city)))
    return parts


def tiebreak(state: dict, seat: int) -> tuple:
    """Equal palaces → more gold; then the lower character number. The tie-break decides
    only once the game is over: during play equal palaces share a rank (and with secret
    gold, ranking them by gold would tell every phone who is richer)."""
    if state["phase"] != "over":
        return ()
    number = character_of(state, seat)
    return (state["gold"][seat], -(number or 99))


def tiebreak_words(values: list) -> dict[str, str]:
    """The tie-break's (gold, -character) as the table says it: "20 gold, character 2"."""
    gold, negated = values
    if -negated == 99:  # no character card
        return msg("%(gold)s gold", gold=gold)
    return msg("%(gold)s gold, character %(number)s", gold=gold, number=-negated)


def is_over(state: dict) -> bool:
    return state["phase"] == "over"
