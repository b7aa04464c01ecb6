"""Hungarian and English. Texts sit next to each other where they are used:
``t("Új játék", "New game")`` in templates, ``{"hu": ..., "en": ...}`` from games."""
import os
from datetime import datetime
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import current_app, g, request, url_for

from web.assets import HTMX_FILE, MORPH_FILE, NOSLEEP_FILE, SSE_FILE

LANGS = ("hu", "en")
DEFAULT = "hu"  # the tables we serve play in Hungarian


def current_lang() -> str:
    lang = g.get("lang")  # one lookup through the proxy: a page asks a few hundred times
    if lang is None:
        lang = request.args.get("lang") or request.cookies.get("lang")
        if lang not in LANGS:
            lang = request.accept_languages.best_match(LANGS) or DEFAULT
        g.lang = lang
    return lang


def t(hu: str, en: str) -> str:
    return hu if current_lang() == "hu" else en


def tr(texts) -> str:
    if not texts:
        return ""
    return texts.get(current_lang()) or texts.get("en") or ""


def problem_text(problem) -> str:
    """A problem (object or dict) in the phone's language: what is wrong, with its numbers.
    The rule it cites is a link beside it (the ``problem`` macro), never a file name."""
    return tr(problem if isinstance(problem, dict) else problem.as_dict())


def lang_next() -> str:
    """Where the language switch comes back to: this page; after a refused form post
    (shown at the post's address, which answers POST only) the page the form was on."""
    if request.method == "GET":
        return request.full_path
    referrer = urlsplit(request.referrer or "")
    if referrer.netloc == request.host and referrer.path.startswith("/"):
        return referrer.path + (f"?{referrer.query}" if referrer.query else "")
    game_id = (request.view_args or {}).get("game_id")
    return url_for("pages.table", game_id=game_id) if game_id else "/"


def game_css(kind: str) -> str | None:
    """static/games/<kind>.css, when the game ships one."""
    path = os.path.join(current_app.static_folder, "games", f"{kind}.css")
    return url_for("static", filename=f"games/{kind}.css") if os.path.exists(path) else None


def _local(recorded_at: str, fmt: str, fallback: slice) -> str:
    """A server time (UTC) on the table's wall clock and calendar (config TIMEZONE)."""
    try:
        moment = datetime.fromisoformat(recorded_at)
        return moment.astimezone(ZoneInfo(current_app.config.get("TIMEZONE", "Europe/Budapest"))).strftime(fmt)
    except (ValueError, OverflowError, TypeError, ZoneInfoNotFoundError):
        # Whatever was stored renders: the recorded text as it is (docs/reliability.md).
        return str(recorded_at)[fallback].replace("T", " ")


def local_iso(recorded_at: str) -> str:
    """A server time as the table's wall clock with its offset ("2026-11-26T21:04:05+01:00"):
    the moment itself, readable where the table played (the CSV of the plays)."""
    try:
        moment = datetime.fromisoformat(recorded_at)
        if moment.tzinfo is None:  # never stored so; read as UTC rather than guessed local
            moment = moment.replace(tzinfo=ZoneInfo("UTC"))
        zone = ZoneInfo(current_app.config.get("TIMEZONE", "Europe/Budapest"))
        return moment.astimezone(zone).isoformat(timespec="seconds")
    except (ValueError, OverflowError, TypeError, ZoneInfoNotFoundError):
        return str(recorded_at)


def clock(recorded_at: str) -> str:
    return _local(recorded_at, "%H:%M:%S", slice(11, 19))


def day(recorded_at: str) -> str:
    """The table's date (after 23:00 UTC it is already the next day in Budapest)."""
    return _local(recorded_at, "%Y-%m-%d", slice(0, 10))


def day_and_clock(recorded_at: str) -> str:
    return _local(recorded_at, "%Y-%m-%d %H:%M", slice(0, 16))


def _bound_to_the_language() -> dict:
    """``t`` and ``tr`` bound to this request's language, once per template rendered: a
    table page calls them a few hundred times, and each call looked the language up
    through Flask's context proxies (a tenth of rendering a tap's answer). Macros
    imported without the context keep the global ones, which answer the same."""
    lang = current_lang()

    def bound_t(hu: str, en: str) -> str:
        return hu if lang == "hu" else en

    def bound_tr(texts) -> str:
        return (texts.get(lang) or texts.get("en") or "") if texts else ""
    return {"t": bound_t, "tr": bound_tr}


def init_app(app) -> None:
    from events.palette import COLOURS
    app.context_processor(_bound_to_the_language)
    from web.timing import duration
    app.jinja_env.filters.update(clock=clock, day=day, day_and_clock=day_and_clock, duration=duration)
    app.jinja_env.globals.update(colours=COLOURS, htmx_file=HTMX_FILE, sse_file=SSE_FILE, morph_file=MORPH_FILE,
                                 nosleep_file=NOSLEEP_FILE, t=t, tr=tr, current_lang=current_lang, LANGS=LANGS,
                                 problem_text=problem_text, game_css=game_css, lang_next=lang_next)
