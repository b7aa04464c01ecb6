"""Five Tribes components: the 30 tiles, 22 djinns, resource cards, supplies, the bid track;
the board's geometry (tile names A1–F5, neighbours, distances) and what a walk of meeples
over it does, which the checks, the fold and the board view all compute with; the events'
payload schemas.

Every number is written down, with the rulebook section it comes from, in
docs/rules/five-tribes.md §1 (components), §3 (the bid track) and §4 (the move).
"""
from __future__ import annotations

from collections import Counter

from scoring.base import EventSpec
from scoring.i18n import msg
from scoring.schema import count, obj, seat

RULES = "docs/rules/five-tribes.md"


def rule(section: int) -> str:
    """The citation a refusal carries: a numbered section of the rules page."""
    return f"{RULES} §{section}"


# docs/rules/five-tribes.md §9: value of a suit of n different goods, index = n.
SUIT_VALUES = (0, 1, 3, 7, 13, 21, 30, 40, 50, 60)

# docs/rules/five-tribes.md §1: 36 merchandise cards by kind + 18 fakirs.
GOODS = {
    "ivory": {"count": 2, "label": msg("ivory")},
    "jewels": {"count": 2, "label": msg("jewels")},
    "gold": {"count": 2, "label": msg("gold")},
    "papyrus": {"count": 4, "label": msg("papyrus")},
    "silk": {"count": 4, "label": msg("silk")},
    "spice": {"count": 4, "label": msg("spice")},
    "fish": {"count": 6, "label": msg("fish")},
    "wheat": {"count": 6, "label": msg("wheat")},
    "pottery": {"count": 6, "label": msg("pottery")},
}
FAKIRS = 18
CARD_KINDS = tuple(GOODS) + ("fakir",)
FAKIR_LABEL = msg("fakir")


def card_label(kind: str) -> dict:
    return FAKIR_LABEL if kind == "fakir" else GOODS[kind]["label"]


# docs/rules/five-tribes.md §1: the 30 tiles (12 blue, 18 red).
TILES = {
    "large-market": {"count": 4, "vp": 4, "colour": "red", "action": "market",
                     "label": msg("Large market"), "short": msg("LM")},
    "small-market": {"count": 8, "vp": 6, "colour": "red", "action": "market",
                     "label": msg("Small market"), "short": msg("SM")},
    "oasis": {"count": 6, "vp": 8, "colour": "red", "action": "palm",
              "label": msg("Oasis"), "short": msg("O")},
    "village": {"count": 5, "vp": 5, "colour": "blue", "action": "palace",
                "label": msg("Village"), "short": msg("V")},
    "sacred-6": {"count": 4, "vp": 6, "colour": "blue", "action": "djinn",
                 "label": msg("Sacred place (6)"), "short": msg("S6")},
    "sacred-10": {"count": 1, "vp": 10, "colour": "blue", "action": "djinn",
                  "label": msg("Sacred place (10)"), "short": msg("S10")},
    "sacred-12": {"count": 1, "vp": 12, "colour": "blue", "action": "djinn",
                  "label": msg("Sacred place (12)"), "short": msg("S12")},
    "sacred-15": {"count": 1, "vp": 15, "colour": "blue", "action": "djinn",
                  "label": msg("Sacred place (15)"), "short": msg("S15")},
}
ROWS, COLS = 5, 6  # docs/rules/five-tribes.md §2: a 5 × 6 rectangle

# docs/rules/five-tribes.md §1: 16 yellow, 20 white, 18 green, 18 blue, 18 red.
TRIBES = {
    "vizier": {"count": 16, "label": msg("vizier (yellow)")},
    "elder": {"count": 20, "label": msg("elder (white)")},
    "merchant": {"count": 18, "label": msg("merchant (green)")},
    "builder": {"count": 18, "label": msg("builder (blue)")},
    "assassin": {"count": 18, "label": msg("assassin (red)")},
}
PALM_TREES, PALACES = 12, 10   # docs/rules/five-tribes.md §1
START_GOLD = 50                # docs/rules/five-tribes.md §1


def camels_per_player(players: int) -> int:
    """8 camels with 3–4 players, 11 with 2 (docs/rules/five-tribes.md §1)."""
    return 11 if players == 2 else 8


# docs/rules/five-tribes.md §3: the turn order track.
BID_SPOTS = (18, 12, 8, 5, 3, 1, 0, 0, 0)
BID_COSTS = (0, 1, 3, 5, 8, 12, 18)  # the distinct prices, cheapest first (Kumarbi steps down)

# Djinn costs (docs/rules/five-tribes.md §6): how a paid power may be paid.
ONE = ("elder", "fakir")                 # 1 elder or 1 fakir
TWO = ("elders", "elder-fakir")          # 2 elders, or 1 elder + 1 fakir
PAYMENTS = {
    "elder": {"elders": 1, "fakirs": 0}, "fakir": {"elders": 0, "fakirs": 1},
    "elders": {"elders": 2, "fakirs": 0}, "elder-fakir": {"elders": 1, "fakirs": 1},
}
PAYMENT_LABELS = {
    "elder": msg("1 elder"), "fakir": msg("1 fakir"),
    "elders": msg("2 elders"), "elder-fakir": msg("1 elder + 1 fakir"),
    "fakirs": msg("fakirs"),
}

# docs/rules/five-tribes.md §6: the 22 djinns of the base game, VP, cost, power.
# "use" names what the app does when the power is used (djinn-used event); None: passive.
DJINNS = {
    "Al-Amin": {"vp": 5, "cost": (), "power": msg("Game end: each pair of fakirs is 1 wild good.")},
    "Anun-Nak": {"vp": 8, "cost": ONE, "power": msg("Put 3 meeples from the bag on an empty tile.")},
    "Ba'al": {"vp": 6, "cost": (), "power": msg("Someone gets a djinn: +1 gold if you, +2 if an opponent.")},
    "Boaz": {"vp": 6, "cost": (), "power": msg("Your viziers and elders are safe from assassins.")},
    "Bouraq": {"vp": 6, "cost": ONE, "power": msg("Place 1 palace on any village.")},
    "Echidna": {"vp": 4, "cost": TWO, "power": msg("Double your builders' gold this turn.")},
    "Enki": {"vp": 8, "cost": ONE, "power": msg("Place 1 palm tree on any oasis.")},
    "Hagis": {"vp": 10, "cost": ONE, "power": msg("You may place a palace on a neighbouring tile.")},
    "Haurvatat": {"vp": 8, "cost": (), "power": msg("Game end: your palm trees are worth 5 VP (not 3).")},
    "Iblis": {"vp": 8, "cost": ONE, "power": msg("Your assassins kill 2 meeples.")},
    "Jafaar": {"vp": 6, "cost": (), "power": msg("Game end: your viziers are worth 3 VP (not 1).")},
    "Kandicha": {"vp": 6, "cost": (), "power": msg("Your assassins' victim: merchant → draw a card; builder → its gold; vizier/elder → keep it.")},
    "Kumarbi": {"vp": 6, "cost": ("fakirs",), "power": msg("Bidding: each fakir discarded lowers the price by one spot.")},
    "Lamia": {"vp": 10, "cost": ONE, "power": msg("You may place a palm tree on a neighbouring tile.")},
    "Leta": {"vp": 4, "cost": TWO, "power": msg("Take control of 1 empty tile.")},
    "Marid": {"vp": 6, "cost": (), "power": msg("Meeples dropped on your tiles: +1 gold if you moved, +2 if an opponent did.")},
    "Monkir": {"vp": 6, "cost": (), "power": msg("Each palace placed: +1 gold if by you, +2 if by an opponent.")},
    "Nekir": {"vp": 6, "cost": (), "power": msg("Each assassination: +1 gold if yours, +2 if an opponent's.")},
    "Shamhat": {"vp": 6, "cost": (), "power": msg("Game end: your elders are worth 4 VP (not 2).")},
    "Sibittis": {"vp": 4, "cost": TWO, "power": msg("Draw 3 djinns, keep 1.")},
    "Sloar": {"vp": 8, "cost": ("fakir",), "power": msg("Take the top card of the resource pile.")},
    "Utug": {"vp": 4, "cost": TWO, "power": msg("Take control of 1 tile with only meeples on it.")},
}
DJINN_NAMES = tuple(DJINNS)


CELLS = ROWS * COLS
TILE_NAMES = tuple(f"{'ABCDEF'[i % COLS]}{i // COLS + 1}" for i in range(CELLS))
TILE_INDEX = {name: i for i, name in enumerate(TILE_NAMES)}
MEEPLES_PER_TILE = 3   # §2: three meeples on each tile at set-up
# The colour each tribe's meeples have (§1), as the board view and the hand entry show them.
COLOURS = {"vizier": msg("yellow"), "elder": msg("white"),
           "merchant": msg("green"), "builder": msg("blue"),
           "assassin": msg("red")}


def tile_name(index: int) -> str:
    """Grid position as players read it: column letter A–F, row number 1–5 (e.g. "B3")."""
    return TILE_NAMES[index]


def neighbours(index: int, diagonal: bool) -> list[int]:
    r, c = divmod(index, COLS)
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and (diagonal or not (dr and dc)) and 0 <= r + dr < ROWS and 0 <= c + dc < COLS:
                out.append((r + dr) * COLS + c + dc)
    return out


def distance(a: int, b: int) -> int:
    """Orthogonal steps between two tiles (docs/rules/five-tribes.md §4: never diagonally)."""
    (ra, ca), (rb, cb) = divmod(a, COLS), divmod(b, COLS)
    return abs(ra - rb) + abs(ca - cb)


def deal(seed: int) -> tuple[list[str], list[list[str]]]:
    """The sultanate the app deals from a recorded seed (§2): the 30 tiles shuffled into the
    grid, then the 90 meeples shuffled in the bag and drawn three to a tile, row by row."""
    import random
    rng = random.Random(seed)
    tiles = [kind for kind, v in TILES.items() for _ in range(v["count"])]
    bag = [tribe for tribe, v in TRIBES.items() for _ in range(v["count"])]
    rng.shuffle(tiles)
    rng.shuffle(bag)
    return tiles, [bag[i:i + MEEPLES_PER_TILE] for i in range(0, len(bag), MEEPLES_PER_TILE)]


def hand_of(meeples: list[dict], start: int) -> dict[str, int]:
    return {k: n for k, n in meeples[start].items() if n}


def walk(meeples: list[dict], path: list[int], drops: list[str]) -> dict:
    """What a legal move does to the meeples (§4): the start tile's meeples are picked up and one
    is dropped on each tile after it; the last one's tribe is then taken from the end tile.
    Returns the new meeples, the tile, the tribe, how many are taken and whether the tile is left
    empty. Pure; check.py has said the move is legal."""
    board = [dict(m) for m in meeples]
    board[path[0]] = {}
    for tile, tribe in zip(path[1:], drops):
        board[tile][tribe] = board[tile].get(tribe, 0) + 1
    end, tribe = path[-1], drops[-1]
    taken = board[end].pop(tribe, 0)
    return {"meeples": board, "tile": end, "tribe": tribe, "count": taken,
            "emptied": not any(board[end].values())}


def can_drop(meeples: list[dict], path: list[int], dropped: list[str], tribe: str) -> bool:
    """Whether ``tribe`` may be the next meeple dropped along a whole path after ``dropped``
    (§4): it is still in hand, and the drops can still end legally — the last meeple landing
    where one of its colour stands, on the end tile as it was or dropped there at an earlier
    pass (which takes a second of that colour in hand)."""
    left = Counter(hand_of(meeples, path[0])) - Counter(dropped)
    if not left[tribe]:
        return False
    dropped, left = dropped + [tribe], left - Counter([tribe])
    steps, end = len(path) - 1, path[-1]
    if len(dropped) == steps:
        return walk(meeples, path, dropped)["count"] >= 2
    stood = meeples[end] if end != path[0] else {}
    later = any(path[i + 1] == end for i in range(len(dropped), steps - 1))   # passes still to drop on
    for last, n in left.items():
        earlier = sum(1 for i, t in enumerate(dropped) if t == last and path[i + 1] == end)
        if stood.get(last) or earlier or (later and n >= 2):
            return True
    return False


def droppable(meeples: list[dict], path: list[int], dropped: list[str]) -> list[str]:
    """The tribes the next meeple along a whole path may be (§4), in the order of TRIBES."""
    return [t for t in TRIBES if can_drop(meeples, path, dropped, t)]


def forced(meeples: list[dict], path: list[int], dropped: list[str]) -> list[str]:
    """``dropped`` followed by every drop the rules leave no choice for (one tribe left that
    can end legally): what the table tapped, completed only where nothing else was possible."""
    out = list(dropped)
    while len(out) < len(path) - 1 and len(nexts := droppable(meeples, path, out)) == 1:
        out.append(nexts[0])
    return out


def typed_drops(form, steps: int) -> list[str]:
    """The meeples a form says were tapped, in the order dropped: its ``drops`` so far, the
    ``drop`` just tapped added, ``undrop`` taking the last back."""
    form = form or {}
    words = [w for w in (form.get("drops") or "").split(".") if w][:steps]
    if form.get("drop"):
        words.append(form["drop"])
    if form.get("undrop") and words:
        words.pop()
    return words


def tapped_drops(meeples: list[dict], path: list[int], words: list[str]) -> list[str]:
    """``words`` as far as each is a meeple the rules allow next (§4), after the drops that
    left no choice: a stale form's taps are cut short there."""
    kept: list[str] = []
    for word in words:
        before, _ = dropped(meeples, path, kept)
        if word not in TRIBES or len(before) == len(path) - 1 or not can_drop(meeples, path, before, word):
            break
        kept.append(word)
    return kept


def dropped(meeples, path: list[int], tapped: list[str]) -> tuple[list[str], set[int]]:
    """The drops along the path the taps say, each tap after the drops the rules left no choice
    for, and those after the last tap too; with the steps that were tapped."""
    out: list[str] = []
    at = set()
    for tribe in tapped:
        out = forced(meeples, path, out)
        at.add(len(out))
        out.append(tribe)
    return forced(meeples, path, out), at


def blue_around(board: list[dict], tile: int) -> int:
    """§4 builders: blue tiles in the 3 × 3 block around the tile, the tile itself included."""
    return sum(1 for i in [tile] + neighbours(tile, diagonal=True) if TILES[board[i]["type"]]["colour"] == "blue")


def in_reach(meeples: list[dict], tile: int, reach: int) -> list[tuple[int, str]]:
    """§4 assassins: every (tile, tribe) a meeple stands on within ``reach`` orthogonal steps."""
    return [(i, tribe) for i in range(CELLS) if distance(i, tile) <= reach
            for tribe, n in meeples[i].items() if n]


def some_move_exists(meeples: list[dict]) -> bool:
    """Whether any legal move is left (§10): a walk ending on a tile where a tribe of the hand
    stands, or else a walk that comes back to a tile it dropped on (with two of a tribe in
    hand, one dropped there earlier and one last)."""
    starts = [s for s in range(CELLS) if hand_of(meeples, s)]
    return any(_ends_on_a_match(meeples, s) for s in starts) or any(_ends_on_a_loop(meeples, s) for s in starts)


def _ends_on_a_match(meeples, start) -> bool:
    hand = hand_of(meeples, start)
    places = {(start, None)}
    for _ in range(sum(hand.values())):
        places = {(n, here) for here, before in places for n in neighbours(here, diagonal=False) if n != before}
    return any(_holds(meeples, end, hand, start) for end, _ in places)


LOOP_SEARCH = 12   # hands above this many meeples always have a move in practice; the search is 3^n


def _ends_on_a_loop(meeples, start) -> bool:
    hand = hand_of(meeples, start)
    steps = sum(hand.values())
    if max(hand.values()) < 2:
        return False
    if steps > LOOP_SEARCH:
        return True

    def walks(path):
        if len(path) == steps + 1:
            return path[-1] in path[1:-1]
        return any(walks(path + [n]) for n in neighbours(path[-1], diagonal=False)
                   if len(path) < 2 or n != path[-2])
    return walks([start])


def can_end(meeples: list[dict], path: list[int]) -> bool:
    """Whether a path begun can still end legally (§4): as many steps as the start tile had
    meeples, never straight back, the last on a tile where a tribe of the hand stands, or on a
    tile the path dropped on before (with two of that tribe in hand). Breadth first over
    (tile, tile just left), at most 30 × 4 places a step, so a tap is answered at once; the
    loop case is searched exactly for the last few steps."""
    hand = hand_of(meeples, path[0])
    left = sum(hand.values()) - (len(path) - 1)
    if left < 0 or not hand:
        return False
    if not left:
        return bool(droppable(meeples, path, []))
    places = {(path[-1], path[-2] if len(path) > 1 else None)}
    for _ in range(left):
        places = {(n, here) for here, before in places for n in neighbours(here, diagonal=False) if n != before}
    ends = {end for end, _ in places}
    if any(_holds(meeples, end, hand, path[0]) for end in ends):
        return True
    if max(hand.values()) < 2:
        return False
    if left > LOOP_SEARCH // 2:
        return bool(ends & set(path[1:]))
    return _loops_back(path, left)


def _loops_back(path: list[int], left: int) -> bool:
    if not left:
        return path[-1] in path[1:-1]
    return any(_loops_back(path + [n], left - 1) for n in neighbours(path[-1], diagonal=False)
               if len(path) < 2 or n != path[-2])


def _holds(meeples, tile, hand, start) -> bool:
    return tile != start and any(meeples[tile].get(t) for t in hand)


def bid_price(cost: int, fakirs: int) -> int:
    """What a bid costs: each fakir discarded with Kumarbi lowers it one spot (docs/rules/five-tribes.md §6)."""
    return BID_COSTS[max(0, BID_COSTS.index(cost) - fakirs)] if cost in BID_COSTS else cost


# ---------------------------------------------------------------- the events and their payloads

_tile = {"enum": list(TILE_NAMES)}   # payload version 2: tiles by name, A1–F5
_tribe = {"enum": list(TRIBES)}
_card = {"enum": list(CARD_KINDS)}
_djinn = {"enum": list(DJINN_NAMES)}
_seat = seat(4)
_goods = {"type": "object", "additionalProperties": False,
          "properties": {k: count(v["count"]) for k, v in GOODS.items()}}
_victim = obj(["tribe"], tile=_tile, seat=_seat, tribe=_tribe, emptied={"type": "boolean"}, card=_card)


def _map_tiles(data: dict, convert) -> dict:
    """A payload with each tile (``tile``, ``path``, the victims' ``tile``) converted."""
    out = dict(data)
    if "tile" in out:
        out["tile"] = convert(out["tile"])
    if "path" in out:
        out["path"] = [convert(t) for t in out["path"]]
    if "victims" in out:
        out["victims"] = [v | ({"tile": convert(v["tile"])} if "tile" in v else {}) for v in out["victims"]]
    return out


def _tile_names(data: dict) -> dict:
    """Upcaster 1 → 2: tiles were indexes 0–29 row by row; version 2 names them A1–F5."""
    return _map_tiles(data, TILE_NAMES.__getitem__)


def indexed(data: dict) -> dict:
    """A payload with its tile names turned into grid indexes, as the rules compute with them."""
    return _map_tiles(data, TILE_INDEX.__getitem__)


NAMED = {1: _tile_names}
EVENT_TYPES = {
    "board-laid": EventSpec(obj(
        ["tiles"], tiles={"type": "array", "minItems": 30, "maxItems": 30, "items": {"enum": list(TILES)}},
        djinns={"type": "array", "maxItems": 3, "items": _djinn},
        cards={"type": "array", "maxItems": 9, "items": _card},
        bid_order={"type": "array", "maxItems": 4, "items": _seat},
        meeples={"type": "array", "minItems": CELLS, "maxItems": CELLS,
                 "items": {"type": "array", "minItems": MEEPLES_PER_TILE, "maxItems": MEEPLES_PER_TILE,
                           "items": _tribe}},
        seed=count(2 ** 53)),
        msg("Sultanate laid")),
    "bid-placed": EventSpec(obj(["seat", "cost"], seat=_seat, cost={"enum": list(BID_COSTS)},
                                fakirs=count(FAKIRS)),
                            msg("Bid for turn order")),
    "meeples-moved": EventSpec(obj(
        [], tile=_tile, tribe=_tribe, count=count(20),
        emptied={"type": "boolean"}, fakirs=count(FAKIRS),
        path={"type": "array", "maxItems": 91, "items": _tile},
        drops={"type": "array", "maxItems": 90, "items": _tribe},
        cards={"type": "array", "maxItems": 18, "items": _card},
        victims={"type": "array", "maxItems": 2, "items": _victim}),
        msg("Meeples moved"), version=2, upcasters=NAMED),
    "palm-placed": EventSpec(obj(["tile"], tile=_tile), msg("Palm tree placed"),
                             version=2, upcasters=NAMED),
    "palace-placed": EventSpec(obj(["tile"], tile=_tile), msg("Palace placed"),
                               version=2, upcasters=NAMED),
    "goods-bought": EventSpec(obj(["cards"], cards={"type": "array", "minItems": 1, "maxItems": 2, "items": _card}),
                              msg("Market purchase")),
    "djinn-taken": EventSpec(obj(["djinn", "pay"], djinn=_djinn, pay={"enum": ["elders", "elder-fakir"]}),
                             msg("Djinn taken")),
    "djinn-used": EventSpec(obj(["djinn", "pay"], djinn=_djinn, pay={"enum": list(PAYMENTS)},
                                tile=_tile, card=_card, keep=_djinn,
                                meeples={"type": "array", "minItems": 3, "maxItems": 3, "items": _tribe}),
                            msg("Djinn power used"), version=2, upcasters=NAMED),
    "goods-sold": EventSpec(obj(["goods"], goods=_goods), msg("Merchandise sold")),
    "turn-ended": EventSpec(obj([], no_move={"type": "boolean"}), msg("Turn ended")),
    "round-ended": EventSpec(obj([], djinns={"type": "array", "maxItems": 3, "items": _djinn},
                                 cards={"type": "array", "maxItems": 9, "items": _card}),
                             msg("Round ended, displays refilled")),
    "sheet-entered": EventSpec(obj(
        ["seat", "gold", "viziers", "elders", "djinns", "palms", "palaces", "goods", "fakirs"],
        seat=_seat, gold=count(10_000), viziers=count(TRIBES["vizier"]["count"]),
        elders=count(TRIBES["elder"]["count"]),
        djinns={"type": "array", "maxItems": 22, "items": _djinn},
        palms=count(PALM_TREES), palaces=count(PALACES),
        tiles={"type": "object", "additionalProperties": False,
               "properties": {k: count(v["count"]) for k, v in TILES.items()}},
        tile_vp=count(500), goods=_goods, fakirs=count(FAKIRS)),
        msg("Score sheet entered")),
}
