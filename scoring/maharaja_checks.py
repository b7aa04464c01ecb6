"""Maharaja's rule checks: one function per event type, each refusal citing its rule
(docs/rules/maharaja.md). ``check`` first makes sure the move is the step the
round is at (``state["pending"]``, or the current player's turn)."""
from __future__ import annotations

from scoring import maharaja_board as board
from scoring import maharaja_rules as R
from scoring.base import Move, Problem, text

OVER = Problem("seed 003 §10", "A játék véget ért.", "The game is over.")


def refuse(rule: str, hu: str, en: str) -> list[Problem]:
    return [Problem(rule, hu, en)]


STEP_TYPES = {
    "lay-governors": {"governors-laid"}, "choose-character": {"character-chosen"},
    "start-house": {"start-house-placed"}, "reveal": {"actions-revealed"},
    "pick-character": {"character-picked"},
}
TURN_TYPES = {"architect-travelled", "gold-taken", "house-built", "house-moved", "quarry-used",
              "palace-built", "governor-moved", "character-swapped", "chip-used", "turn-ended"}
STEP_LABELS = {
    "lay-governors": text("a kormányzósáv kirakása", "laying the governor track"),
    "choose-character": text("karakterválasztás", "choosing a character"),
    "start-house": text("kezdő ház lerakása", "placing a starting house"),
    "reveal": text("a következő játékos cselekedeteinek felfedése", "the next player revealing their actions"),
    "pick-character": text("a karakter nélkül maradt játékos választ", "the player left without a character picks"),
}


def allowed_types(state: dict) -> set[str]:
    if state["phase"] == "over":
        return set()
    if state["pending"]:
        return STEP_TYPES[state["pending"][0]["kind"]]
    return TURN_TYPES


def check(state: dict, move: Move) -> list[Problem]:
    if state["phase"] == "over":
        return [OVER]
    if move.type not in allowed_types(state):
        step = STEP_LABELS[state["pending"][0]["kind"]] if state["pending"] else \
            text("a soron lévő játékos cselekedetei", "the current player's actions")
        return refuse("seed 003 §6.0", f"Most ez jön: {step['hu']}.", f"The step now is: {step['en']}.")
    return CHECKS[move.type](state, move.data)


def _check_governors(state, data):
    if sorted(data["order"]) != list(R.CITIES):
        return refuse("seed 003 §3.2", "Mind a 7 kormányzó pontosan egyszer kerül a sávra.",
                      "Each of the 7 governors goes on the track exactly once.")
    return []


def _check_choose(state, data):
    seat, number, paid = data["seat"], data["character"], data.get("paid", 0)
    step = state["pending"][0]
    problems = []
    if step["seat"] is not None and seat != step["seat"]:
        problems += refuse("seed 003 §5.1", "Ülésrendben választanak: most más következik.",
                           "Players choose in seat order: someone else is next.")
    elif not 0 <= seat < state["n"] or R.character_of(state, seat) is not None:
        problems += refuse("seed 003 §5.1", "Ennek a játékosnak már van karaktere.", "This player already has a character.")
    if number > len(state["characters"]) or state["characters"][number - 1] is not None:
        problems += refuse("seed 003 §5.1", "Ez a karakter nem választható.", "This character is not available.")
    if paid and not state["auction"]:
        problems += refuse("seed 003 §11.2.5", "Fizetni csak licitnél kell.", "Paying is only for the auction variant.")
    elif paid and sum(1 for s in range(state["n"]) if R.character_of(state, s) is None) == 1:
        problems += refuse("seed 003 §11.2.5", "Az utolsó, karakter nélküli játékos ingyen választ.",
                           "The last player without a character chooses free.")
    elif 0 <= seat < state["n"] and paid > state["gold"][seat]:
        problems += _gold_problem()
    return problems


def _gold_problem():
    return refuse("seed 003 §7.2", "Nincs elég aranyad: az arany nem mehet nulla alá.",
                  "Not enough gold: gold never goes below zero.")


def _check_start_house(state, data):
    if data["seat"] != state["pending"][0]["seat"]:
        return refuse("seed 003 §5.2", "A kezdő házakat karaktersorrendben rakják le.",
                      "Starting houses are placed in character order.")
    if R.is_city(data["place"]):
        return refuse("seed 003 §5.2", "A kezdő házak falvakba kerülnek.", "Starting houses go into villages.")
    return _village_room(state, data["place"])


def _village_room(state, place):
    if len(state["villages"][R.village_index(place)]) >= state["village_cap"]:
        cap = state["village_cap"]
        return refuse("seed 003 §4.0", f"Ebben a faluban már {cap} ház van, több nem fér.",
                      f"This village already holds {cap} house{'s' if cap > 1 else ''}; no more fit.")
    return []


def _check_reveal(state, data):
    if data["seat"] != state["pending"][0]["seat"]:
        return refuse("seed 003 §7.6", "Most a legalacsonyabb karakterű, még nem cselekedett játékos jön.",
                      "Next is the lowest character among those who have not acted.")
    return []


def _turn(state) -> dict:
    return state["turn"]


def _has_part(state, *parts) -> bool:
    return any(p in _turn(state)["parts"] for p in parts)


def _no_part(action_hu, action_en):
    return refuse("seed 003 §6.2", f"Ez nem szerepel a megjelölt cselekedeteid között ({action_hu}).",
                  f"That is not among the actions you set ({action_en}).")


def _check_travel(state, data):
    seat = _turn(state)["seat"]
    if data["city"] == state["architects"][seat]:
        return refuse("seed 003 §7.1", "Az építész már ebben a városban van.", "The architect is already in this city.")
    via = [v - 1 for v in data["via"]]
    empty = [v + 1 for v in via if not state["villages"][v]]
    if empty:
        return refuse("seed 003 §7.1", f"Ház nélküli falun nem lehet áthaladni: {empty}.",
                      f"An architect cannot pass a village without houses: {empty}.")
    if state["roads"] and not board.route_ok(state["roads"], state["architects"][seat], data["city"], data["via"]):
        return refuse("seed 003 §7.1", "Ezeken a falvakon át nem vezet út a városba (tábla-profil).",
                      "These villages do not make a road to that city (board profile).")
    fee = sum(R.travel_fees(state["villages"], seat, via).values())
    if not R.holds(state, seat, R.MONK) and fee > state["gold"][seat]:
        return _gold_problem()
    return []


def _check_gold(state, data):
    return [] if _has_part(state, "gold") else _no_part("arany", "gold")


def _free_problem(state):
    turn = _turn(state)
    if not R.holds(state, turn["seat"], R.BUILDER):
        return refuse("seed 003 §5.1", "Ingyen házat csak a kőműves épít vagy helyez át.",
                      "Only the Builder builds or moves a house for free.")
    if turn["builder_used"]:
        return refuse("seed 003 §5.1", "A kőműves ingyen háza ebben a körben már elfogyott.",
                      "The Builder's free house is already used this turn.")
    return []


def _city_problem(state, seat, place):
    if R.is_city(place) and state["architects"][seat] != place:
        return refuse("seed 003 §7.2", "Városban csak ott lehet építeni, ahol az építészed áll.",
                      "You can build in a city only where your architect stands.")
    return []


def _check_house(state, data):
    seat, place = _turn(state)["seat"], data["place"]
    if data.get("free"):
        problems = _free_problem(state)
    elif not _has_part(state, "house", "house-city") or (not R.is_city(place) and not _has_part(state, "house")):
        problems = refuse("seed 003 §7.2", "Nincs hátra ilyen házépítés (a 2 ház egyike városba kerül).",
                          "No such house build is left (one of two houses goes in a city).")
    elif state["gold"][seat] < R.HOUSE_COST:
        problems = _gold_problem()
    else:
        problems = []
    if state["reserve"][seat] < 1:
        problems += refuse("seed 003 §5.2", "Nincs házad a tartalékban (kőbányával szerezhetsz).",
                           "No house left in your reserve (the quarry brings more).")
    return problems + _city_problem(state, seat, place) + ([] if R.is_city(place) else _village_room(state, place))


def _has_house(state, seat, place) -> bool:
    if R.is_city(place):
        return state["cities"][place]["houses"][seat] > 0
    return seat in state["villages"][R.village_index(place)]


def _check_move_house(state, data):
    seat, source, place = _turn(state)["seat"], data["source"], data["place"]
    problems = _free_problem(state) if data.get("free") else \
        ([] if _has_part(state, "move") else _no_part("ház áthelyezése", "move a house"))
    if not _has_house(state, seat, source):
        problems += refuse("seed 003 §7.3", "Csak a saját házadat helyezheted át onnan, ahol van.",
                           "You can move only a house of yours from where it stands.")
    if source == place:
        problems += refuse("seed 003 §7.3", "A ház máshová kerül.", "The house must go somewhere else.")
    return problems + _city_problem(state, seat, place) + ([] if R.is_city(place) else _village_room(state, place))


def _check_quarry(state, data):
    if not _has_part(state, "quarry"):
        return _no_part("kőbánya", "quarry")
    if state["bank_houses"][_turn(state)["seat"]] < 1:
        return refuse("seed 003 §2.0", "A bankban nincs több házad (20 színenként).",
                      "The bank holds no more houses of your colour (20 per colour).")
    return []


def _check_palace(state, data):
    seat, city = _turn(state)["seat"], data["city"]
    if not _has_part(state, "palace"):
        return _no_part("palota", "palace")
    site = state["cities"][city]
    problems = _city_problem(state, seat, city)
    if data["site"] == "inner" and site["inner"] is not None:
        problems += refuse("seed 003 §4.0", "A belső palotahely már foglalt.", "The inner palace site is taken.")
    if data["site"] == "outer" and len(site["outer"]) >= state["outer_sites"]:
        problems += refuse("seed 003 §7.2", "Nincs szabad külső palotahely (városonként 7 palota).",
                           "No outer palace site is free (7 palaces per city).")
    if R.palaces_left(state, seat) < 1:
        problems += refuse("seed 003 §3.2", "Nincs több palotád.", "You have no palace left.")
    if state["gold"][seat] < R.palace_cost(state, seat):
        problems += _gold_problem()
    return problems


def _check_governor(state, data):
    if not _has_part(state, "governor"):
        return _no_part("kormányzósáv", "governor track")
    if R.governor_target(state["track"], data["city"]) is None:
        return refuse("seed 003 §7.5", "Ez a kormányzó nem léphet két mezőt lejjebb.",
                      "This governor cannot go two boxes down.")
    return []


def _check_swap(state, data):
    seat, number = _turn(state)["seat"], data["character"]
    if not _has_part(state, "character"):
        return _no_part("karaktercsere", "character swap")
    if number > len(state["characters"]) or R.holds(state, seat, number):
        return refuse("seed 003 §7.6", "Ez a karakter nem vehető el.", "This character cannot be taken.")
    return []


def _check_pick(state, data):
    if data["character"] not in R.bank_characters(state):
        return refuse("seed 003 §7.6", "Csak a bankban lévő karakterek közül lehet választani.",
                      "Choose one of the characters in the bank.")
    return []


def _check_chip(state, data):
    turn = _turn(state)
    if not state["yogi"] or state["chips"][turn["seat"]] < 1:
        return refuse("seed 003 §11.2.3", "Nincs cselekedetérméd.", "You have no action chip.")
    if turn["chip_used"]:
        return refuse("seed 003 §11.2.3", "Fordulónként legfeljebb egy plusz cselekedet.",
                      "At most one extra action a round.")
    return []


def _check_end(state, data):
    left = _turn(state)["parts"]
    if left and not data.get("renounce"):
        names = ", ".join(R.PARTS[p]["hu"] for p in left)
        names_en = ", ".join(R.PARTS[p]["en"] for p in left)
        return refuse("seed 003 §7.7", f"Hátravan: {names}. Ha lemondasz róla, minden más játékos 2 aranyat kap.",
                      f"Still to do: {names_en}. If you renounce it, every other player gets 2 gold.")
    if not left and data.get("renounce"):
        return refuse("seed 003 §7.7", "Nincs miről lemondani.", "There is nothing left to renounce.")
    return []


CHECKS = {
    "governors-laid": _check_governors, "character-chosen": _check_choose,
    "start-house-placed": _check_start_house, "actions-revealed": _check_reveal,
    "architect-travelled": _check_travel, "gold-taken": _check_gold, "house-built": _check_house,
    "house-moved": _check_move_house, "quarry-used": _check_quarry, "palace-built": _check_palace,
    "governor-moved": _check_governor, "character-swapped": _check_swap, "character-picked": _check_pick,
    "chip-used": _check_chip, "turn-ended": _check_end,
}


