"""The phone's language and the texts in it: gettext catalogs through Flask-Babel.

Templates say ``_("New game")`` (English is the msgid; ``ngettext`` for a count,
``pgettext`` where another language says the same English two ways); the games hand
``{lang: text}`` mappings made from the same catalogs (``scoring/i18n.py``), which
``tr`` shows in the phone's language. The catalogs are translations/<lang>/LC_MESSAGES/
messages.po (docs/translating.md); a new one is a new language, with no code change."""
import os
from datetime import datetime
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import tzlocal
from flask import current_app, g, request, url_for
from babel.dates import format_date
from babel.numbers import format_decimal
from flask_babel import Babel, get_translations, gettext, ngettext, pgettext

from scoring.i18n import CATALOGS, DEFAULT, LANGS, catalog
from web.assets import HTMX_FILE, MORPH_FILE, NOSLEEP_FILE, SSE_FILE


def table_zone(configured: str | None = None) -> str:
    """The time zone of the table's clock: ``configured`` (the TIMEZONE environment variable,
    README) when it names one, else the host machine's own (tzlocal: TZ, /etc/localtime…),
    else UTC; the pages, the BG Stats files and the CSV all read it from config TIMEZONE."""
    for name in (configured, _machine_zone()):
        try:
            if name:
                ZoneInfo(name)
                return name
        except (ValueError, ZoneInfoNotFoundError):
            continue
    return "UTC"


def _machine_zone() -> str | None:
    try:
        return tzlocal.get_localzone_name()
    except (ValueError, LookupError, OSError):  # LookupError: zoneinfo's ZoneInfoNotFoundError
        return None  # a machine with no zone set, or one tzlocal cannot name


def current_lang() -> str:
    lang = g.get("lang")  # one lookup through the proxy: a page asks a few hundred times
    if lang is None:
        lang = request.args.get("lang") or request.cookies.get("lang")
        if lang not in LANGS:
            lang = request.accept_languages.best_match(LANGS) or DEFAULT
        g.lang = lang
    return lang


def tr(texts) -> str:
    """A ``{lang: text}`` mapping in the phone's language. One that lacks it (a text stored in
    Hungarian and English, like a board profile's name) shows its English through the catalog:
    a shipped name is a message the catalog translates; a name a table typed stays as typed."""
    if not texts:
        return ""
    said = texts.get(current_lang())
    if said:
        return said
    english = texts.get("en") or ""
    return gettext(english) if english else ""


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


def _local(recorded_at: str, fmt, fallback: slice) -> str:
    """A server time (UTC) on the table's wall clock and calendar (config TIMEZONE), written
    by ``fmt`` (a strftime pattern, or a function of the local moment)."""
    try:
        moment = datetime.fromisoformat(recorded_at)
        local = moment.astimezone(ZoneInfo(current_app.config["TIMEZONE"]))
        return local.strftime(fmt) if isinstance(fmt, str) else fmt(local)
    except (ValueError, OverflowError, TypeError, ZoneInfoNotFoundError):
        # Whatever was stored renders: the recorded text as it is (docs/reliability.md).
        return str(recorded_at)[fallback].replace("T", " ")


def _date(local: datetime) -> str:
    """The date as the phone's language writes it (Babel, CLDR): 2026. nov. 26. · Nov 26, 2026 ·
    26.11.2026."""
    return format_date(local.date(), format="medium", locale=current_lang())


def number(value) -> str:
    """A figure as the phone's language writes it: 7, 7.5 or 7,5 (never 7.0); – for none."""
    if value is None:
        return "–"
    if isinstance(value, float):
        return format_decimal(round(value, 1), format="0.#", locale=current_lang())
    return str(value)


def local_iso(recorded_at: str) -> str:
    """A server time as the table's wall clock with its offset ("2026-11-26T21:04:05+01:00"):
    the moment itself, readable where the table played (the CSV of the plays)."""
    try:
        moment = datetime.fromisoformat(recorded_at)
        if moment.tzinfo is None:  # never stored so; read as UTC rather than guessed local
            moment = moment.replace(tzinfo=ZoneInfo("UTC"))
        zone = ZoneInfo(current_app.config["TIMEZONE"])
        return moment.astimezone(zone).isoformat(timespec="seconds")
    except (ValueError, OverflowError, TypeError, ZoneInfoNotFoundError):
        return str(recorded_at)


def clock(recorded_at: str) -> str:
    return _local(recorded_at, "%H:%M:%S", slice(11, 19))


def day(recorded_at: str) -> str:
    """The table's date (after 23:00 UTC it is already the next day in Budapest), written as
    the phone's language writes dates."""
    return _local(recorded_at, _date, slice(0, 10))


def day_and_clock(recorded_at: str) -> str:
    """The date as ``day``, and the time on the 24-hour clock every table reads."""
    return _local(recorded_at, lambda local: f"{_date(local)} {local:%H:%M}", slice(0, 16))


def _bound_to_the_language() -> dict:
    """``_``, ``ngettext``, ``pgettext`` and ``tr`` bound to this request's language and its
    catalog, once per template rendered: a table page calls them a few hundred times, and
    each call looked the language up through Flask's context proxies (a tenth of rendering a
    tap's answer). Macros imported without the context keep the global ones (Flask-Babel's),
    which answer the same."""
    lang = current_lang()
    said_in = catalog(lang)

    def bound_gettext(string: str, **variables) -> str:
        said = said_in.gettext(string)
        return said % variables if variables else said

    def bound_ngettext(singular: str, plural: str, num, **variables) -> str:
        variables.setdefault("num", num)
        return said_in.ngettext(singular, plural, num) % variables

    def bound_pgettext(context: str, string: str, **variables) -> str:
        said = said_in.pgettext(context, string)
        return said % variables if variables else said

    def bound_tr(texts) -> str:
        if not texts:
            return ""
        said = texts.get(lang)
        if said:
            return said
        english = texts.get("en") or ""
        return said_in.gettext(english) if english else ""  # as tr: a stored name through the catalog
    return {"tr": bound_tr, "_": bound_gettext, "gettext": bound_gettext, "ngettext": bound_ngettext,
            "pgettext": bound_pgettext}


def load_catalogs(app) -> None:
    """Each language's catalog read into Flask-Babel's cache, as a worker does before it
    serves (app.py:worker_ready): otherwise a worker's first page in a language reads it."""
    for lang in LANGS:
        with app.test_request_context(f"/?lang={lang}"):
            get_translations()


def init_app(app) -> None:
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", CATALOGS)
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT)
    Babel(app, locale_selector=current_lang)
    for lang in LANGS:
        catalog(lang)  # compiled now if a .po is newer than its .mo: pages and games say the same
    from events.domain.palette import COLOURS
    app.context_processor(_bound_to_the_language)
    from web.timing import duration
    app.jinja_env.filters.update(clock=clock, day=day, day_and_clock=day_and_clock, duration=duration)
    app.jinja_env.globals.update(colours=COLOURS, htmx_file=HTMX_FILE, sse_file=SSE_FILE, morph_file=MORPH_FILE,
                                 nosleep_file=NOSLEEP_FILE, tr=tr, current_lang=current_lang, LANGS=LANGS,
                                 problem_text=problem_text, game_css=game_css, lang_next=lang_next,
                                 # plain strings, escaped like any value (Flask-Babel's own Jinja
                                 # callables return Markup: a catalog could then write HTML)
                                 _=gettext, gettext=gettext, ngettext=ngettext, pgettext=pgettext)
