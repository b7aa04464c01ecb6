"""A tap's answer, and its push to the other phones, carry only what the move changed.

The whole table fragment was the answer to every move, and rendering it was most of a
tap's CPU. A move of the game changes a few regions of the table page: the clock (whose
turn), the standings rows whose data changed, the board, its new log entry (and the one
the log no longer shows), the Undo button that now names it, and the next move form. The
answer is those regions alone, each an out-of-band swap by its stable id (htmx's
``hx-swap-oob``; ``HX-Reswap: none`` leaves the rest of the page as it is), so its size and
its rendering do not grow with the game.

Which standings rows and whether the audit strip changed is decided from the data the
regions render — a key per region of the table as the same view last rendered it, kept in
the app's ``Seen`` — not from the kind of move. Where no such key of the move before is at
hand (another worker rendered it, the phone's view is new), where the move is not a move of
the game (an undo, a void, the clock, a photo), where it ends the game, or where the answer
is not the plain one (a refusal, a board drawn for this request), the answer is the whole
fragment as before; without JavaScript it is the redirect to the whole page.

The other phones of the table get the same regions pushed (web/views.py ``pushed_regions``,
web/stream.py), rendered once per move and view, where their page shows the table just
before the move; each region is morphed into its place there, as the whole push morphs the
live region, so an open part or a typed text stays, and instead of the tapping phone's next
form the push carries the form's parts a whole push sends (templates/_live_forms.html).
"""
from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

import orjson
from flask import make_response, render_template

SEEN = 4096  # (game, view) pairs whose region keys a server process keeps


class Seen:
    """Per game and view (web/views.py ``view_of``), the seq of the table last rendered for
    it and a key per region of that table, and those of the table just before it: what the
    next move's answer, and each push of that move, compares with (the tapping phone's
    answer and the pushes of its view render the move in either order)."""

    def __init__(self, size: int = SEEN):
        self.size = size
        self._kept: OrderedDict[tuple, tuple[tuple[int, dict], tuple[int, dict] | None]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str, view: tuple) -> tuple[int, dict] | None:
        with self._lock:
            kept = self._kept.get((game_id, *view))
            return kept[0] if kept is not None else None

    def at(self, game_id: str, view: tuple, seq: int) -> dict | None:
        """The region keys of the view's table at ``seq``, if they are among the two kept."""
        with self._lock:
            for known in self._kept.get((game_id, *view)) or ():
                if known is not None and known[0] == seq:
                    return known[1]
            return None

    def put(self, game_id: str, view: tuple, seq: int, keys: dict) -> None:
        with self._lock:
            key = (game_id, *view)
            last, before = self._kept.get(key) or (None, None)
            if last is None or seq > last[0]:
                self._kept[key] = ((seq, keys), last)
            elif seq == last[0]:
                self._kept[key] = ((seq, keys), before)
            elif before is None or seq > before[0]:
                self._kept[key] = (last, (seq, keys))  # a newer table of this view was rendered meanwhile
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def __len__(self) -> int:
        return len(self._kept)

    def forget(self) -> None:
        with self._lock:
            self._kept.clear()


def region_keys(ctx: dict) -> dict:
    """A key per region of the table page whose data does not change with every move: the
    standings' order, each player's row (with the turn times it shows), the audit strip."""
    seats = (ctx.get("clock") or {}).get("seats") or {}
    keys = {"order": tuple(row["seat"] for row in ctx["standings"]), "nav": _key(ctx["nav"]),
            "over": ctx["over"]}
    for row in ctx["standings"]:
        keys[f"row-{row['seat']}"] = _key((row, seats.get(row["seat"])))
    return keys | board_keys(ctx)


def board_keys(ctx: dict) -> dict:
    """A board made of parts (``Presentation.board_parts``: its ``_board_part.html`` renders
    each from its data alone): the parts' ids, the frame (the players the parts name and the
    parts with no id, what the board shows around its parts), and a key per part, its data. The score pad (``_board_parts.html``: its view lists its ``rows`` by ``round``,
    with ``hidden`` earlier ones and its ``totals``): which rounds it shows, and a key per
    round. Any other board is sent whole with each move of the game (its view is the game's state)."""
    parts = ctx.get("board_parts")
    if parts is not None:
        framed = [part for part in parts if part["id"] is None]  # what the board around its parts shows
        keys = {"parts": "parts", "ids": [part["id"] for part in parts if part["id"] is not None],
                "frame": _key((ctx["table"].players, framed))}
        keys.update((f"part-{part['id']}", _key(part)) for part in parts if part["id"] is not None)
        return keys
    view = ctx["view"]
    if "_board_parts.html" not in ctx["game"].templates:
        return {"parts": False}
    keys = {"parts": "rows", "rounds": [row["round"] for row in view["rows"]], "hidden": view["hidden"],
            "totals": _key(view["totals"])}
    keys.update((f"round-{row['round']}", _key(row)) for row in view["rows"])
    return keys


def _key(data) -> bytes:
    """A region's data as a short digest to compare and keep (``Seen`` keeps one per region
    of each of its 4,096 views): of orjson's bytes, several times faster than ``repr`` on
    nested dicts (Maharaja's 30 villages: repr was a fifth of a tap's CPU; the standings'
    rows and the score pad's rounds another tenth), or of ``repr`` for what orjson refuses."""
    try:
        data = orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        data = repr(data).encode()
    return hashlib.blake2b(data, digest_size=16).digest()


def form_key(table, view: dict, seat, lang: str, args: dict) -> str:
    """The move form's key, from all the data it renders from when nothing is typed
    (``Presentation.form_data``; the players, the seat, the language, the page's address
    besides): the form a phone shows carries it (templates/_move_form.html) and posts it with
    the move; an answer whose form would have the key posted keeps that form and sends only
    its per-move hidden fields (``regions``). "" for a game without ``form_data``, a spectator
    or a game that is over: the form whole."""
    data = table.rules.form_data
    if data is None or seat is None or table.rules.is_over(table.game):
        return ""
    return _key((table.kind, table.players, seat, lang, sorted(args.items()), data(table.game, view))).hex()


def changed_regions(before: dict, now: dict, seq: int, recent: int) -> dict:
    """What the answer sends, from the keys of the table before the move and after it."""
    order_moved = before["order"] != now["order"]
    rows = [seat for seat in now["order"] if before.get(f"row-{seat}") != now[f"row-{seat}"]]
    same_board = now["parts"] and before.get("parts") == now["parts"]
    return {"scoreboard": order_moved, "rows": rows, "nav": before["nav"] != now["nav"],
            "board": _board_parts(before, now) if same_board and now["parts"] == "rows" else None,
            "board_parts": _changed_parts(before, now) if same_board and now["parts"] == "parts" else None,
            "gone": seq - recent if seq - recent >= 1 else None}


def _changed_parts(before: dict, now: dict) -> list[str] | None:
    """The ids of the board's parts whose data a move changed; None (the board whole) when
    its parts or the players they name are others."""
    if before["ids"] != now["ids"] or before["frame"] != now["frame"]:
        return None
    return [part for part in now["ids"] if before[f"part-{part}"] != now[f"part-{part}"]]


def _board_parts(before: dict, now: dict) -> dict:
    """The rounds a move changed, added and no longer shown, and whether the totals and the
    count of earlier rounds changed."""
    shown = set(before["rounds"])
    return {"changed": [r for r in now["rounds"] if r in shown and before[f"round-{r}"] != now[f"round-{r}"]],
            "added": [r for r in now["rounds"] if r not in shown],
            "dropped": sorted(shown - set(now["rounds"])),
            "totals": before["totals"] != now["totals"], "hidden": before["hidden"] != now["hidden"]}


def regions(ctx: dict, before: dict, keys: dict, push: bool = False, form_kept: bool = False) -> str:
    """The regions a move changed, each out of band (templates/_partial.html): for the
    tapping phone with its next move form, or (``form_kept``: the form it tapped shows what
    the next one would) the form's per-move hidden fields and its outcome alone; for a
    ``push`` to the other phones with what a whole push changes in their forms, the regions
    morphed as the whole push morphs them."""
    table = ctx["table"]
    changed = changed_regions(before, keys, table.seq, ctx["recent_count"]) | {"form_kept": form_kept}
    shown = {seat: row for row in ctx["standings"] for seat in [row["seat"]]}
    changed["rows"] = [shown[seat] for seat in changed["rows"]]
    board = changed["board"]
    if board is not None:
        rounds = {row["round"]: row for row in ctx["view"]["rows"]}
        board["changed"] = [rounds[r] for r in board["changed"]]
        board["added"] = [rounds[r] for r in board["added"]]
    if changed["board_parts"] is not None:
        parts = {part["id"]: part for part in ctx["board_parts"] if part["id"] is not None}
        changed["board_parts"] = [parts[part] for part in changed["board_parts"]]
    return render_template("_partial.html", changed=changed, push=push, **ctx)


def answer(ctx: dict, before: dict, keys: dict, form_kept: bool = False):
    """The answer to a move: its changed regions, out of band (templates/_partial.html)."""
    response = make_response(regions(ctx, before, keys, form_kept=form_kept))
    response.headers["HX-Reswap"] = "none"  # only the out-of-band regions are swapped
    return response
