"""JSON Schema for event payloads: the strict validator every append runs, messages
in both languages, and the small builders game modules declare their schemas with."""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Mapping

import orjson

from scoring.base import Problem, Text, text
from scoring.i18n import msg


def obj(required, **properties) -> dict:
    """A closed object: the named fields required, no field beyond ``properties``."""
    return {"type": "object", "additionalProperties": False, "required": list(required),
            "properties": properties}


def count(top: int, low: int = 0) -> dict:
    """A whole number from ``low`` to ``top``."""
    return {"type": "integer", "minimum": low, "maximum": top}


def seat(players_max: int) -> dict:
    """A seat index at a table of at most ``players_max`` players."""
    return count(players_max - 1)


def _strict_validator_class():
    from jsonschema import Draft202012Validator, validators

    def is_integer(checker, instance) -> bool:
        return isinstance(instance, int) and not isinstance(instance, bool)

    return validators.extend(Draft202012Validator, type_checker=Draft202012Validator.TYPE_CHECKER
                             .redefine("integer", is_integer))


class StrictValidator:
    """A JSON Schema (2020-12) validator whose "integer" is an int only: the standard
    one lets JSON's ``1.0`` pass as an integer; stored, it would stay a float in the
    event for ever and break every page that formats it as a whole number.

    Nearly every payload is valid, and jsonschema costs ~10 µs per node (1.6 ms for
    Han's final position): a schema compiled by fastjsonschema answers "valid" first,
    and jsonschema runs only to say what is wrong (docs/performance.md, change 9). The
    fast verdict is trusted only where both libraries mean the same: no float in the
    data (fastjsonschema's integer admits 1.0) and no 2020-12-only keyword in the
    schema (it implements draft 7). tests/scoring/test_fuzz.py checks they agree."""

    def __init__(self, schema: Mapping[str, Any]):
        global _StrictValidator
        if _StrictValidator is None:
            _StrictValidator = _strict_validator_class()
        self._full = _StrictValidator(schema)
        self._fast = _compiled(json.dumps(schema, sort_keys=True))

    def iter_errors(self, data):
        if self._fast is not None and not _has_float(data):
            try:
                self._fast(data)
                return iter(())
            except Exception:  # invalid, or a shape it cannot judge: jsonschema says which
                pass
        return self._full.iter_errors(data)


_DRAFT_2020_ONLY = ("prefixItems", "$defs", "dependentSchemas", "unevaluatedProperties",
                    "unevaluatedItems", "$dynamicRef")


@lru_cache(maxsize=256)
def _compiled(schema_json: str):
    if any(f'"{word}"' in schema_json for word in _DRAFT_2020_ONLY):
        return None
    import fastjsonschema
    return fastjsonschema.compile(json.loads(schema_json))


def _has_float(data) -> bool:
    stack = [data]  # not recursive: hostile payloads nest deeper than the stack
    while stack:
        item = stack.pop()
        if isinstance(item, float):
            return True
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def strict_validator(schema: Mapping[str, Any]) -> StrictValidator:
    return StrictValidator(schema)


_StrictValidator = None
MAX_MESSAGE = 160


def schema_message(error) -> str:
    """A validation error's message, cut short: it quotes the offending value, which may
    be a 500-character note."""
    message = error.message
    return message if len(message) <= MAX_MESSAGE else message[:MAX_MESSAGE - 1] + "…"


_TYPES_HU = {"integer": "egész szám", "number": "szám", "string": "szöveg", "object": "objektum",
             "array": "lista", "boolean": "igaz/hamis", "null": "üres érték"}


def _hu_schema_message(error) -> str:
    """The validation error in Hungarian (jsonschema speaks English only); the commonest
    keywords are said in words, any other falls back to the English message."""
    where = "/".join(str(p) for p in error.absolute_path)
    field = f"„{where}”" if where else "az adat"
    kind, expected = error.validator, error.validator_value
    if kind == "type":
        wanted = expected if isinstance(expected, list) else [expected]
        return f"{field}: {' vagy '.join(_TYPES_HU.get(w, str(w)) for w in wanted)} kell"
    if kind == "required" and isinstance(error.instance, dict):
        missing = [k for k in expected if k not in error.instance]
        return f"{field}: hiányzik: {', '.join(missing)}"
    if kind == "additionalProperties" and isinstance(error.instance, dict):
        known = set(error.schema.get("properties", {}))
        extra = [k for k in error.instance if k not in known]
        return f"{field}: ismeretlen mező: {', '.join(map(str, extra))[:MAX_MESSAGE]}"
    texts = {"maxLength": f"legfeljebb {expected} karakter lehet", "minLength": f"legalább {expected} karakter kell",
             "maximum": f"legfeljebb {expected} lehet", "minimum": f"legalább {expected} kell",
             "maxItems": f"legfeljebb {expected} elem lehet", "minItems": f"legalább {expected} elem kell",
             "enum": "nem a megengedett értékek egyike", "const": "nem a megengedett érték",
             "pattern": "formátuma hibás"}
    if kind in texts:
        return f"{field}: {texts[kind]}"
    return schema_message(error)


def schema_texts(error) -> tuple[str, str]:
    """(Hungarian, English) of a validation error, short enough to show beside a form."""
    return _hu_schema_message(error), schema_message(error)


def schema_problems(schema: Mapping[str, Any], data, rule: str,
                    subject: Text = msg("data"), limit: int = 5) -> list[Problem]:
    """What a JSON Schema finds wrong with ``data``, as problems citing ``rule``."""
    errors = sorted(strict_validator(schema).iter_errors(data), key=lambda e: list(e.path))
    return [Problem(rule, msg("Invalid %(subject)s: %(why)s", subject=subject, why=text(hu, en)))
            for hu, en in map(schema_texts, errors[:limit])]


# Marks and overrides of the text direction (LRM, RLM, ALM, the embeddings, overrides and
# isolates): one in a player's name reverses how that name and every name after it on a
# line are shown ("\u202eevil" reads "live").
DIRECTION_CONTROLS = frozenset("\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def has_direction_control(text: str) -> bool:
    return any(c in DIRECTION_CONTROLS for c in text)


def unencodable_path(value: Any) -> str | None:
    """Where in a JSON value a text is not valid Unicode (a lone surrogate such as
    ``"\\ud800"``, which JSON's escapes can carry but UTF-8 cannot store), as a path
    like ``players.0.name``; None when every key and string is valid. Walked without
    recursion, so a deeply nested value cannot exhaust the stack; walked only when orjson,
    which refuses a lone surrogate anywhere in a value, refuses it (~1 µs instead of ~75 µs
    for Han's end position, on every append)."""
    try:
        orjson.dumps(value)
        return None
    except TypeError:  # a lone surrogate, or what orjson does not take (a 65-bit number, deep nesting)
        pass
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, str):
            if not _encodes(node):
                return path or "(text)"
        elif isinstance(node, dict):
            for key, child in node.items():
                where = f"{path}.{key}" if path else str(key)
                if isinstance(key, str) and not _encodes(key):
                    return path or "(key)"
                stack.append((where, child))
        elif isinstance(node, list):
            stack.extend((f"{path}.{i}" if path else str(i), child) for i, child in enumerate(node))
    return None


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False
