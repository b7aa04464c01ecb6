"""Schema-valid but random Five Tribes moves against real states: ``check`` either refuses
them or ``apply`` keeps every count non-negative; nothing raises."""
import json
import pathlib
import random

from jsonschema import Draft202012Validator

from events.domain.event import Event
from events.domain.projection import fold
from scoring.base import Move
from scoring.five_tribes import GAME
from scoring.five_tribes.data import EVENT_TYPES
from tests.conftest import demo_events

EXAMPLE = pathlib.Path(__file__).parents[3] / "examples" / "five-tribes-3p.json"


def random_data(schema: dict, rng: random.Random):
    """A random payload of the schema's shape (numbers kept near their minimum)."""
    if "enum" in schema:
        return rng.choice(schema["enum"])
    kind = schema["type"]
    if kind == "integer":
        low = schema.get("minimum", 0)
        return rng.randint(low, min(schema.get("maximum", low + 40), low + 40))
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "array":
        low = schema.get("minItems", 0)
        size = rng.randint(low, max(low, min(schema.get("maxItems", 5), 10)))
        return [random_data(schema["items"], rng) for _ in range(size)]
    return {k: random_data(sub, rng) for k, sub in schema["properties"].items()
            if k in schema.get("required", []) or rng.random() < 0.5}


def states() -> list[dict]:
    events = demo_events(GAME)
    doc = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    kept = [Event(**{k: e[k] for k in ("seq", "type", "version", "data", "seat", "device", "recorded_at",
                                         "client_event_id", "hash")}) for e in doc["events"]]
    return [fold(events, upto=n).game for n in range(1, len(events) + 1)] + \
           [fold(kept, upto=n).game for n in range(1, len(kept) + 1, 7)]


def test_random_moves_are_refused_or_keep_the_state_sound():
    rng = random.Random(6)
    pool, types, accepted = states(), sorted(EVENT_TYPES), 0
    validators = {t: Draft202012Validator(EVENT_TYPES[t].schema) for t in types}
    for _ in range(4000):
        state, type_ = rng.choice(pool), rng.choice(types)
        data = random_data(EVENT_TYPES[type_].schema, rng)
        if any(validators[type_].iter_errors(data)):
            continue
        move = Move(999, type_, data)
        GAME.describe(move, [{"name": "x"}] * 4)
        if GAME.check(state, move):
            continue
        accepted += 1
        after = GAME.apply(state, move)
        GAME.score(after)
        for p in after["players"]:
            assert min(p["gold"], p["viziers"], p["elders"], p["fakirs"], p["camels_left"]) >= 0, (type_, data)
            assert all(n > 0 for n in p["goods"].values()), (type_, data)
        assert min(after["supply"].values()) >= 0
    assert accepted > 80
