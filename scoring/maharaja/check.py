"""Maharaja's refusals: one check per event type, each problem citing the section of
docs/rules/maharaja.md it follows and saying, in both languages, what is wrong with the
numbers involved. ``check`` first makes sure the move is the step the rules wait for
(``state["next"]``)."""
from __future__ import annotations

from typing import Callable

from scoring.base import Move, Problem, player, Text
from scoring.i18n import joined, msg, msgn
from scoring.maharaja import boards
from scoring.maharaja.apply import acting_seat, governor_target, travel_fees
from scoring.maharaja.data import (BUILDER, CHARACTERS, CITIES, HOUSE_COST, MONK, PARTS, bank_characters,
                                   character_of, holds, is_city, palace_cost, palaces_left, rule,
                                   village_index)


def refuse(section: int, message: Text) -> list[Problem]:
    return [Problem(rule(section), message)]


STEP_TYPES = {
    "lay-governors": {"governors-laid"}, "choose-character": {"character-chosen"},
    "start-house": {"start-house-placed"}, "reveal": {"actions-revealed"},
    "pick-character": {"character-picked"},
    "actions": {"architect-travelled", "gold-taken", "house-built", "house-moved", "quarry-used",
                "palace-built", "governor-moved", "character-swapped", "chip-used", "turn-ended"},
}
STEP_LABELS = {
    "lay-governors": msg("laying the governor track"),
    "choose-character": msg("choosing a character"),
    "start-house": msg("placing a starting house"),
    "reveal": msg("the next player revealing their actions"),
    "pick-character": msg("the player left without a character picks"),
    "actions": msg("the current player's actions"),
}


def allowed_types(state: dict) -> set[str]:
    return STEP_TYPES[state["next"]["step"]] if state["next"] else set()


def check(state: dict, move: Move) -> list[Problem]:
    if state["next"] is None:
        return refuse(16, msg("The game is over."))
    if move.type not in allowed_types(state):
        step = STEP_LABELS[state["next"]["step"]]
        return refuse(6, msg("The step now is: %(step)s.", step=step))
    return CHECKS[move.type](state, move)


def name(state, seat) -> str:
    """A seat's player, named by the table's players (``Problem.naming``)."""
    return player(seat) if isinstance(seat, int) and 0 <= seat < state["n"] else f"#{seat}"


def _gold_problem(state, seat: int, what: dict, price: int) -> list[Problem]:
    """Gold never goes below zero (§9): the refusal names the price and the holdings."""
    have, who = state["gold"][seat], name(state, seat)
    return refuse(9, msg("%(what)s costs %(price)s gold; %(who)s has %(have)s.", what=what, price=price, who=who, have=have))


# ---- set-up -------------------------------------------------------------------------------

def _governors(state, move):
    if sorted(move.data["order"]) != list(CITIES):
        return refuse(3, msg("Each of the 7 governors goes on the track exactly once."))
    return []


def _not_their_turn(state, section: int, due: int, given: int) -> list[Problem]:
    return refuse(section, msg("It is %(value)s's turn, not %(value2)s's.", value=name(state, due), value2=name(state, given)))


def _seat_problem(state, move, section: int) -> list[Problem]:
    """A seat named in the payload must be whose turn it is (§6); left out, it is derived."""
    due, given = state["next"]["seat"], move.data.get("seat")
    if due is not None and given is not None and given != due:
        return _not_their_turn(state, section, due, given)
    return []


def _chooser_problem(state, seat) -> list[Problem]:
    if seat is None or not 0 <= seat < state["n"]:
        return refuse(4, msg("Who won the bid? Name the player."))
    if character_of(state, seat) is not None:
        who = name(state, seat)
        return refuse(4, msg("%(who)s already has a character.", who=who))
    return []


def _choose(state, move):
    seat, number, paid = acting_seat(state, move), move.data["character"], move.data.get("paid", 0)
    problems = _seat_problem(state, move, 4) or _chooser_problem(state, seat)
    if number > len(state["characters"]) or state["characters"][number - 1] is not None:
        problems += refuse(4, msg("Character %(number)s is not available.", number=number))
    if paid and not state["auction"]:
        problems += refuse(4, msg("Paying is only for the auction variant."))
    elif paid and sum(1 for s in range(state["n"]) if character_of(state, s) is None) == 1:
        problems += refuse(4, msg("The last player without a character chooses free."))
    elif seat is not None and 0 <= seat < state["n"] and paid > state["gold"][seat]:
        problems += _gold_problem(state, seat, msg("The bid"), paid)
    return problems


def _start_house(state, move):
    problems = _seat_problem(state, move, 5)
    if problems:
        return problems
    if is_city(move.data["place"]):
        return refuse(5, msg("Starting houses go into villages."))
    return _village_room(state, move.data["place"])


def _village_room(state, place):
    if len(state["villages"][village_index(place)]) >= state["village_cap"]:
        cap = state["village_cap"]
        return refuse(5, msgn("This village already holds %(num)d house; no more fit.",
                              "This village already holds %(num)d houses; no more fit.", cap))
    return []


def _reveal(state, move):
    return _seat_problem(state, move, 6)


# ---- a player's turn ------------------------------------------------------------------------

def _turn(state) -> dict:
    return state["turn"]


def _has_part(state, *parts) -> bool:
    return any(p in _turn(state)["parts"] for p in parts)


def _no_part(action: Text):
    return refuse(7, msg("That is not among the actions you set (%(action)s).", action=action))


def _travel(state, move):
    seat, city, via = _turn(state)["seat"], move.data["city"], move.data["via"]
    if city == state["architects"][seat]:
        return refuse(8, msg("The architect is already in city %(city)s.", city=city))
    if not via and state["rules_version"] >= 2:
        return refuse(8, msg("Every road carries one or two villages, so a journey passes at least one: enter the villages passed."))
    empty = [village_index(v) + 1 for v in via if not state["villages"][village_index(v)]]
    if empty:
        numbers = ", ".join(map(str, empty))
        return refuse(8, msg("An architect cannot pass a village without houses: %(numbers)s.", numbers=numbers))
    numbers = [village_index(v) + 1 for v in via]
    if state["roads"] and not boards.route_ok(state["roads"], state["architects"][seat], city, numbers):
        return refuse(17, msg("These villages do not make a road to that city (board profile)."))
    fee = sum(travel_fees(state["villages"], seat, [n - 1 for n in numbers]).values())
    if not holds(state, seat, MONK) and fee > state["gold"][seat]:
        return _gold_problem(state, seat, msg("The journey"), fee)
    return []


def _gold(state, move):
    return [] if _has_part(state, "gold") else _no_part(msg("gold"))


def _free_problem(state):
    turn = _turn(state)
    if not holds(state, turn["seat"], BUILDER):
        return refuse(12, msg("Only the Builder builds or moves a house for free."))
    if turn["builder_used"]:
        return refuse(12, msg("The Builder's free house is already used this turn."))
    return []


def _city_problem(state, seat, place):
    if is_city(place) and state["architects"][seat] != place:
        return refuse(9, msg("You can build in a city only where your architect stands."))
    return []


def _house(state, move):
    seat, place = _turn(state)["seat"], move.data["place"]
    if move.data.get("free"):
        problems = _free_problem(state)
    elif not _has_part(state, "house", "house-city") or (not is_city(place) and not _has_part(state, "house")):
        problems = refuse(7, msg("No such house build is left (one of two houses goes in a city)."))
    elif state["gold"][seat] < HOUSE_COST:
        problems = _gold_problem(state, seat, msg("A house"), HOUSE_COST)
    else:
        problems = []
    if state["reserve"][seat] < 1:
        problems += refuse(9, msg("No house left in your reserve (the quarry brings more)."))
    return problems + _city_problem(state, seat, place) + ([] if is_city(place) else _village_room(state, place))


def _has_house(state, seat, place) -> bool:
    if is_city(place):
        return state["cities"][place]["houses"][seat] > 0
    return seat in state["villages"][village_index(place)]


def _move_house(state, move):
    seat, source, place = _turn(state)["seat"], move.data["source"], move.data["place"]
    problems = _free_problem(state) if move.data.get("free") else \
        ([] if _has_part(state, "move") else _no_part(msg("move a house")))
    if not _has_house(state, seat, source):
        problems += refuse(10, msg("You can move only a house of yours from where it stands."))
    if source == place:
        problems += refuse(10, msg("The house must go somewhere else."))
    return problems + _city_problem(state, seat, place) + ([] if is_city(place) else _village_room(state, place))


def _quarry(state, move):
    if not _has_part(state, "quarry"):
        return _no_part(msg("quarry"))
    if state["bank_houses"][_turn(state)["seat"]] < 1:
        return refuse(10, msg("The bank holds no more houses of your colour (20 per colour)."))
    return []


def _palace(state, move):
    seat, city = _turn(state)["seat"], move.data["city"]
    if not _has_part(state, "palace"):
        return _no_part(msg("palace"))
    site = state["cities"][city]
    problems = _city_problem(state, seat, city)
    if move.data["site"] == "inner" and site["inner"] is not None:
        problems += refuse(9, msg("The inner palace site is taken."))
    if move.data["site"] == "outer" and len(site["outer"]) >= state["outer_sites"]:
        problems += refuse(9, msg("No outer palace site is free (all %(outer_sites)s are taken).", outer_sites=state['outer_sites']))
    if palaces_left(state, seat) < 1:
        problems += refuse(9, msg("You have no palace left."))
    price = palace_cost(state, seat)
    if state["gold"][seat] < price:
        problems += _gold_problem(state, seat, msg("A palace"), price)
    return problems


def _governor(state, move):
    if not _has_part(state, "governor"):
        return _no_part(msg("governor track"))
    if governor_target(state["track"], move.data["city"]) is None:
        return refuse(11, msg("This governor cannot go two boxes down."))
    return []


def _swap(state, move):
    seat, number = _turn(state)["seat"], move.data["character"]
    if not _has_part(state, "character"):
        return _no_part(msg("character swap"))
    if number > len(state["characters"]) or holds(state, seat, number):
        return refuse(12, msg("This character cannot be taken."))
    return []


def _pick(state, move):
    if move.data["character"] not in bank_characters(state):
        names = joined(", ", [joined(". ", [n, CHARACTERS[n]]) for n in bank_characters(state)])
        return refuse(12, msg("Choose one of the characters in the bank: %(names)s.", names=names))
    return []


def _chip(state, move):
    turn = _turn(state)
    if not state["yogi"] or state["chips"][turn["seat"]] < 1:
        return refuse(13, msg("You have no action chip."))
    if turn["chip_used"]:
        return refuse(13, msg("At most one extra action a round."))
    return []


def _end_turn(state, move):
    left = _turn(state)["parts"]
    if left and not move.data.get("renounce"):
        return refuse(14, msg("Still to do: %(left)s. If you renounce it, every other player gets 2 gold.",
                              left=joined(", ", [PARTS[p] for p in left])))
    if not left and move.data.get("renounce"):
        return refuse(14, msg("There is nothing left to renounce."))
    return []


CHECKS: dict[str, Callable[[dict, Move], list[Problem]]] = {
    "governors-laid": _governors, "character-chosen": _choose, "start-house-placed": _start_house,
    "actions-revealed": _reveal, "architect-travelled": _travel, "gold-taken": _gold,
    "house-built": _house, "house-moved": _move_house, "quarry-used": _quarry, "palace-built": _palace,
    "governor-moved": _governor, "character-swapped": _swap, "character-picked": _pick,
    "chip-used": _chip, "turn-ended": _end_turn,
}
