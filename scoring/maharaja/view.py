"""What Maharaja's templates need, derived from the folded facts when a page renders
(``view(state, players)``), and what a phone may see of the state (``redact``)."""
from __future__ import annotations

from scoring.i18n import msg
from scoring.maharaja.apply import governor_target, next_city
from scoring.maharaja.boards import place_names
from scoring.maharaja.data import (ACTIONS, ARTIST, BUILDER, CHIP_ACTIONS, CITIES, HOUSE_COST, TRADER, VILLAGES,
                                   bank_characters, character_of, holds, palace_cost, palaces_left)


def _villages(state: dict, players: list[dict], named: dict) -> list[dict]:
    """The 30 villages: number, name, the seats with a house there, and whether one more fits."""
    return [_village(i + 1, named.get(str(i + 1), ""), owners, players, state["village_cap"])
            for i, owners in enumerate(state["villages"])]


def _village(number: int, name: str, owners: list[int], players: list[dict], cap: int) -> dict:
    """One village for the board and the form's choices; its label is built here, once,
    rather than by a template macro per option (the form lists the 30 villages thrice)."""
    names = [players[s]["name"] for s in owners if s < len(players)]
    extra = (f" · {name}" if name else "") + (f" ({', '.join(names)})" if names else "")
    return {"number": number, "value": f"v{number}", "name": name, "seats": list(owners), "owners": names,
            "room": len(owners) < cap, "label": msg("village %(number)s%(extra)s", number=number, extra=extra)}


def _seats(state: dict) -> list[dict]:
    return [{"seat": s, "character": character_of(state, s), "palaces_left": palaces_left(state, s)}
            for s in range(state["n"])]


def _turn(state: dict) -> dict | None:
    """The acting player's choices: where the architect stands, what a palace costs him,
    whether the Builder's free house is left, which governors can move two boxes down."""
    turn = state["turn"]
    if turn is None:
        return None
    seat = turn["seat"]
    return {"seat": seat, "at": state["architects"][seat], "palace_cost": palace_cost(state, seat),
            "builder": holds(state, seat, BUILDER) and not turn["builder_used"],
            "artist": holds(state, seat, ARTIST),
            "chip": state["yogi"] and state["chips"][seat] > 0 and not turn["chip_used"],
            "governors": [c for c in CITIES if c in state["track"] and governor_target(state["track"], c) is not None],
            "houses_in_cities": [c for c in CITIES if state["cities"][c]["houses"][seat]],
            "own_villages": [i + 1 for i in range(VILLAGES) if seat in state["villages"][i]]}


def _reveal(state: dict) -> dict | None:
    """What each action costs the player about to reveal, and the gold he will have then
    (the Trader's +1 comes with the reveal), so the form can warn before a plan he cannot pay
    (docs/rules/maharaja.md §7, §9): Palace + Palace is 24 gold (Artist 18)."""
    step = state["next"]
    if not step or step.get("step") != "reveal" or step.get("seat") is None:
        return None
    seat = step["seat"]
    price = {"palace": palace_cost(state, seat), "house": HOUSE_COST, "house-city": HOUSE_COST}
    return {"seat": seat, "gold": state["gold"][seat] + (1 if holds(state, seat, TRADER) else 0),
            "costs": {action: sum(price.get(part, 0) for part in parts) for action, (parts, _) in ACTIONS.items()}}


def view(state: dict, players: list[dict], options: dict | None = None) -> dict:
    """``options``: the table's set-up, whose board profile names cities and villages."""
    over, named = state["phase"] == "over", place_names(options)
    return {"step": state["next"], "over": over, "reveal": _reveal(state),
            "next_city": None if over else next_city(state["track"]),
            "city_names": {c: named.get(c, "") for c in CITIES},
            "villages": _villages(state, players, named), "seats": _seats(state), "turn": _turn(state),
            "bank": bank_characters(state), "chip_actions": CHIP_ACTIONS,
            "secret_gold": state.get("secret_gold", True) and not over}


def redact(state: dict, seat: int | None) -> dict:
    """The state as the phone of ``seat`` (None: a spectator) may see it: while gold is
    secret, only a player's own gold is shown (docs/rules/maharaja.md §16)."""
    if not state.get("secret_gold", True) or state["phase"] == "over":
        return state
    return {**state, "gold": [g if s == seat else None for s, g in enumerate(state["gold"])]}


def board_parts(state: dict, view: dict, players: list[dict], seat: int | None = None) -> list[dict]:
    """The board by its parts (``Presentation.board_parts``; templates/games/maharaja/_board_part.html):
    the final order, the round, the governor track, each city, the key, the villages, the
    players' mats (the gold this phone may see), the evaluations."""
    over = state["phase"] == "over"
    shown = {"next": view["next_city"] if not over else None, "over": over}
    cities = [{"id": f"mh-city-{c}", "is": "city", "c": c, "site": state["cities"][c], "name": view["city_names"][c],
               "here": c == state["maharaja"], "outer_sites": state["outer_sites"],
               "architects": [s for s, at in enumerate(state["architects"]) if at == c]} for c in CITIES]
    turn = state["turn"]
    mats = [{"character": view["seats"][s]["character"], "chips": state["chips"][s],
             "gold": state["gold"][s] if not view["secret_gold"] or seat == s else None,
             "palaces_left": view["seats"][s]["palaces_left"], "reserve": state["reserve"][s],
             "acting": bool(turn and turn["seat"] == s), "acted": s in state["acted"]} for s in range(len(players))]
    return [{"id": "mh-final", "is": "final", "over": over, "gold": state["gold"] if over else None,
             "characters": [m["character"] for m in mats] if over else None},
            {"id": "mh-now", "is": "now", "round": state["round"], "maharaja": state["maharaja"],
             "last_round": state["last_round"], **shown},
            {"id": "mh-track", "is": "track", "track": state["track"], **shown},
            *cities,
            {"id": "mh-key", "is": "key", "outer_sites": state["outer_sites"]},
            {"id": "mh-villages", "is": "villages",
             "villages": [{"number": v["number"], "name": v["name"], "seats": v["seats"]} for v in view["villages"]]},
            {"id": "mh-players", "is": "players", "mats": mats},
            {"id": "mh-evaluations", "is": "evaluations", "evaluations": state["evaluations"]}]
