"""The contract every game module fulfils: declared data plus pure functions.

A game module builds one ``GameKind`` and the registry in ``scoring/__init__.py``
lists it. The core (``events/``, ``web/``) only ever talks to a game through this
contract, so no rule of one game leaks into the core or into another game.
"""
from __future__ import annotations

import json
from functools import lru_cache
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, NamedTuple

import orjson

Text = Mapping[str, str]  # {"hu": ..., "en": ...}


def text(hu: str, en: str) -> dict[str, str]:
    return {"hu": hu, "en": en}


@dataclass(frozen=True)
class Problem:
    """Why a move is refused: the rule it breaks and a message in both languages."""

    rule: str
    hu: str
    en: str

    def as_dict(self) -> dict[str, str]:
        return {"rule": self.rule, "hu": self.hu, "en": self.en}


@dataclass(frozen=True)
class Move:
    """What a game module sees of a stored event: the envelope the rules may need
    (``seq`` to name the event in a score breakdown, ``seat`` of the recorder) and
    the upcast payload."""

    seq: int
    type: str
    data: Mapping[str, Any]
    seat: int | None = None


class ScorePart(NamedTuple):
    """One part of a player's score: a category, its points and the events behind it.

    A named tuple rather than a frozen dataclass: immutable all the same, and built five
    times faster; a long score pad game builds thousands per tap (docs/performance.md)."""

    category: str
    points: int
    events: tuple[int, ...] = ()
    label: Text | None = None  # e.g. which province / alliance, for "why do I have 37?"

    def as_dict(self) -> dict[str, Any]:
        return {"category": self.category, "points": self.points,
                "events": list(self.events), "label": dict(self.label) if self.label else None}


@dataclass(frozen=True)
class Option:
    """A set-up option declared by a game: shown on the new-game form, recorded in
    the game's first event."""

    name: str
    default: Any
    label: Text
    choices: tuple[Any, ...] | None = None  # None: free value of the default's type
    help: Text | None = None


@dataclass(frozen=True)
class EventSpec:
    """A game event type: its current payload version, JSON Schema, upcasters and
    labels.

    ``upcasters[n]`` turns a version-n payload into a version n+1 payload; stored
    rows are never rewritten, payloads are upcast when read.
    """

    schema: Mapping[str, Any]
    label: Text
    version: int = 1
    upcasters: Mapping[int, Callable[[dict], dict]] = field(default_factory=dict)


@dataclass(frozen=True)
class Boards:
    """Board profiles a game is played on, stored by ``events/boards.py`` and edited
    at ``/boards/<kind>/``. A game pins one in its options as {"id", "version", "data"}."""

    validate: Callable[[dict], list[Problem]]             # contradictions in a profile's data
    from_form: Callable[[dict, Mapping[str, str]], dict]  # editor form -> data, or FormError
    missing: Callable[[dict], list[Text]] = lambda data: []  # facts the profile leaves unknown
    builtin: tuple[dict, ...] = ()                        # shipped profiles: {"id", "data"}


@dataclass(frozen=True)
class GameKind:
    kind: str
    title: Text
    min_players: int
    max_players: int
    rules_version: int
    event_types: Mapping[str, EventSpec]
    setup: Callable[[list[dict], dict], dict]
    check: Callable[[dict, Move], list[Problem]]
    apply: Callable[[dict, Move], dict]
    score: Callable[[dict], dict[int, list[ScorePart]]]
    is_over: Callable[[dict], bool]
    # The move in words; ``state`` (the game's state at or after it) lends the names the
    # table gave things, e.g. a board profile's provinces; None where no state is at hand.
    describe: Callable[[Move, list[dict], dict | None], Text]
    parse_form: Callable[[dict, Mapping[str, str]], tuple[str, dict]]
    options: tuple[Option, ...] = ()
    categories: Mapping[str, Text] = field(default_factory=dict)
    check_setup: Callable[[list[dict], dict], list[Problem]] | None = None
    tiebreak: Callable[[dict, int], tuple] | None = None
    tiebreak_rule: Text | None = None
    # Templates under templates/games/<kind>/: _form.html (the move form, always),
    # _board.html (the board view, when has_board) and _setup.html (replaces the
    # generic option fields of the new-game form, when parse_options is given).
    has_board: bool = False
    parse_options: Callable[[Mapping[str, str]], dict] | None = None
    # A short legal game for the contract test: () -> (players, options, [(type, data), ...]).
    # It must use every event type the game declares.
    demo: Callable[[], tuple[list[dict], dict, list[tuple[str, dict]]]] | None = None
    boards: Boards | None = None  # board profiles, for games whose board varies

    def default_options(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}


class FormError(ValueError):
    """Raised by ``parse_form`` when the phone form cannot become an event."""

    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(p.en for p in problems))
        self.problems = problems


def clone(state: dict) -> dict:
    """A deep copy of a JSON-shaped state, so ``apply`` can stay pure: a JSON round
    trip (tuples become lists, keys strings). Every fold step pays for one, so it is
    done by orjson, several times faster (docs/performance.md), falling back to the
    standard library for what orjson refuses (e.g. integers beyond 64 bits)."""
    try:
        return orjson.loads(orjson.dumps(state, option=orjson.OPT_NON_STR_KEYS))
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.loads(json.dumps(state))


def form_int(form: Mapping[str, str], name: str, label: Text, rule: str = "form") -> int:
    """Read an integer field of a phone form or raise ``FormError`` naming it."""
    raw = (form.get(name) or "").strip()
    try:
        return int(raw)
    except ValueError:
        raise FormError([Problem(rule, f"{label['hu']}: egész számot adj meg.",
                                 f"{label['en']}: enter a whole number.")]) from None


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
    schema (it implements draft 7). tests/test_fuzz_rules.py checks they agree."""

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
                    subject: Text = {"hu": "adat", "en": "data"}, limit: int = 5) -> list[Problem]:
    """What a JSON Schema finds wrong with ``data``, as problems citing ``rule``."""
    errors = sorted(strict_validator(schema).iter_errors(data), key=lambda e: list(e.path))
    return [Problem(rule, f"Hibás {subject['hu']}: {hu}", f"Invalid {subject['en']}: {en}")
            for hu, en in map(schema_texts, errors[:limit])]
