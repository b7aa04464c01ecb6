"""Han: why a move is refused. One check per event type (``CHECKS``); each problem
cites its section of docs/rules/han.md and says what is wrong with the numbers."""
from __future__ import annotations

from collections import Counter
from typing import Callable

from scoring.base import Move, Problem, Text, place, player, text
from scoring.han.data import ALLIANCES, CARDS, COLOUR_TEXT, COLOURS, MAX_CARDS, MAX_PIECES, PIECE_TEXT, PILE_SLACK, SIDES
from scoring.han.score import (alliance_pair, area_of, can_place, capacity, envoys, expected_pile, fortified, missing_alliances,
                               open_fortresses, pagodas, placed, supply, taken_sites, takes_site, touches,
                               used_sites)
from scoring.i18n import joined, msgn
from scoring.i18n import msg

# ---- checks ----------------------------------------------------------------------

NO_BORDER_SITES = Problem("docs/rules/han.md §2.7", msg("This side has no border sites (side 1 has 6)."))
NO_HARBOURS = Problem("docs/rules/han.md §2.8", msg("This side has no harbours (side 1 has 7)."))
OVER = Problem("docs/rules/han.md §4", msg("The game has already ended."))
NOT_NOW = Problem("docs/rules/han.md §4", msg("The game has ended and the final scoring is on: no more turns."))
PILE_DONE = Problem("docs/rules/han.md §4.1", msg("The draw pile has already run out twice."))


def _turn_problem(state: dict, seat: int) -> list[Problem]:
    if not 0 <= seat < state["n"]:
        return [Problem("docs/rules/han.md §2.1", msg("There is no player %(value)s: %(n)s players play.", value=seat + 1, n=state['n']))]
    turn = state["next"]["seat"]
    if seat != turn:
        return [Problem("docs/rules/han.md §2.1",
                        msg("It is not %(value)s's turn: it is %(value2)s's (clockwise from the start player).", value=player(seat), value2=player(turn)))]
    return []


def _in_play(state: dict) -> list[Problem]:
    return [] if state["next"]["step"] == "play" else [NOT_NOW]


def _check_placed(state: dict, move: Move) -> list[Problem]:
    return _in_play(state) or _turn_problem(state, move.data["seat"]) or check_place(state, move.data)


def _check_exchanged(state: dict, move: Move) -> list[Problem]:
    return _in_play(state) or _turn_problem(state, move.data["seat"])


def _check_pile_out(state: dict, move: Move) -> list[Problem]:
    """§4.1: a pile runs out twice at most, never twice without a card drawn between, and
    far from the count the app expects only when the table confirms it."""
    if _in_play(state):
        return _in_play(state)
    if state["deck_outs"] >= 2:
        return [PILE_DONE]
    reshuffle = state["deck"]["reshuffle"]
    if reshuffle and state["deck"]["drawn"] == reshuffle["drawn"]:
        return [Problem("docs/rules/han.md §4.1",
                        msg("The draw pile already ran out at #%(seq)s and no card has been drawn since: it cannot have run out again.", seq=reshuffle['seq']))]
    expected = expected_pile(state)
    if abs(expected) <= PILE_SLACK or move.data.get("confirmed"):
        return []
    counts = _pile_counts(state)
    return [Problem("docs/rules/han.md §4.1",
                    msgn("The app expects %(num)d card still in the draw pile (%(counts)s). If it really ran out, "
                         "confirm it (the confirmation is recorded with the event).",
                         "The app expects %(num)d cards still in the draw pile (%(counts)s). If it really ran out, "
                         "confirm it (the confirmation is recorded with the event).", expected, counts=counts)
                    if expected > 0 else
                    msgn("The app expected the draw pile to run out %(num)d card ago (%(counts)s). If it ran out "
                         "only now, confirm it.",
                         "The app expected the draw pile to run out %(num)d cards ago (%(counts)s). If it ran out "
                         "only now, confirm it.", -expected, counts=counts))]


def _pile_counts(state: dict) -> Text:
    """How the expected pile is counted, in words (§1.3)."""
    deck, n = state["deck"], state["n"]
    reshuffle = deck["reshuffle"]
    if reshuffle:
        return msg("%(pile)s reshuffled − %(drawn)s drawn", pile=reshuffle["pile"], drawn=deck["drawn"] - reshuffle["drawn"])
    return msg("%(deck)s − %(removed)s removed − %(hands)s in hands − %(face_up)s face up − %(drawn)s drawn",
               deck=sum(CARDS.values()), removed=deck["removed"], hands=3 * n, face_up=SIDES[state["side"]]["face_up"],
               drawn=deck["drawn"])


def _check_ended(state: dict, move: Move) -> list[Problem]:
    """§4.2: the game ends early when nobody can place a pagoda or an envoy; otherwise only
    with a confirmation and a reason recorded in the event."""
    if _in_play(state):
        return _in_play(state)
    able = {seat: kinds for seat in range(state["n"]) if (kinds := can_place(state, seat))}
    if not able or (move.data.get("confirmed") and (move.data.get("reason") or "").strip()):
        return []
    who = joined(", ", [joined("", [player(s), " (", joined(" / ", [PIECE_TEXT[k] for k in kinds]), ")"])
                        for s, kinds in able.items()])
    return [Problem("docs/rules/han.md §4.2",
                    msg("Still able to place: %(who)s. The game ends when the draw pile runs out a second time or when "
                        "nobody can place a pagoda or an envoy; otherwise only with a confirmation and a reason.", who=who))]


def _check_province_scored(state: dict, move: Move) -> list[Problem]:
    return _in_play(state) or _check_confirm_full(state, move.data["area"])


def _check_confirm_full(state: dict, area: str) -> list[Problem]:
    if area_of(state, area) is None:
        return [Problem("docs/rules/han.md §6", msg("There is no such province."))]
    if area in state["scored"]:
        return [Problem("docs/rules/han.md §3.2", msg("This province has already been scored."))]
    if capacity(state, area) is not None:
        return [Problem("docs/rules/han.md §3.2", msg("The profile knows the site count: scoring happens by itself when it is full."))]
    if not any(pagodas(state, area)):
        return [Problem("docs/rules/han.md §3.2", msg("There is no pagoda in this province."))]
    if open_fortresses(state, area):
        return [Problem("docs/rules/han.md §2.11", msg("A fortress here has no pagoda on it yet: the province is not full."))]
    return []


def _free_slots(known: Counter, unknown: int, used: Counter, key) -> int:
    """Free places of one kind for ``key`` when some places' positions are unknown: the
    known places of ``key`` not used, plus unknown places not used by any key's overflow."""
    overflow = sum(max(0, n - known.get(k, 0)) for k, n in used.items())
    return max(0, known.get(key, 0) - used.get(key, 0)) + max(0, unknown - overflow)


def free_border(state: dict, a: str, b: str) -> int:
    known = Counter(frozenset(p) for p in state["border_pairs"] if None not in p)
    unknown = sum(None in p for p in state["border_pairs"])
    used = Counter(frozenset((p["area"], p["with"])) for p in state["pieces"]
                   if p.get("site") == "border" and takes_site(p))
    return _free_slots(known, unknown, used, frozenset((a, b)))


def free_harbour(state: dict, area: str) -> int:
    known = Counter(a for a in state["harbour_areas"] if a is not None)
    unknown = sum(a is None for a in state["harbour_areas"])
    used = Counter(p["area"] for p in state["pieces"] if p.get("site") == "harbour" and takes_site(p))
    return _free_slots(known, unknown, used, area)


def harbours_in(state: dict, area: str) -> int:
    return sum(a == area for a in state["harbour_areas"])


def free_ordinary(state: dict, area: str) -> int | None:
    """Free ordinary (not border, not harbour) sites, or None when unknown."""
    a = area_of(state, area)
    if a["sites"] is None or any(h is None for h in state["harbour_areas"]):
        return None
    used = sum(1 for p in state["pieces"] if p["area"] == area and p.get("site") == "ordinary" and takes_site(p))
    return a["sites"] - harbours_in(state, area) - used


# ---- placement checks ------------------------------------------------------------

def costs(state: dict, piece: dict) -> list[tuple[str, ...]]:
    """The card sets that pay for one piece (docs/rules/han.md §2.3, §2.4, §2.7)."""
    colour = area_of(state, piece["area"])["colour"]
    if piece.get("site") == "border":
        other = area_of(state, piece["with"])["colour"]
        return [tuple(sorted((colour, other))), (colour, colour), (other, other)]
    return [(colour,)] + [(c, c) for c in COLOURS if c != colour]


def pays(options: list[list[tuple[str, ...]]], cards: Counter) -> bool:
    """Can the cards be split so that each piece gets one of its card sets, with no card left?"""
    if not options:
        return not +cards
    for option in options[0]:
        need = Counter(option)
        if all(cards[c] >= k for c, k in need.items()) and pays(options[1:], cards - need):
            return True
    return False


def check_place(state: dict, data: dict) -> list[Problem]:
    pieces, cards = data["pieces"], data["cards"]
    if len(cards) > MAX_CARDS or len(pieces) > MAX_PIECES or not pieces:
        return [Problem("docs/rules/han.md §2.3", msg("At most 3 cards and 1–2 pieces a turn (the 3-2-1 rule)."))]
    areas = {p["area"] for p in pieces}
    if len(areas) > 1:
        return [Problem("docs/rules/han.md §2.2", msg("All pieces of a turn go into one province."))]
    area = areas.pop()
    known = {a["id"] for a in state["areas"]}
    if area not in known or any(p.get("with") not in known | {None} for p in pieces):
        return [Problem("docs/rules/han.md §6", msg("There is no such province on this board."))]
    problems = _check_pieces(state, pieces, area) or _check_road_sites(state, pieces)
    if problems:
        return problems
    problems += _check_supply(state, data["seat"], pieces)
    problems += _check_empty(state, pieces) or (
        _check_sites(state, pieces, area) + _check_envoy_cap(state, pieces, area, data["seat"]))
    if not problems:
        problems += _check_cards(state, pieces, cards)
    return problems


def _check_pieces(state: dict, pieces: list[dict], area: str) -> list[Problem]:
    problems = []
    for p in pieces:
        if p["type"] == "fortress" and not state["fortress"]:
            problems.append(Problem("docs/rules/han.md §2.11", msg("Fortresses are only in the fortress variant.")))
        if p["type"] == "envoy" and p.get("site"):
            problems.append(Problem("docs/rules/han.md §2.6", msg("An envoy goes on the dragon seal, not on a pagoda site.")))
        if p["type"] != "envoy" and not p.get("site"):
            problems.append(Problem("docs/rules/han.md §2.9", msg("Name the kind of site.")))
        if p["type"] == "fortress" and p.get("site") == "fortress":
            problems.append(Problem("docs/rules/han.md §2.11", msg("A fortress goes on an empty site.")))
        if (p.get("site") == "border") != (p.get("with") is not None) or p.get("with") == area:
            problems.append(Problem("docs/rules/han.md §2.7", msg("A border site names its second province.")))
        if p.get("site") == "border" and state["side"] != 1:
            problems.append(NO_BORDER_SITES)
        if p.get("site") == "harbour" and state["side"] != 1:
            problems.append(NO_HARBOURS)
    return problems


def _check_road_sites(state: dict, pieces: list[dict]) -> list[Problem]:
    """With a road network, every new site is named, so chains can be computed (docs/rules/han.md §3.6)."""
    placing = [p for p in pieces if p["type"] != "envoy" and p.get("site") != "fortress"]
    if not state["road_sites"]:
        if any(p.get("at") for p in pieces):
            return [Problem("docs/rules/han.md §6", msg("This board has no road network: name no site."))]
        return []
    taken, seen = taken_sites(state), set()
    for p in placing:
        site = state["road_sites"].get(p.get("at") or "")
        if site is None or site["kind"] != p["site"] or \
                {site["area"], site["with"]} - {None} != {p["area"], p.get("with")} - {None}:
            return [Problem("docs/rules/han.md §2.9, §6", msg("Choose the pagoda site in the province (the road network needs it)."))]
        if p["at"] in taken or p["at"] in seen:
            return [Problem("docs/rules/han.md §2.9", msg("This pagoda site is taken."))]
        seen.add(p["at"])
    return []


def _check_supply(state: dict, seat: int, pieces: list[dict]) -> list[Problem]:
    left = supply(state, seat)
    wanted = Counter(p["type"] for p in pieces)
    return [Problem("docs/rules/han.md §2.10",
                  msg("Not enough %(text)ss left in your supply (%(value)s left).", text=PIECE_TEXT[kind], value=left[kind]))
            for kind, n in wanted.items() if n > left[kind]]


def _counts_in_province(piece: dict) -> bool:
    return piece["type"] != "fortress"


def _any_piece(piece: dict) -> bool:
    return True


def _check_empty(state: dict, pieces: list[dict]) -> list[Problem]:
    """§2.5: a province with neither pagoda nor envoy (a fortress alone leaves it so) takes
    one pagoda (or fortress) this turn. Games pinned to rules version 1 counted a lone
    fortress as a piece, and keep doing so, so a void never flags their recorded moves."""
    counts = _counts_in_province if state["rules_version"] >= 2 else _any_piece
    for area in {p["area"] for p in pieces} | {p["with"] for p in pieces if p.get("with")}:
        empty = not any(counts(p) and touches(p, area) for p in state["pieces"])
        here = [p for p in pieces if touches(p, area)]
        if empty and (len(here) > 1 or here[0]["type"] == "envoy"):
            name = place(area)
            fort = open_fortresses(state, area)
            lone = (msg(" (a fortress alone does not count)")
                    if fort else text("", ""))
            wanted = msg("%(count)s pieces", count=len(here)) if len(here) > 1 else msg("an envoy")
            return [Problem("docs/rules/han.md §2.5",
                            msg("%(name)s has no pagoda or envoy yet%(lone)s: it takes one pagoda (or fortress) this turn, not %(wanted)s.", name=name, lone=lone, wanted=wanted))]
    return []


def _check_sites(state: dict, pieces: list[dict], area: str) -> list[Problem]:
    problems = []
    on_fort = [p for p in pieces if p.get("site") == "fortress"]
    forts_now = open_fortresses(state, area) + sum(p["type"] == "fortress" for p in pieces)
    if len(on_fort) > forts_now:
        problems.append(Problem("docs/rules/han.md §2.11", msg("There is no open fortress here for a pagoda.")))
    taking = [p for p in pieces if p["type"] != "envoy" and p.get("site") != "fortress"]
    for target in {area} | {p["with"] for p in taking if p.get("with")}:
        here = [p for p in taking if touches(p, target)]
        if not here:
            continue
        cap = capacity(state, target)
        full = target in state["scored"] or (cap is not None and used_sites(state, target) + len(here) > cap)
        if full:
            problems.append(Problem("docs/rules/han.md §2.9",
                                  msg("%(value)s: every pagoda site is taken.", value=place(target))))
    kinds = Counter(p["site"] for p in taking)
    border = [p for p in taking if p["site"] == "border"]
    if border and free_border(state, area, border[0]["with"]) < len(border):
        problems.append(Problem("docs/rules/han.md §2.7", msg("There is no free border site on this border.")))
    if kinds["harbour"] and free_harbour(state, area) < kinds["harbour"]:
        problems.append(Problem("docs/rules/han.md §2.8", msg("There is no free harbour in this province.")))
    ordinary = free_ordinary(state, area)
    if kinds["ordinary"] and ordinary is not None and ordinary < kinds["ordinary"] and not problems:
        problems.append(Problem("docs/rules/han.md §2.9", msg("No ordinary pagoda site is free here.")))
    return problems


def _check_envoy_cap(state: dict, pieces: list[dict], area: str, seat: int) -> list[Problem]:
    new_envoys = sum(p["type"] == "envoy" for p in pieces)
    if not new_envoys:
        return []
    after = pagodas(state, area)
    after[seat] += sum(p["type"] == "pagoda" for p in pieces)
    cap = max(after)
    there = sum(envoys(state, area))
    if there + new_envoys > cap:
        return [Problem("docs/rules/han.md §2.6",
                      msg("%(value)s: at most %(cap)s envoys here (the most pagodas of one player), %(there)s already.", value=place(area), cap=cap, there=there))]
    return []


def _check_cards(state: dict, pieces: list[dict], cards: list[str]) -> list[Problem]:
    if state["fortress_rule"] == "together" and any(p["type"] == "fortress" for p in pieces):
        colour = area_of(state, pieces[0]["area"])["colour"]
        ok = [p["type"] for p in pieces] == ["fortress", "pagoda"] and pieces[1]["site"] == "fortress" \
            and cards == [colour, colour]
        return [] if ok else [Problem("docs/rules/han.md §2.11",
                                    msg("Fortress: two cards of the province's colour, the fortress and your pagoda on it."))]
    if pays([costs(state, p) for p in pieces], Counter(cards)):
        return []
    return [_not_paid(state, pieces, cards)]


def _not_paid(state: dict, pieces: list[dict], cards: list[str]) -> Problem:
    area = area_of(state, pieces[0]["area"])
    colour, name = COLOUR_TEXT[area["colour"]], place(area["id"])
    played = Counter(cards)
    cards = joined(", ", [msg("%(count)s× %(colour)s", count=k, colour=COLOUR_TEXT[c]) for c, k in played.items()])
    return Problem(
        "docs/rules/han.md §2.3–2.4",
        msgn("The cards do not pay for the pieces: %(cards)s for %(num)d piece in %(name)s (%(colour)s). "
             "Each piece needs one %(colour)s card, or a pair of a different colour.",
             "The cards do not pay for the pieces: %(cards)s for %(num)d pieces in %(name)s (%(colour)s). "
             "Each piece needs one %(colour)s card, or a pair of a different colour.",
             len(pieces), cards=cards, name=name, colour=colour))


# ---- end-of-game entries ------ --------------------------------------------------

def _final_only(state: dict) -> list[Problem]:
    if state["next"]["step"] != "final":
        return [Problem("docs/rules/han.md §3.3", msg("This is entered at the final scoring."))]
    return []


def _check_alliances(state: dict, move: Move) -> list[Problem]:
    d = move.data
    problems = []  # any time before the game is over: the profile keeps them (§3.5)
    ids = {a["id"] for a in state["areas"]}
    pairs = {frozenset(p) for n in range(1, ALLIANCES + 1) if (p := alliance_pair(state, n))}
    wanted = set(missing_alliances(state))
    for a in d["alliances"]:
        if a["n"] not in wanted:
            problems.append(Problem("docs/rules/han.md §3.5", msg("Alliance %(n)s is already known.", n=a['n'])))
        elif not set(a["areas"]) <= ids or a["areas"][0] == a["areas"][1]:
            problems.append(Problem("docs/rules/han.md §6", msg("An alliance joins two different provinces.")))
        elif frozenset(a["areas"]) in pairs:
            problems.append(Problem("docs/rules/han.md §6", msg("Another alliance already joins these two provinces.")))
        pairs.add(frozenset(a["areas"]))
    return problems


def _check_chains(state: dict, move: Move) -> list[Problem]:
    d = move.data
    problems = _final_only(state)
    per_seat = Counter()
    fortified_chains = Counter()
    for c in d["chains"]:
        if not 0 <= c["seat"] < state["n"]:
            return problems + [Problem("docs/rules/han.md §3.6", msg("There is no such player."))]
        if c["length"] < 4:
            problems.append(Problem("docs/rules/han.md §3.6", msg("A road chain has at least 4 pagodas.")))
        per_seat[c["seat"]] += c["length"]
        fortified_chains[c["seat"]] += c["fortified"]
    for seat, length in per_seat.items():
        if length > placed(state, seat)["pagoda"]:
            problems.append(Problem("docs/rules/han.md §3.6", msg("A pagoda counts in one chain only: more pagodas than on the board.")))
    for seat, count in fortified_chains.items():
        if count > 1 or (count and not _has_fortified(state, seat)):
            problems.append(Problem("docs/rules/han.md §3.7", msg("Only one chain, of the fortified pagoda's owner, can hold it.")))
    return problems


def _has_fortified(state: dict, seat: int) -> bool:
    return any(seat in fortified(state, a["id"]) for a in state["areas"])


def _check_tally(state: dict, move: Move) -> list[Problem]:
    d = move.data
    if state["next"]["step"] not in ("play", "final"):
        return [Problem("docs/rules/han.md §5", msg("The end position can no longer be entered."))]
    n = state["n"]
    ids = {a["id"] for a in state["areas"]}
    counts = [d["harbours"], d["border_pagodas"]] + [x for a in d["areas"].values() for x in a.values()]
    if set(d["areas"]) != ids or any(len(c) != n for c in counts):
        return [Problem("docs/rules/han.md §5", msg("Every province needs a count for every player."))]
    tally = {**d, "seq": 0}
    trial = {**state, "tally": tally, "pieces": []}
    problems = []
    for seat in range(n):
        left = supply({**trial, "pieces": []}, seat)
        if min(left.values()) < 0 or d["harbours"][seat] > sum(a["pagodas"][seat] for a in d["areas"].values()):
            problems.append(Problem("docs/rules/han.md §2.10", msg("Player %(value)s: more pieces than the supply (20 pagodas, 8 envoys).", value=seat + 1)))
    for area in state["areas"]:
        here = d["areas"][area["id"]]
        if sum(here["envoys"]) > max(here["pagodas"]):
            problems.append(Problem("docs/rules/han.md §2.6", msg("%(name)s: more envoys than the most pagodas of one player.", name=place(area["id"]))))
        recorded = pagodas(state, area["id"]), envoys(state, area["id"])
        if any(x < r for x, r in zip(here["pagodas"] + here["envoys"], recorded[0] + recorded[1])) or \
                (area["id"] in state["scored"] and here["pagodas"] != recorded[0]):
            problems.append(Problem("docs/rules/han.md §5", msg("%(name)s: fewer pieces than already recorded.", name=place(area["id"]))))
    problems += _check_tally_sites(state, d)
    if state["side"] != 1 and any(d["border_pagodas"]):
        problems.append(_none_on_this_side(NO_BORDER_SITES, sum(d["border_pagodas"]),
                                           msg("border pagodas")))
    if state["side"] != 1 and any(d["harbours"]):
        problems.append(_none_on_this_side(NO_HARBOURS, sum(d["harbours"]), msg("harbour pagodas")))
    for f in d["fortresses"]:
        if not state["fortress"] or f["area"] not in ids or not 0 <= f["seat"] < n \
                or d["areas"][f["area"]]["pagodas"][f["seat"]] < 1:
            problems.append(Problem("docs/rules/han.md §2.11", msg("A fortified pagoda exists only in the variant, as one of the player's pagodas.")))
    if state["side"] != 1 and any(f["site"] == "harbour" for f in d["fortresses"]):
        problems.append(_none_on_this_side(NO_HARBOURS, 1, msg("fortress on a harbour")))
    if state["side"] != 1 and any(f["site"] == "border" for f in d["fortresses"]):
        problems.append(_none_on_this_side(NO_BORDER_SITES, 1, msg("fortress on a border site")))
    if len({f["seat"] for f in d["fortresses"]}) != len(d["fortresses"]):
        problems.append(Problem("docs/rules/han.md §2.10", msg("Each player has one fortress.")))
    return problems


def _none_on_this_side(problem: Problem, given: int, what: dict) -> Problem:
    return Problem(problem.rule, msg("%(problem)s The end position gives %(given)s %(what)s.", problem=problem.text, given=given, what=what))


def _check_tally_sites(state: dict, d: dict) -> list[Problem]:
    """An end position holds no more pagodas than the board has sites (docs/rules/han.md §2.7–2.9):
    per province when the profile knows its capacity, harbours and border sites in all."""
    problems = []
    for area in state["areas"]:
        cap = capacity(state, area["id"])
        if cap is not None and sum(d["areas"][area["id"]]["pagodas"]) > cap:
            problems.append(Problem("docs/rules/han.md §2.9", msg("%(name)s: more pagodas than pagoda sites (%(cap)s).", name=place(area["id"]), cap=cap)))
    if state["side"] == 1 and sum(d["harbours"]) > len(state["harbour_areas"]):
        problems.append(Problem("docs/rules/han.md §2.8", msg("More harbour pagodas than harbours (%(count)s).", count=len(state['harbour_areas']))))
    if state["side"] == 1 and sum(d["border_pagodas"]) > len(state["border_pairs"]):
        problems.append(Problem("docs/rules/han.md §2.7", msg("More border pagodas than border sites (%(count)s).", count=len(state['border_pairs']))))
    return problems


CHECKS: dict[str, Callable[[dict, Move], list[Problem]]] = {
    "pieces-placed": _check_placed,
    "card-exchanged": _check_exchanged,
    "draw-pile-ran-out": _check_pile_out,
    "province-scored": _check_province_scored,
    "game-ended": _check_ended,
    "alliances-entered": _check_alliances,
    "road-chains-entered": _check_chains,
    "final-position-entered": _check_tally,
}


def check(state: dict, move: Move) -> list[Problem]:
    if state["next"]["step"] == "over":
        return [OVER]
    return CHECKS[move.type](state, move)
