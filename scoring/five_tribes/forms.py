"""Five Tribes phone form → event, and events → a sentence for the log (HU/EN).

The form (templates/games/five-tribes/_form.html) is one HTML form; every button names
its event type in ``action``; field names are unique per section, so only the section
of the pressed button is read here. Malformed input raises ``FormError``.
"""
from __future__ import annotations

from scoring.base import Move, text
from scoring.five_tribes.data import (CARD_KINDS, COLS, DJINNS, GOODS, PAYMENT_LABELS, PAYMENTS, ROWS,
                                      TILES, TRIBES, card_label, tile_name)
from scoring.forms import fail, form_choice, form_int, form_list, player_name

FIELD = text("Mező", "Field")


def _num(form, name: str, label=FIELD, required: bool = False) -> int:
    """A count that may be left empty (0), never negative."""
    if not required and not (form.get(name) or "").strip():
        return 0
    return form_int(form, name, label, low=0)


def _choice(form, name: str, allowed, optional: bool = False):
    return form_choice(form, name, allowed, FIELD, optional)


def _tile(form, name: str, optional: bool = False) -> int | None:
    raw = _choice(form, name, [str(i) for i in range(ROWS * COLS)], optional)
    return None if raw is None else int(raw)


def _path(raw: str) -> list[int]:
    """ "B2 B3 c3" → tile indexes (column letter, row number)."""
    out = []
    for word in raw.replace(",", " ").split():
        word = word.upper()
        if len(word) != 2 or word[0] not in "ABCDEF" or word[1] not in "12345":
            fail(f"Útvonal: ismeretlen lapka „{word}” (pl. B3).", f"Path: unknown tile “{word}” (e.g. B3).")
        out.append((int(word[1]) - 1) * COLS + "ABCDEF".index(word[0]))
    return out


def _counts(form, prefix: str, kinds) -> dict[str, int]:
    return {k: n for k in kinds if (n := _num(form, f"{prefix}{k}", text(k, k)))}


def _cards(form, names) -> list[str]:
    return [c for c in (_choice(form, n, CARD_KINDS, optional=True) for n in names) if c]


def parse_form(state: dict, form) -> tuple[str, dict]:
    action = form.get("action", "")
    parser = PARSERS.get(action)
    if parser is None:
        fail("Ismeretlen művelet.", "Unknown action.")
    return parser(state, form)


def _board(state, form):
    missing = [tile_name(i) for i in range(ROWS * COLS) if form.get(f"tile_{i}") not in TILES]
    if missing:
        fail(f"Add meg minden lapka típusát (hiányzik: {' '.join(missing)}).",
              f"Give every tile its kind (missing: {' '.join(missing)}).")
    tiles = [form[f"tile_{i}"] for i in range(ROWS * COLS)]
    djinns = [d for d in (_choice(form, f"djinn_row_{i}", DJINNS, True) for i in range(3)) if d]
    return "board-laid", {"tiles": tiles, "djinns": djinns, "cards": _cards(form, [f"card_row_{i}" for i in range(9)])}


def _bid(state, form):
    if state["next"]["step"] != "bid":
        fail("Most nincs licit.", "It is not time to bid.")
    seat = state["bid_order"][len(state["bids"])]
    data = {"seat": seat, "cost": _num(form, "cost", text("Licit", "Bid"), required=True)}
    if fakirs := _num(form, "bid_fakirs", text("Fakírok", "Fakirs")):
        data["fakirs"] = fakirs
    return "bid-placed", data


def _move(state, form):
    tribe = _choice(form, "tribe", TRIBES)
    data = {"tile": _tile(form, "move_tile"), "tribe": tribe,
            "count": _num(form, "count", text("Figurák száma", "Number of meeples"), required=True),
            "emptied": bool(form.get("emptied"))}
    if tribe in ("builder", "assassin") and (fakirs := _num(form, "move_fakirs", text("Fakírok", "Fakirs"))):
        data["fakirs"] = fakirs
    if path := _path(form.get("path") or ""):
        data["path"] = path
    if tribe == "merchant" and not state.get("displays"):
        data["cards"] = [k for k, n in _counts(form, "mcard_", CARD_KINDS).items() for _ in range(n)]
    if tribe == "assassin":
        data["victims"] = [v for v in (_victim(form, "v1_"), _victim(form, "v2_")) if v]
    return "meeples-moved", data


def _victim(form, prefix: str) -> dict | None:
    tile, seat = _tile(form, prefix + "tile", True), form.get(prefix + "seat") or ""
    if tile is None and not seat:
        return None
    victim = {"tribe": _choice(form, prefix + "tribe", TRIBES)}
    if tile is not None:
        victim["tile"] = tile
        victim["emptied"] = bool(form.get(prefix + "emptied"))
    else:
        victim["seat"] = int(_choice(form, prefix + "seat", ["0", "1", "2", "3"]))
    if card := _choice(form, prefix + "card", CARD_KINDS, optional=True):
        victim["card"] = card
    return victim


def _building(kind):
    def parse(state, form):
        here = state["next"].get("tile")
        target = _tile(form, "target", optional=True)
        return kind, {"tile": here if target is None else target}
    return parse


def _buy(state, form):
    return "goods-bought", {"cards": _cards(form, ["buy_0", "buy_1"])}


def _take(state, form):
    return "djinn-taken", {"djinn": _choice(form, "take_djinn", DJINNS),
                           "pay": _choice(form, "take_pay", ("elders", "elder-fakir"))}


def _use(state, form):
    name = _choice(form, "use_djinn", DJINNS)
    data = {"djinn": name, "pay": _choice(form, "use_pay", PAYMENTS)}
    if (tile := _tile(form, "use_tile", True)) is not None:
        data["tile"] = tile
    if card := _choice(form, "use_card", CARD_KINDS, True):
        data["card"] = card
    if keep := _choice(form, "use_keep", DJINNS, True):
        data["keep"] = keep
    return "djinn-used", data


def _sell(state, form):
    return "goods-sold", {"goods": _counts(form, "sell_", GOODS)}


def _round(state, form):
    djinns = [d for d in (_choice(form, f"new_djinn_{i}", DJINNS, True) for i in range(3)) if d]
    return "round-ended", {"djinns": djinns, "cards": _cards(form, [f"new_card_{i}" for i in range(9)])}


def _sheet(state, form):
    seat = int(_choice(form, "sheet_seat", [str(i) for i in range(state["n"])]))
    djinns = form_list(form, "sheet_djinn")
    if any(d not in DJINNS for d in djinns):
        fail("Ismeretlen dzsinn.", "Unknown djinn.")
    data = {"seat": seat, "djinns": djinns,
            "goods": _counts(form, "s_goods_", GOODS), "tiles": _counts(form, "s_tiles_", TILES)}
    for key, hu, en in (("gold", "Arany", "Gold"), ("viziers", "Vezírek", "Viziers"), ("elders", "Vének", "Elders"),
                        ("palms", "Pálmafák", "Palm trees"), ("palaces", "Paloták", "Palaces"),
                        ("fakirs", "Fakírok", "Fakirs"), ("tile_vp", "Lapkák GyP", "Tiles' VP")):
        data[key] = _num(form, f"s_{key}", text(hu, en))
    return "sheet-entered", data


PARSERS = {
    "board-laid": _board, "bid-placed": _bid, "meeples-moved": _move,
    "palm-placed": _building("palm-placed"), "palace-placed": _building("palace-placed"),
    "goods-bought": _buy, "djinn-taken": _take, "djinn-used": _use, "goods-sold": _sell,
    "turn-ended": lambda s, f: ("turn-ended", {}),
    "turn-ended-no-move": lambda s, f: ("turn-ended", {"no_move": True}),
    "round-ended": _round, "sheet-entered": _sheet,
}


# ---------------------------------------------------------------- the log

def _list(cards, lang) -> str:
    return ", ".join(card_label(c)[lang] for c in cards) or "–"


def describe(move: Move, players: list[dict], state: dict | None = None) -> dict[str, str]:
    d, t = move.data, move.type
    if t == "board-laid":
        return text("A szultánság lerakva (5 × 6 lapka)", "The sultanate laid (5 × 6 tiles)")
    if t == "bid-placed":
        who = player_name(players, d["seat"])
        fk = f" ({d['fakirs']} fakír, Kumarbi)" if d.get("fakirs") else ""
        return text(f"{who} licitje: {d['cost']}{fk}", f"{who} bids {d['cost']}{fk}")
    if t == "meeples-moved":
        where, tribe = tile_name(d["tile"]), TRIBES[d["tribe"]]["label"]
        camel = (" – kiürítve", " – emptied") if d.get("emptied") else ("", "")
        return text(f"Lépés: {where}, {d['count']} {tribe['hu']}{camel[0]}",
                    f"Move: {where}, {d['count']} {tribe['en']}{camel[1]}")
    if t in ("palm-placed", "palace-placed"):
        label = EVENT_LABEL[t]
        return text(f"{label['hu']}: {tile_name(d['tile'])}", f"{label['en']}: {tile_name(d['tile'])}")
    if t == "goods-bought":
        return text(f"Vásárlás: {_list(d['cards'], 'hu')}", f"Bought: {_list(d['cards'], 'en')}")
    if t == "djinn-taken":
        p = PAYMENT_LABELS[d["pay"]]
        return text(f"Dzsinn: {d['djinn']} ({p['hu']})", f"Djinn: {d['djinn']} ({p['en']})")
    if t == "djinn-used":
        p = PAYMENT_LABELS[d["pay"]]
        at = f" → {tile_name(d['tile'])}" if "tile" in d else f" → {d['keep']}" if "keep" in d else ""
        if "card" in d:
            at = (f" → {card_label(d['card'])['hu']}", f" → {card_label(d['card'])['en']}")
        at = at if isinstance(at, tuple) else (at, at)
        return text(f"{d['djinn']} képessége ({p['hu']}){at[0]}", f"{d['djinn']}'s power ({p['en']}){at[1]}")
    if t == "goods-sold":
        cards = [k for k, n in d["goods"].items() for _ in range(n)]
        return text(f"Eladva: {_list(cards, 'hu')}", f"Sold: {_list(cards, 'en')}")
    if t == "turn-ended" and d.get("no_move"):
        return text("Kör vége: nincs szabályos lépés", "Turn ended: no legal move")
    if t == "sheet-entered":
        who = player_name(players, d["seat"])
        return text(f"{who} pontozólapja", f"{who}'s score sheet")
    return dict(EVENT_LABEL[t])


EVENT_LABEL = {
    "palm-placed": text("Pálmafa", "Palm tree"), "palace-placed": text("Palota", "Palace"),
    "turn-ended": text("Kör vége", "Turn ended"),
    "round-ended": text("Forduló vége, sorok feltöltve", "Round ended, displays refilled"),
}
