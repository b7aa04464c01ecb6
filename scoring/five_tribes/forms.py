"""Five Tribes phone form → event, and events → a sentence for the log (HU/EN).

The form (templates/games/five-tribes/_form.html) is one HTML form; every button names
its event type in ``action``; field names are unique per section, so only the section
of the pressed button is read here. Tiles are named as players read them, A1–F5.
Malformed input raises ``FormError``.
"""
from __future__ import annotations

import secrets

from scoring.base import Move, text
from scoring.five_tribes.data import (CARD_KINDS, CELLS, COLOURS, DJINNS, GOODS, MEEPLES_PER_TILE, PAYMENT_LABELS,
                                      PAYMENTS, TILE_INDEX, TILE_NAMES, TILES, TRIBES, card_label, deal,
                                      distance, dropped, hand_of, rule, tapped_drops, typed_drops, walk)
from scoring.forms import fail, form_choice, form_int, form_list, player_name
from scoring.i18n import joined
from scoring.i18n import msg, msgp

FIELD = msg("Field")
TILE = msg("Tile")


def _num(form, name: str, label=FIELD, required: bool = False) -> int:
    """A count that may be left empty (0), never negative."""
    if not required and not (form.get(name) or "").strip():
        return 0
    return form_int(form, name, label, low=0)


def _choice(form, name: str, allowed, optional: bool = False, label=FIELD):
    return form_choice(form, name, allowed, label, optional)


def _tile(form, name: str, optional: bool = False) -> str | None:
    """A tile by name; lower case is read too ("b3")."""
    raw = (form.get(name) or "").strip().upper()
    return _choice({name: raw}, name, TILE_NAMES, optional, TILE)


def _path(raw: str) -> list[str]:
    """ "B2 B3 c3" (spaces, commas or dots between) → tile names."""
    out = []
    for word in raw.replace(",", " ").replace(".", " ").split():
        word = word.upper()
        if word not in TILE_INDEX:
            fail(msg("Path: unknown tile “%(value)s” (A1–F5).", value=word[:8]))
        out.append(word)
    return out


def _counts(form, prefix: str, kinds) -> dict[str, int]:
    return {k: n for k in kinds if (n := _num(form, f"{prefix}{k}", text(k, k)))}


def _cards(form, names) -> list[str]:
    return [c for c in (_choice(form, n, CARD_KINDS, optional=True) for n in names) if c]


def parse_form(state: dict, form) -> tuple[str, dict]:
    # The last tap of a path on the board, or of the meeples dropped along it, submits the move
    # itself when nothing is left to choose (its button names only the tile or the meeple).
    action = form.get("action") or ("meeples-moved" if form.get("tap") or form.get("drop") else "")
    parser = PARSERS.get(action)
    if parser is None:
        fail(msg("Unknown action."))
    return parser(state, form)


def _displays(form) -> dict:
    djinns = [d for d in (_choice(form, f"djinn_row_{i}", DJINNS, True) for i in range(3)) if d]
    return {"djinns": djinns, "cards": _cards(form, [f"card_row_{i}" for i in range(9)])}


def _board(state, form):
    """The sultanate as the table laid it: each tile's kind and its 3 meeples (§2)."""
    missing = [TILE_NAMES[i] for i in range(CELLS) if form.get(f"tile_{i}") not in TILES]
    if missing:
        fail(msg("Give every tile its kind (missing: %(value)s).", value=' '.join(missing)))
    short = [TILE_NAMES[i] for i in range(CELLS)
             if any(form.get(f"meeple_{i}_{k}") not in TRIBES for k in range(MEEPLES_PER_TILE))]
    if short:
        fail(msg("Every tile holds 3 meeples (incomplete: %(value)s).", value=' '.join(short)))
    tiles = [form[f"tile_{i}"] for i in range(CELLS)]
    meeples = [[form[f"meeple_{i}_{k}"] for k in range(MEEPLES_PER_TILE)] for i in range(CELLS)]
    return "board-laid", {"tiles": tiles, "meeples": meeples} | _displays(form)


def _dealt(state, form):
    """The app deals the tiles and the meeples from a fresh random seed, recorded (§2)."""
    raw = (form.get("seed") or "").strip()
    seed = int(raw) if raw.isdigit() and len(raw) <= 15 else secrets.randbits(48)
    tiles, meeples = deal(seed)
    return "board-laid", {"tiles": tiles, "meeples": meeples, "seed": seed} | _displays(form)


def _bid(state, form):
    if state["next"]["step"] != "bid":
        fail(msgp("form", "It is not time to bid."))
    seat = state["bid_order"][len(state["bids"])]
    data = {"seat": seat, "cost": _num(form, "cost", msgp("noun", "Bid"), required=True)}
    if fakirs := _num(form, "bid_fakirs", msg("Fakirs")):
        data["fakirs"] = fakirs
    return "bid-placed", data


def _move(state, form):
    if state.get("meeples") is None:
        return _move_entered(state, form)
    path = _path(form.get("tap") or form.get("path") or "")
    data: dict = {"path": path}
    if len(path) >= 2:
        indexes = [TILE_INDEX[t] for t in path]
        drops = _drops(form, state["meeples"], indexes)
        data["drops"] = drops
        if len(drops) == len(path) - 1:
            done = walk(state["meeples"], indexes, drops)
            data |= {"tile": path[-1], "tribe": done["tribe"], "count": done["count"], "emptied": done["emptied"]}
    tribe = data.get("tribe")
    if tribe == "builder" and (fakirs := _num(form, "move_fakirs", msg("Fakirs"))):
        data["fakirs"] = fakirs
    if tribe == "merchant" and not state.get("displays"):
        data["cards"] = [k for k, n in _counts(form, "mcard_", CARD_KINDS).items() for _ in range(n)]
    if tribe == "assassin":
        data |= _kills(state, form, data)
    return "meeples-moved", data


def _drops(form, meeples, indexes) -> list[str]:
    """The tribe dropped on each step, in the order the table tapped the meeples (``drops``
    and the ``drop`` just tapped), completed only where the rules leave no choice; a form of
    an earlier version names each step (``drop_1``…). The app proposes no order (§4)."""
    steps = len(indexes) - 1
    chosen = [form.get(f"drop_{i}") for i in range(1, steps + 1)]
    if any(chosen):
        return [_choice(form, f"drop_{i}", TRIBES, label=msg("Step %(i)s", i=i)) for i in range(1, steps + 1)]
    if sum(hand_of(meeples, indexes[0]).values()) != steps:
        return []   # the path is as long as the hand or check says why not
    typed = typed_drops(form, steps)
    tapped = tapped_drops(meeples, indexes, typed)
    if tapped != typed:
        fail(msg("The meeples cannot have been dropped in that order: after %(before)s, no legal move drops %(tribe)s next.",
                 before=joined(", ", [COLOURS[t] for t in tapped]) if tapped else msg("picking them up"),
                 tribe=COLOURS.get(typed[len(tapped)], "?")), rule(4))
    drops, _ = dropped(meeples, indexes, tapped)
    if len(drops) < steps:
        fail(msg("Tap the meeples in the order they were dropped: %(left)s still to tap.", left=steps - len(drops)), rule(4))
    return drops


def _kills(state, form, data) -> dict:
    """Assassins (§4): the victims tapped; the fakirs discarded are the fewest that reach the
    farthest victim unless the player says more."""
    victims = [v for v in (_victim(form, "victim"), _victim(form, "victim2")) if v]
    out = {"victims": victims}
    if card := _choice(form, "victim_card", CARD_KINDS, optional=True):
        for v in victims:
            if v["tribe"] == "merchant":
                v["card"] = card
    far = max((distance(TILE_INDEX[v["tile"]], TILE_INDEX[data["tile"]]) for v in victims if "tile" in v), default=0)
    fakirs = _num(form, "move_fakirs", msg("Fakirs")) or max(0, far - data["count"])
    if fakirs:
        out["fakirs"] = fakirs
    return out


def _victim(form, name: str) -> dict | None:
    """ "tile:D5:assassin" or "seat:1:vizier"."""
    raw = (form.get(name) or "").strip()
    if not raw:
        return None
    parts = raw.split(":")
    if len(parts) != 3 or parts[2] not in TRIBES:
        fail(msg("Victim: not a valid choice."))
    where, place, tribe = parts
    if where == "tile" and place in TILE_INDEX:
        return {"tile": place, "tribe": tribe}
    if where == "seat" and place in ("0", "1", "2", "3"):
        return {"seat": int(place), "tribe": tribe}
    fail(msg("Victim: not a valid choice."))


def _move_entered(state, form):
    """A game whose meeples the app does not track (§13): the table enters the move's result."""
    tribe = _choice(form, "tribe", TRIBES)
    data = {"tile": _tile(form, "move_tile"), "tribe": tribe,
            "count": _num(form, "count", msg("Number of meeples"), required=True),
            "emptied": bool(form.get("emptied"))}
    if tribe in ("builder", "assassin") and (fakirs := _num(form, "move_fakirs", msg("Fakirs"))):
        data["fakirs"] = fakirs
    if path := _path(form.get("path") or ""):
        data["path"] = path
    if tribe == "merchant" and not state.get("displays"):
        data["cards"] = [k for k, n in _counts(form, "mcard_", CARD_KINDS).items() for _ in range(n)]
    if tribe == "assassin":
        data["victims"] = [v for v in (_entered_victim(form, "v1_"), _entered_victim(form, "v2_")) if v]
    return "meeples-moved", data


def _entered_victim(form, prefix: str) -> dict | None:
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
        return kind, {"tile": TILE_NAMES[here] if target is None and here is not None else target}
    return parse


def _buy(state, form):
    cards = _cards(form, ["buy_0", "buy_1"])
    if not cards:   # else the payload's schema refuses it in its own words ("cards": at least 1 item)
        fail(msg("Choose the card to buy: none is chosen."), rule(5))
    return "goods-bought", {"cards": cards}


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
    drawn = [m for m in (_choice(form, f"use_meeple_{i}", TRIBES, True) for i in range(3)) if m]
    if drawn:
        data["meeples"] = drawn
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
        fail(msg("Unknown djinn."))
    data = {"seat": seat, "djinns": djinns,
            "goods": _counts(form, "s_goods_", GOODS), "tiles": _counts(form, "s_tiles_", TILES)}
    for key, label in (("gold", msgp("sheet field", "Gold")), ("viziers", msgp("sheet field", "Viziers")),
                       ("elders", msgp("sheet field", "Elders")), ("palms", msgp("sheet field", "Palm trees")),
                       ("palaces", msgp("sheet field", "Palaces")), ("fakirs", msgp("sheet field", "Fakirs")),
                       ("tile_vp", msgp("sheet field", "Tiles' VP"))):
        data[key] = _num(form, f"s_{key}", label)
    return "sheet-entered", data


PARSERS = {
    "board-laid": _board, "board-dealt": _dealt, "bid-placed": _bid, "meeples-moved": _move,
    "palm-placed": _building("palm-placed"), "palace-placed": _building("palace-placed"),
    "goods-bought": _buy, "djinn-taken": _take, "djinn-used": _use, "goods-sold": _sell,
    "turn-ended": lambda s, f: ("turn-ended", {}),
    "turn-ended-no-move": lambda s, f: ("turn-ended", {"no_move": True}),
    "round-ended": _round, "sheet-entered": _sheet,
}


# ---------------------------------------------------------------- the log

def _list(cards) -> dict[str, str]:
    """Resource cards named in every language; – for none."""
    return joined(", ", [card_label(c) for c in cards]) if cards else joined("", ["–"])


def describe(move: Move, players: list[dict], state: dict | None = None,
             options: dict | None = None) -> dict[str, str]:
    d, t = move.data, move.type
    if t == "board-laid":
        if "seed" in d:
            return msg("The sultanate laid (5 × 6 tiles, dealt from seed %(seed)s)", seed=d["seed"])
        if "meeples" in d:
            return msg("The sultanate laid (5 × 6 tiles, with its 90 meeples)")
        return msg("The sultanate laid (5 × 6 tiles)")
    if t == "bid-placed":
        who = player_name(players, d["seat"])
        fk = f" ({d['fakirs']} fakír, Kumarbi)" if d.get("fakirs") else ""
        return msg("%(who)s bids %(cost)s%(fk)s", who=who, cost=d['cost'], fk=fk)
    if t == "meeples-moved":
        return _describe_move(d)
    if t in ("palm-placed", "palace-placed"):
        label = EVENT_LABEL[t]
        return msg("%(label)s: %(tile)s", label=label, tile=d['tile'])
    if t == "goods-bought":
        return msg("Bought: %(cards)s", cards=_list(d["cards"]))
    if t == "djinn-taken":
        p = PAYMENT_LABELS[d["pay"]]
        return msg("Djinn: %(djinn)s (%(p)s)", djinn=d['djinn'], p=p)
    if t == "djinn-used":
        p = PAYMENT_LABELS[d["pay"]]
        at = f" → {d['tile']}" if "tile" in d else f" → {d['keep']}" if "keep" in d else ""
        if "card" in d:
            at = joined("", [" → ", card_label(d["card"])])
        return joined("", [msg("%(djinn)s's power (%(pay)s)", djinn=d["djinn"], pay=p), at])
    if t == "goods-sold":
        cards = [k for k, n in d["goods"].items() for _ in range(n)]
        return msg("Sold: %(cards)s", cards=_list(cards))
    if t == "turn-ended" and d.get("no_move"):
        return msg("Turn ended: no legal move")
    if t == "sheet-entered":
        who = player_name(players, d["seat"])
        return msg("%(who)s's score sheet", who=who)
    return dict(EVENT_LABEL[t])


def _describe_move(d) -> dict[str, str]:
    path = " → ".join(d.get("path", [])) if "drops" in d else ""
    if not {"tile", "tribe", "count"} <= set(d):   # a tracked move sent with its path only
        return msg("Move: %(value)s", value=path or '?')
    where, tribe = d["tile"], TRIBES[d["tribe"]]["label"]
    route = f" ({path})" if path else ""
    said = msg("Move: %(tile)s, %(count)s %(tribe)s", tile=where, count=d["count"], tribe=tribe)
    return joined("", [said, msg(" – emptied") if d.get("emptied") else "", route])


EVENT_LABEL = {
    "palm-placed": msg("Palm tree"), "palace-placed": msg("Palace"),
    "turn-ended": msg("Turn ended"),
    "round-ended": msg("Round ended, displays refilled"),
}
