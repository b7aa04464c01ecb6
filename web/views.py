"""Rendering helpers shared by the pages: the table page and its fragments,
refusals, public links and their QR codes, form parsing."""
from __future__ import annotations

import io
import json
import secrets
from urllib.parse import urlsplit

import qrcode
import qrcode.image.svg
from flask import current_app, has_request_context, make_response, redirect, render_template, request, url_for
from flask_wtf.csrf import generate_csrf as csrf_token
from markupsafe import Markup

from events.application import integrity, trust
from events.application.loaded import RECENT, LoadedTable, load_table
from events.application.states import describe
from events.application.table import STALE
from events.domain.core_types import CLOCK_EVENTS, CORE_EVENTS
from events.domain.projection import TableState, last_move, open_disputes, scoreboard
from events.storage import store
from scoring import get_game
from scoring.base import FormError, GameKind, Problem
from scoring.i18n import joined, msg
from web import address, partial, timing
from web.db import caches, get_db, get_states
from web.i18n import current_lang, day, tr
from web.seating import seat_cookie

STALE_FORM = Problem("core §2", msg("Someone else recorded a move meanwhile, so yours was not saved. Below: what changed, and what to do with yours."))
MEANWHILE_SHOWN = 5
CLOCK_ENDPOINTS = ("pages.pause", "pages.resume", "pages.timer")
# The routes of forms in the shared regions (web/rendered.py): Undo and Void in the log,
# the score pad's cells, the clock's break and timer.
SHARED_FORMS = ("pages.undo", "pages.void", *CLOCK_ENDPOINTS)
SCOREBOARD_PARTS = 12
# The query flag of a page's stream and poll that takes a move's regions alone (static/live.js
# checks that they fit the table it shows); a page without it gets the whole live region.
# The move form's hidden fields that are the page's, not the move's: a stale form's Save
# gets them afresh (templates/_stale.html), a kept form by its answer (_move_form_fields.html)
PER_MOVE = ("csrf_token", "expected_seq", "client_event_id", "form_key")
REGIONS = "regions"  # per player on the table page; the final page lists every part


def is_htmx() -> bool:
    return (request.headers.get("HX-Request") == "true"
            and request.headers.get("HX-History-Restore-Request") != "true")


def public_url(path: str) -> str:
    """``path`` as phones reach it: PUBLIC_URL when set (behind a proxy, or a name the
    phones know), else the address this request came to, or this machine's LAN address
    when that was a loopback (web/address.py); outside a request (a command) the path
    alone when PUBLIC_URL is not set."""
    base = address.configured() or current_app.config.get("PUBLIC_URL")
    if not base and has_request_context():
        base = address.phone_base(request.host_url, urlsplit(request.host_url).hostname or "",
                                  request.environ.get("SERVER_NAME", ""),
                                  request.environ.get("SERVER_PORT", ""), request.scheme)
    return (base or "").rstrip("/") + path


def loopback_host(url: str) -> str | None:
    """The link's host when it is a loopback (a phone opening it reaches itself, not us)."""
    host = urlsplit(url).hostname or ""
    return host if address.is_loopback(host) else None


def join_url(game_id: str, code: str) -> str:
    return public_url(url_for("pages.join", game_id=game_id, code=code))


def watch_url(game_id: str) -> str:
    """The table page: a read-only link for spectators (it carries no join code)."""
    return public_url(url_for("pages.table", game_id=game_id))


def hand_url(game_id: str, code: str) -> str:
    """A one-time link handing a seat to a new phone (events/application/seats.py hand_over)."""
    return public_url(url_for("seats.hand", game_id=game_id, code=code))


def qr_svg(url: str, box_size: int = 10) -> bytes:
    """A QR code of ``url`` as an SVG document (our own markup: safe to inline)."""
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=box_size, border=2)
    buffer = io.BytesIO()
    image.save(buffer)
    return buffer.getvalue()


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
            raise FormError([Problem("core §1", msg("Invalid option: %(name)s.", name=option.name))])
        return choices[raw]
    if isinstance(option.default, bool):
        return raw in ("1", "on", "true")
    if isinstance(option.default, int):
        try:
            return int(raw)
        except ValueError:
            raise FormError([Problem("core §1", msg("%(label)s: a whole number is needed.", label=option.label))]) from None
    return raw


def visible_state(table: TableState, seat: int | None) -> dict:
    """The folded state as the phone of ``seat`` (None: a spectator) may see it: the
    game's ``redact`` hides what is secret from other seats (Maharaja's gold)."""
    redact = table.rules.redact
    return redact(table.game, seat) if redact else table.game


def record_marks(db, game_id: str, row: dict | None = None) -> dict:
    """What base.html says above a game's page, read by the page's loader: ``unverified``,
    the warning when the game's record does not verify, and ``imported_game``, the mark of an
    imported game that counts nowhere yet. Reads the game's row (unless ``row``, read
    already) and the events after the verified prefix: none on a warm page."""
    row = row if row is not None else store.game_row(db, game_id)
    broken = caches().verified.unverified_by_row(db, game_id, row)
    return {"unverified": integrity.warning(broken) if broken else None,
            "imported_game": trust.mark(db, game_id) if row and row["imported_from"] else None}


def game_view(table: TableState, read=None, last=None) -> dict:
    """What the game's templates need, derived from the folded facts at render time, and
    from the last move the game's view highlights: ``last``, as a table page loaded it
    (events/application/loaded.py), or found with ``read(first, last)`` (the game's events)."""
    rules = table.rules
    if rules.view is None:
        return {}
    if rules.last_of is None:
        return rules.view(table.game, list(table.players), options=table.options)
    if read is not None:
        last = last_move(table, read, *rules.last_of)
    return rules.view(table.game, list(table.players), options=table.options, last=last)


def board_parts(table: TableState, view: dict, seat: int | None) -> list[dict] | None:
    """The board's parts as this phone's view shows them (``Presentation.board_parts``), or
    None for a board that is not made of parts."""
    parts = table.rules.board_parts
    return parts(table.game, view, table.players, seat) if parts else None


def table_context(loaded: LoadedTable, seat: int | None, shared: bool = False, newest: int | None = None) -> dict:
    """What the table page's templates render. ``shared``: the regions go to every phone
    of the same view (web/rendered.py), so nothing in them is this phone's alone — its
    CSRF token travels in the ``X-CSRFToken`` header htmx sends (base.html), the forms'
    submission ids are the view's and the routes make them the seat's (``seat_scoped``).
    ``newest``: only that many of the log's entries, newest first (a move's answer sends its own)."""
    game_id, table = loaded.game_id, loaded.table
    rows = [{"event": e, "text": loaded.text(e),
             "who": table.players[e.seat]["name"] if e.seat is not None and e.seat < len(table.players) else "",
             "void": table.voided.get(e.seq), "flag": table.flagged.get(e.seq),
             "is_move": e.seq in table.game_seqs or e.seq in table.photos}
            for e in list(reversed(loaded.recent))[:newest]]
    watch = watch_url(game_id)
    view = game_view(table, last=loaded.last_move)
    handed = loaded.revoked_seat if seat is None else None
    page_args = {name: value for name, value in (request.args.items() if has_request_context() else ())
                 if name not in ("seq", "done", REGIONS)}
    return {"game_id": game_id, "table": table, "game": table.rules, "seat": seat,
            "view": view, "board_parts": board_parts(table, view, seat),
            "standings": scoreboard(table, SCOREBOARD_PARTS), "recent": rows, "recent_count": len(loaded.recent),
            "over": table.rules.is_over(table.game),
            "join_url": join_url(game_id, loaded.join_code), "watch_url": watch,
            "loopback_host": loopback_host(watch),
            "handed_away": table.players[handed]["name"] if handed is not None and handed < len(table.players) else None,
            "client_event_id": secrets.token_hex(16), "undo_move": _undo_move(loaded),
            "form_key": partial.form_key(table, view, seat, current_lang(), page_args),
            "form_token": "" if shared else csrf_token(),
            "open_disputes": loaded.open_disputes, "voided_lately": _voided_lately(table),
            "problems": [], "form": {}, "at": None, "ack": None,
            "clock": timing.clock_view(loaded.clock, table, seat), "nav": _nav(loaded),
            "imported_game": loaded.import_mark,
            "unverified": integrity.warning(loaded.unverified) if loaded.unverified else None}


def _nav(loaded: LoadedTable) -> dict:
    """What the table page's audit strip shows (templates/_table_nav.html); it is part of
    the live region, so it stays cheap: the score race is a lazy image, left out for a
    record that does not verify."""
    table = loaded.table
    current = get_game(table.kind)
    return {"disputes": [{"seq": seq, **d} for seq, d in open_disputes(table).items()],
            "rescore": current is not None and current.rules_version > table.rules_version,
            "race": loaded.unverified is None, "photos": photo_list(loaded.game_id, table)}


def photo_list(game_id: str, table: TableState, about: str | None = None,
               dispute: int | None = None) -> list[dict]:
    """The game's photos that are not void, newest first (``about``/``dispute``: only
    those), each with the addresses of its thumbnail and full image."""
    shown = []
    for seq, photo in sorted(table.photos.items(), reverse=True):
        if seq in table.voided or (about and photo["about"] != about) or \
                (dispute is not None and photo.get("dispute") != dispute):
            continue
        shown.append({**photo, "thumb_url": url_for("photos.image", game_id=game_id, sha256=photo["thumb_sha256"]),
                      "url": url_for("photos.image", game_id=game_id, sha256=photo["sha256"]),
                      "who": table.players[photo["seat"]]["name"] if photo["seat"] is not None else ""})
    return shown


def _voided_lately(table: TableState) -> bool:
    """Whether one of the recent events voided a move: only a void reopens an ended game,
    so only then do live updates carry the form's way back (templates/_live.html)."""
    return any(void["by"] > table.seq - RECENT for void in table.voided.values())


def _undo_move(loaded: LoadedTable) -> dict | None:
    """The move the Undo button takes back, so the button can name it ("Undo #17: …")."""
    target = loaded.undo_target
    return {"seq": target.seq, "text": loaded.text(target)} if target else None


def seat_scoped(client_event_id: str, seat: int) -> str:
    """A submission id of a shared form (``SHARED_FORMS``: the same bytes on every seated
    phone of a view) made this seat's: two seats tapping Undo at once make two submissions
    (the second is stale), one seat's two phones one."""
    return f"{client_event_id[:60]}@{seat}"


def refused_at() -> str:
    """Which form a refusal answers ("move", "undo", "void-<seq>"): its message is shown
    beside that form's button, where the thumb is, not at the top of the page."""
    if request.endpoint in CLOCK_ENDPOINTS:
        return "clock"
    if request.endpoint == "pages.void":
        return f"void-{(request.view_args or {}).get('target')}"
    if request.endpoint == "photos.upload":
        return "photo"
    return "undo" if request.endpoint == "pages.undo" else "move"


def acknowledgement(loaded: LoadedTable, seq) -> dict | None:
    """A brief "done" for the phone that just recorded event ``seq`` ("✓ #18: Round
    closed"), shown where the refusal would have been; None for any other number."""
    table = loaded.table
    event = loaded.event(seq) if isinstance(seq, int) and 1 < seq <= table.seq else None
    if event is None:
        return None
    over = table.rules.is_over(table.game)
    core = CORE_EVENTS.get(event.type)
    if core is not None and core.voids(event.data) and "target" in event.data:  # an undo or a void
        target = event.data["target"]
        verb = msg("Undone") if event.data.get("undo") else msg("Voided")
        what = loaded.text(loaded.event(target))
        return {"seq": seq, "at": "undo", "over": over,
                "text": joined("", (verb, f" #{target}: ", what))}
    what = loaded.text(event)
    here = "clock" if event.type in CLOCK_EVENTS else "photo" if event.type == "photo-attached" \
        else "undo" if over else "move"
    return {"seq": seq, "at": here, "over": over and here == "undo",
            "text": joined("", (f"#{seq}: ", what))}


def _load(game_id: str, table: TableState | None, seat, done=None) -> LoadedTable:
    loaded = load_table(get_db(), get_states(), game_id, table, request.cookies.get(seat_cookie(game_id)),
                        seated=seat is not None, done=done, verified=caches().verified)
    return loaded


def view_of(table: TableState, seat: int | None) -> tuple:
    """Which phones see the same live region: spectators, seated phones, and each seat
    apart where the game hides something from the others (``redact``) or its form is the
    seat's own (``form_per_seat``); per language."""
    if seat is None:
        who = "watch"
    elif table.rules.form_per_seat or (
            table.rules.redact and table.rules.redact(table.game, seat) != table.rules.redact(table.game, None)):
        who = seat
    else:
        who = "seated"
    return who, current_lang()


def _shared_request() -> bool:
    """Whether this request may get the view's shared regions: nothing in its address
    changes them (a board step being drawn, ``?path=``, changes Five Tribes' board)."""
    return set(request.args) <= {"seq", "done", REGIONS}


def live_region(loaded: LoadedTable, seat, ctx: dict | None = None) -> Markup:
    """The ``#live`` section (scoreboard, board, audit strip) of this phone's view,
    rendered once per move and view (web/rendered.py)."""
    table = loaded.table

    def render() -> str:
        return render_template("_live_region.html", **(ctx or table_context(loaded, seat, shared=True)))
    key = (loaded.game_id, table.seq, *view_of(table, seat), "region")
    return Markup(caches().rendered.get(key, render))


def shared_log(loaded: LoadedTable, seat, ctx: dict) -> Markup:
    """The log's entries of this phone's view, rendered once per move and view
    (web/rendered.py): the tapping phone's answer and every push of the view share them."""
    def render() -> str:
        return render_template("_log_entries.html", **ctx)
    key = (loaded.game_id, loaded.table.seq, *view_of(loaded.table, seat), "log")
    return Markup(caches().rendered.get(key, render))


def shared_form(loaded: LoadedTable, seat, ctx: dict) -> Markup | None:
    """The move form's fields of this phone's view, for a game that pushes its form to every
    seated phone (``_form_fields.html``): rendered once per move and view, shared by the
    tapping phone's answer and the pushes. None for a game without them, a spectator, or a
    game that is over (no form is shown then)."""
    rules = loaded.table.rules
    if seat is None or "_form_fields.html" not in rules.templates or rules.is_over(loaded.table.game):
        return None

    def render() -> str:
        return render_template(f"games/{loaded.table.kind}/_form_fields.html", **(ctx | {"form": {}}))
    key = (loaded.game_id, loaded.table.seq, *view_of(loaded.table, seat), "form")
    return Markup(caches().rendered.get(key, render))


def _shared_parts(loaded: LoadedTable, seat, ctx: dict, form: bool = True) -> dict:
    """What of ``ctx``'s answer is the view's (the log; the form's fields unless something is typed)."""
    parts = {"shared_log": shared_log(loaded, seat, ctx)}
    fields = shared_form(loaded, seat, ctx) if form else None
    return parts | ({"shared_form": fields} if fields is not None else {})


def render_table(game_id: str, table: TableState, seat, status: int = 200,
                 problems=(), form=None, done=None):
    loaded = _load(game_id, table, seat, done)
    fragment = is_htmx()
    ctx = table_context(loaded, seat, shared=fragment) | {
        "problems": list(problems), "form": form or {}, "at": refused_at() if problems else None,
        "ack": acknowledgement(loaded, done)}
    ack = ctx["ack"]
    shareable = fragment and not problems and not form and _shared_request()
    if shareable and not (ack and ack["at"] == "undo"):  # an undo's or a void's answer sits in the log
        ctx |= _shared_parts(loaded, seat, ctx | {"ack": None})
    if shareable and not (ack and ack["at"] == "clock"):
        ctx["live_region"] = live_region(loaded, seat, ctx | {"ack": None})
    else:  # a full page (its forms carry the phone's token) or a board drawn for this request
        ctx["live_region"] = Markup(render_template("_live_region.html", **ctx))
    if not problems and not form and _shared_request():
        _seen(game_id, table, seat, ctx)
    name = "_table_body.html" if fragment else "table.html"
    response = make_response(render_template(name, **ctx), status)
    response.headers["Vary"] = "HX-Request"
    # Back or Forward to the table fetches it again: a copy from the browser's cache showed
    # the position it was first loaded at, and a move made on it was refused as stale
    response.headers["Cache-Control"] = "no-store"
    return response


def render_live(game_id: str, table: TableState, seat, shown: int | None = None) -> tuple[str, str]:
    """What a stream pushes and a poll fetches after a change, and which it is: to a page that
    shows the table just before its newest move (``shown``, said by a page that takes them),
    the regions the move changed ("regions", ``pushed_regions``); else the live region and,
    out of band, the log and the form's ``expected_seq`` ("live"). Once per move and view, shared."""
    if shown is not None and shown == table.seq - 1:
        regions = pushed_regions(game_id, table, seat)
        if regions is not None:
            return "regions", regions
    loaded = None

    def render() -> str:
        nonlocal loaded
        loaded = loaded or _load(game_id, table, seat)
        ctx = table_context(loaded, seat, shared=True)
        _seen(game_id, table, seat, ctx)
        return render_template("_live.html", oob=True, live_region=live_region(loaded, seat, ctx),
                               **(ctx | _shared_parts(loaded, seat, ctx, form=_shared_request())))
    if not _shared_request():
        return "live", render()
    return "live", caches().rendered.get((game_id, table.seq, *view_of(table, seat), "live"), render)


def refuse(game_id: str, table: TableState, seat, status: int, problems):
    """Show what was wrong beside the form, keeping what the phone typed."""
    return render_table(game_id, table, seat, status, problems, request.form)


def refuse_stale(game_id: str, table: TableState, seat, expected: int):
    """A move filled in against an older table (its ``expected_seq``): not recorded, and the
    answer says what was recorded meanwhile and by whose phone, what the typed move would
    record on the table as it is now, and offers the choice (save it now / discard /
    compare). The form comes back with what was typed, aimed at the current table."""
    if refused_at() != "move":
        return refuse(game_id, table, seat, 409, [STALE])
    ctx = table_context(_load(game_id, table, seat), seat, shared=is_htmx()) | {
        "problems": [STALE_FORM], "form": request.form, "at": "move"}
    ctx["live_region"] = Markup(render_template("_live_region.html", **ctx))
    ctx["stale"] = stale_choice(game_id, table, seat, expected, render_template("_move_form.html", **ctx))
    name = "_table_body.html" if is_htmx() else "table.html"
    response = make_response(render_template(name, **ctx), 409)
    response.headers["Vary"] = "HX-Request"
    return response


def stale_choice(game_id: str, table: TableState, seat, expected: int, fresh_form: str) -> dict:
    """What the stale answer shows: the moves since the form's table, the typed move as it
    was meant (parsed as typed) and as Save would now record it (the typed fields with what
    the fresh form aims at: the round, the step), with the rules' word on it."""
    since = max(0, min(expected, table.seq)) if expected >= 0 else table.seq
    events = store.read_events(get_db(), game_id, after=max(since, table.seq - MEANWHILE_SHOWN), upto=table.seq)
    said = get_states().words(get_db(), game_id, events)
    meanwhile = [{"seq": e.seq, "text": said[e.seq],
                  "who": table.players[e.seat]["name"] if e.seat is not None and e.seat < len(table.players) else None}
                 for e in events]
    fields = form_fields(fresh_form)
    now = request.form.copy()
    for name, value in fields["hidden"].items():
        now.setlist(name, [value])
    submitter = [(k, v) for k, v in request.form.items(multi=True)
                 if k not in fields["names"] and k not in PER_MOVE][:2]
    sent = [(k, v) for k, v in now.items(multi=True) if k not in PER_MOVE]
    return {"meanwhile": meanwhile, "more": table.seq - since - len(meanwhile), "since": since,
            "typed": _typed_move(table, seat, request.form), "now": _typed_move(table, seat, now),
            "submitter": submitter, "fields": [f for f in sent if f not in submitter][:200]}


def _typed_move(table: TableState, seat, form) -> dict:
    """The move these fields make on the current table: its words, and the problems the form
    parser or the rules find with it (none: Save would record it)."""
    from events.application.table import check_move, parse_move
    from events.domain.event import Event
    try:
        type_, data = parse_move(table, form)
    except FormError as err:
        return {"text": None, "problems": err.problems}
    problems = check_move(table, type_, data)
    if type_ not in table.rules.event_types:
        return {"text": None, "problems": problems}
    event = Event(table.seq + 1, type_, table.rules.event_types[type_].version, data, seat, "", "", "", "")
    try:
        words = describe(table, event)  # the move not recorded, said on the table it would be made on
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):  # a refused move may not be sayable
        words = None
    return {"text": words, "problems": problems}


def form_fields(html: str) -> dict:
    """The fields of a rendered form: every field's name, and the hidden ones' values (what
    the phone sends without the player seeing it); a disabled field is sent by no form."""
    from html.parser import HTMLParser
    found = {"names": set(), "hidden": {}}

    class Fields(HTMLParser):
        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if tag in ("input", "select", "textarea") and a.get("name") and "disabled" not in a:
                found["names"].add(a["name"])
                if tag == "input" and a.get("type") == "hidden":
                    found["hidden"][a["name"]] = a.get("value") or ""

    Fields().feed(html)
    return found


def after_write(game_id: str, seat, seq: int):
    """The table again, saying briefly what was recorded: with htmx only the regions the move
    changed where the page is known to show the table just before it (web/partial.py), else
    the whole fragment; without JS a redirect whose ``done`` names the event, so a reload
    of the page never posts twice."""
    if is_htmx():  # the table after the tap's own event, as its record left it here; else the store's
        table = get_states().newest(game_id, seq) or get_states().load(get_db(), game_id)
        return partial_answer(game_id, table, seat, seq) or render_table(game_id, table, seat, done=seq)
    if request.args.get("alliances"):  # the part of the form the tap came from stays open (_move_form.html)
        return redirect(url_for("pages.table", game_id=game_id, done=seq, alliances=1, _anchor="han-alliances"), code=303)
    return redirect(url_for("pages.table", game_id=game_id, done=seq), code=303)


def partial_answer(game_id: str, table: TableState, seat, seq: int):
    """The answer to the game's move ``seq`` as the regions it changed, or None when the
    whole fragment is the answer: not the table's newest move, or no move's regions
    (``_move_regions``)."""
    found = _move_regions(game_id, table, seat) if seat is not None and seq == table.seq else None
    if found is None:
        return None
    loaded, ctx, before = found
    ctx["ack"] = acknowledgement(loaded, seq)
    if ctx["ack"] is None or ctx["ack"]["at"] != "move":
        return None
    # the form this phone tapped shows what the next one would: it stays, and gets only its
    # per-move hidden fields (a fresh client_event_id, or the next tap would be taken for this one)
    kept = bool(ctx["form_key"]) and request.form.get("form_key") == ctx["form_key"]
    fields = None if kept else shared_form(loaded, seat, ctx | {"ack": None})
    if fields is not None:
        ctx["shared_form"] = fields
    keys = partial.region_keys(ctx)
    caches().seen.put(game_id, view_of(table, seat), table.seq, keys)
    if any(request.form.get(field) for field in table.rules.drawn_by):  # this phone's board was drawn for it
        before = before | {"parts": None}
    response = partial.answer(ctx, before, keys, form_kept=kept)
    response.headers["Vary"] = "HX-Request"
    response.headers["Cache-Control"] = "no-store"
    return response


def pushed_regions(game_id: str, table: TableState, seat) -> str | None:
    """The push of the table's newest move to a page of ``seat``'s view that shows the table
    just before it: the regions the move changed and, as a whole push, the parts of the move
    form that follow the table (web/partial.py). Rendered once per move and view, shared by
    every phone of the view; None when such a page gets the whole live region."""
    def render() -> str:
        found = _move_regions(game_id, table, seat)
        if found is None:
            return ""
        loaded, ctx, before = found
        fields = shared_form(loaded, seat, ctx)
        if fields is not None:
            ctx["shared_form"] = fields
        keys = partial.region_keys(ctx)
        caches().seen.put(game_id, view_of(table, seat), table.seq, keys)
        if table.rules.drawn_by:  # a page may show a board drawn for it (Five Tribes' path): the board whole
            before = before | {"parts": None}
        return partial.regions(ctx, before, keys, push=True)
    return caches().rendered.get((game_id, table.seq, *view_of(table, seat), "regions"), render) or None


def _move_regions(game_id: str, table: TableState, seat) -> tuple[LoadedTable, dict, dict] | None:
    """What the regions of the table's newest move are rendered from for a page of ``seat``'s
    view that shows the table just before it — the table loaded, its context with the newest
    log entry alone, the region keys of the table before — or None where the whole table is
    sent: the first moves (the join code is shown open until then), the table before not
    rendered for this view here, a core event (undo, void, clock, photo), the game's end."""
    seq = table.seq
    before = caches().seen.at(game_id, view_of(table, seat), seq - 1)
    if seq < 3 or not _shared_request() or before is None or before["over"]:
        return None
    loaded = _load(game_id, table, seat, done=seq)
    event = loaded.event(seq)
    if event is None or event.type not in table.rules.event_types:
        return None
    ctx = table_context(loaded, seat, shared=True, newest=1)
    return None if ctx["over"] else (loaded, ctx, before)


def _seen(game_id: str, table: TableState, seat, ctx: dict) -> None:
    """The region keys of the table this view now shows, for the next move's answer."""
    caches().seen.put(game_id, view_of(table, seat), table.seq, partial.region_keys(ctx))


HOME_PAGE_SIZE = 50


def _titles(db, rows: list[dict]) -> dict[str, dict]:
    """Listed games' names: the one its options give (a score pad kept for "Carcassonne",
    read from its first event — one read for every such game of the list), else its
    kind's title."""
    games = {row["id"]: get_game(row["kind"]) for row in rows}
    named = [game_id for game_id, game in games.items() if game is not None and game.named is not None]
    created = store.events_of_types(db, named, ("game-created",))
    titles = {}
    for row in rows:
        game = games[row["id"]]
        if game is None:
            titles[row["id"]] = {"hu": row["kind"], "en": row["kind"]}
        else:
            first = created.get(row["id"])
            titles[row["id"]] = game.title_for(first[0].data.get("options", {})) if first else game.title
    return titles


def game_names(db, game_ids) -> dict[str, str]:
    """Each game as a player knows it, "Han · 2026. nov. 27.", for pages that name games
    (the roster's log); a game that is not here (a BG Stats play) keeps its id."""
    rows = store.game_rows(db, sorted({g for g in game_ids if isinstance(g, str)}))
    titles = _titles(db, rows)
    return {row["id"]: f"{tr(titles[row['id']])} · {day(row['created_at'])}" for row in rows}


def game_summaries(db, finished: bool, page: int) -> tuple[list[dict], bool]:
    """One page of running or finished games for the home page, and whether more follow."""
    rows = store.list_games(db, finished, HOME_PAGE_SIZE + 1, page * HOME_PAGE_SIZE)
    titles = _titles(db, rows[:HOME_PAGE_SIZE])
    games = [{**row, "players": json.loads(row["players"]), "title": titles[row["id"]]}
             for row in rows[:HOME_PAGE_SIZE]]
    return games, len(rows) > HOME_PAGE_SIZE
