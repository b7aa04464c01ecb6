"""Bad input, rules side (docs/reliability.md §4): hypothesis feeds every registered
game module random and hostile event sequences through the one path a move takes
(schema, then the game's ``check``). Only problems come back, never exceptions; a
move that passes is applied, scored, described and ended-checked without raising;
``apply`` never mutates its input. Random phone forms reach ``parse_form``: it
returns an event or raises ``FormError``, nothing else."""
from __future__ import annotations

import json
import os
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.application.table import check_move
from events.domain.core_types import CORE_SCHEMAS
from events.domain.event import Event
from events.domain.projection import TableState, advance, fold, standings, upcast
from tests.reliability.kit import ROOT, from_schema, hostile_strategies, record_figures
from scoring import GAMES
from scoring.base import FormError, Problem
from scoring.schema import strict_validator

EXAMPLES = int(os.environ.get("FUZZ_RULES_EXAMPLES", "60"))
SLOW_EXAMPLES = 600
KINDS = sorted(GAMES)
COUNTS: dict[str, int] = {}


def _created(rules, players, options) -> Event:
    data = {"kind": rules.kind, "rules_version": rules.rules_version, "players": players,
            "options": {**rules.default_options(), **options}, "origin": "fuzz"}
    return Event(1, "game-created", 1, data, None, "fuzz", "", "c1", "")


def _moves(rules):
    """A move: a demo move, a schema-shaped payload, a demo payload with one field made
    hostile, a core event, or plain junk."""
    ints, strings, json_values = hostile_strategies()
    _, _, demo = rules.demo()
    types = sorted(rules.event_types)
    schema_moves = st.one_of([st.tuples(st.just(t), from_schema(dict(rules.event_types[t].schema)))
                              for t in types])
    demo_moves = st.sampled_from(demo) if demo else st.nothing()

    def spoil(move_and_value):
        (type_, data), key_pick, value = move_and_value
        if not data:
            return type_, {"junk": value}
        key = sorted(data)[key_pick % len(data)]
        return type_, {**data, key: value}

    spoiled = st.tuples(demo_moves, st.integers(0, 20), json_values).map(spoil) if demo else st.nothing()
    core = st.one_of([st.tuples(st.just(t), from_schema(CORE_SCHEMAS[t])) for t in sorted(CORE_SCHEMAS)])
    junk = st.tuples(st.one_of(st.sampled_from(types), strings), json_values)
    return st.one_of(demo_moves, schema_moves, spoiled, core, junk)


def _play(rules, prefix: int, moves: list, seats: list) -> dict:
    players, options, demo = rules.demo()
    events = [_created(rules, players, options)]
    table: TableState = fold(events)
    tally = {"moves": 0, "accepted": 0, "refused": 0}
    script = list(demo[:prefix]) + moves
    for i, (type_, data) in enumerate(script):
        tally["moves"] += 1
        problems = check_move(table, type_, data)  # must never raise
        assert isinstance(problems, list) and all(isinstance(p, Problem) for p in problems)
        assert all(p.rule and p.hu and p.en for p in problems)
        if problems:
            tally["refused"] += 1
            continue
        tally["accepted"] += 1
        spec = rules.event_types.get(type_)
        version = spec.version if spec else 1
        event = Event(table.seq + 1, type_, version, data, seats[i % len(seats)], "fuzz", "",
                      f"c{table.seq + 1}", "")
        before = json.dumps(table.game, sort_keys=True)
        following = advance(table, event)
        assert json.dumps(table.game, sort_keys=True) == before, "apply mutated its input"
        events.append(event)
        table = following or fold(events)
        json.dumps(table.game)  # the state stays JSON-shaped
        rows = standings(table)  # score (and tie-break) never raise
        assert len(rows) == len(players) and all(isinstance(r["score"], int) for r in rows)
        table.rules.is_over(table.game)
        if type_ in rules.event_types:
            label = rules.describe(upcast(rules, event), list(table.players))
            assert label["hu"] and label["en"]
    # The fold of everything accepted equals the state built step by step.
    assert fold(events).game == table.game
    return tally


@pytest.mark.parametrize("kind", KINDS)
def test_random_and_hostile_sequences_yield_problems_never_exceptions(kind):
    _fuzz_sequences(kind, EXAMPLES)


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_slow_many_more_hostile_sequences(kind):
    _fuzz_sequences(kind, SLOW_EXAMPLES)


def _fuzz_sequences(kind: str, examples: int) -> None:
    rules = GAMES[kind]
    _, _, demo = rules.demo()
    players = len(rules.demo()[0])
    total = {"moves": 0, "accepted": 0, "refused": 0, "sequences": 0}

    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(prefix=st.integers(0, len(demo)), moves=st.lists(_moves(rules), max_size=8),
           seats=st.lists(st.one_of(st.none(), st.integers(0, players - 1)), min_size=1, max_size=3))
    def run(prefix, moves, seats):
        tally = _play(rules, prefix, moves, seats)
        total["sequences"] += 1
        for key, value in tally.items():
            total[key] += value

    run()
    assert total["refused"] > 0 and total["accepted"] > 0
    COUNTS[kind] = total
    record_figures(f"fuzz: rules {kind} ({examples})", total)


def _forms(rules):
    """Field names and values of the game's own move form, mixed with hostile ones."""
    ints, strings, _ = hostile_strategies()
    folder = os.path.join(ROOT, "templates", "games", rules.kind)
    html = "".join(open(os.path.join(folder, name), encoding="utf-8").read()
                   for name in ("_form.html", "_form_fields.html")  # the fields, where the form wraps them
                   if os.path.exists(os.path.join(folder, name)))
    names = sorted(set(re.findall(r'name="([^"{]+)"', html)) | {"action"})
    seen = sorted(set(re.findall(r'value="([^"{]*)"', html)) | set(rules.event_types))
    values = st.one_of(st.sampled_from(seen), st.integers(-3, 12).map(str), strings, ints.map(str))
    keys = st.one_of(st.sampled_from(names), strings)
    return st.one_of(st.dictionaries(st.sampled_from(names), values, max_size=len(names)),
                     st.dictionaries(keys, values, max_size=8))


class _Form(dict):
    """A form like werkzeug's MultiDict: get and getlist."""

    def getlist(self, key):
        return [self[key]] if key in self else []


@pytest.mark.parametrize("kind", KINDS)
def test_random_forms_become_an_event_or_a_form_error(kind):
    rules = GAMES[kind]
    players, options, demo = rules.demo()
    tables = [fold([_created(rules, players, options)])]
    events = [_created(rules, players, options)]
    for i, (type_, data) in enumerate(demo, start=2):
        events.append(Event(i, type_, rules.event_types[type_].version if type_ in rules.event_types else 1,
                            data, 0, "fuzz", "", f"c{i}", ""))
        tables.append(fold(events))
    counts = {"forms": 0, "events": 0, "form errors": 0}

    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(at=st.integers(0, len(tables) - 1), form=_forms(rules))
    def run(at, form):
        table = tables[at]
        counts["forms"] += 1
        try:
            type_, data = rules.parse_form(table.game, _Form(form))
        except FormError as err:
            counts["form errors"] += 1
            assert err.problems and all(isinstance(p, Problem) for p in err.problems)
            return
        counts["events"] += 1
        assert isinstance(type_, str)
        check_move(table, type_, data)  # and the move path takes it without raising

    run()
    COUNTS[f"{kind} forms"] = counts
    record_figures(f"fuzz: parse_form {kind}", counts)


def _every_schema():
    for kind in KINDS:
        for type_, spec in sorted(GAMES[kind].event_types.items()):
            yield f"{kind}:{type_}", dict(spec.schema)
    for type_, schema in sorted(CORE_SCHEMAS.items()):
        yield f"core:{type_}", dict(schema)


@pytest.mark.parametrize("kind", KINDS)
def test_the_fast_validity_check_agrees_with_jsonschema(kind):
    """StrictValidator answers "valid" from a compiled fastjsonschema check and asks
    jsonschema only otherwise; on every kind of payload the two must give one verdict."""
    rules = GAMES[kind]
    validators = {t: (strict_validator(spec.schema), _full_validator(spec.schema))
                  for t, spec in rules.event_types.items()}
    verdicts = {"valid": 0, "invalid": 0}

    @settings(max_examples=EXAMPLES * 3, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(move=_moves(rules))
    def run(move):
        type_, data = move
        if type_ not in validators:
            return
        fast, full = validators[type_]
        valid = not list(full.iter_errors(data))
        assert (not list(fast.iter_errors(data))) == valid, (type_, data)
        verdicts["valid" if valid else "invalid"] += 1

    run()
    assert verdicts["valid"] and verdicts["invalid"], verdicts  # both sides were exercised


@pytest.mark.parametrize("name,schema", list(_every_schema()), ids=lambda v: v if isinstance(v, str) else "")
def test_a_float_is_never_an_integer_and_the_fast_path_is_taken(name, schema):
    validator = strict_validator(schema)
    if '"prefixItems"' not in json.dumps(schema):
        assert validator._fast is not None, f"{name}: every payload would take the slow path"
    ints = [k for k, v in schema.get("properties", {}).items() if v.get("type") == "integer"]
    if ints:
        assert list(validator.iter_errors({ints[0]: 1.0})), f"{name}: 1.0 passed as an integer"


def _full_validator(schema):
    from scoring.schema import _strict_validator_class
    return _strict_validator_class()(schema)


_TEXT = st.text(alphabet=st.sampled_from(["a", "é", "😀", "\ud800", "\udfff"]), max_size=4)


@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers(min_value=-2**70, max_value=2**70) | _TEXT,
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
                    max_leaves=20))
def test_a_lone_surrogate_is_found_wherever_it_is(value):
    """``unencodable_path`` answers "valid" from orjson's one pass and walks only what orjson
    refuses: whatever the value, it names a place exactly when some text cannot be stored."""
    from scoring.schema import unencodable_path

    def texts(v):
        if isinstance(v, str):
            yield v
        elif isinstance(v, dict):
            for k, child in v.items():
                yield k
                yield from texts(child)
        elif isinstance(v, list):
            for child in v:
                yield from texts(child)
    broken = any("\ud800" <= c <= "\udfff" for s in texts(value) for c in s)
    assert (unencodable_path(value) is not None) == broken


def test_a_valid_payload_is_not_walked_text_by_text(monkeypatch):
    """Every append asks; Han's end position walked took ~75 µs, orjson's pass ~1 µs."""
    from scoring import schema
    monkeypatch.setattr(schema, "_encodes", lambda text: pytest.fail(f"walked to {text!r}"))
    payload = {"areas": {f"a{i}": {"pagodas": [1, 2, 3], "envoys": [0, 1, 2]} for i in range(9)}, "note": "ő"}
    assert schema.unencodable_path(payload) is None
