"""The games' messages in every language the catalogs hold, without Flask.

English is the source language: a message's English text is its msgid, and
``translations/<lang>/LC_MESSAGES/messages.po`` says it in ``<lang>`` (``make setup``
compiles each to its ``.mo``). A rule module marks a text with ``msg("...")``
(``msgn`` for a count, ``msgp`` with a context) and gets a ``{lang: text}`` mapping
holding every language, which is what the core stores, serves and renders
(``web/i18n.tr`` picks the phone's language). Values are named (``%(name)s``), so a
translation may put them in any order; a value that is itself a ``{lang: text}``
mapping is used in the same language. docs/translating.md says how to add a language.
"""
from __future__ import annotations

import os
from functools import lru_cache
from typing import Any, Mapping

from babel.support import NullTranslations, Translations

CATALOGS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "translations")
SOURCE = "en"
DEFAULT = "hu"  # the tables we serve play in Hungarian


def _found() -> tuple[str, ...]:
    """hu first (the default), then English (the source), then every other catalog, sorted."""
    try:
        there = sorted(d for d in os.listdir(CATALOGS)
                       if os.path.exists(os.path.join(CATALOGS, d, "LC_MESSAGES", "messages.po")))
    except FileNotFoundError:
        there = []
    rest = [lang for lang in there if lang not in (DEFAULT, SOURCE)]
    return (DEFAULT, SOURCE, *rest)


LANGS = _found()


@lru_cache(maxsize=None)  # read once per process: a catalog changes with a new release only
def catalog(lang: str) -> NullTranslations:
    """The compiled catalog of ``lang`` (English: none, the msgids are English)."""
    if lang == SOURCE:
        return NullTranslations()
    compile_if_stale(lang)
    return Translations.load(CATALOGS, [lang])


def compile_if_stale(lang: str) -> None:
    """``make setup`` compiles each .po to its .mo; a .po edited or rebased since then is
    compiled again here, so Flask-Babel (which reads the .mo) and the games agree with it."""
    po = os.path.join(CATALOGS, lang, "LC_MESSAGES", "messages.po")
    mo = po[:-3] + ".mo"
    if not os.path.exists(po) or (os.path.exists(mo) and os.path.getmtime(mo) >= os.path.getmtime(po)):
        return
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    with open(po, "rb") as f:
        compiled = read_po(f, locale=lang)
    tmp = f"{mo}.{os.getpid()}.tmp"
    with open(tmp, "wb") as f:
        write_mo(f, compiled)
    os.replace(tmp, mo)  # atomic: another process never reads half a catalog


def _values(values: Mapping[str, Any], lang: str) -> dict[str, Any]:
    return {k: _in(v, lang) for k, v in values.items()}


def _in(value: Any, lang: str) -> Any:
    """A ``{lang: text}`` mapping's text in ``lang``; any other value as it is. Plain values
    are told apart first: ``isinstance(…, Mapping)`` asks the ABC machinery, ~1 µs a value,
    a few hundred times per tap (the log's rows are described afresh)."""
    if isinstance(value, (str, int, float, dict)):
        return (value.get(lang) or value.get(SOURCE, "")) if isinstance(value, dict) else value
    return (value.get(lang) or value.get(SOURCE, "")) if isinstance(value, Mapping) else value


def msg(msgid: str, **values: Any) -> dict[str, str]:
    """``msgid`` (English) in every language; ``values`` fill its ``%(name)s`` places.
    A fold labels every round and part with one (a long score pad: thousands per tap), and a
    tap's answer says its log's moves again, so a message is made once and copied
    (docs/performance.md): a value that is a ``{lang: text}`` mapping is keyed by its items."""
    try:
        return dict(_made(msgid, tuple(sorted((k, _Texts.of(v)) for k, v in values.items()))))
    except TypeError:  # a value that cannot be a key (a list, a mapping of mappings): made each time
        return _make(msgid, values)


class _Texts(tuple):
    """A ``{lang: text}`` value as a key of ``_made`` (its items), told apart from a tuple."""

    @classmethod
    def of(cls, value: Any) -> Any:
        return cls(sorted(value.items())) if isinstance(value, dict) else value


@lru_cache(maxsize=4096)  # pure: the same message and values give the same texts
def _made(msgid: str, values: tuple) -> dict[str, str]:
    return _make(msgid, {k: dict(v) if isinstance(v, _Texts) else v for k, v in values})


def _make(msgid: str, values: dict) -> dict[str, str]:
    out = {}
    for lang in LANGS:
        said = catalog(lang).gettext(msgid)
        out[lang] = said % _values(values, lang) if values else said
    return out


def msgp(context: str, msgid: str, **values: Any) -> dict[str, str]:
    """``msg`` with a context: the same English that another language says two ways."""
    out = {}
    for lang in LANGS:
        said = catalog(lang).pgettext(context, msgid)
        out[lang] = said % _values(values, lang) if values else said
    return out


def joined(separator: str, texts) -> dict[str, str]:
    """``{lang: text}`` mappings (or plain strings: names, numbers) joined in each language."""
    def said(t, lang):
        return str(_in(t, lang))
    return {lang: separator.join(said(t, lang) for t in texts) for lang in LANGS}


def hu_and_en(text: Mapping[str, str]) -> dict[str, str]:
    """A text as a format of version 1 stores it (a board profile's name): Hungarian and
    English, the two languages its schema holds; other languages show the English."""
    return {"hu": text["hu"], "en": text["en"]}


def msgn(singular: str, plural: str, n: int, **values: Any) -> dict[str, str]:
    """A count: each language's plural form for ``n`` (``%(num)d`` is ``n``); made once and
    copied, as ``msg``."""
    values.setdefault("num", n)
    try:
        return dict(_made_n(singular, plural, n, tuple(sorted((k, _Texts.of(v)) for k, v in values.items()))))
    except TypeError:
        return _make_n(singular, plural, n, values)


@lru_cache(maxsize=4096)
def _made_n(singular: str, plural: str, n: int, values: tuple) -> dict[str, str]:
    return _make_n(singular, plural, n, {k: dict(v) if isinstance(v, _Texts) else v for k, v in values})


def _make_n(singular: str, plural: str, n: int, values: dict) -> dict[str, str]:
    return {lang: catalog(lang).ngettext(singular, plural, n) % _values(values, lang) for lang in LANGS}
