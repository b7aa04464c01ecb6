"""Event payloads' JSON Schema (scoring/schema.py): the strict validator takes an integer
only as an int, whatever the fast path says; what is wrong is said per field in every
language, cut short, each once; a text UTF-8 cannot store is found wherever it is."""
import pytest

from scoring.i18n import LANGS
from scoring.schema import (MAX_MESSAGE, count, obj, schema_problems, schema_said_all, seat,
                            strict_validator, unencodable_path)

SCORE = obj(["seat", "points"], seat=seat(4), points=count(99), note={"type": "string", "maxLength": 5})


def said(data) -> list[str]:
    return [p.en for p in schema_problems(SCORE, data, "form")]


def test_the_builders_make_a_closed_object_of_bounded_whole_numbers():
    assert SCORE["additionalProperties"] is False and SCORE["required"] == ["seat", "points"]
    assert seat(4) == {"type": "integer", "minimum": 0, "maximum": 3}


@pytest.mark.parametrize("points", [3, 0, 99])
def test_a_valid_payload_has_no_problem(points):
    assert not list(strict_validator(SCORE).iter_errors({"seat": 1, "points": points}))


@pytest.mark.parametrize("points", [3.0, True, "3"])
def test_an_integer_is_an_int_only_not_a_float_a_bool_or_a_text(points):
    assert said({"seat": 1, "points": points}) == ["Invalid data: “points” must be a whole number"]


def test_each_keyword_is_said_with_its_field_and_limit():
    assert said({"seat": 4, "points": 100}) == ["Invalid data: “points”: at most 99", "Invalid data: “seat”: at most 3"]
    assert said({"seat": 0}) == ["Invalid data: the data: missing points"]
    assert said({"seat": 0, "points": 1, "cheat": 1}) == ["Invalid data: the data: unknown field cheat"]
    assert said({"seat": 0, "points": 1, "note": "longer"}) == ["Invalid data: “note”: at most 5 characters"]


def test_every_language_is_said_and_each_message_once():
    errors = strict_validator(obj(["a", "b"], a=count(1), b=count(1))).iter_errors({})
    said_all = schema_said_all(errors)
    assert len(said_all) == 1 and set(said_all[0]) == set(LANGS)


def test_an_unknown_keywords_english_message_is_cut_short():
    schema = {"type": "string", "format": "x", "not": {"const": "a" * 400}}
    message = schema_said_all(strict_validator(schema).iter_errors("a" * 400))[0]["en"]
    assert len(message) == MAX_MESSAGE and message.endswith("…")


def test_a_lone_surrogate_is_found_by_its_path_in_values_and_keys():
    assert unencodable_path({"players": [{"name": "Anna"}, {"name": "B\ud800"}]}) == "players.1.name"
    assert unencodable_path({"ok": {"\udfff": 1}}) == "ok"
    assert unencodable_path("\ud800") == "(text)"
    assert unencodable_path({"players": [{"name": "Anna"}], "n": 2 ** 70}) is None
