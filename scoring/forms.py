"""Reading phone forms: whole numbers, choices and lists, each refusing with a
``FormError`` that names the field in both languages. Every game's ``parse_form``
reads its fields through these, so a field of 5,000 digits or a made-up choice is
refused the same way everywhere."""
from __future__ import annotations

from typing import Mapping

from scoring.base import FormError, Problem, Text
from scoring.i18n import msg

MAX_DIGITS = 9  # no count on any board needs more; int() of 5,000 digits is slow and refused


def fail(message: Text, rule: str = "form"):
    raise FormError([Problem(rule, message)])


def form_int(form: Mapping[str, str], name: str, label: Text, rule: str = "form",
             low: int | None = None, high: int | None = None) -> int:
    """Read an integer field of a phone form or raise ``FormError`` naming it."""
    raw = (form.get(name) or "").strip()
    digits = raw[1:] if raw[:1] in "+-" else raw
    if not digits.isascii() or not digits.isdigit():
        fail(msg("%(label)s: enter a whole number.", label=label), rule)
    if len(digits) > MAX_DIGITS:
        _too_long(raw, digits, label, rule, high)
    value = int(raw)
    if low is not None and value < low:
        fail(msg("%(label)s: at least %(low)s is needed (got %(value)s).", label=label, low=low, value=value), rule)
    if high is not None and value > high:
        fail(msg("%(label)s: at most %(high)s is allowed (got %(value)s).", label=label, high=high, value=value), rule)
    return value




def _too_long(raw: str, digits: str, label, rule: str, high: int | None):
    """A whole number of more digits than any count needs: too large, said as such (not
    read: int() of thousands of digits is slow). Only the first digits are repeated."""
    if high is not None and raw[:1] != "-":
        shown = raw if len(raw) <= 20 else raw[:20] + "…"
        fail(msg("%(label)s: at most %(high)s is allowed (got %(shown)s).", label=label, high=high, shown=shown), rule)
    fail(msg("%(label)s: too large a number (%(count)s digits; at most %(MAX_DIGITS)s).", label=label, count=len(digits), MAX_DIGITS=MAX_DIGITS), rule)


def form_choice(form: Mapping[str, str], name: str, allowed, label: Text, optional: bool = False,
                rule: str = "form") -> str | None:
    """One of ``allowed`` (strings), or None for an empty optional field."""
    raw = (form.get(name) or "").strip()
    if not raw and optional:
        return None
    if raw not in allowed:
        if not raw:
            fail(msg("%(label)s: choose one.", label=label), rule)
        fail(msg("%(label)s: not a valid choice.", label=label), rule)
    return raw


def form_list(form, name: str) -> list[str]:
    """Every value of a repeated field (a werkzeug MultiDict, or a plain dict from a test)."""
    if hasattr(form, "getlist"):
        return form.getlist(name)
    value = form.get(name)
    return value if isinstance(value, list) else ([value] if value else [])


def player_name(players: list[dict], seat) -> str:
    """The name of the player in ``seat``, or "?" for a seat the table does not have."""
    ok = isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players)
    return players[seat]["name"] if ok else "?"


def parse_action(parsers: Mapping, state: dict, form: Mapping[str, str], rule: str = "form",
                 default: str = "") -> tuple[str, dict]:
    """A game's ``parse_form``: the form's ``action`` picks the parser (``parsers[action]
    (state, form) -> data``); an action the game does not know is refused."""
    action = form.get("action") or default
    parser = parsers.get(action)
    if parser is None:
        fail(msg("Unknown action."), rule)
    return action, parser(state, form)
