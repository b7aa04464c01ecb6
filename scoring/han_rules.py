"""Han: the position derived from the state, province/harbour/alliance scoring and the
placement checks. Pure functions over the JSON-shaped state built in ``scoring/han.py``.

Rule references "Han §n.m" are the sections of docs/rules/han.md, which cite the seed.
"""
from __future__ import annotations

from collections import Counter

from scoring.base import Problem, ScorePart, text
from scoring.han_board import COLOUR_TEXT, COLOURS, area_name

SUPPLY = {"pagoda": 20, "envoy": 8, "fortress": 1}  # GAMES.md Han: components per player
MAX_CARDS, MAX_PIECES = 3, 2
PIECE_TEXT = {"pagoda": text("pagoda", "pagoda"), "envoy": text("követ", "envoy"),
              "fortress": text("erőd", "fortress")}


# ---- the position ------------------------------------------------------------------

def touches(piece: dict, area: str) -> bool:
    return piece["area"] == area or piece.get("with") == area


def pagodas(state: dict, area: str) -> list[int]:
    """Pagodas per seat in ``area``; a border pagoda counts in both its areas (Han §2.7)."""
    if state["tally"]:
        return list(state["tally"]["areas"][area]["pagodas"])
    counts = [0] * state["n"]
    for p in state["pieces"]:
        if p["type"] == "pagoda" and touches(p, area):
            counts[p["seat"]] += 1
    return counts


def envoys(state: dict, area: str) -> list[int]:
    if state["tally"]:
        return list(state["tally"]["areas"][area]["envoys"])
    counts = [0] * state["n"]
    for p in state["pieces"]:
        if p["type"] == "envoy" and p["area"] == area:
            counts[p["seat"]] += 1
    return counts


def fortified(state: dict, area: str | None = None, harbour: bool = False) -> set[int]:
    """Seats whose pagoda on a fortress counts in ``area`` (or is a harbour pagoda)."""
    if state["tally"]:
        forts = state["tally"]["fortresses"]
    else:
        forts = [p for p in state["pieces"] if p["type"] == "pagoda" and p["fortified"]]
    if harbour:
        return {f["seat"] for f in forts if f["site"] == "harbour"}
    return {f["seat"] for f in forts if touches(f, area)}


def harbour_pagodas(state: dict) -> list[int]:
    if state["tally"]:
        return list(state["tally"]["harbours"])
    counts = [0] * state["n"]
    for p in state["pieces"]:
        if p["type"] == "pagoda" and p["site"] == "harbour":
            counts[p["seat"]] += 1
    return counts


def placed(state: dict, seat: int) -> dict[str, int]:
    """Pieces a player has on the board (a border pagoda once)."""
    if state["tally"]:
        t = state["tally"]
        both = sum(a["pagodas"][seat] for a in t["areas"].values())
        return {"pagoda": both - t["border_pagodas"][seat],
                "envoy": sum(a["envoys"][seat] for a in t["areas"].values()),
                "fortress": sum(f["seat"] == seat for f in t["fortresses"])}
    counts = Counter(p["type"] for p in state["pieces"] if p["seat"] == seat)
    return {kind: counts.get(kind, 0) for kind in SUPPLY}


def supply(state: dict, seat: int) -> dict[str, int]:
    limits = dict(SUPPLY, fortress=1 if state["fortress"] else 0)
    used = placed(state, seat)
    return {kind: limits[kind] - used[kind] for kind in SUPPLY}


def open_fortresses(state: dict, area: str) -> int:
    """Fortresses not yet topped on a site of ``area`` (a border site belongs to both)."""
    return sum(1 for p in state["pieces"]
               if p["type"] == "fortress" and not p["topped"] and touches(p, area))


def takes_site(piece: dict) -> bool:
    """A fortress or a pagoda beside fortresses takes a site; a pagoda on a fortress takes
    none of its own (it stands on the fortress's site, whose kind it copies) and an envoy
    stands on the dragon seal (Han §2.9, §2.11)."""
    return piece["type"] == "fortress" or (piece["type"] == "pagoda" and not piece["fortified"])


def used_sites(state: dict, area: str) -> int:
    """Sites taken in ``area``."""
    return sum(1 for p in state["pieces"] if touches(p, area) and takes_site(p))


def area_of(state: dict, area_id: str) -> dict | None:
    return next((a for a in state["areas"] if a["id"] == area_id), None)


def capacity(state: dict, area_id: str) -> int | None:
    """Pagoda sites in an area, border sites included; None while the profile does not know."""
    area = area_of(state, area_id)
    if area["sites"] is None or any(None in pair for pair in state["border_pairs"]):
        return None
    return area["sites"] + sum(area_id in pair for pair in state["border_pairs"])


def is_full(state: dict, area_id: str) -> bool:
    cap = capacity(state, area_id)
    return cap is not None and used_sites(state, area_id) >= cap and open_fortresses(state, area_id) == 0


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


# ---- scoring ---------------------------------------------------------------------

def rank_points(counts: list[int]) -> list[int]:
    """Pagoda scoring (Han §3.1): rank 1 scores every pagoda there, rank k the count of
    rank k−1; tied players share a rank's points and the next player takes the next rank
    (seed 001 examples 4 and 5). Players without a pagoda score nothing."""
    levels = sorted({c for c in counts if c > 0}, reverse=True)
    worth = {level: (sum(counts) if k == 0 else levels[k - 1]) for k, level in enumerate(levels)}
    return [worth.get(c, 0) for c in counts]


def majority(counts: list[int]) -> set[int]:
    """Envoy majority (Han §3.5): the most envoys there, ties included, at least one."""
    top = max(counts, default=0)
    return {s for s, c in enumerate(counts) if c == top and top > 0}


def _double(points: list[int], seats: set[int]) -> list[int]:
    return [p * 2 if s in seats else p for s, p in enumerate(points)]


def _seqs(state: dict, test) -> tuple[int, ...]:
    seqs = {p["seq"] for p in state["pieces"] if test(p)}
    if state["tally"]:
        seqs.add(state["tally"]["seq"])
    return tuple(sorted(seqs))


def _add(parts: dict, category: str, points: list[int], events: tuple, label: dict, doubled: set):
    for seat, pts in enumerate(points):
        if pts:
            mark = text(" (erőd: ×2)", " (fortress: ×2)") if seat in doubled else text("", "")
            parts[seat].append(ScorePart(category, pts, events,
                                         text(label["hu"] + mark["hu"], label["en"] + mark["en"])))


def province_parts(state: dict, parts: dict, area: str) -> None:
    forts = fortified(state, area)
    points = _double(rank_points(pagodas(state, area)), forts)
    events = _seqs(state, lambda p: p["type"] in ("pagoda", "fortress") and touches(p, area))
    scored = state["scored"].get(area)
    events = tuple(sorted(set(events) | ({scored} if scored else set())))
    name = area_name(state, area)
    _add(parts, "provinces", points, events, text(f"{name} tartomány", f"Province {name}"), forts)


def harbour_parts(state: dict, parts: dict) -> None:
    forts = fortified(state, harbour=True)
    points = _double(rank_points(harbour_pagodas(state)), forts)
    events = _seqs(state, lambda p: p.get("site") == "harbour")
    _add(parts, "harbours", points, events, text("Kikötők", "Harbours"), forts)


def alliance_pair(state: dict, n: int) -> list | None:
    pair = state["alliances"][n - 1]
    if None in pair:
        pair = state["entered_alliances"].get(str(n), pair)
    return None if None in pair else pair


def alliance_result(state: dict, n: int) -> dict | None:
    pair = alliance_pair(state, n)
    if pair is None:
        return None
    a, b = (envoys(state, x) for x in pair)
    winners = sorted(majority(a) & majority(b))
    return {"n": n, "areas": pair, "winners": winners, "points": sum(a) + sum(b) if winners else 0}


def alliance_parts(state: dict, parts: dict) -> None:
    for n in range(1, len(state["alliances"]) + 1):
        result = alliance_result(state, n)
        if not result or not result["winners"]:
            continue
        x, y = result["areas"]
        events = _seqs(state, lambda p: p["type"] == "envoy" and p["area"] in (x, y))
        names = f"{area_name(state, x)}–{area_name(state, y)}"
        points = [result["points"] if s in result["winners"] else 0 for s in range(state["n"])]
        _add(parts, "alliances", points, events, text(f"{n}. szövetség ({names})", f"Alliance {n} ({names})"), set())


def roads_known(state: dict) -> bool:
    return bool(state["roads"]) and not state["tally"]


def taken_sites(state: dict) -> set[str]:
    return {p["at"] for p in state["pieces"] if p.get("at")}


def free_road_sites(state: dict) -> list[dict]:
    if not state["road_sites"]:
        return []
    taken = taken_sites(state)
    return [{"id": sid, **site} for sid, site in state["road_sites"].items() if sid not in taken]


def computed_chains(state: dict) -> list[dict]:
    """Han §3.6 from the road network: maximal runs of one player's pagodas along a road;
    a pagoda counts in one chain only, so the longest run is taken first, then the rest
    are found again without its pagodas."""
    owner = {p["at"]: p for p in state["pieces"] if p["type"] == "pagoda" and p.get("at")}
    used: set[str] = set()
    chains = []
    while True:
        best: list[str] = []
        for road in state["roads"]:
            run: list[str] = []
            for site in road + [None]:
                here = owner.get(site) if site not in used else None
                if here and run and owner[run[-1]]["seat"] == here["seat"]:
                    run.append(site)
                    continue
                if len(run) >= 4 and len(run) > len(best):
                    best = run
                run = [site] if here else []
        if not best:
            return chains
        used |= set(best)
        chains.append({"seat": owner[best[0]]["seat"], "length": len(best), "sites": best,
                       "fortified": any(owner[x]["fortified"] for x in best),
                       "events": tuple(sorted({owner[x]["seq"] for x in best}))})


def chain_parts(state: dict, parts: dict) -> None:
    if roads_known(state):
        chains = computed_chains(state)
    elif state["chains"]:
        chains = [{**c, "events": (state["chains"]["seq"],)} for c in state["chains"]["chains"]]
    else:
        return
    for chain in chains:
        points = [0] * state["n"]
        points[chain["seat"]] = chain["length"] * (2 if chain["fortified"] else 1)
        label = text(f"Út: {chain['length']} pagoda egy sorban", f"Road: chain of {chain['length']} pagodas")
        _add(parts, "roads", points, chain["events"], label, {chain["seat"]} if chain["fortified"] else set())


def score_parts(state: dict) -> dict[int, list[ScorePart]]:
    parts: dict[int, list[ScorePart]] = {s: [] for s in range(state["n"])}
    final = state["phase"] in ("final", "over")
    for area in state["areas"]:
        if final or area["id"] in state["scored"]:
            province_parts(state, parts, area["id"])
    if final:
        if state["side"] == 1:
            harbour_parts(state, parts)
        alliance_parts(state, parts)
        chain_parts(state, parts)
    return parts


def totals(state: dict) -> list[int]:
    parts = score_parts(state)
    return [sum(p.points for p in parts[s]) for s in range(state["n"])]


# ---- placement checks ------------------------------------------------------------

def _rule(ref: str, hu: str, en: str) -> Problem:
    return Problem(ref, hu, en)


def costs(state: dict, piece: dict) -> list[tuple[str, ...]]:
    """The card sets that pay for one piece (Han §2.3, §2.4, §2.7)."""
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
        return [_rule("Han §2.3, seed 001 A)", "Egy körben legfeljebb 3 kártya és 1–2 bábu (3-2-1 szabály).",
                      "At most 3 cards and 1–2 pieces a turn (the 3-2-1 rule).")]
    areas = {p["area"] for p in pieces}
    if len(areas) > 1:
        return [_rule("Han §2.2, seed 001 A)", "Egy körben csak egy tartományra lehet lerakni.",
                      "All pieces of a turn go into one province.")]
    area = areas.pop()
    known = {a["id"] for a in state["areas"]}
    if area not in known or any(p.get("with") not in known | {None} for p in pieces):
        return [_rule("Han §6", "Nincs ilyen tartomány a táblán.", "There is no such province on this board.")]
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
            problems.append(_rule("Han §2.11, seed 000", "Erőd csak az erődváltozatban van.",
                                  "Fortresses are only in the fortress variant."))
        if p["type"] == "envoy" and p.get("site"):
            problems.append(_rule("Han §2.6, seed 001 A)", "A követ a sárkánypecsétre kerül, nem pagodahelyre.",
                                  "An envoy goes on the dragon seal, not on a pagoda site."))
        if p["type"] != "envoy" and not p.get("site"):
            problems.append(_rule("Han §2.9, seed 001 A)", "Add meg a pagodahely fajtáját.", "Name the kind of site."))
        if p["type"] == "fortress" and p.get("site") == "fortress":
            problems.append(_rule("Han §2.11, seed 000", "Erőd csak üres pagodahelyre kerülhet.",
                                  "A fortress goes on an empty site."))
        if (p.get("site") == "border") != (p.get("with") is not None) or p.get("with") == area:
            problems.append(_rule("Han §2.7, seed 001 A)", "Határhelynél add meg a másik tartományt is.",
                                  "A border site names its second province."))
        if p.get("site") in ("border", "harbour") and state["side"] != 1:
            problems.append(_rule("Han §2.7, GAMES.md Han", "Ezen az oldalon nincs határhely és kikötő.",
                                  "This side has no border sites or harbours."))
    return problems


def _check_road_sites(state: dict, pieces: list[dict]) -> list[Problem]:
    """With a road network, every new site is named, so chains can be computed (Han §3.6)."""
    placing = [p for p in pieces if p["type"] != "envoy" and p.get("site") != "fortress"]
    if not state["road_sites"]:
        if any(p.get("at") for p in pieces):
            return [_rule("Han §6", "Ennek a táblának nincs úthálózata: ne adj meg helyet.",
                          "This board has no road network: name no site.")]
        return []
    taken, seen = taken_sites(state), set()
    for p in placing:
        site = state["road_sites"].get(p.get("at") or "")
        if site is None or site["kind"] != p["site"] or \
                {site["area"], site["with"]} - {None} != {p["area"], p.get("with")} - {None}:
            return [_rule("Han §2.9, §6", "Válaszd ki a pagodahelyet a tartományban (az úthálózat miatt).",
                          "Choose the pagoda site in the province (the road network needs it).")]
        if p["at"] in taken or p["at"] in seen:
            return [_rule("Han §2.9, seed 001 A)", "Ez a pagodahely foglalt.", "This pagoda site is taken.")]
        seen.add(p["at"])
    return []


def _check_supply(state: dict, seat: int, pieces: list[dict]) -> list[Problem]:
    left = supply(state, seat)
    wanted = Counter(p["type"] for p in pieces)
    return [_rule("Han §2.10, seed 001 A)",
                  f"Nincs elég {PIECE_TEXT[kind]['hu']} a készletedben (maradt: {left[kind]}).",
                  f"Not enough {PIECE_TEXT[kind]['en']}s left in your supply ({left[kind]} left).")
            for kind, n in wanted.items() if n > left[kind]]


def _check_empty(state: dict, pieces: list[dict]) -> list[Problem]:
    for area in {p["area"] for p in pieces} | {p["with"] for p in pieces if p.get("with")}:
        empty = not any(touches(p, area) for p in state["pieces"])
        here = [p for p in pieces if touches(p, area)]
        if empty and (len(here) > 1 or here[0]["type"] == "envoy"):
            name = area_name(state, area)
            return [_rule("Han §2.5, seed 001 A)",
                          f"{name} üres: ide egyetlen pagoda (erőd) rakható.",
                          f"{name} is empty: it takes exactly one pagoda (or fortress).")]
    return []


def _check_sites(state: dict, pieces: list[dict], area: str) -> list[Problem]:
    problems = []
    on_fort = [p for p in pieces if p.get("site") == "fortress"]
    forts_now = open_fortresses(state, area) + sum(p["type"] == "fortress" for p in pieces)
    if len(on_fort) > forts_now:
        problems.append(_rule("Han §2.11, seed 000", "Itt nincs szabad erőd, amelyre pagoda kerülhetne.",
                              "There is no open fortress here for a pagoda."))
    taking = [p for p in pieces if p["type"] != "envoy" and p.get("site") != "fortress"]
    for target in {area} | {p["with"] for p in taking if p.get("with")}:
        here = [p for p in taking if touches(p, target)]
        if not here:
            continue
        cap = capacity(state, target)
        full = target in state["scored"] or (cap is not None and used_sites(state, target) + len(here) > cap)
        if full:
            problems.append(_rule("Han §2.9, seed 001 A)",
                                  f"{area_name(state, target)}: minden pagodahely foglalt.",
                                  f"{area_name(state, target)}: every pagoda site is taken."))
    kinds = Counter(p["site"] for p in taking)
    border = [p for p in taking if p["site"] == "border"]
    if border and free_border(state, area, border[0]["with"]) < len(border):
        problems.append(_rule("Han §2.7, GAMES.md Han", "Ezen a határon nincs szabad határhely.",
                              "There is no free border site on this border."))
    if kinds["harbour"] and free_harbour(state, area) < kinds["harbour"]:
        problems.append(_rule("Han §2.8, seed 001 A)", "Ebben a tartományban nincs szabad kikötő.",
                              "There is no free harbour in this province."))
    ordinary = free_ordinary(state, area)
    if kinds["ordinary"] and ordinary is not None and ordinary < kinds["ordinary"] and not problems:
        problems.append(_rule("Han §2.9, seed 001 A)", "Nincs több szabad közönséges pagodahely itt.",
                              "No ordinary pagoda site is free here."))
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
        return [_rule("Han §2.6, seed 001 A)",
                      f"{area_name(state, area)}: legfeljebb {cap} követ lehet itt (a legtöbb pagoda egy játékosnál), már {there} van.",
                      f"{area_name(state, area)}: at most {cap} envoys here (the most pagodas of one player), {there} already.")]
    return []


def _check_cards(state: dict, pieces: list[dict], cards: list[str]) -> list[Problem]:
    if state["fortress_rule"] == "together" and any(p["type"] == "fortress" for p in pieces):
        colour = area_of(state, pieces[0]["area"])["colour"]
        ok = [p["type"] for p in pieces] == ["fortress", "pagoda"] and pieces[1]["site"] == "fortress" \
            and cards == [colour, colour]
        return [] if ok else [_rule("Han §2.11, GAMES.md Han (option)",
                                    "Erőd: két, a tartomány színének megfelelő kártya, az erőd és rajta a pagodád.",
                                    "Fortress: two cards of the province's colour, the fortress and your pagoda on it.")]
    if pays([costs(state, p) for p in pieces], Counter(cards)):
        return []
    colour = COLOUR_TEXT[area_of(state, pieces[0]["area"])["colour"]]
    return [_rule("Han §2.3–2.4, seed 001 A)",
                  f"A kártyák nem fizetik ki a bábukat: bábunként egy {colour['hu']} kártya, vagy két egyforma "
                  "más színű (dzsóker); határhely: a két tartomány 1-1 kártyája vagy 2 az egyikéből. Minden "
                  "kijátszott kártya egy bábut fizet.",
                  f"The cards do not pay for the pieces: one {colour['en']} card per piece, or a pair of one "
                  "other colour (joker); a border site: one card of each of its provinces or two of one. "
                  "Every card played pays for a piece.")]
