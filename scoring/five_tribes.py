"""Five Tribes (Days of Wonder, 2014): the books turn by turn, or the score sheet at the end.

Both ways end in the same per-player holdings, scored by ``five_tribes_score``, so both give
the same breakdown. Rules as implemented: docs/rules/five-tribes.md ("FT §n"); sources:
seed 002, /work/shared/GAMES.md, /work/shared/research/games-data.md §1.
"""
from __future__ import annotations

from scoring.base import EventSpec, GameKind, ScorePart, text
from scoring.five_tribes_data import (BID_COSTS, CARD_KINDS, DJINN_NAMES, FAKIRS, GOODS, PALACES,
                                      PALM_TREES, PAYMENTS, TILES, TRIBES)
from scoring.five_tribes_form import describe, parse_form
from scoring.five_tribes_apply import apply
from scoring.five_tribes_rules import check
from scoring.five_tribes_state import holdings_all, setup, sources
from scoring.five_tribes_score import CATEGORIES, holdings_parts

_tile = {"type": "integer", "minimum": 0, "maximum": 29}
_card = {"enum": list(CARD_KINDS)}
_djinn = {"enum": list(DJINN_NAMES)}
_seat = {"type": "integer", "minimum": 0, "maximum": 3}
_goods = {"type": "object", "additionalProperties": False,
          "properties": {k: {"type": "integer", "minimum": 0, "maximum": v["count"]} for k, v in GOODS.items()}}


def _obj(required: list[str], **properties) -> dict:
    return {"type": "object", "additionalProperties": False, "required": required, "properties": properties}


def _count(top: int) -> dict:
    return {"type": "integer", "minimum": 0, "maximum": top}


_victim = _obj(["tribe"], tile=_tile, seat=_seat, tribe={"enum": list(TRIBES)},
               emptied={"type": "boolean"}, card=_card)

EVENT_TYPES = {
    "board-laid": EventSpec(_obj(
        ["tiles"], tiles={"type": "array", "minItems": 30, "maxItems": 30, "items": {"enum": list(TILES)}},
        djinns={"type": "array", "maxItems": 3, "items": _djinn},
        cards={"type": "array", "maxItems": 9, "items": _card},
        bid_order={"type": "array", "maxItems": 4, "items": _seat}),
        text("Szultánság lerakva", "Sultanate laid")),
    "bid-placed": EventSpec(_obj(["seat", "cost"], seat=_seat, cost={"enum": list(BID_COSTS)},
                                 fakirs=_count(FAKIRS)),
                            text("Licit a sorrendért", "Bid for turn order")),
    "meeples-moved": EventSpec(_obj(
        ["tile", "tribe", "count"], tile=_tile, tribe={"enum": list(TRIBES)}, count=_count(20),
        emptied={"type": "boolean"}, fakirs=_count(FAKIRS),
        path={"type": "array", "maxItems": 40, "items": _tile},
        cards={"type": "array", "maxItems": 18, "items": _card},
        victims={"type": "array", "maxItems": 2, "items": _victim}),
        text("Lépés a figurákkal", "Meeples moved")),
    "palm-placed": EventSpec(_obj(["tile"], tile=_tile), text("Pálmafa letéve", "Palm tree placed")),
    "palace-placed": EventSpec(_obj(["tile"], tile=_tile), text("Palota letéve", "Palace placed")),
    "goods-bought": EventSpec(_obj(["cards"], cards={"type": "array", "minItems": 1, "maxItems": 2, "items": _card}),
                              text("Vásárlás a piacon", "Market purchase")),
    "djinn-taken": EventSpec(_obj(["djinn", "pay"], djinn=_djinn, pay={"enum": ["elders", "elder-fakir"]}),
                             text("Dzsinn megszerezve", "Djinn taken")),
    "djinn-used": EventSpec(_obj(["djinn", "pay"], djinn=_djinn, pay={"enum": list(PAYMENTS)},
                                 tile=_tile, card=_card, keep=_djinn),
                            text("Dzsinn képessége", "Djinn power used")),
    "goods-sold": EventSpec(_obj(["goods"], goods=_goods), text("Árueladás", "Merchandise sold")),
    "turn-ended": EventSpec(_obj([], no_move={"type": "boolean"}), text("Kör vége", "Turn ended")),
    "round-ended": EventSpec(_obj([], djinns={"type": "array", "maxItems": 3, "items": _djinn},
                                  cards={"type": "array", "maxItems": 9, "items": _card}),
                             text("Forduló vége, sorok feltöltve", "Round ended, displays refilled")),
    "sheet-entered": EventSpec(_obj(
        ["seat", "gold", "viziers", "elders", "djinns", "palms", "palaces", "goods", "fakirs"],
        seat=_seat, gold=_count(10_000), viziers=_count(TRIBES["vizier"]["count"]),
        elders=_count(TRIBES["elder"]["count"]),
        djinns={"type": "array", "maxItems": 22, "items": _djinn},
        palms=_count(PALM_TREES), palaces=_count(PALACES),
        tiles={"type": "object", "additionalProperties": False,
               "properties": {k: _count(v["count"]) for k, v in TILES.items()}},
        tile_vp=_count(500), goods=_goods, fakirs=_count(FAKIRS)),
        text("Pontozólap kitöltve", "Score sheet entered")),
}


def score(state: dict) -> dict[int, list[ScorePart]]:
    everyone = holdings_all(state)
    return {seat: holdings_parts(seat, everyone, sources(state, seat)) for seat in range(state["n"])}


def is_over(state: dict) -> bool:
    return state["over"]


# A board as laid at a table (counts as the 30 tiles), used by the demo and the examples.
DEMO_BOARD = (["village", "sacred-6", "oasis", "small-market", "large-market", "village"]
              + ["small-market", "oasis", "sacred-10", "village", "small-market", "oasis"]
              + ["large-market", "small-market", "village", "sacred-6", "oasis", "small-market"]
              + ["sacred-12", "oasis", "small-market", "large-market", "sacred-6", "village"]
              + ["small-market", "sacred-15", "large-market", "oasis", "small-market", "sacred-6"])
DEMO_CARDS = ["fish", "wheat", "pottery", "silk", "spice", "fakir", "ivory", "gold", "jewels"]


def _sheet(seat, **kw) -> dict:
    base = {"seat": seat, "gold": 0, "viziers": 0, "elders": 0, "djinns": [], "palms": 0, "palaces": 0,
            "goods": {}, "fakirs": 0}
    return base | kw


def demo():
    """Two rounds kept turn by turn, then finished on the score sheet at the table."""
    players = [{"name": "Peti", "colour": "red"}, {"name": "Zoli", "colour": "blue"},
               {"name": "Gerda", "colour": "green"}]
    moves = [
        ("board-laid", {"tiles": DEMO_BOARD, "djinns": ["Enki", "Jafaar", "Sloar"], "cards": DEMO_CARDS}),
        ("bid-placed", {"seat": 0, "cost": 3}), ("bid-placed", {"seat": 1, "cost": 1}),
        ("bid-placed", {"seat": 2, "cost": 0}),
        ("meeples-moved", {"tile": 2, "tribe": "elder", "count": 3, "emptied": True}),
        ("palm-placed", {"tile": 2}), ("turn-ended", {}),
        ("meeples-moved", {"tile": 1, "tribe": "elder", "count": 3}),
        ("djinn-taken", {"djinn": "Enki", "pay": "elders"}),
        ("djinn-used", {"djinn": "Enki", "pay": "elder", "tile": 7}), ("turn-ended", {}),
        ("meeples-moved", {"tile": 3, "tribe": "merchant", "count": 2}),
        ("goods-bought", {"cards": ["pottery"]}),
        ("goods-sold", {"goods": {"fish": 1, "wheat": 1, "pottery": 1}}), ("turn-ended", {}),
        ("round-ended", {"djinns": ["Haurvatat"], "cards": ["fish", "papyrus", "silk"]}),
        ("bid-placed", {"seat": 0, "cost": 0}), ("bid-placed", {"seat": 1, "cost": 0}),
        ("bid-placed", {"seat": 2, "cost": 0}),
        ("meeples-moved", {"tile": 0, "tribe": "builder", "count": 2, "emptied": True}),
        ("palace-placed", {"tile": 0}), ("turn-ended", {}),
        ("meeples-moved", {"tile": 4, "tribe": "assassin", "count": 2, "victims": [{"seat": 0, "tribe": "elder"}]}),
        ("turn-ended", {}),
        ("sheet-entered", _sheet(0, gold=47, elders=3, palms=1, tiles={"oasis": 1})),
        ("sheet-entered", _sheet(1, gold=49, djinns=["Enki"])),
        ("sheet-entered", _sheet(2, gold=60, palaces=1, tile_vp=5, goods={"silk": 1}, fakirs=1)),
    ]
    return players, {}, moves


GAME = GameKind(
    kind="five-tribes", title=text("Five Tribes – Naqala dzsinnjei", "Five Tribes"),
    min_players=2, max_players=4, rules_version=1, event_types=EVENT_TYPES,
    setup=setup, check=check, apply=apply, score=score, is_over=is_over,
    describe=describe, parse_form=parse_form, categories=CATEGORIES,
    has_board=True, demo=demo,
)
