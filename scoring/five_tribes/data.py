"""Five Tribes components: the 30 tiles, 22 djinns, resource cards, supplies, the bid track.

Every number is written down, with the rulebook section it comes from, in
docs/rules/five-tribes.md §1 (components) and §3 (the bid track).
"""
from __future__ import annotations

from scoring.base import EventSpec, text
from scoring.schema import count, obj, seat

RULES = "docs/rules/five-tribes.md"


def rule(section: int) -> str:
    """The citation a refusal carries: a numbered section of the rules page."""
    return f"{RULES} §{section}"


# docs/rules/five-tribes.md §9: value of a suit of n different goods, index = n.
SUIT_VALUES = (0, 1, 3, 7, 13, 21, 30, 40, 50, 60)

# docs/rules/five-tribes.md §1: 36 merchandise cards by kind + 18 fakirs.
GOODS = {
    "ivory": {"count": 2, "label": text("elefántcsont", "ivory")},
    "jewels": {"count": 2, "label": text("ékszer", "jewels")},
    "gold": {"count": 2, "label": text("arany", "gold")},
    "papyrus": {"count": 4, "label": text("papirusz", "papyrus")},
    "silk": {"count": 4, "label": text("selyem", "silk")},
    "spice": {"count": 4, "label": text("fűszer", "spice")},
    "fish": {"count": 6, "label": text("hal", "fish")},
    "wheat": {"count": 6, "label": text("búza", "wheat")},
    "pottery": {"count": 6, "label": text("kerámia", "pottery")},
}
FAKIRS = 18
CARD_KINDS = tuple(GOODS) + ("fakir",)
FAKIR_LABEL = text("fakír", "fakir")


def card_label(kind: str) -> dict:
    return FAKIR_LABEL if kind == "fakir" else GOODS[kind]["label"]


# docs/rules/five-tribes.md §1: the 30 tiles (12 blue, 18 red).
TILES = {
    "large-market": {"count": 4, "vp": 4, "colour": "red", "action": "market",
                     "label": text("Nagy piac", "Large market"), "short": text("NP", "LM")},
    "small-market": {"count": 8, "vp": 6, "colour": "red", "action": "market",
                     "label": text("Kis piac", "Small market"), "short": text("KP", "SM")},
    "oasis": {"count": 6, "vp": 8, "colour": "red", "action": "palm",
              "label": text("Oázis", "Oasis"), "short": text("O", "O")},
    "village": {"count": 5, "vp": 5, "colour": "blue", "action": "palace",
                "label": text("Falu", "Village"), "short": text("F", "V")},
    "sacred-6": {"count": 4, "vp": 6, "colour": "blue", "action": "djinn",
                 "label": text("Szent hely (6)", "Sacred place (6)"), "short": text("SZ6", "S6")},
    "sacred-10": {"count": 1, "vp": 10, "colour": "blue", "action": "djinn",
                  "label": text("Szent hely (10)", "Sacred place (10)"), "short": text("SZ10", "S10")},
    "sacred-12": {"count": 1, "vp": 12, "colour": "blue", "action": "djinn",
                  "label": text("Szent hely (12)", "Sacred place (12)"), "short": text("SZ12", "S12")},
    "sacred-15": {"count": 1, "vp": 15, "colour": "blue", "action": "djinn",
                  "label": text("Szent hely (15)", "Sacred place (15)"), "short": text("SZ15", "S15")},
}
ROWS, COLS = 5, 6  # docs/rules/five-tribes.md §2: a 5 × 6 rectangle

# docs/rules/five-tribes.md §1: 16 yellow, 20 white, 18 green, 18 blue, 18 red.
TRIBES = {
    "vizier": {"count": 16, "label": text("vezír (sárga)", "vizier (yellow)")},
    "elder": {"count": 20, "label": text("vén (fehér)", "elder (white)")},
    "merchant": {"count": 18, "label": text("kereskedő (zöld)", "merchant (green)")},
    "builder": {"count": 18, "label": text("építő (kék)", "builder (blue)")},
    "assassin": {"count": 18, "label": text("orgyilkos (piros)", "assassin (red)")},
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
    "elder": text("1 vén", "1 elder"), "fakir": text("1 fakír", "1 fakir"),
    "elders": text("2 vén", "2 elders"), "elder-fakir": text("1 vén + 1 fakír", "1 elder + 1 fakir"),
    "fakirs": text("fakírok", "fakirs"),
}

# docs/rules/five-tribes.md §6: the 22 djinns of the base game, VP, cost, power.
# "use" names what the app does when the power is used (djinn-used event); None: passive.
DJINNS = {
    "Al-Amin": {"vp": 5, "cost": (), "power": text(
        "Játék végén minden fakírpár 1 tetszőleges áru.", "Game end: each pair of fakirs is 1 wild good.")},
    "Anun-Nak": {"vp": 8, "cost": ONE, "power": text(
        "3 figura a zsákból egy üres lapkára.", "Put 3 meeples from the bag on an empty tile.")},
    "Ba'al": {"vp": 6, "cost": (), "power": text(
        "Ha valaki dzsinnt szerez: +1 arany, ha te, +2, ha ellenfél.",
        "Someone gets a djinn: +1 gold if you, +2 if an opponent.")},
    "Boaz": {"vp": 6, "cost": (), "power": text(
        "Vezíreid és véneid védettek az orgyilkosoktól.", "Your viziers and elders are safe from assassins.")},
    "Bouraq": {"vp": 6, "cost": ONE, "power": text(
        "1 palota bármelyik falura.", "Place 1 palace on any village.")},
    "Echidna": {"vp": 4, "cost": TWO, "power": text(
        "Ebben a körben az építők aranya duplázódik.", "Double your builders' gold this turn.")},
    "Enki": {"vp": 8, "cost": ONE, "power": text(
        "1 pálmafa bármelyik oázisra.", "Place 1 palm tree on any oasis.")},
    "Hagis": {"vp": 10, "cost": ONE, "power": text(
        "A palotát szomszédos lapkára is teheted.", "You may place a palace on a neighbouring tile.")},
    "Haurvatat": {"vp": 8, "cost": (), "power": text(
        "Játék végén pálmafáid 5 GyP-t érnek (3 helyett).", "Game end: your palm trees are worth 5 VP (not 3).")},
    "Iblis": {"vp": 8, "cost": ONE, "power": text(
        "Az orgyilkosok 2 figurát ölnek.", "Your assassins kill 2 meeples.")},
    "Jafaar": {"vp": 6, "cost": (), "power": text(
        "Játék végén vezíreid 3 GyP-t érnek (1 helyett).", "Game end: your viziers are worth 3 VP (not 1).")},
    "Kandicha": {"vp": 6, "cost": (), "power": text(
        "Orgyilkosaid áldozata: kereskedő → húzz 1 lapot; építő → az aranya; vezír/vén → tiéd.",
        "Your assassins' victim: merchant → draw a card; builder → its gold; vizier/elder → keep it.")},
    "Kumarbi": {"vp": 6, "cost": ("fakirs",), "power": text(
        "Licitnél minden eldobott fakír egy hellyel olcsóbb.", "Bidding: each fakir discarded lowers the price by one spot.")},
    "Lamia": {"vp": 10, "cost": ONE, "power": text(
        "A pálmafát szomszédos lapkára is teheted.", "You may place a palm tree on a neighbouring tile.")},
    "Leta": {"vp": 4, "cost": TWO, "power": text(
        "Megszerzel 1 üres lapkát.", "Take control of 1 empty tile.")},
    "Marid": {"vp": 6, "cost": (), "power": text(
        "Lapkáidra tett figurákért +1 arany (te lépsz), +2 (ellenfél lép).",
        "Meeples dropped on your tiles: +1 gold if you moved, +2 if an opponent did.")},
    "Monkir": {"vp": 6, "cost": (), "power": text(
        "Minden letett palotáért +1 arany (te), +2 (ellenfél).", "Each palace placed: +1 gold if by you, +2 if by an opponent.")},
    "Nekir": {"vp": 6, "cost": (), "power": text(
        "Minden orgyilkosságért +1 arany (te), +2 (ellenfél).", "Each assassination: +1 gold if yours, +2 if an opponent's.")},
    "Shamhat": {"vp": 6, "cost": (), "power": text(
        "Játék végén véneid 4 GyP-t érnek (2 helyett).", "Game end: your elders are worth 4 VP (not 2).")},
    "Sibittis": {"vp": 4, "cost": TWO, "power": text(
        "Húzz 3 dzsinnt, tarts meg 1-et.", "Draw 3 djinns, keep 1.")},
    "Sloar": {"vp": 8, "cost": ("fakir",), "power": text(
        "Vedd el a húzópakli felső lapját.", "Take the top card of the resource pile.")},
    "Utug": {"vp": 4, "cost": TWO, "power": text(
        "Megszerzel 1 lapkát, amin csak figurák vannak.", "Take control of 1 tile with only meeples on it.")},
}
DJINN_NAMES = tuple(DJINNS)


def tile_name(index: int) -> str:
    """Grid position as players read it: column letter A–F, row number 1–5 (e.g. "B3")."""
    return f"{'ABCDEF'[index % COLS]}{index // COLS + 1}"


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


def bid_price(cost: int, fakirs: int) -> int:
    """What a bid costs: each fakir discarded with Kumarbi lowers it one spot (docs/rules/five-tribes.md §6)."""
    return BID_COSTS[max(0, BID_COSTS.index(cost) - fakirs)] if cost in BID_COSTS else cost


# ---------------------------------------------------------------- the events and their payloads

_tile = count(ROWS * COLS - 1)
_card = {"enum": list(CARD_KINDS)}
_djinn = {"enum": list(DJINN_NAMES)}
_seat = seat(4)
_goods = {"type": "object", "additionalProperties": False,
          "properties": {k: count(v["count"]) for k, v in GOODS.items()}}
_victim = obj(["tribe"], tile=_tile, seat=_seat, tribe={"enum": list(TRIBES)},
              emptied={"type": "boolean"}, card=_card)

EVENT_TYPES = {
    "board-laid": EventSpec(obj(
        ["tiles"], tiles={"type": "array", "minItems": 30, "maxItems": 30, "items": {"enum": list(TILES)}},
        djinns={"type": "array", "maxItems": 3, "items": _djinn},
        cards={"type": "array", "maxItems": 9, "items": _card},
        bid_order={"type": "array", "maxItems": 4, "items": _seat}),
        text("Szultánság lerakva", "Sultanate laid")),
    "bid-placed": EventSpec(obj(["seat", "cost"], seat=_seat, cost={"enum": list(BID_COSTS)},
                                fakirs=count(FAKIRS)),
                            text("Licit a sorrendért", "Bid for turn order")),
    "meeples-moved": EventSpec(obj(
        ["tile", "tribe", "count"], tile=_tile, tribe={"enum": list(TRIBES)}, count=count(20),
        emptied={"type": "boolean"}, fakirs=count(FAKIRS),
        path={"type": "array", "maxItems": 40, "items": _tile},
        cards={"type": "array", "maxItems": 18, "items": _card},
        victims={"type": "array", "maxItems": 2, "items": _victim}),
        text("Lépés a figurákkal", "Meeples moved")),
    "palm-placed": EventSpec(obj(["tile"], tile=_tile), text("Pálmafa letéve", "Palm tree placed")),
    "palace-placed": EventSpec(obj(["tile"], tile=_tile), text("Palota letéve", "Palace placed")),
    "goods-bought": EventSpec(obj(["cards"], cards={"type": "array", "minItems": 1, "maxItems": 2, "items": _card}),
                              text("Vásárlás a piacon", "Market purchase")),
    "djinn-taken": EventSpec(obj(["djinn", "pay"], djinn=_djinn, pay={"enum": ["elders", "elder-fakir"]}),
                             text("Dzsinn megszerezve", "Djinn taken")),
    "djinn-used": EventSpec(obj(["djinn", "pay"], djinn=_djinn, pay={"enum": list(PAYMENTS)},
                                tile=_tile, card=_card, keep=_djinn),
                            text("Dzsinn képessége", "Djinn power used")),
    "goods-sold": EventSpec(obj(["goods"], goods=_goods), text("Árueladás", "Merchandise sold")),
    "turn-ended": EventSpec(obj([], no_move={"type": "boolean"}), text("Kör vége", "Turn ended")),
    "round-ended": EventSpec(obj([], djinns={"type": "array", "maxItems": 3, "items": _djinn},
                                 cards={"type": "array", "maxItems": 9, "items": _card}),
                             text("Forduló vége, sorok feltöltve", "Round ended, displays refilled")),
    "sheet-entered": EventSpec(obj(
        ["seat", "gold", "viziers", "elders", "djinns", "palms", "palaces", "goods", "fakirs"],
        seat=_seat, gold=count(10_000), viziers=count(TRIBES["vizier"]["count"]),
        elders=count(TRIBES["elder"]["count"]),
        djinns={"type": "array", "maxItems": 22, "items": _djinn},
        palms=count(PALM_TREES), palaces=count(PALACES),
        tiles={"type": "object", "additionalProperties": False,
               "properties": {k: count(v["count"]) for k, v in TILES.items()}},
        tile_vp=count(500), goods=_goods, fakirs=count(FAKIRS)),
        text("Pontozólap kitöltve", "Score sheet entered")),
}
