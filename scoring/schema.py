"""JSON Schema for event payloads: the strict validator every append runs, what it finds
wrong said in every language of the catalogs (field, expected type or limit), and the
small builders game modules declare their schemas with."""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Mapping

import orjson

from scoring.base import Problem, Text
from scoring.i18n import LANGS, msg
from scoring.text import DIRECTION_CONTROLS


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
        if type(item) is dict:
            item = item.values()
        elif type(item) is not list:  # a subclass, or a leaf handed in alone
            if isinstance(item, float):
                return True
            if isinstance(item, (dict, list)):
                stack.extend(item.values() if isinstance(item, dict) else item)
            continue
        for child in item:  # the plain leaves are skipped by their exact type: a payload is mostly ints
            kind = type(child)
            if kind is float:
                return True
            if kind is not int and kind is not str and kind is not bool and child is not None:
                stack.append(child)
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


# A JSON type as a player reads it, in every language the catalogs hold.
_TYPES = {"integer": msg("a whole number"), "number": msg("a number"), "string": msg("a text"),
          "object": msg("an object"), "array": msg("a list"), "boolean": msg("true or false"),
          "null": msg("an empty value")}


def _either(options: list) -> dict[str, str]:
    """``a``, ``a or b``, ``a or b or c``, in each language."""
    said = options[0]
    for other in options[1:]:
        said = msg("%(one)s or %(other)s", one=said, other=other)
    return said if isinstance(said, dict) else {lang: str(said) for lang in LANGS}


def schema_said(error) -> dict[str, str]:
    """A JSON Schema validation error in every language (jsonschema speaks English only),
    short enough to show beside a form: the commonest keywords in words, naming the field
    and the limit; any other keyword keeps jsonschema's English message, cut short."""
    where = "/".join(str(p) for p in error.absolute_path)
    field = msg("“%(path)s”", path=where[:MAX_MESSAGE]) if where else msg("the data")
    kind, expected = error.validator, error.validator_value
    if kind == "type":
        wanted = expected if isinstance(expected, list) else [expected]
        return msg("%(field)s must be %(kind)s", field=field, kind=_either([_TYPES.get(w, str(w)) for w in wanted]))
    if kind == "required" and isinstance(error.instance, dict):
        missing = ", ".join(k for k in expected if k not in error.instance)
        return msg("%(field)s: missing %(names)s", field=field, names=missing)
    if kind == "additionalProperties" and isinstance(error.instance, dict):
        known = set(error.schema.get("properties", {}))
        extra = ", ".join(map(str, (k for k in error.instance if k not in known)))[:MAX_MESSAGE]
        return msg("%(field)s: unknown field %(names)s", field=field, names=extra)
    limits = {"maxLength": msg("%(field)s: at most %(n)s characters", field=field, n=expected),
              "minLength": msg("%(field)s: at least %(n)s characters", field=field, n=expected),
              "maximum": msg("%(field)s: at most %(n)s", field=field, n=expected),
              "minimum": msg("%(field)s: at least %(n)s", field=field, n=expected),
              "maxItems": msg("%(field)s: at most %(n)s items", field=field, n=expected),
              "minItems": msg("%(field)s: at least %(n)s items", field=field, n=expected),
              "enum": msg("%(field)s: not one of the allowed values", field=field),
              "const": msg("%(field)s: not the allowed value", field=field),
              "pattern": msg("%(field)s: not in the expected form", field=field)}
    if kind in limits:
        return limits[kind]
    return {lang: schema_message(error) for lang in LANGS}


def schema_said_all(errors, limit: int = 5) -> list[dict[str, str]]:
    """What the first ``limit`` errors say, each once: a "required" error is raised for
    every missing field, and each says all of them."""
    said = {}
    for error in errors:
        one = schema_said(error)
        said.setdefault(one["en"], one)
        if len(said) == limit:
            break
    return list(said.values())


def schema_problems(schema: Mapping[str, Any], data, rule: str,
                    subject: Text = msg("data"), limit: int = 5) -> list[Problem]:
    """What a JSON Schema finds wrong with ``data``, as problems citing ``rule``."""
    errors = sorted(strict_validator(schema).iter_errors(data), key=lambda e: list(e.path))
    return [Problem(rule, msg("Invalid %(subject)s: %(why)s", subject=subject, why=why))
            for why in schema_said_all(errors, limit)]


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
