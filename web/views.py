"""Rendering helpers shared by the pages: the table page and its fragments,
refusals, seat cookies, form parsing."""
from __future__ import annotations

import json
import os
import secrets

from flask import current_app, make_response, redirect, render_template, request, url_for

from events import store
from events.core_types import CORE_LABELS
from events.projection import TableState, open_disputes, standings, upcast
from events.table import issue_seat_token as _issue
from scoring.base import FormError, GameKind, Problem, text

NOT_SEATED = Problem("core §5", "Csak leült játékos rögzíthet; csatlakozz a QR-kóddal.",
                     "Only a seated phone can record; join with the QR code.")
NOTHING_TO_UNDO = Problem("core §3", "Nincs visszavonható lépés.", "There is no move to undo.")
REASON_NEEDED = Problem("core §3", "Add meg az érvénytelenítés okát.", "Give a reason for the void.")
STALE = Problem("core §2", "Közben valaki más rögzített egy lépést. Nézd meg a táblát, és küldd újra.",
                "Someone else recorded a move meanwhile. Check the board and send again.")
NO_SUCH_SEAT = Problem("core §5", "Válassz egy helyet.", "Choose a seat.")
SEAT_LOCKED = Problem("core §5", "Ezt a helyet a házigazda lezárta.", "The host has locked this seat.")
RECENT = 12  # the rest is one tap away in the timeline
SCOREBOARD_PARTS = 12  # per player on the table page; the final page lists every part


def is_htmx() -> bool:
    return (request.headers.get("HX-Request") == "true"
            and request.headers.get("HX-History-Restore-Request") != "true")


def seat_cookie(game_id: str) -> str:
    return f"seat_{game_id}"


def seat_cookie_path(game_id: str) -> str:
    """A seat cookie goes only to its own game's pages: a phone that has sat at a few
    hundred tables would otherwise send them all with every request, past the 8 KB a
    header field may have (gunicorn then answers 400 to everything)."""
    return url_for("pages.table", game_id=game_id)


def remember_seat(response, game_id: str, token: str) -> None:
    response.set_cookie(seat_cookie(game_id), token, max_age=30 * 86400, httponly=True,
                        samesite="Lax", path=seat_cookie_path(game_id))


def forget_seat(response, game_id: str) -> None:
    for path in (seat_cookie_path(game_id), "/"):  # "/": cookies set before they were scoped
        response.delete_cookie(seat_cookie(game_id), path=path)


def issue_seat_token(db, game_id: str, seat: int) -> str:
    return _issue(db, game_id, seat)


def _public(path: str) -> str:
    base = os.environ.get("PUBLIC_URL") or current_app.config.get("PUBLIC_URL") or request.host_url
    return base.rstrip("/") + path


def join_url(game_id: str, code: str) -> str:
    return _public(url_for("pages.join", game_id=game_id, code=code))


def watch_url(game_id: str) -> str:
    """The table page: a read-only link for spectators (it carries no join code)."""
    return _public(url_for("pages.table", game_id=game_id))


def players_from_form(form) -> list[dict]:
    names = form.getlist("name")
    colours = form.getlist("colour")
    players = []
    for i, name in enumerate(names):
        if name.strip():
            players.append({"name": name.strip(), "colour": colours[i] if i < len(colours) else ""})
    return players


def options_from_form(game: GameKind, form) -> dict:
    if game.parse_options:
        return game.parse_options(form)
    options = {}
    for option in game.options:
        raw = form.get(f"opt_{option.name}")
        if raw is None:
            if isinstance(option.default, bool):
                options[option.name] = False
            continue
        options[option.name] = _coerce_option(option, raw)
    return options


def _coerce_option(option, raw: str):
    choices = {str(c): c for c in option.choices} if option.choices is not None else None
    if choices is not None:
        if raw not in choices:
            raise FormError([Problem("core §1", f"Érvénytelen beállítás: {option.name}.",
                                     f"Invalid option: {option.name}.")])
        return choices[raw]
    if isinstance(option.default, bool):
        return raw in ("1", "on", "true")
    if isinstance(option.default, int):
        try:
            return int(raw)
        except ValueError:
            raise FormError([Problem("core §1", f"{option.label['hu']}: egész szám kell.",
                                     f"{option.label['en']}: a whole number is needed.")]) from None
    return raw


def describe(table: TableState, event) -> dict:
    if event.type in CORE_LABELS:
        return _describe_core(table, event)
    game = table.rules
    return game.describe(upcast(game, event), list(table.players), table.game)


def _describe_core(table: TableState, event) -> dict:
    label = CORE_LABELS[event.type]
    d = event.data
    if event.type == "event-voided":
        what = "visszavonás" if d.get("undo") else d["reason"]
        what_en = "undo" if d.get("undo") else d["reason"]
        return text(f"{label['hu']}: #{d['target']} ({what})", f"{label['en']}: #{d['target']} ({what_en})")
    if event.type in ("dispute-opened",):
        return text(f"{label['hu']}: #{d['target']} – {d['comment']}", f"{label['en']}: #{d['target']} – {d['comment']}")
    return dict(label)


def game_view(table: TableState) -> dict:
    """What the game's templates need, derived from the folded facts at render time."""
    rules = table.rules
    return rules.view(table.game, list(table.players)) if rules.view else {}


def table_context(game_id: str, table: TableState, seat: int | None) -> dict:
    db_events = store.read_events(_db(), game_id, after=max(0, table.seq - RECENT), upto=table.seq)
    rows = [{"event": e, "text": describe(table, e),
             "who": table.players[e.seat]["name"] if e.seat is not None and e.seat < len(table.players) else "",
             "void": table.voided.get(e.seq), "flag": table.flagged.get(e.seq),
             "is_move": e.seq in table.game_seqs}
            for e in reversed(db_events)]
    row = store.game_row(_db(), game_id)
    return {"game_id": game_id, "table": table, "game": table.rules, "seat": seat, "view": game_view(table),
            "standings": standings(table, SCOREBOARD_PARTS), "recent": rows, "over": table.rules.is_over(table.game),
            "join_url": join_url(game_id, row["join_code"]), "watch_url": watch_url(game_id),
            "client_event_id": secrets.token_hex(16),
            "open_disputes": list(open_disputes(table).values())}


def _db():
    from web.db import get_db
    return get_db()


def render_table(game_id: str, table: TableState, seat, status: int = 200,
                 problems=(), form=None):
    ctx = table_context(game_id, table, seat) | {"problems": list(problems), "form": form or {}}
    name = "_table_body.html" if is_htmx() else "table.html"
    response = make_response(render_template(name, **ctx), status)
    response.headers["Vary"] = "HX-Request"
    return response


def render_live(game_id: str, table: TableState, seat):
    return render_template("_live.html", oob=True, **table_context(game_id, table, seat))


def refuse(game_id: str, table: TableState, seat, status: int, problems):
    """Show what was wrong beside the form, keeping what the phone typed."""
    return render_table(game_id, table, seat, status, problems, request.form)


def after_write(game_id: str, seat):
    if is_htmx():
        from events.table import load
        return render_table(game_id, load(_db(), game_id), seat)
    return redirect(url_for("pages.table", game_id=game_id), code=303)


HOME_PAGE_SIZE = 50


def game_summaries(db, finished: bool, page: int) -> tuple[list[dict], bool]:
    """One page of running or finished games for the home page, and whether more follow."""
    from scoring import get_game
    rows = store.list_games(db, finished, HOME_PAGE_SIZE + 1, page * HOME_PAGE_SIZE)
    games = []
    for row in rows[:HOME_PAGE_SIZE]:
        game = get_game(row["kind"])
        games.append({**row, "players": json.loads(row["players"]),
                      "title": game.title if game else {"hu": row["kind"], "en": row["kind"]}})
    return games, len(rows) > HOME_PAGE_SIZE
