"""Maharaja's refusals: one check per event type, each problem citing the section of
docs/rules/maharaja.md it follows and saying, in both languages, what is wrong with the
numbers involved. ``check`` first makes sure the move is the step the rules wait for
(``state["next"]``)."""
from __future__ import annotations

from typing import Callable

from scoring.base import Move, Problem, player, text
from scoring.maharaja import boards
from scoring.maharaja.apply import acting_seat, governor_target, travel_fees
from scoring.maharaja.data import (BUILDER, CHARACTERS, CITIES, HOUSE_COST, MONK, PARTS, bank_characters,
                                   character_of, holds, is_city, palace_cost, palaces_left, rule,
                                   village_index)


def refuse(section: int, hu: str, en: str) -> list[Problem]:
    return [Problem(rule(section), hu, en)]


STEP_TYPES = {
    "lay-governors": {"governors-laid"}, "choose-character": {"character-chosen"},
    "start-house": {"start-house-placed"}, "reveal": {"actions-revealed"},
    "pick-character": {"character-picked"},
    "actions": {"architect-travelled", "gold-taken", "house-built", "house-moved", "quarry-used",
                "palace-built", "governor-moved", "character-swapped", "chip-used", "turn-ended"},
}
STEP_LABELS = {
    "lay-governors": text("a kormányzósáv kirakása", "laying the governor track"),
    "choose-character": text("karakterválasztás", "choosing a character"),
    "start-house": text("kezdő ház lerakása", "placing a starting house"),
    "reveal": text("a következő játékos cselekedeteinek felfedése", "the next player revealing their actions"),
    "pick-character": text("a karakter nélkül maradt játékos választ", "the player left without a character picks"),
    "actions": text("a soron lévő játékos cselekedetei", "the current player's actions"),
}


def allowed_types(state: dict) -> set[str]:
    return STEP_TYPES[state["next"]["step"]] if state["next"] else set()


def check(state: dict, move: Move) -> list[Problem]:
    if state["next"] is None:
        return refuse(16, "A játék véget ért.", "The game is over.")
    if move.type not in allowed_types(state):
        step = STEP_LABELS[state["next"]["step"]]
        return refuse(6, f"Most ez jön: {step['hu']}.", f"The step now is: {step['en']}.")
    return CHECKS[move.type](state, move)


def name(state, seat) -> str:
    """A seat's player, named by the table's players (``Problem.naming``)."""
    return player(seat) if isinstance(seat, int) and 0 <= seat < state["n"] else f"#{seat}"


def _gold_problem(state, seat: int, what: dict, price: int) -> list[Problem]:
    """Gold never goes below zero (§9): the refusal names the price and the holdings."""
    have, who = state["gold"][seat], name(state, seat)
    return refuse(9, f"{what['hu']} {price} aranyba kerül; {who} aranya: {have}.",
                  f"{what['en']} costs {price} gold; {who} has {have}.")


# ---- set-up -------------------------------------------------------------------------------

def _governors(state, move):
    if sorted(move.data["order"]) != list(CITIES):
        return refuse(3, "Mind a 7 kormányzó pontosan egyszer kerül a sávra.",
                      "Each of the 7 governors goes on the track exactly once.")
    return []


def _not_their_turn(state, section: int, due: int, given: int) -> list[Problem]:
    return refuse(section, f"Most {name(state, due)} következik, nem {name(state, given)}.",
                  f"It is {name(state, due)}'s turn, not {name(state, given)}'s.")


def _seat_problem(state, move, section: int) -> list[Problem]:
    """A seat named in the payload must be whose turn it is (§6); left out, it is derived."""
    due, given = state["next"]["seat"], move.data.get("seat")
    if due is not None and given is not None and given != due:
        return _not_their_turn(state, section, due, given)
    return []


def _chooser_problem(state, seat) -> list[Problem]:
    if seat is None or not 0 <= seat < state["n"]:
        return refuse(4, "Ki nyerte a licitet? Add meg a játékost.", "Who won the bid? Name the player.")
    if character_of(state, seat) is not None:
        who = name(state, seat)
        return refuse(4, f"{who} már választott karaktert.", f"{who} already has a character.")
    return []


def _choose(state, move):
    seat, number, paid = acting_seat(state, move), move.data["character"], move.data.get("paid", 0)
    problems = _seat_problem(state, move, 4) or _chooser_problem(state, seat)
    if number > len(state["characters"]) or state["characters"][number - 1] is not None:
        problems += refuse(4, f"A(z) {number}. karakter nem választható.", f"Character {number} is not available.")
    if paid and not state["auction"]:
        problems += refuse(4, "Fizetni csak licitnél kell.", "Paying is only for the auction variant.")
    elif paid and sum(1 for s in range(state["n"]) if character_of(state, s) is None) == 1:
        problems += refuse(4, "Az utolsó, karakter nélküli játékos ingyen választ.",
                           "The last player without a character chooses free.")
    elif seat is not None and 0 <= seat < state["n"] and paid > state["gold"][seat]:
        problems += _gold_problem(state, seat, text("A licit", "The bid"), paid)
    return problems


def _start_house(state, move):
    problems = _seat_problem(state, move, 5)
    if problems:
        return problems
    if is_city(move.data["place"]):
        return refuse(5, "A kezdő házak falvakba kerülnek.", "Starting houses go into villages.")
    return _village_room(state, move.data["place"])


def _village_room(state, place):
    if len(state["villages"][village_index(place)]) >= state["village_cap"]:
        cap = state["village_cap"]
        return refuse(5, f"Ebben a faluban már {cap} ház van, több nem fér.",
                      f"This village already holds {cap} house{'s' if cap > 1 else ''}; no more fit.")
    return []


def _reveal(state, move):
    return _seat_problem(state, move, 6)


# ---- a player's turn ------------------------------------------------------------------------

def _turn(state) -> dict:
    return state["turn"]


def _has_part(state, *parts) -> bool:
    return any(p in _turn(state)["parts"] for p in parts)


def _no_part(action_hu, action_en):
    return refuse(7, f"Ez nem szerepel a megjelölt cselekedeteid között ({action_hu}).",
                  f"That is not among the actions you set ({action_en}).")


def _travel(state, move):
    seat, city, via = _turn(state)["seat"], move.data["city"], move.data["via"]
    if city == state["architects"][seat]:
        return refuse(8, f"Az építész már {city} városban van.", f"The architect is already in city {city}.")
    if not via and state["rules_version"] >= 2:
        return refuse(8, "Minden úton 1–2 falu fekszik: egy utazás legalább egy falun áthalad. "
                         "Add meg, melyeken.",
                      "Every road carries one or two villages, so a journey passes at least one: "
                      "enter the villages passed.")
    empty = [village_index(v) + 1 for v in via if not state["villages"][village_index(v)]]
    if empty:
        numbers = ", ".join(map(str, empty))
        return refuse(8, f"Ház nélküli falun nem lehet áthaladni: {numbers}.",
                      f"An architect cannot pass a village without houses: {numbers}.")
    numbers = [village_index(v) + 1 for v in via]
    if state["roads"] and not boards.route_ok(state["roads"], state["architects"][seat], city, numbers):
        return refuse(17, "Ezeken a falvakon át nem vezet út a városba (tábla-profil).",
                      "These villages do not make a road to that city (board profile).")
    fee = sum(travel_fees(state["villages"], seat, [n - 1 for n in numbers]).values())
    if not holds(state, seat, MONK) and fee > state["gold"][seat]:
        return _gold_problem(state, seat, text("Az utazás", "The journey"), fee)
    return []


def _gold(state, move):
    return [] if _has_part(state, "gold") else _no_part("arany", "gold")


def _free_problem(state):
    turn = _turn(state)
    if not holds(state, turn["seat"], BUILDER):
        return refuse(12, "Ingyen házat csak a kőműves épít vagy helyez át.",
                      "Only the Builder builds or moves a house for free.")
    if turn["builder_used"]:
        return refuse(12, "A kőműves ingyen háza ebben a körben már elfogyott.",
                      "The Builder's free house is already used this turn.")
    return []


def _city_problem(state, seat, place):
    if is_city(place) and state["architects"][seat] != place:
        return refuse(9, "Városban csak ott lehet építeni, ahol az építészed áll.",
                      "You can build in a city only where your architect stands.")
    return []


def _house(state, move):
    seat, place = _turn(state)["seat"], move.data["place"]
    if move.data.get("free"):
        problems = _free_problem(state)
    elif not _has_part(state, "house", "house-city") or (not is_city(place) and not _has_part(state, "house")):
        problems = refuse(7, "Nincs hátra ilyen házépítés (a 2 ház egyike városba kerül).",
                          "No such house build is left (one of two houses goes in a city).")
    elif state["gold"][seat] < HOUSE_COST:
        problems = _gold_problem(state, seat, text("Egy ház", "A house"), HOUSE_COST)
    else:
        problems = []
    if state["reserve"][seat] < 1:
        problems += refuse(9, "Nincs házad a tartalékban (kőbányával szerezhetsz).",
                           "No house left in your reserve (the quarry brings more).")
    return problems + _city_problem(state, seat, place) + ([] if is_city(place) else _village_room(state, place))


def _has_house(state, seat, place) -> bool:
    if is_city(place):
        return state["cities"][place]["houses"][seat] > 0
    return seat in state["villages"][village_index(place)]


def _move_house(state, move):
    seat, source, place = _turn(state)["seat"], move.data["source"], move.data["place"]
    problems = _free_problem(state) if move.data.get("free") else \
        ([] if _has_part(state, "move") else _no_part("ház áthelyezése", "move a house"))
    if not _has_house(state, seat, source):
        problems += refuse(10, "Csak a saját házadat helyezheted át onnan, ahol van.",
                           "You can move only a house of yours from where it stands.")
    if source == place:
        problems += refuse(10, "A ház máshová kerül.", "The house must go somewhere else.")
    return problems + _city_problem(state, seat, place) + ([] if is_city(place) else _village_room(state, place))


def _quarry(state, move):
    if not _has_part(state, "quarry"):
        return _no_part("kőbánya", "quarry")
    if state["bank_houses"][_turn(state)["seat"]] < 1:
        return refuse(10, "A bankban nincs több házad (20 színenként).",
                      "The bank holds no more houses of your colour (20 per colour).")
    return []


def _palace(state, move):
    seat, city = _turn(state)["seat"], move.data["city"]
    if not _has_part(state, "palace"):
        return _no_part("palota", "palace")
    site = state["cities"][city]
    problems = _city_problem(state, seat, city)
    if move.data["site"] == "inner" and site["inner"] is not None:
        problems += refuse(9, "A belső palotahely már foglalt.", "The inner palace site is taken.")
    if move.data["site"] == "outer" and len(site["outer"]) >= state["outer_sites"]:
        problems += refuse(9, f"Nincs szabad külső palotahely ({state['outer_sites']} van, mind foglalt).",
                           f"No outer palace site is free (all {state['outer_sites']} are taken).")
    if palaces_left(state, seat) < 1:
        problems += refuse(9, "Nincs több palotád.", "You have no palace left.")
    price = palace_cost(state, seat)
    if state["gold"][seat] < price:
        problems += _gold_problem(state, seat, text("Egy palota", "A palace"), price)
    return problems


def _governor(state, move):
    if not _has_part(state, "governor"):
        return _no_part("kormányzósáv", "governor track")
    if governor_target(state["track"], move.data["city"]) is None:
        return refuse(11, "Ez a kormányzó nem léphet két mezőt lejjebb.",
                      "This governor cannot go two boxes down.")
    return []


def _swap(state, move):
    seat, number = _turn(state)["seat"], move.data["character"]
    if not _has_part(state, "character"):
        return _no_part("karaktercsere", "character swap")
    if number > len(state["characters"]) or holds(state, seat, number):
        return refuse(12, "Ez a karakter nem vehető el.", "This character cannot be taken.")
    return []


def _pick(state, move):
    if move.data["character"] not in bank_characters(state):
        names = ", ".join(f"{n}. {CHARACTERS[n]['en']}" for n in bank_characters(state))
        names_hu = ", ".join(f"{n}. {CHARACTERS[n]['hu']}" for n in bank_characters(state))
        return refuse(12, f"Csak a bankban lévő karakterek közül lehet választani: {names_hu}.",
                      f"Choose one of the characters in the bank: {names}.")
    return []


def _chip(state, move):
    turn = _turn(state)
    if not state["yogi"] or state["chips"][turn["seat"]] < 1:
        return refuse(13, "Nincs cselekedetérméd.", "You have no action chip.")
    if turn["chip_used"]:
        return refuse(13, "Fordulónként legfeljebb egy plusz cselekedet.", "At most one extra action a round.")
    return []


def _end_turn(state, move):
    left = _turn(state)["parts"]
    if left and not move.data.get("renounce"):
        names = ", ".join(PARTS[p]["hu"] for p in left)
        names_en = ", ".join(PARTS[p]["en"] for p in left)
        return refuse(14, f"Hátravan: {names}. Ha lemondasz róla, minden más játékos 2 aranyat kap.",
                      f"Still to do: {names_en}. If you renounce it, every other player gets 2 gold.")
    if not left and move.data.get("renounce"):
        return refuse(14, "Nincs miről lemondani.", "There is nothing left to renounce.")
    return []


CHECKS: dict[str, Callable[[dict, Move], list[Problem]]] = {
    "governors-laid": _governors, "character-chosen": _choose, "start-house-placed": _start_house,
    "actions-revealed": _reveal, "architect-travelled": _travel, "gold-taken": _gold,
    "house-built": _house, "house-moved": _move_house, "quarry-used": _quarry, "palace-built": _palace,
    "governor-moved": _governor, "character-swapped": _swap, "character-picked": _pick,
    "chip-used": _chip, "turn-ended": _end_turn,
}
