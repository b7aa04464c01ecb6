"""Han: what the position is worth. The position read from the folded pieces (pagodas,
envoys, sites, supplies), the province, harbour, alliance and road scoring, the end and
the tie-break. Pure functions over the JSON-shaped state of ``scoring/han/setup.py``;
"§n" is a section of docs/rules/han.md.
"""
from __future__ import annotations

from collections import Counter

from scoring.base import ScorePart, place, text
from scoring.han.data import ALLIANCES, SUPPLY
from scoring.i18n import joined
from scoring.i18n import msg


# ---- the position ------------------------------------------------------------------

def touches(piece: dict, area: str) -> bool:
    return piece["area"] == area or piece.get("with") == area


def pagodas(state: dict, area: str) -> list[int]:
    """Pagodas per seat in ``area``; a border pagoda counts in both its areas (§2.7)."""
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
    stands on the dragon seal (§2.9, §2.11)."""
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


def expected_pile(state: dict) -> int:
    """The cards the app expects in the draw pile (§1.3, §4.1): the first pile less every card
    drawn; after the reshuffle, the discards reshuffled less the cards drawn since."""
    deck = state["deck"]
    if deck["reshuffle"] is None:
        return deck["size"] - deck["drawn"]
    return deck["reshuffle"]["pile"] - (deck["drawn"] - deck["reshuffle"]["drawn"])


def has_pagoda_room(state: dict, area: str) -> bool:
    """A pagoda could still go here: not scored, and a site free, unknown, or an open fortress."""
    cap = capacity(state, area)
    return area not in state["scored"] and (
        cap is None or used_sites(state, area) < cap or open_fortresses(state, area) > 0)


def can_place(state: dict, seat: int) -> list[str]:
    """The kinds of piece ``seat`` could still place somewhere, whatever the cards (§4.2): a
    pagoda where there is room, an envoy where the envoys are fewer than the most pagodas."""
    left, kinds = supply(state, seat), []
    ids = [a["id"] for a in state["areas"]]
    if left["pagoda"] > 0 and any(has_pagoda_room(state, a) for a in ids):
        kinds.append("pagoda")
    if left["envoy"] > 0 and any(max(pagodas(state, a)) > sum(envoys(state, a)) for a in ids):
        kinds.append("envoy")
    return kinds


# ---- scoring ---------------------------------------------------------------------

def rank_points(counts: list[int]) -> list[int]:
    """Pagoda scoring (§3.1): rank 1 scores every pagoda there, rank k the count of
    rank k−1; tied players share a rank's points and the next player takes the next rank
    (the rulebook's examples 4 and 5). Players without a pagoda score nothing."""
    levels = sorted({c for c in counts if c > 0}, reverse=True)
    worth = {level: (sum(counts) if k == 0 else levels[k - 1]) for k, level in enumerate(levels)}
    return [worth.get(c, 0) for c in counts]


def majority(counts: list[int]) -> set[int]:
    """Envoy majority (§3.5): the most envoys there, ties included, at least one."""
    top = max(counts, default=0)
    return {s for s, c in enumerate(counts) if c == top and top > 0}


def _double(points: list[int], seats: set[int]) -> list[int]:
    return [p * 2 if s in seats else p for s, p in enumerate(points)]


def _seqs(state: dict, test) -> tuple[int, ...]:
    seqs = {p["seq"] for p in state["pieces"] if test(p)}
    if state["tally"]:
        seqs.add(state["tally"]["seq"])
    return tuple(sorted(seqs))


class _Parts(dict):
    """Each seat's score parts, labelled and naming their events (``score``)."""

    def add(self, category: str, points: list[int], events, label, doubled: set) -> None:
        """``events`` and ``label`` are called only when someone scores (each costs a walk
        over the pieces or a message from the catalogs)."""
        if not any(points):
            return
        events, label = events(), label()
        for seat, pts in enumerate(points):
            if pts:
                mark = msg(" (fortress: ×2)") if seat in doubled else text("", "")
                self[seat].append(ScorePart(category, pts, events, joined("", [label, mark])))


class _Points(list):
    """Each seat's points alone (``totals``: every fold step asks for them, and needs
    neither the labels nor the events of the parts)."""

    def add(self, category: str, points: list[int], events, label, doubled: set) -> None:
        for seat, pts in enumerate(points):
            self[seat] += pts


def province_parts(state: dict, parts, area: str) -> None:
    forts = fortified(state, area)
    points = _double(rank_points(pagodas(state, area)), forts)
    parts.add("provinces", points, lambda: _province_events(state, area),
              lambda: msg("Province %(name)s", name=place(area)), forts)


def _province_events(state: dict, area: str) -> tuple[int, ...]:
    events = _seqs(state, lambda p: p["type"] in ("pagoda", "fortress") and touches(p, area))
    scored = state["scored"].get(area)
    return tuple(sorted(set(events) | ({scored} if scored else set())))


def harbour_parts(state: dict, parts) -> None:
    forts = fortified(state, harbour=True)
    points = _double(rank_points(harbour_pagodas(state)), forts)
    parts.add("harbours", points, lambda: _seqs(state, lambda p: p.get("site") == "harbour"),
              lambda: msg("Harbours"), forts)


def alliance_pair(state: dict, n: int) -> list | None:
    pair = state["alliances"][n - 1]
    if None in pair:
        pair = state["entered_alliances"].get(str(n), pair)
    return None if None in pair else pair


def missing_alliances(state: dict) -> list[int]:
    """The alliances neither the profile nor the table has named yet."""
    return [n for n in range(1, len(state["alliances"]) + 1) if alliance_pair(state, n) is None]


def alliance_result(state: dict, n: int) -> dict | None:
    pair = alliance_pair(state, n)
    if pair is None:
        return None
    a, b = (envoys(state, x) for x in pair)
    winners = sorted(majority(a) & majority(b))
    return {"n": n, "areas": pair, "winners": winners, "points": sum(a) + sum(b) if winners else 0}


def alliance_parts(state: dict, parts) -> None:
    for n in range(1, len(state["alliances"]) + 1):
        result = alliance_result(state, n)
        if not result or not result["winners"]:
            continue
        x, y = result["areas"]
        points = [result["points"] if s in result["winners"] else 0 for s in range(state["n"])]
        parts.add("alliances", points, lambda: _seqs(state, lambda p: p["type"] == "envoy" and p["area"] in (x, y)),
                  lambda: msg("Alliance %(n)s (%(names)s)", n=n, names=f"{place(x)}–{place(y)}"),
                  set())


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
    """§3.6 from the road network: maximal runs of one player's pagodas along a road;
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
        parts.add("roads", points, lambda: chain["events"],
                  lambda: msg("Road: chain of %(length)s pagodas", length=chain['length']),
                  {chain["seat"]} if chain["fortified"] else set())


def score_parts(state: dict, parts=None):
    """Every scoring of the position into ``parts``: each seat's labelled parts (the
    default), or ``_Points``."""
    parts = _Parts({s: [] for s in range(state["n"])}) if parts is None else parts
    final = state["next"]["step"] in ("final", "over")
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
    """Each seat's points, as ``score`` would sum them."""
    return list(score_parts(state, _Points([0] * state["n"])))


def kept_totals(state: dict) -> dict[int, int]:
    """Each seat's total as the last fold step noted it (``apply`` keeps them for §3.8's
    point cards): the history asks after every event, and scoring again cost a Han tap
    ~0.1 ms (docs/performance.md)."""
    return dict(enumerate(state["totals"]))


def score(state: dict) -> dict[int, list[ScorePart]]:
    return dict(score_parts(state))


def is_over(state: dict) -> bool:
    return state["next"]["step"] == "over"


def tiebreak(state: dict, seat: int) -> tuple:
    """§3.9: most unplaced pagodas + envoys + fortresses, once the game is over; during play
    equal scores share a rank."""
    return (sum(supply(state, seat).values()),) if is_over(state) else ()


def tiebreak_words(values: list) -> dict[str, str]:
    return msg("%(count)s unplaced pagodas, envoys and fortresses", count=values[0])


TIEBREAK_RULE = msg("Tie: most unplaced pagodas + envoys + fortresses wins.")
