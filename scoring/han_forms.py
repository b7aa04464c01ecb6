"""Han: phone forms to events, the end-of-game entries (alliances, road chains, the
final tally) and their checks, and the words of the move log."""
from __future__ import annotations

import json
from collections import Counter

from scoring import han_rules as rules
from scoring.base import FormError, Problem, text
from scoring.forms import form_int
from scoring.han_board import COLOUR_TEXT, COLOURS

MAX_CHAIN_ROWS = 12
FORM = "form"


def _fail(hu: str, en: str):
    raise FormError([Problem(FORM, hu, en)])


# ---- set-up ----------------------------------------------------------------------

def parse_options(form) -> dict:
    try:
        pinned = json.loads(form.get("opt_board") or "null")
    except ValueError:
        pinned = None
    if not isinstance(pinned, dict):
        _fail("Válassz tábla-profilt.", "Choose a board profile.")
    removed = (form.get("opt_removed_cards") or "").strip()
    return {"board": pinned,
            "start_player": form_int(form, "opt_start_player", text("Kezdőjátékos", "Start player")),
            "fortress": form.get("opt_fortress") in ("1", "on"),
            "fortress_rule": "together" if form.get("opt_fortress_rule") == "together" else "hu",
            "removed_cards": form_int(form, "opt_removed_cards", text("Kidobott kártyák", "Cards removed"))
            if removed else -1,
            "end_all_placed": form.get("opt_end_all_placed") in ("1", "on")}


# ---- moves -----------------------------------------------------------------------

def parse_form(state: dict, form) -> tuple[str, dict]:
    action = form.get("action", "")
    if action == "pieces-placed":
        return action, _placement(state, form)
    if action == "card-exchanged":
        return action, {"seat": _seat(state, form)}
    if action in ("draw-pile-ran-out", "game-ended"):
        return action, {}
    if action == "province-scored":
        return action, {"area": (form.get("score_area") or "").strip()[:24]}
    if action == "alliances-entered":
        return action, _alliances(state, form)
    if action == "road-chains-entered":
        return action, _chains(form)
    if action == "final-position-entered":
        return action, _tally(state, form)
    _fail("Ismeretlen művelet.", "Unknown action.")


def _seat(state: dict, form) -> int:
    """The seat named, or "turn": whoever's turn it is when the move arrives."""
    if (form.get("seat") or "turn") == "turn":
        return state["turn"]
    return form_int(form, "seat", text("Játékos", "Player"))


def _placement(state: dict, form) -> dict:
    seat = _seat(state, form)
    area = (form.get("area") or "").strip()[:24]
    if not area:
        _fail("Válaszd ki a tartományt.", "Choose the province.")
    cards = [form.get(f"card{i}") for i in (1, 2, 3) if form.get(f"card{i}")]
    if any(c not in COLOURS for c in cards):
        _fail("Ismeretlen kártyaszín.", "Unknown card colour.")
    if not cards:
        _fail("Add meg a kijátszott kártyákat.", "Enter the cards played.")
    pieces = []
    for i in (1, 2):
        kind = form.get(f"piece{i}") or ""
        if not kind:
            continue
        if kind not in ("pagoda", "envoy", "fortress"):
            _fail("Ismeretlen bábu.", "Unknown piece.")
        piece = {"type": kind, "area": area}
        if kind != "envoy":
            site = form.get(f"site{i}") or "ordinary"
            if site.startswith("at:"):
                piece.update(_at(state, area, site[3:][:30]))
            elif site.startswith("border:"):
                piece["site"], piece["with"] = "border", site[7:][:24]
            elif site in ("ordinary", "harbour", "fortress"):
                piece["site"] = site
            else:
                _fail("Ismeretlen pagodahely.", "Unknown kind of site.")
        pieces.append(piece)
    if not pieces:
        _fail("Válassz legalább egy bábut.", "Choose at least one piece.")
    return {"seat": seat, "cards": cards, "pieces": pieces}


def _at(state: dict, area: str, site_id: str) -> dict:
    """A named site of the road network: its kind and, for a border site, the other area."""
    site = (state.get("road_sites") or {}).get(site_id)
    if site is None:
        _fail("Ismeretlen pagodahely.", "Unknown pagoda site.")
    piece = {"site": site["kind"], "at": site_id}
    if site["kind"] == "border":
        piece["with"] = site["with"] if site["area"] == area else site["area"]
    return piece


def _pick(form, name) -> str | None:
    value = (form.get(name) or "").strip()
    return value[:24] or None


def _alliances(state: dict, form) -> dict:
    entered = []
    for n in missing_alliances(state):
        pair = [_pick(form, f"al_{n}_a"), _pick(form, f"al_{n}_b")]
        if None not in pair:
            entered.append({"n": n, "areas": pair})
    if not entered:
        _fail("Adj meg legalább egy szövetséget (két tartományt).", "Enter at least one alliance (two provinces).")
    return {"alliances": entered}


def _chains(form) -> dict:
    chains = []
    for i in range(MAX_CHAIN_ROWS):
        if not (form.get(f"chain_len_{i}") or "").strip():
            continue
        chains.append({"seat": form_int(form, f"chain_seat_{i}", text("Játékos", "Player")),
                       "length": form_int(form, f"chain_len_{i}", text("Hossz", "Length")),
                       "fortified": form.get(f"chain_fort_{i}") in ("1", "on")})
    return {"chains": chains}


def _count(form, name: str) -> int:
    raw = (form.get(name) or "").strip()
    return form_int(form, name, text("Darabszám", "Count")) if raw else 0


def _tally(state: dict, form) -> dict:
    n = state["n"]
    areas = {a["id"]: {"pagodas": [_count(form, f"p_{a['id']}_{s}") for s in range(n)],
                       "envoys": [_count(form, f"e_{a['id']}_{s}") for s in range(n)]}
             for a in state["areas"]}
    fortresses = []
    for s in range(n):
        where = _pick(form, f"fort_{s}")
        if where:
            site = form.get(f"fort_site_{s}") or "ordinary"
            fort = {"seat": s, "area": where, "site": site if site in ("ordinary", "harbour") else "ordinary"}
            if site.startswith("border:"):
                fort.update(site="border", **{"with": site[7:][:24]})
            fortresses.append(fort)
    return {"areas": areas, "harbours": [_count(form, f"harbour_{s}") for s in range(n)],
            "border_pagodas": [_count(form, f"border_{s}") for s in range(n)], "fortresses": fortresses}


# ---- end-of-game entries: checks --------------------------------------------------

def missing_alliances(state: dict) -> list[int]:
    return [n for n in range(1, len(state["alliances"]) + 1) if rules.alliance_pair(state, n) is None]


def _final_only(state: dict) -> list[Problem]:
    if state["phase"] != "final":
        return [Problem("Han §3.3", "Ezt a végső értékeléskor kell megadni.", "This is entered at the final scoring.")]
    return []


def check_alliances(state: dict, d: dict) -> list[Problem]:
    problems = _final_only(state)
    ids = {a["id"] for a in state["areas"]}
    pairs = {frozenset(p) for n in range(1, 16) if (p := rules.alliance_pair(state, n))}
    wanted = set(missing_alliances(state))
    for a in d["alliances"]:
        if a["n"] not in wanted:
            problems.append(Problem("Han §3.5", f"A(z) {a['n']}. szövetség már ismert.", f"Alliance {a['n']} is already known."))
        elif not set(a["areas"]) <= ids or a["areas"][0] == a["areas"][1]:
            problems.append(Problem("Han §6", "A szövetség két különböző tartományt köt össze.",
                                    "An alliance joins two different provinces."))
        elif frozenset(a["areas"]) in pairs:
            problems.append(Problem("Han §6", "Ezt a két tartományt már egy másik szövetség köti össze.",
                                    "Another alliance already joins these two provinces."))
        pairs.add(frozenset(a["areas"]))
    return problems


def check_chains(state: dict, d: dict) -> list[Problem]:
    problems = _final_only(state)
    per_seat = Counter()
    fortified = Counter()
    for c in d["chains"]:
        if not 0 <= c["seat"] < state["n"]:
            return problems + [Problem("Han §3.6", "Nincs ilyen játékos.", "There is no such player.")]
        if c["length"] < 4:
            problems.append(Problem("Han §3.6, seed 000 3)", "Pagodasor legalább 4 pagodából áll.",
                                    "A road chain has at least 4 pagodas."))
        per_seat[c["seat"]] += c["length"]
        fortified[c["seat"]] += c["fortified"]
    for seat, length in per_seat.items():
        if length > rules.placed(state, seat)["pagoda"]:
            problems.append(Problem("Han §3.6, seed 000 3)", "Egy pagoda csak egy sorban számít: több pagoda, mint a táblán.",
                                    "A pagoda counts in one chain only: more pagodas than on the board."))
    for seat, count in fortified.items():
        if count > 1 or (count and not _has_fortified(state, seat)):
            problems.append(Problem("Han §3.7, seed 000", "Erődített sor csak az erődített pagoda gazdájáé, és csak egy.",
                                    "Only one chain, of the fortified pagoda's owner, can hold it."))
    return problems


def _has_fortified(state: dict, seat: int) -> bool:
    return any(seat in rules.fortified(state, a["id"]) for a in state["areas"])


def check_tally(state: dict, d: dict) -> list[Problem]:
    if state["phase"] not in ("play", "final"):
        return [Problem("Han §5", "A végállást már nem lehet megadni.", "The end position can no longer be entered.")]
    n = state["n"]
    ids = {a["id"] for a in state["areas"]}
    counts = [d["harbours"], d["border_pagodas"]] + [x for a in d["areas"].values() for x in a.values()]
    if set(d["areas"]) != ids or any(len(c) != n for c in counts):
        return [Problem("Han §5", "Minden tartományhoz minden játékos darabszáma kell.",
                        "Every province needs a count for every player.")]
    tally = {**d, "seq": 0}
    trial = {**state, "tally": tally, "pieces": []}
    problems = []
    for seat in range(n):
        left = rules.supply({**trial, "pieces": []}, seat)
        if min(left.values()) < 0 or d["harbours"][seat] > sum(a["pagodas"][seat] for a in d["areas"].values()):
            problems.append(Problem("Han §2.10", f"{seat + 1}. játékos: több bábu, mint a készlete (20 pagoda, 8 követ).",
                                    f"Player {seat + 1}: more pieces than the supply (20 pagodas, 8 envoys)."))
    for area in state["areas"]:
        here = d["areas"][area["id"]]
        if sum(here["envoys"]) > max(here["pagodas"]):
            problems.append(Problem("Han §2.6", f"{area['name']}: több követ, mint a legtöbb pagoda egy játékosnál.",
                                    f"{area['name']}: more envoys than the most pagodas of one player."))
        recorded = rules.pagodas(state, area["id"]), rules.envoys(state, area["id"])
        if any(x < r for x, r in zip(here["pagodas"] + here["envoys"], recorded[0] + recorded[1])) or \
                (area["id"] in state["scored"] and here["pagodas"] != recorded[0]):
            problems.append(Problem("Han §5", f"{area['name']}: kevesebb bábu, mint ami már rögzítve van.",
                                    f"{area['name']}: fewer pieces than already recorded."))
    problems += _check_tally_sites(state, d)
    if state["side"] != 1 and (any(d["harbours"]) or any(d["border_pagodas"])):
        problems.append(Problem("Han §2.7", "Ezen az oldalon nincs kikötő és határhely.", "This side has no harbours or border sites."))
    for f in d["fortresses"]:
        if not state["fortress"] or f["area"] not in ids or not 0 <= f["seat"] < n \
                or d["areas"][f["area"]]["pagodas"][f["seat"]] < 1:
            problems.append(Problem("Han §2.11", "Erődített pagoda csak az erődváltozatban, a játékos saját pagodájaként.",
                                    "A fortified pagoda exists only in the variant, as one of the player's pagodas."))
    if len({f["seat"] for f in d["fortresses"]}) != len(d["fortresses"]):
        problems.append(Problem("Han §2.10", "Játékosonként egy erőd van.", "Each player has one fortress."))
    return problems


def _check_tally_sites(state: dict, d: dict) -> list[Problem]:
    """An end position holds no more pagodas than the board has sites (Han §2.7–2.9):
    per province when the profile knows its capacity, harbours and border sites in all."""
    problems = []
    for area in state["areas"]:
        cap = rules.capacity(state, area["id"])
        if cap is not None and sum(d["areas"][area["id"]]["pagodas"]) > cap:
            problems.append(Problem("Han §2.9", f"{area['name']}: több pagoda, mint pagodahely ({cap}).",
                                    f"{area['name']}: more pagodas than pagoda sites ({cap})."))
    if state["side"] == 1 and sum(d["harbours"]) > len(state["harbour_areas"]):
        problems.append(Problem("Han §2.8", f"Több kikötői pagoda, mint kikötő ({len(state['harbour_areas'])}).",
                                f"More harbour pagodas than harbours ({len(state['harbour_areas'])})."))
    if state["side"] == 1 and sum(d["border_pagodas"]) > len(state["border_pairs"]):
        problems.append(Problem("Han §2.7", f"Több határpagoda, mint határhely ({len(state['border_pairs'])}).",
                                f"More border pagodas than border sites ({len(state['border_pairs'])})."))
    return problems


# ---- the move log ------------------------------------------------------------------

def _cards_text(cards: list[str]) -> dict:
    counts = Counter(cards)
    hu = ", ".join(f"{k}× {COLOUR_TEXT[c]['hu']}" if k > 1 else COLOUR_TEXT[c]["hu"] for c, k in counts.items())
    en = ", ".join(f"{k}× {COLOUR_TEXT[c]['en']}" if k > 1 else COLOUR_TEXT[c]["en"] for c, k in counts.items())
    return text(hu, en)


def _piece_text(p: dict, area) -> dict:
    name = rules.PIECE_TEXT[p["type"]]
    site = p.get("site")
    extra = {"border": text(f" (határ: {area(p.get('with'))})", f" (border with {area(p.get('with'))})"),
             "harbour": text(" (kikötő)", " (harbour)"), "fortress": text(" (erődre)", " (on a fortress)")}.get(site, text("", ""))
    at = f" @{p['at']}" if p.get("at") else ""
    return text(name["hu"] + extra["hu"] + at, name["en"] + extra["en"] + at)


def describe_placement(d: dict, who: str, area_name) -> dict:
    pieces = [_piece_text(p, area_name) for p in d["pieces"]]
    area = area_name(d["pieces"][0]["area"]) if d["pieces"] else "?"
    cards = _cards_text(d["cards"])
    return text(f"{who}: {' + '.join(p['hu'] for p in pieces)} → {area} ({cards['hu']})",
                f"{who}: {' + '.join(p['en'] for p in pieces)} → {area} ({cards['en']})")
