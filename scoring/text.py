"""One text policy for every free text a person types or a file brings: names, titles,
captions, notes, reasons, comments, board names, BG Stats names (docs/decisions.md, "One text policy").

A text is taken in Unicode's composed form (NFC: "é" typed as e + accent is the "é" of
every other phone, so it sorts, matches and hashes alike), with no control character and
no text direction control (one in a name turns how it and every name after it on a line
are shown: "\\u202eevil" reads "live"), within its field's length. What breaks the policy
is refused with the reason, in every language, naming the field — never cut short or
stripped silently. ``clean`` is for a text as typed or read from a file; ``why_not`` for
a text as stored (a file the app wrote, an event); ``payload_why_not`` for every text of
an event's payload at once (events/application/table.py runs it on every move and every import).

Pure: no Flask, no I/O, so the rules, the store, the roster and the web layer share it."""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

import orjson

from scoring.base import Text
from scoring.i18n import msg

# Marks and overrides of the text direction (LRM, RLM, ALM, the embeddings, overrides and
# isolates).
DIRECTION_CONTROLS = frozenset("\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Control characters (Cc), unpaired surrogates (Cs: JSON's escapes carry them, UTF-8 cannot
# store them), private-use characters (Co: shown as nothing or a box), the line and paragraph
# separators (Zl, Zp: line breaks no field shows), and the replacement character (what
# invalid UTF-8 read as text becomes).
_REFUSED_CATEGORIES = frozenset(("Cc", "Cs", "Co", "Zl", "Zp"))
_REPLACEMENT = "\ufffd"
# The line breaks and tab a text of several lines keeps (a note typed in a text area).
_LAYOUT = frozenset("\n\t")


@dataclass(frozen=True)
class TextRule:
    """What one kind of free text may be: ``what`` names it in a refusal, ``most`` is its
    length in characters after NFC, ``least`` its least (1: required), ``lines``: it may
    hold line breaks and tabs (a text area), else every run of white space is one space."""

    what: Text
    most: int
    least: int = 0
    lines: bool = False


NAME = TextRule(msg("Name"), 40, least=1)
TITLE = TextRule(msg("Game name"), 100)
NOTE = TextRule(msg("Note"), 200)
CAPTION = TextRule(msg("Caption"), 200)
REASON = TextRule(msg("Reason"), 500)
COMMENT = TextRule(msg("Comment"), 500, least=1, lines=True)
BOARD_NAME = TextRule(msg("Board name"), 80)
SOURCE = TextRule(msg("Source, note"), 1000, lines=True)


class BadText(ValueError):
    """A text the policy refuses; ``why`` says so in every language."""

    def __init__(self, why: Text):
        super().__init__(why["en"])
        self.why = why


def clean(raw: Any, rule: TextRule) -> str:
    """``raw`` as it is stored: NFC, white space tidied (ends trimmed; runs of white space
    one space, unless ``rule.lines``); BadText when the policy refuses it."""
    if not isinstance(raw, str):
        raise BadText(msg("%(what)s: must be text.", what=rule.what))
    bad = _bad_character(raw, _LAYOUT | {"\r"})
    if bad is not None:
        raise BadText(_said(rule.what, bad))
    text = unicodedata.normalize("NFC", raw)
    text = _tidy_lines(text) if rule.lines else " ".join(text.split())
    why = _why_length(text, rule)
    if why is not None:
        raise BadText(why)
    return text


def clean_or_none(raw: Any, rule: TextRule) -> str | None:
    """``clean``, None for what it refuses."""
    try:
        return clean(raw, rule)
    except BadText:
        return None


def why_not(text: Any, rule: TextRule) -> Text | None:
    """Why a text as stored breaks the policy (a file the app wrote, a payload), or None.
    Its form is taken as it is (NFC and white space are ``clean``'s business)."""
    if not isinstance(text, str):
        return msg("%(what)s: must be text.", what=rule.what)
    bad = _bad_character(text, _LAYOUT if rule.lines else frozenset())
    return _said(rule.what, bad) if bad is not None else _why_length(text, rule)


def payload_why_not(value: Any) -> tuple[str, Text] | None:
    """The first text anywhere in a JSON value (keys too) holding a character the policy
    refuses, as (its path like ``players.0.name``, why); None when there is none. An
    all-ASCII value without escapes, nearly every move, is answered from its JSON at once."""
    try:
        dumped = orjson.dumps(value)
    except TypeError:  # a lone surrogate (or what orjson takes no further): walked below
        dumped = None
    if dumped is not None and dumped.isascii() and b"\\" not in dumped:
        return None
    for path, text in _texts(value):
        bad = _bad_character(text, _LAYOUT)
        if bad is not None:
            return path, _said(msg("The text at %(where)s", where=path[:80]), bad)
    return None


def normalized(value: Any) -> Any:
    """A JSON value with every text (keys too) in NFC; ``value`` itself when each already is.
    An all-ASCII value (nearly every move: Han's end position is thousands of nodes) is
    answered from its JSON at once, not walked."""
    if not isinstance(value, str):
        try:
            if orjson.dumps(value).isascii():
                return value
        except TypeError:  # a lone surrogate, or what orjson takes no further: walked
            pass
    return _normalized(value)[0]


def _normalized(value: Any) -> tuple[Any, bool]:
    if isinstance(value, str):
        if unicodedata.is_normalized("NFC", value):
            return value, False
        return unicodedata.normalize("NFC", value), True
    if isinstance(value, dict):
        pairs = [(_normalized(k), _normalized(v)) for k, v in value.items()]
        if not any(k[1] or v[1] for k, v in pairs):
            return value, False
        return {k[0]: v[0] for k, v in pairs}, True
    if isinstance(value, list):
        items = [_normalized(v) for v in value]
        if not any(changed for _, changed in items):
            return value, False
        return [v for v, _ in items], True
    return value, False


def _texts(value: Any):
    """(path, text) of every string in a JSON value, keys included; not recursive, so a
    hostile nesting cannot exhaust the stack."""
    stack = [("", value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str):
            yield path, item
        elif isinstance(item, dict):
            for key, child in item.items():
                inner = f"{path}.{key}" if path else str(key)
                if isinstance(key, str):
                    yield inner, key
                stack.append((inner, child))
        elif isinstance(item, list):
            stack.extend((f"{path}.{i}" if path else str(i), child) for i, child in enumerate(item))


def _bad_character(text: str, allowed: frozenset) -> str | None:
    if text.isascii() and text.isprintable():
        return None
    for c in text:
        if c in allowed:
            continue
        if c in DIRECTION_CONTROLS or c == _REPLACEMENT or unicodedata.category(c) in _REFUSED_CATEGORIES:
            return c
    return None


def _said(what: Text, bad: str) -> Text:
    code = f"U+{ord(bad):04X}"
    if bad in DIRECTION_CONTROLS:
        return msg("%(what)s: holds an invisible text direction mark (%(code)s), which would turn how the text "
                   "around it is shown. Type it again without it.", what=what, code=code)
    return msg("%(what)s: holds a control or invisible character (%(code)s). Type it again without it.",
               what=what, code=code)


def _why_length(text: str, rule: TextRule) -> Text | None:
    if len(text) < rule.least:
        return msg("%(what)s: it is empty.", what=rule.what)
    if len(text) > rule.most:
        return msg("%(what)s: at most %(most)s characters; this one has %(count)s.",
                   what=rule.what, most=rule.most, count=len(text))
    return None


def _tidy_lines(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")).strip()
